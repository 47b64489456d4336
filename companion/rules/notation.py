"""A short text notation for turns, for people (the JSON form stays canonical).

One canoe's action reads left to right, like the move itself::

    D-4+clear        launch from the dock to 4, load clear at the end
    5u+yellow-3      on 5 unload, load yellow, then go up to 3
    3-1xred          go up from 3 to 1 and steal red's gem (xred:blue names the gem)
    4+clear          load clear without moving (R-MOVE-7)
    6L(blue)-7L      the canoe on 6L carrying blue ((empty) for an empty one)

Two canoes are joined by ", " in the order they act; a cloud turn is ``cloud up`` or
``cloud down``. Gems may be abbreviated to their first letter when parsing.
"""

from __future__ import annotations

import re

from .errors import LogError
from .events import ANY, CanoeAction, Turn
from .geometry import GEMS, PLAYER_COLOURS

_PLACE = r"D|F|[1-5]|[67][LR]"
_GEM = "|".join(GEMS) + "|" + "|".join(sorted({g[0] for g in GEMS}))
_OPS = rf"(?:u|\+(?:{_GEM}))*"
_CANOE = re.compile(
    rf"^(?P<from>{_PLACE})(?:\((?P<gem>{_GEM}|empty)\))?(?P<pre>{_OPS})"
    rf"(?:-(?P<to>{_PLACE})(?P<post>{_OPS}))?(?:x(?P<victim>[a-z]+)(?::(?P<loot>{_GEM}))?)?$"
)
_ABBREV = {g[0]: g for g in GEMS}


def _gem(text: str) -> str:
    return _ABBREV.get(text, text)


def _ops(text: str) -> tuple[str, ...]:
    return tuple("unload" if t == "u" else f"load:{_gem(t[1:])}"
                 for t in re.findall(rf"u|\+(?:{_GEM})", text))


def _normal(text: str) -> str:
    """Lower-case but keep place names as written in rules.md (D, F, 6L …)."""
    text = text.strip().lower()
    return re.sub(r"(?<![a-z])([df])(?![a-z])|([67])([lr])",
                  lambda m: (m.group(1) or m.group(2) + m.group(3)).upper(), text)


def parse_canoe(text: str) -> CanoeAction:
    m = _CANOE.match(_normal(text))
    if not m:
        raise LogError.of("notation.canoe", given=repr(text.strip()))
    gem = ANY if m["gem"] is None else (None if m["gem"] == "empty" else _gem(m["gem"]))
    steal = None
    if m["victim"]:
        if m["victim"] not in PLAYER_COLOURS:
            raise LogError.of("notation.victim", given=repr(m["victim"]),
                              text=repr(text.strip()))
        steal = m["victim"] + (f":{_gem(m['loot'])}" if m["loot"] else "")
    return CanoeAction(m["from"], m["to"], _ops(m["pre"]), _ops(m["post"] or ""), steal, gem)


def parse_turn(text: str, player: str) -> Turn:
    """A turn of `player` from its text form. Raises LogError naming what is wrong."""
    if player not in PLAYER_COLOURS:
        raise LogError.of("notation.player", given=repr(player))
    body = text.strip()
    if ":" in body.split(",")[0].split()[0] and body.split(":")[0].strip() in PLAYER_COLOURS:
        named, body = body.split(":", 1)
        if named.strip() != player:
            raise LogError.of("notation.written_for", other=named.strip(), player=player)
        body = body.strip()
    words = body.lower().split()
    if words and words[0] == "cloud":
        if len(words) != 2 or words[1] not in ("up", "down"):
            raise LogError.of("notation.cloud", given=repr(text.strip()))
        return Turn(player, cloud=words[1])
    if body in ("", "-", "pass"):
        return Turn(player, ())
    parts = [p for p in body.split(",")]
    if len(parts) > 2:
        raise LogError.of("notation.too_many", given=repr(text.strip()), n=len(parts))
    return Turn(player, tuple(parse_canoe(p) for p in parts))


def format_canoe(action: CanoeAction) -> str:
    def ops(seq: tuple[str, ...]) -> str:
        return "".join("u" if op == "unload" else "+" + op[5:] for op in seq)

    text = action.origin
    if action.gem != ANY:
        text += f"({action.gem or 'empty'})"
    text += ops(action.pre)
    if action.to is not None and action.to != action.origin:
        text += f"-{action.to}" + ops(action.post)
    else:
        text += ops(action.post)
    if action.steal:
        text += f"x{action.steal}"
    return text


def format_turn(turn: Turn) -> str:
    """The text form of a turn (without the player)."""
    if turn.cloud is not None:
        return f"cloud {turn.cloud}"
    if not turn.canoes:
        return "pass"
    return ", ".join(format_canoe(a) for a in turn.canoes)
