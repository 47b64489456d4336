"""A turn in words, in the reader's language (the move picker beside the notation).

>>> from companion.rules import parse_turn
>>> describe_turn(parse_turn("D-4+clear", "blue"), "en")
'on the dock: launch to 4, load the clear gem'
>>> describe_turn(parse_turn("5u+yellow-3, 1-D", "blue"), "it").split("; ")
['sul disco 5: scarica la gemma, carica la gemma gialla, risali fino al disco 3', \
'poi sul disco 1: approda al molo']
>>> describe_turn(parse_turn("cloud up", "blue"), "ru")
'Облако вверх'
"""

from __future__ import annotations

from companion.rules import ANY, CanoeAction, Turn
from companion.rules.geometry import DEPTH

from .catalogue import DEFAULT_LANGUAGE, catalogue, name_forms
from .forms import Name, Phrase
from .translate import language


def _words(lang: str) -> dict[str, str]:
    words: dict[str, str] = catalogue(lang).get("turn") or catalogue(DEFAULT_LANGUAGE)["turn"]
    return words


def _name(lang: str, kind: str, code: str) -> Name:
    return Name(code, name_forms(lang, kind, code))


def _ops(lang: str, ops: tuple[str, ...]) -> list[str]:
    words = _words(lang)
    return [words["unload"] if op == "unload"
            else words["load"].format(gem=_name(lang, "gem", op[5:])) for op in ops]


def _move(lang: str, action: CanoeAction) -> list[str]:
    words, origin, dest = _words(lang), action.origin, action.destination
    if dest == origin:
        return [] if action.pre or action.post else [words["stay"]]
    if dest == "F":
        return [words["falls"]]
    if dest == "D":
        return [words["land"]]
    way = "launch" if origin == "D" else ("up" if DEPTH[dest] < DEPTH[origin] else "down")
    return [words[way].format(dest=_name(lang, "place", dest))]


def _steal(lang: str, steal: str | None) -> list[str]:
    if not steal:
        return []
    victim, _, gem = steal.partition(":")
    values = {"victim": _name(lang, "player", victim)}
    if gem:
        return [_words(lang)["steal_gem"].format(gem=_name(lang, "gem", gem), **values)]
    return [_words(lang)["steal"].format(**values)]


def describe_action(action: CanoeAction, lang: str) -> str:
    """One canoe's part of a turn: which canoe, then what it does in order."""
    lang = language(lang)
    phrases = catalogue(lang)["phrases"]
    values: dict[str, object] = {"place": _name(lang, "place", action.origin)}
    if action.gem not in (ANY, None):
        values["gem"] = _name(lang, "gem", str(action.gem))
    where = Phrase("where_with" if "gem" in values else "where", phrases, values)
    steps = (_ops(lang, action.pre) + _move(lang, action) + _ops(lang, action.post)
             + _steal(lang, action.steal))
    words = _words(lang)
    return words["action"].format(where=where, steps=words["sep"].join(steps))


def describe_turn(turn: Turn, lang: str) -> str:
    """A turn in words in `lang`, canoe by canoe in the order they act."""
    lang = language(lang)
    words = _words(lang)
    if turn.cloud is not None:
        return words["cloud"].format(dir=_name(lang, "direction", turn.cloud))
    if not turn.canoes:
        return words["pass"]
    return words["then"].join(describe_action(a, lang) for a in turn.canoes)
