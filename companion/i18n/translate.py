"""Referee messages, rule texts and hints in the player's language.

A message is written from the engine's message key and fields (companion.rules
attaches both to every refusal), never read back out of its English text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules.messages import FIELD_KINDS

from .catalogue import DEFAULT_LANGUAGE, LANGUAGES, catalogue, name_forms
from .forms import Count, Listing, Name, Phrase


def language(lang: str | None) -> str:
    """`lang` if it is one of LANGUAGES, else the closest one (``ru-RU`` -> ``ru``,
    ``zh_Hans`` -> ``zh``), else English."""
    if not isinstance(lang, str):
        return DEFAULT_LANGUAGE
    code = lang.strip().lower().replace("_", "-").split("-")[0]
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


def _quality(params: str) -> float:
    """The q= weight of an Accept-Language entry's parameters (1 when absent)."""
    for param in params.split(";"):
        name, _, value = param.partition("=")
        if name.strip() == "q":
            try:
                return float(value.strip())
            except ValueError:
                return 0.0
    return 1.0


def negotiate_language(accept: str | None) -> str:
    """The best of LANGUAGES for an HTTP Accept-Language header (or a plain code)."""
    best, best_q = DEFAULT_LANGUAGE, -1.0
    for n, part in enumerate((accept or "").split(",")):
        tag, _, params = part.strip().partition(";")
        code = tag.strip().lower().replace("_", "-").split("-")[0]
        if code not in LANGUAGES:
            continue
        q = _quality(params) - n * 1e-6  # equal weights: the first listed wins
        if q > best_q:
            best, best_q = code, q
    return best


def _name(lang: str, kind: str, code: object) -> Name:
    return Name(str(code), name_forms(lang, kind, str(code)))


def _where(lang: str, phrases: Mapping[str, str], value: Mapping[str, Any]) -> Phrase:
    values: dict[str, object] = {"place": _name(lang, "place", value["place"])}
    if value.get("gem"):
        values["gem"] = _name(lang, "gem", value["gem"])
    return Phrase("where_with" if value.get("gem") else "where", phrases, values)


def _value(lang: str, kind: str, value: Any) -> object:
    """A field of the engine (see companion.rules.messages) as a value of `lang`."""
    phrases: dict[str, str] = catalogue(lang)["phrases"]
    sep = phrases.get("list_sep", ", ")
    if kind in ("player", "gem", "deposit", "card", "direction", "field"):
        return _name(lang, kind, value)
    if kind in ("place", "target"):
        return _name(lang, "place", value)
    if kind == "players":
        return Listing([_name(lang, "player", p) for p in value], sep)
    if kind == "cards":
        return Listing([_name(lang, "card", c) for c in value], sep)
    if kind == "camp":
        return Listing([_name(lang, "gem", g) for g in value], sep, phrases.get("none", "-"))
    if kind in ("count", "signed"):
        return Count(int(value), lang)
    if kind == "spot":
        return _where(lang, phrases, value)
    if kind == "wheres":
        return Listing([_where(lang, phrases, v) for v in value], phrases.get("and", " and "))
    if kind == "canoe":
        values: dict[str, object] = {"player": _name(lang, "player", value["player"]),
                                     "place": _name(lang, "place", value["place"])}
        if value.get("gem"):
            values["gem"] = _name(lang, "gem", value["gem"])
        return Phrase("canoe_with" if value.get("gem") else "canoe", phrases, values)
    return str(value)  # raw: the user's own text, verbatim


def _values(lang: str, fields: Mapping[str, Any]) -> dict[str, object]:
    return {name: _value(lang, FIELD_KINDS.get(name, "raw"), value)
            for name, value in fields.items()}


def render(key: str, fields: Mapping[str, Any], lang: str) -> str:
    """The referee message `key` filled with `fields`, in `lang`.

    >>> render("turn.other", {"mover": "blue", "player": "red"}, "ru")
    'сейчас ход Синего, а не Красного'

    Raises KeyError for a key the catalogue does not know or a field it lacks.
    """
    lang = language(lang)
    template: str = catalogue(lang)["messages"].get(key) or \
        catalogue(DEFAULT_LANGUAGE)["messages"][key]
    return template.format_map(_values(lang, fields))


def rule_text(rule_id: str, lang: str) -> dict[str, str]:
    """The title and plain statement of a rule (an ID of rules.md, or ``LOG``).

    >>> rule_text("R-PTS-3", "it")["title"]
    'La tessera 1 non carica'

    Unknown languages fall back to English; an unknown rule ID raises ValueError.
    """
    lang = language(lang)
    for source in (lang, DEFAULT_LANGUAGE):
        entry = catalogue(source)["rules"].get(rule_id)
        if entry:
            return {"title": entry["title"], "text": entry["text"]}
    raise ValueError(f"unknown rule ID {rule_id!r}")


def translate_verdict(rule: str, message: str, lang: str, key: str | None = None,
                      fields: Mapping[str, Any] | None = None) -> str:
    """The referee's verdict (citing `rule`, English `message`, and the message `key`
    and `fields` the engine gave with it) in language `lang`.

    >>> translate_verdict("R-STEAL-1", "…", "ru", "steal.downstream",
    ...                   {"who": {"player": "blue", "place": "3", "gem": None}})
    'каноэ Синего на диске 3 плыло вниз по реке; красть может только каноэ, плывущее вверх'

    Without a key (a verdict recorded before keys existed) the English message comes
    back after the rule's statement; nothing here raises.
    """
    lang = language(lang)
    message = message if isinstance(message, str) else str(message)
    if isinstance(key, str) and isinstance(fields, Mapping):
        try:
            return render(key, fields, lang)
        except (KeyError, ValueError, TypeError, IndexError, AttributeError):
            pass  # a catalogue slip must not hide the verdict: fall back below
    if lang == DEFAULT_LANGUAGE:
        return message
    return _fallback(rule, message, lang)


def _fallback(rule: str, message: str, lang: str) -> str:
    try:
        text = rule_text(str(rule), lang)["text"]
    except ValueError:
        return message
    if not message.strip():
        return text
    pattern: str = catalogue(lang)["phrases"].get("fallback", "{text} ({message})")
    return pattern.replace("{text}", text).replace("{message}", message)


def hint(rule: str, key: str | None = None, lang: str = DEFAULT_LANGUAGE,
         fields: Mapping[str, Any] | None = None) -> str | None:
    """What to do to put the pieces right after an illegal move: the hint of the
    message `key` (filled with its `fields`) when there is one, else the rule's; None
    when the rule has none (e.g. rules that only describe the board)."""
    lang = language(lang)
    hints: dict[str, str] = catalogue(lang)["hints"]
    if isinstance(key, str) and key in hints:
        try:
            return hints[key].format_map(_values(lang, fields or {}))
        except (KeyError, ValueError, TypeError, IndexError, AttributeError):
            pass  # a field missing: the rule's own hint still helps
    return hints.get(rule) if isinstance(rule, str) else None


def describe_verdict(verdict: Any, lang: str) -> dict[str, Any]:
    """A verdict (a ``Verdict``, or a dict with ``ok``, ``rule``, ``message`` and maybe
    ``key`` and ``fields``) ready for a page: ``ok`` and, when illegal, ``rule``,
    ``title``, ``message``, ``hint`` in language `lang`."""
    if not isinstance(verdict, Mapping):
        verdict = {"ok": getattr(verdict, "ok", True), "rule": getattr(verdict, "rule", None),
                   "message": getattr(verdict, "message", None),
                   "key": getattr(verdict, "key", None),
                   "fields": getattr(verdict, "fields", None)}
    if verdict.get("ok", True):
        return {"ok": True}
    rule, message = str(verdict.get("rule") or "LOG"), str(verdict.get("message") or "")
    key, fields = verdict.get("key"), verdict.get("fields")
    try:
        title = rule_text(rule, lang)["title"]
    except ValueError:
        title = rule
    return {"ok": False, "rule": rule, "title": title,
            "message": translate_verdict(rule, message, lang, key, fields),
            "hint": hint(rule, key, lang, fields if isinstance(fields, Mapping) else None)}


def colour_name(colour: str, lang: str) -> str:
    """A player colour's name in `lang` (``blue`` -> ``Синий``)."""
    return name_forms(language(lang), "player", colour)["nom"]


def gem_name(gem: str, lang: str) -> str:
    """A gem's name in `lang` (``clear`` -> ``diamante``)."""
    return name_forms(language(lang), "gem", gem)["nom"]
