"""Loading the per-language catalogue files (``catalogues/<lang>.json``).

A catalogue holds, for one language:

``rules``     rule ID -> {"title", "text"} (every ID of rules.md, plus ``LOG``)
``messages``  message key -> the referee message; English is the engine's own
              wording (companion.rules reads it from en.json), the others translate it
              with the same placeholders (companion.rules.messages.FIELD_KINDS)
``hints``     rule ID or template ID -> what to do to put the pieces right
``names``     kind -> code -> grammatical forms (``nom``, ``gen`` …); the code ``*``
              is a pattern for all other codes of that kind (``"диск {code}"``)
``phrases``   small sub-templates: how a canoe is named, list separators, the
              fallback for a message the catalogue does not know

When the engine gains or rewords a message: put its template in ``en.json`` (the
placeholder names say what they hold, see companion.rules.messages.FIELD_KINDS),
raise it with ``IllegalEvent.of(rule, key, **fields)``, translate it in the other
files, and add a case that makes the engine say it to tests/i18n/engine_cases.py;
the tests then check that every language has it with the same placeholders and forms.
A new language is one more file here and one more entry in LANGUAGES.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from string import Formatter
from typing import Any

# The rule books' languages; English is the engine's own.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "ru": "Русский",
    "zh": "中文",
    "pl": "Polski",
    "it": "Italiano",
}
DEFAULT_LANGUAGE = "en"


@cache
def catalogue(lang: str) -> dict[str, Any]:
    """The catalogue of `lang` (one of LANGUAGES), read once."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (expected one of {', '.join(LANGUAGES)})")
    path = resources.files(__package__).joinpath("catalogues", f"{lang}.json")
    entries: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return entries


def name_forms(lang: str, kind: str, code: str) -> dict[str, str]:
    """The forms of the word `code` of `kind` in `lang`; English's when `lang` lacks it,
    the bare code when nobody has it."""
    for source in (lang, DEFAULT_LANGUAGE):
        table = catalogue(source)["names"].get(kind, {})
        forms = table.get(code) or table.get("*")
        if forms:
            return {form: text.replace("{code}", code) for form, text in forms.items()}
    return {"nom": code}


def placeholders(template: str) -> list[tuple[str, str]]:
    """(name, format spec) of each placeholder of a template, in order."""
    return [(name, spec or "") for _, name, spec, _ in Formatter().parse(template)
            if name is not None]
