"""Referee messages, rule texts and hints in the player's language."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .catalogue import DEFAULT_LANGUAGE, LANGUAGES, catalogue, name_forms
from .forms import Count, Listing, Name, Phrase
from .templates import FIELD_KINDS, GEM, PLACE, PLAYER, match

_CANOE = re.compile(rf"(?P<player>{PLAYER})'s canoe (?P<where>.*)")
_WHERE_ALL = re.compile(rf"(?P<place>on the dock|below the falls|on {PLACE})"
                        rf"(?: with (?P<gem>{GEM}))?")
_SPOT = re.compile(rf"(?P<place>{PLACE})(?: with (?P<gem>{GEM}))?")
_PLACE_WORDS = {"on the dock": "D", "below the falls": "F", "the dock": "D", "the falls": "F"}


def language(lang: str | None) -> str:
    """`lang` if it is one of LANGUAGES, else the closest one (``ru-RU`` -> ``ru``,
    ``zh_Hans`` -> ``zh``), else English."""
    if not isinstance(lang, str):
        return DEFAULT_LANGUAGE
    code = lang.strip().lower().replace("_", "-").split("-")[0]
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


def negotiate_language(accept: str | None) -> str:
    """The best of LANGUAGES for an HTTP Accept-Language header (or a plain code)."""
    best, best_q = DEFAULT_LANGUAGE, -1.0
    for n, part in enumerate((accept or "").split(",")):
        tag, _, params = part.strip().partition(";")
        code = tag.strip().lower().replace("_", "-").split("-")[0]
        if code not in LANGUAGES:
            continue
        q = 1.0
        m = re.search(r"q\s*=\s*([^;\s]*)", params)
        if m:
            try:
                q = float(m.group(1))
            except ValueError:
                q = 0.0
        q -= n * 1e-6  # equal weights: the first listed wins
        if q > best_q:
            best, best_q = code, q
    return best


def _name(lang: str, kind: str, code: str) -> Name:
    return Name(code, name_forms(lang, kind, code))


def _place(lang: str, text: str) -> Name:
    code = _PLACE_WORDS.get(text, text[3:] if text.startswith("on ") else text)
    return _name(lang, "place", code)


def _where(lang: str, phrases: Mapping[str, str], place: str, gem: str | None) -> Phrase:
    values: dict[str, object] = {"place": _place(lang, place)}
    if gem:
        values["gem"] = _name(lang, "gem", gem)
    return Phrase("where_with" if gem else "where", phrases, values)


def _value(lang: str, kind: str, text: str) -> object:
    """The placeholder text of an English message as a value of language `lang`."""
    phrases: dict[str, str] = catalogue(lang)["phrases"]
    sep = phrases.get("list_sep", ", ")
    if kind in ("player", "gem", "deposit", "card", "direction", "field"):
        return _name(lang, kind, text)
    if kind in ("place", "target"):
        return _place(lang, text)
    if kind == "players":
        return Listing([_name(lang, "player", p) for p in text.split(", ")], sep)
    if kind == "cards":
        return Listing([_name(lang, "card", c) for c in text.split(", ")], sep)
    if kind == "camp":
        gems = [] if text == "none" else text.split(", ")
        return Listing([_name(lang, "gem", g) for g in gems], sep, phrases.get("none", "-"))
    if kind in ("count", "signed"):
        return Count(int(text), lang)
    if kind == "spot":
        m = _SPOT.fullmatch(text)
        assert m is not None
        return _where(lang, phrases, m["place"], m["gem"])
    if kind == "wheres":
        return Listing([_where(lang, phrases, m["place"], m["gem"])
                        for m in _WHERE_ALL.finditer(text)], phrases.get("and", " and "))
    if kind == "canoe":
        m = _CANOE.fullmatch(text)
        w = _WHERE_ALL.fullmatch(m["where"]) if m else None
        assert m is not None and w is not None
        values: dict[str, object] = {"player": _name(lang, "player", m["player"]),
                                     "place": _place(lang, w["place"])}
        if w["gem"]:
            values["gem"] = _name(lang, "gem", w["gem"])
        return Phrase("canoe_with" if w["gem"] else "canoe", phrases, values)
    return text  # raw: the user's own text, verbatim


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


def translate_verdict(rule: str, message: str, lang: str) -> str:
    """The referee's English `message` (citing `rule`) in language `lang`.

    >>> translate_verdict("R-STEAL-1", "blue's canoe on 3 moved downstream; "
    ...                   "only a canoe moving upstream may steal", "ru")
    'каноэ Синего на диске 3 плыло вниз по реке; красть может только каноэ, плывущее вверх'

    A message no template knows comes back as the rule's statement followed by the
    English message; nothing here raises.
    """
    lang = language(lang)
    message = message if isinstance(message, str) else str(message)
    if lang == DEFAULT_LANGUAGE:
        return message
    try:
        found = match(message)
        if found is not None:
            template = catalogue(lang)["messages"].get(found.template)
            if template:
                values = {k: _value(lang, FIELD_KINDS[k], v) for k, v in found.fields.items()}
                return template.format_map(values)
    except (KeyError, ValueError, IndexError, AssertionError, AttributeError):
        pass  # a catalogue slip must not hide the verdict: fall back below
    return _fallback(rule, message, lang)


def _fallback(rule: str, message: str, lang: str) -> str:
    try:
        text = rule_text(str(rule), lang)["text"]
    except ValueError:
        return message
    if not message.strip():
        return text
    pattern = catalogue(lang)["phrases"].get("fallback", "{text} ({message})")
    return pattern.replace("{text}", text).replace("{message}", message)


def hint(rule: str, message: str | None = None, lang: str = DEFAULT_LANGUAGE) -> str | None:
    """What to do to put the pieces right after an illegal move: the hint for the
    message's own template when there is one, else the rule's; None when the rule has
    none (e.g. rules that only describe the board)."""
    lang = language(lang)
    hints: dict[str, str] = catalogue(lang)["hints"]
    found = match(message) if isinstance(message, str) else None
    if found is not None and found.template in hints:
        return hints[found.template]
    return hints.get(rule) if isinstance(rule, str) else None


def describe_verdict(verdict: Any, lang: str) -> dict[str, Any]:
    """A verdict (a ``Verdict`` or its ``to_json()`` dict) ready for a page: ``ok`` and,
    when illegal, ``rule``, ``title``, ``message``, ``hint`` in language `lang`."""
    if not isinstance(verdict, Mapping):
        verdict = verdict.to_json() if hasattr(verdict, "to_json") else {}
    if verdict.get("ok", True):
        return {"ok": True}
    rule, message = str(verdict.get("rule") or "LOG"), str(verdict.get("message") or "")
    try:
        title = rule_text(rule, lang)["title"]
    except ValueError:
        title = rule
    return {"ok": False, "rule": rule, "title": title,
            "message": translate_verdict(rule, message, lang),
            "hint": hint(rule, message, lang)}


def colour_name(colour: str, lang: str) -> str:
    """A player colour's name in `lang` (``blue`` -> ``Синий``)."""
    return name_forms(language(lang), "player", colour)["nom"]


def gem_name(gem: str, lang: str) -> str:
    """A gem's name in `lang` (``clear`` -> ``diamante``)."""
    return name_forms(language(lang), "gem", gem)["nom"]
