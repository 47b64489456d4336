"""Whether a canoe that stayed on its place kept its cargo: its middle in the picture
after a move against its middle in the picture before.

>>> before = [SeenCanoe("yellow", "5", 6.0, look=(0.62, 0.10, -0.40, 0.30))]
>>> after = [SeenCanoe("yellow", "5", 6.2, look=(0.63, 0.12, -0.41, 0.30))]
>>> cargo_compared({"yellow": [("5", "violet")]}, before, after)
({'yellow': ['5']}, {})

Naming a gem from one picture fails where this camera blurs a violet gem into a red
hull's colour; but the same canoe, on the same place, under the same lamp, looks as it
did as long as it carries what it did. So the look of its middle
(``GemEvidence.look``: how pale, which way its colour leaves the hull's) is compared
with itself across the move: the same look is a cargo kept, a far other one a cargo
changed, whatever gem either would be read as. A canoe of a player who does not move
changes its cargo only when robbed (R-STEAL-1: its gem leaves it for the thief beside
it): that is what the look tells (``fit_changes.cargo_mismatches``).

A place is judged only where the state before has one canoe of that player there and
each picture shows one (two canoes of a player on one place cannot be told apart).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from .looks import LOOK_SPREAD
from .seen_canoes import SeenCanoe

# The same canoe with the same cargo looks this near itself across a move (in units of
# LOOK_SPREAD, the spread ``looks.PieceLooks.middle_gem`` judges looks by), and one
# whose gem came or went this far; between the two the look says nothing. Measured on
# the tuned games' consecutive confirmed pictures (863 canoes that stayed on a river
# place, alone of their colour there): of 821 that kept their cargo, 796 within 3 and 2
# beyond 8, the farthest those a canoe arrived beside or left (the lamp's gloss moves as
# a canoe is nudged); of 42 whose cargo changed, none within 4.4, 30 beyond 8.
# A look identical to the one before is a middle the gems stage did not measure again,
# its grey levels where a gem lies having changed by less than SAME_MIDDLE (``gems``'
# cache): a cargo kept too. Measured later on the tuned worlds' stable frames read one
# after another: 1,287 canoes kept their cargo (949 with an identical look) and 84
# changed it; of the 53 whose cargos look apart (``fit_changes._alike``) none was
# identical, the nearest 3.9 away; the 2 identical were a clear gem leaving a red hull,
# alike. (While the cache averaged the change over the hull too, at SAME_MIDDLE 12, a
# violet gem leaving a blue hull went unmeasured, and an identical look was no evidence.)
KEPT = 3.0
CHANGED = 8.0


def look_distance(a: Sequence[float], b: Sequence[float]) -> float:
    """How far apart two middles' looks are, in units of LOOK_SPREAD."""
    return float(np.linalg.norm((np.asarray(a, dtype=np.float64)
                                 - np.asarray(b, dtype=np.float64)) / np.array(LOOK_SPREAD)))


def cargo_compared(canoes: Mapping[str, Sequence[tuple[str, str | None]]],
                   before: Iterable[SeenCanoe], after: Iterable[SeenCanoe]
                   ) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(kept, changed): by player, the river places where their canoe looks as it did in
    the picture before (KEPT), and those where it looks far other (CHANGED). `canoes`:
    the state before the move, by player, as (place, gem); `before` and `after`: the
    canoes each picture showed."""
    def alone(seen: Iterable[SeenCanoe]) -> dict[tuple[str, str], tuple[float, ...]]:
        found: dict[tuple[str, str], list[tuple[float, ...] | None]] = {}
        for c in seen:
            found.setdefault((c.player, c.place), []).append(c.look)
        return {key: looks[0] for key, looks in found.items()
                if len(looks) == 1 and looks[0] is not None}

    was, now = alone(before), alone(after)
    kept: dict[str, list[str]] = {}
    changed: dict[str, list[str]] = {}
    for player, held in sorted(canoes.items()):
        places = [place for place, _ in held]
        for place in sorted(set(places)):
            key = (player, place)
            if place in ("D", "F") or places.count(place) != 1 or key not in was \
                    or key not in now:
                continue
            far = look_distance(was[key], now[key])
            if far <= KEPT:
                kept.setdefault(player, []).append(place)
            elif far >= CHANGED:
                changed.setdefault(player, []).append(place)
    return kept, changed


__all__ = ["CHANGED", "KEPT", "cargo_compared", "look_distance"]
