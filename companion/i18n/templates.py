"""The engine's English referee messages as templates, compiled once to regexes.

The templates are the ``messages`` of ``catalogues/en.json``, written like the
f-strings of companion/rules (canoes.py, game.py, events.py, notation.py). Each
placeholder's name says what it holds (:data:`FIELD_KINDS`), and the kind gives the
regex it matches; :func:`match` turns a message back into its template and values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from string import Formatter

from companion.rules import GEMS, PLACES, PLAYER_COLOURS

from .catalogue import catalogue


def _alt(words: tuple[str, ...]) -> str:
    return "(?:" + "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) + ")"


PLAYER = _alt(PLAYER_COLOURS)
GEM = _alt(GEMS)
PLACE = _alt(PLACES)
CARD = r"(?:[1-6]|cloud)"
# The canoe descriptions of canoes.py (_where): "on the dock", "below the falls",
# "on 5", each maybe followed by " with red".
WHERE = rf"(?:on the dock|below the falls|on {PLACE})(?: with {GEM})?"
FIELDS = ("player colour", "place", "gem colour", "cloud direction", "branch", "variant")

KIND_PATTERNS: dict[str, str] = {
    "player": PLAYER,
    "players": rf"{PLAYER}(?:, {PLAYER})*",
    "gem": GEM,
    "deposit": GEM,
    "camp": rf"none|{GEM}(?:, {GEM})*",
    "place": PLACE,
    "target": rf"the dock|the falls|{PLACE}",
    "spot": rf"{PLACE}(?: with {GEM})?",
    "canoe": rf"{PLAYER}'s canoe {WHERE}",
    "wheres": rf"{WHERE}(?: and {WHERE})*",
    "card": CARD,
    "cards": rf"{CARD}(?:, {CARD})*",
    "count": r"\d+",
    "signed": r"[+-]\d+",
    "direction": r"up|down",
    "field": _alt(FIELDS),
    "raw": r"[\s\S]*?",
}

# What each placeholder name of the templates holds.
FIELD_KINDS: dict[str, str] = {
    "player": "player", "victim": "player", "mover": "player", "other": "player",
    "players": "players", "winners": "players", "missing": "players",
    "gem": "gem", "gem2": "gem", "deposit": "deposit", "camp": "camp",
    "place": "place", "dest": "place", "target": "target", "spot": "spot",
    "who": "canoe", "have": "wheres",
    "card": "card", "cards": "cards",
    "n": "count", "cost": "count", "value": "count", "left": "count", "speed": "count",
    "steps": "count", "weather": "signed", "dir": "direction", "what": "field",
    "given": "raw", "key": "raw", "text": "raw", "detail": "raw", "allowed": "raw",
}


def placeholders(template: str) -> list[tuple[str, str]]:
    """(name, format spec) of each placeholder of a template, in order."""
    return [(name, spec or "") for _, name, spec, _ in Formatter().parse(template)
            if name is not None]


@dataclass(frozen=True)
class Match:
    """A message recognised as one template: its ID and the placeholder texts."""

    template: str
    fields: dict[str, str]


def _compile(template: str) -> re.Pattern[str]:
    parts, seen = [], set()
    for literal, name, _, _ in Formatter().parse(template):
        parts.append(re.escape(literal))
        if name is None:
            continue
        if name in seen:  # the same value again, e.g. the victim in "blue:red"
            parts.append(f"(?P={name})")
        else:
            seen.add(name)
            parts.append(f"(?P<{name}>{KIND_PATTERNS[FIELD_KINDS[name]]})")
    return re.compile("".join(parts))


@cache
def compiled() -> list[tuple[str, re.Pattern[str]]]:
    """Every English template compiled, the most literal text first, so that a template
    with a free-text placeholder never swallows a more specific one."""
    messages: dict[str, str] = catalogue("en")["messages"]

    def literal_length(item: tuple[str, str]) -> int:
        return sum(len(lit) for lit, *_ in Formatter().parse(item[1]))

    ordered = sorted(messages.items(), key=literal_length, reverse=True)
    return [(tid, _compile(text)) for tid, text in ordered]


def match(message: str) -> Match | None:
    """The template an English referee message was made from, or None."""
    for tid, pattern in compiled():
        m = pattern.fullmatch(message)
        if m:
            return Match(tid, {k: v for k, v in m.groupdict().items() if v is not None})
    return None
