"""Rule messages in the reader's language, through companion.i18n when it is there
(English otherwise), and the referee feed made ready for a page."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

try:  # companion.i18n is written alongside; the pages work in English without it
    from companion.i18n import describe_verdict as _describe
    from companion.i18n import negotiate_language as _negotiate
except ImportError:  # pragma: no cover - only before companion.i18n exists
    _describe = None
    _negotiate = None

from .strings import LANGUAGES


def negotiate(accept: str | None) -> str:
    """The best page language for an Accept-Language header."""
    if _negotiate is not None:
        lang = _negotiate(accept)
        return lang if lang in LANGUAGES else "en"
    for part in (accept or "").split(","):
        code = part.split(";")[0].strip().lower().split("-")[0]
        if code in LANGUAGES:
            return code
    return "en"


def describe(rule: str | None, message: str | None, lang: str) -> dict[str, Any]:
    """An illegal verdict for a page: rule, title, message and hint in `lang`."""
    if _describe is not None:
        try:
            return _describe({"ok": False, "rule": rule, "message": message}, lang)
        except Exception:  # a translation slip must never hide the verdict itself
            pass
    return {"ok": False, "rule": rule or "LOG", "title": rule or "LOG",
            "message": message or "", "hint": None}


def localise_feed(entries: Iterable[Mapping[str, Any]], lang: str) -> list[dict[str, Any]]:
    """Feed entries with each illegal verdict's message, title and hint in `lang`
    (the English message stays in `message_en`)."""
    out = []
    for entry in entries:
        entry = dict(entry)
        if not entry.get("ok", True) and entry.get("message"):
            said = describe(entry.get("rule"), entry.get("message"), lang)
            entry["message_en"] = entry["message"]
            entry["message"] = said.get("message") or entry["message"]
            entry["title"] = said.get("title")
            entry["rule_hint"] = said.get("hint")
        out.append(entry)
    return out
