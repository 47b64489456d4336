"""What gems a turn brings where: the gems its canoes load, from which deposit, and
those they steal (R-GEM-2, R-STEAL-1); what the picture after it should show in their
canoes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from companion.rules import DEPOSIT_AT, Buyback, River, Turn

from .expected import Canoe


def gains(turn: Turn, before: Mapping[str, Sequence[Canoe]]) -> frozenset[tuple[str, str]]:
    """Where a turn's canoes end with a gem they did not carry before it: (place, gem)
    of each gem loaded (``loads``) or stolen (R-STEAL; the victim's gem on the slot
    where the move ends, from the state `before`, when the turn does not name it)."""
    return frozenset(gain_counts(turn, before))


def gain_counts(turn: Turn, before: Mapping[str, Sequence[Canoe]]) -> Counter[tuple[str, str]]:
    """``gains``, each as often as the turn brings that gem to that place: both canoes
    of a player may load a violet gem on one slot, and neither carried it before."""
    out = Counter((place, gem) for place, gem, _ in load_sources(turn))
    for action in turn.canoes:
        if action.steal is None:
            continue
        victim, _, loot = action.steal.partition(":")
        if not loot:
            loot = next((gem for at, gem in before.get(victim, ())
                         if at == action.destination and gem), "")
        if loot:
            out[(action.destination, loot)] += 1
    return out


def loads(event: Turn | River | tuple[Buyback, ...]) -> set[tuple[str, str]]:
    """Where a turn's canoes end with a gem they loaded: (place, gem)."""
    if not isinstance(event, Turn):
        return set()
    return {(place, gem) for place, gem, _ in load_sources(event)}


def load_sources(turn: Turn) -> list[tuple[str, str, str]]:
    """Each gem a turn loads: (the place its canoe ends, the gem, the deposit it came
    from: the one of the slot where the canoe lies as it loads, R-GEM-2)."""
    return [(action.destination, op.split(":", 1)[1], DEPOSIT_AT.get(at, ""))
            for action in turn.canoes
            for ops, at in ((action.pre, action.origin), (action.post, action.destination))
            for op in ops if op.startswith("load:")]


__all__ = ["gain_counts", "gains", "load_sources", "loads"]
