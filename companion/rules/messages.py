"""The referee's messages as a key and its fields, written in English.

Every refusal of the engine names a message *key* (``"pts.too_far"``) and the *fields*
that fill it (``{"who": {...}, "target": "F", "cost": 5, "value": 3}``). The English
templates are the ``messages`` of ``companion/i18n/catalogues/en.json``: the one
catalogue the pages, the referee and every translation read, so a wording is changed
in one place. This module reads that file as data (it imports nothing of the
project) and writes the English text; :mod:`companion.i18n` writes the other
languages from the same key and fields.

Field values are plain JSON (they travel in the feed): codes of players, gems, places
and cards as the log writes them, whole numbers, lists of those, and two small
objects: a canoe ``{"player", "place", "gem"}`` and a spot ``{"place", "gem"}``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

# What each field name holds; a template's placeholder names are these.
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


@cache
def templates() -> dict[str, str]:
    """The English message templates, key -> template (read once)."""
    path = resources.files("companion").joinpath("i18n", "catalogues", "en.json")
    messages: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))["messages"]
    return messages


def canoe(player: str, place: str, gem: str | None) -> dict[str, Any]:
    """The field value naming one canoe: whose, where, carrying what."""
    return {"player": player, "place": place, "gem": gem}


def spot(place: str, gem: str | None = None) -> dict[str, Any]:
    """The field value naming a place, maybe with the gem a canoe there carries."""
    return {"place": place, "gem": gem}


def _at(place: str) -> str:
    return {"D": "on the dock", "F": "below the falls"}.get(place, f"on {place}")


def _with(text: str, gem: str | None) -> str:
    return f"{text} with {gem}" if gem else text


class _Count(int):
    """A number that, with a spec of words (``step|steps``), adds the English plural;
    any other spec (``+d``) is an ordinary number format."""

    def __format__(self, spec: str) -> str:
        if "|" not in spec:
            return int.__format__(self, spec)
        one, other = spec.split("|", 1)
        return f"{int(self)} {one if self == 1 else other}"


def _english(kind: str, value: Any) -> object:
    if kind in ("count", "signed"):
        return _Count(value)
    if kind == "canoe":
        return _with(f"{value['player']}'s canoe {_at(value['place'])}", value.get("gem"))
    if kind == "wheres":
        return " and ".join(_with(_at(v["place"]), v.get("gem")) for v in value)
    if kind == "spot":
        return _with(_at(value["place"]), value.get("gem"))
    if kind == "target":
        return {"D": "the dock", "F": "the falls"}.get(value, value)
    if kind == "camp" and not value:
        return "none"
    if kind in ("players", "cards", "camp"):
        return ", ".join(str(v) for v in value)
    return value


def english(key: str, fields: Mapping[str, Any]) -> str:
    """The English text of message `key` filled with `fields`."""
    values = {name: _english(FIELD_KINDS[name], value) for name, value in fields.items()}
    return templates()[key].format_map(values)
