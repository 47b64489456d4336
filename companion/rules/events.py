"""The events of game-log.md as Python objects, parsed from and written to JSON.

Parsing checks the *shape* (names, types, ranges) and raises :class:`LogError`;
whether an event is allowed in a state is the game's business (:mod:`.game`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from .errors import LogError
from .geometry import BRANCHES, CARD_VALUES, GEMS, PLACES, PLAYER_COLOURS, VARIANTS

Card = int | str
ANY = "any"  # a canoe action without a `gem` field: whichever canoe is there

CLOUD_DIRECTIONS = ("up", "down")


def card_key(card: Card) -> int:
    """Sort key for cards: numbers ascending, then the cloud."""
    return 7 if card == "cloud" else int(card)


@dataclass(frozen=True)
class Setup:
    players: tuple[str, ...]
    start: str
    branch: str = "L"
    variants: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"event": "setup", "players": list(self.players), "start": self.start,
                "branch": self.branch, "variants": list(self.variants)}


@dataclass(frozen=True)
class Buyback:
    player: str
    gem: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"event": "buyback", "player": self.player}
        if self.gem is not None:
            out["gem"] = self.gem
        return out


@dataclass(frozen=True)
class Cards:
    cards: tuple[tuple[str, Card], ...]

    @classmethod
    def of(cls, cards: Mapping[str, Card]) -> Cards:
        return cls(tuple(cards.items()))

    def as_dict(self) -> dict[str, Card]:
        return dict(self.cards)

    def to_json(self) -> dict[str, Any]:
        return {"event": "cards", "cards": dict(self.cards)}


@dataclass(frozen=True)
class CanoeAction:
    """One canoe's part of a turn. ``origin`` is the JSON field ``from``."""

    origin: str
    to: str | None = None
    pre: tuple[str, ...] = ()
    post: tuple[str, ...] = ()
    steal: str | None = None
    gem: str | None = ANY

    @property
    def destination(self) -> str:
        return self.origin if self.to is None else self.to

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"from": self.origin}
        if self.gem != ANY:
            out["gem"] = self.gem
        if self.pre:
            out["pre"] = list(self.pre)
        if self.to is not None and self.to != self.origin:
            out["to"] = self.to
        if self.post:
            out["post"] = list(self.post)
        if self.steal is not None:
            out["steal"] = self.steal
        return out


@dataclass(frozen=True)
class Turn:
    player: str
    canoes: tuple[CanoeAction, ...] = ()
    cloud: str | None = None

    def to_json(self) -> dict[str, Any]:
        if self.cloud is not None:
            return {"event": "turn", "player": self.player, "cloud": self.cloud}
        return {"event": "turn", "player": self.player,
                "canoes": [c.to_json() for c in self.canoes]}


@dataclass(frozen=True)
class River:
    steps: int | None = None
    branches: tuple[str, ...] | None = field(default=None)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"event": "river"}
        if self.steps is not None:
            out["steps"] = self.steps
        if self.branches is not None:
            out["branches"] = list(self.branches)
        return out


Event = Setup | Buyback | Cards | Turn | River


# -- parsing ---------------------------------------------------------------------------

def _describe(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _name(obj: Mapping[str, Any], key: str, allowed: tuple[str, ...], what: str) -> str:
    if key not in obj:
        raise LogError.of("log.missing_field", key=key)
    value = obj[key]
    if not isinstance(value, str) or value not in allowed:
        raise LogError.of("log.unknown_name", what=what, given=_describe(value), key=key,
                          allowed=", ".join(allowed))
    return value


def _player(obj: Mapping[str, Any], key: str = "player") -> str:
    return _name(obj, key, PLAYER_COLOURS, "player colour")


def parse_card(value: Any) -> Card:
    if isinstance(value, bool) or value not in CARD_VALUES:
        raise LogError.of("log.unknown_card", given=_describe(value))
    return cast(Card, value)


def parse_op(value: Any) -> str:
    if value == "unload":
        return "unload"
    if isinstance(value, str) and value.startswith("load:") and value[5:] in GEMS:
        return value
    raise LogError.of("log.unknown_op", given=_describe(value))


def _ops(obj: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = obj.get(key, [])
    if value is None:
        return ()
    if not isinstance(value, list):
        raise LogError.of("log.ops_list", key=key, given=_describe(value))
    if len(value) > 4:
        raise LogError.of("log.ops_many", key=key, n=len(value))
    return tuple(parse_op(v) for v in value)


def _canoe_action(obj: Any) -> CanoeAction:
    if not isinstance(obj, dict):
        raise LogError.of("log.action_object", given=_describe(obj))
    origin = _name(obj, "from", PLACES, "place")
    to = _name(obj, "to", PLACES, "place") if obj.get("to") is not None else None
    gem: str | None = ANY
    if "gem" in obj:
        gem = None if obj["gem"] is None else _name(obj, "gem", GEMS, "gem colour")
    steal = obj.get("steal")
    if steal is not None:
        victim, _, loot = steal.partition(":") if isinstance(steal, str) else ("", "", "")
        if victim not in PLAYER_COLOURS or (loot and loot not in GEMS):
            raise LogError.of("log.bad_steal", given=_describe(steal))
    return CanoeAction(origin, to, _ops(obj, "pre"), _ops(obj, "post"), steal, gem)


def parse_event(obj: Any) -> Event:
    """An event from its JSON object (already decoded). Raises LogError."""
    if not isinstance(obj, dict):
        raise LogError.of("log.event_object", given=_describe(obj))
    kind = obj.get("event")
    if kind == "setup":
        players = obj.get("players")
        if not isinstance(players, list):
            raise LogError.of("log.setup_players")
        names = tuple(_name({"players": p}, "players", PLAYER_COLOURS, "player colour")
                      for p in players)
        if not 3 <= len(names) <= 5 or len(set(names)) != len(names):
            raise LogError.of("log.setup_distinct", given=_describe(players))
        start = _player(obj, "start") if "start" in obj else names[0]
        if start not in names:
            raise LogError.of("log.start_player", player=start)
        branch = _name(obj, "branch", BRANCHES, "branch") if "branch" in obj else "L"
        variants = obj.get("variants", [])
        if not isinstance(variants, list):
            raise LogError.of("log.variants_list")
        for v in variants:
            _name({"variants": v}, "variants", VARIANTS, "variant")
        return Setup(names, start, branch, tuple(variants))
    if kind == "buyback":
        player = _player(obj)
        gem = obj.get("gem")
        if gem is not None:
            gem = _name(obj, "gem", GEMS, "gem colour")
        return Buyback(player, gem)
    if kind == "cards":
        cards = obj.get("cards")
        if not isinstance(cards, dict) or not cards:
            raise LogError.of("log.cards_object")
        for p in cards:
            _name({"player": p}, "player", PLAYER_COLOURS, "player colour")
        return Cards(tuple((p, parse_card(c)) for p, c in cards.items()))
    if kind == "turn":
        player = _player(obj)
        if "cloud" in obj:
            if "canoes" in obj:
                raise LogError.of("log.turn_both")
            return Turn(player, cloud=_name(obj, "cloud", CLOUD_DIRECTIONS, "cloud direction"))
        canoes = obj.get("canoes")
        if not isinstance(canoes, list):
            raise LogError.of("log.turn_needs")
        if len(canoes) > 2:
            raise LogError.of("log.turn_canoes", n=len(canoes))
        return Turn(player, tuple(_canoe_action(c) for c in canoes))
    if kind == "river":
        steps = obj.get("steps")
        if steps is not None and (isinstance(steps, bool) or not isinstance(steps, int)
                                  or steps < 0):
            raise LogError.of("log.steps", given=_describe(steps))
        branches = obj.get("branches")
        if branches is not None:
            if not isinstance(branches, list):
                raise LogError.of("log.branches")
            branches = tuple(_name({"branches": b}, "branches", BRANCHES, "branch")
                             for b in branches)
        return River(steps, branches)
    if kind is None:
        raise LogError.of("log.missing_field", key="event")
    raise LogError.of("log.unknown_event", given=_describe(kind))


def parse_line(line: str) -> Event:
    """An event from one line of a game log. Raises LogError."""
    try:
        obj = json.loads(line)
    except (json.JSONDecodeError, RecursionError) as exc:
        detail = exc.msg if hasattr(exc, "msg") else str(exc)
        raise LogError.of("log.json", detail=detail) from None
    return parse_event(obj)


def to_line(event: Event) -> str:
    """One log line for an event (compact JSON)."""
    return json.dumps(event.to_json(), separators=(", ", ": "))
