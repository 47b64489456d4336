"""The look of this table's pieces, learned from the pictures the game confirmed.

>>> looks = HullLooks()
>>> looks.learn([SeenCanoe("red", "3", 4.1), SeenCanoe("red", "D", 3.5)],
...             {"red": [("3", None), ("D", None)]})
2
>>> looks.empty_texture("red")
3.8

Every confirmed state labels the canoes in its picture: a canoe of a player seen on a
place where that player's canoes are all empty is an empty hull, so how uneven its
middle looked (its shading and gloss under this lamp, in units of sensor noise) is what
an empty hull of that colour looks like here. A gem's facets are then judged against
that, not against a threshold tuned to one renderer. Only pictures the game confirmed
by itself are learned from; one whose reading the players had to correct is not (the
caller's rule: ``companion.camera.TableCamera``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from statistics import median

# Looks of the last this-many empty hulls a colour are kept: the light drifts (a lamp
# switched on, daylight fading), and the newest pictures follow it.
KEEP = 24
# Fewer samples than this say nothing yet.
ENOUGH = 2


@dataclass(frozen=True)
class SeenCanoe:
    """One canoe as a picture showed it: whose, where, and how uneven its middle was
    (None when not measured)."""

    player: str
    place: str
    texture: float | None


class HullLooks:
    """What empty canoes of each colour looked like at this table."""

    def __init__(self) -> None:
        self._empty: dict[str, deque[float]] = {}

    def empty_texture(self, player: str) -> float | None:
        """How uneven an empty hull of `player`'s colour looks here (the median of the
        recent confirmed ones), None before ENOUGH were seen."""
        seen = self._empty.get(player)
        if not seen or len(seen) < ENOUGH:
            return None
        return float(median(seen))

    def learn(self, seen: Iterable[SeenCanoe],
              canoes: Mapping[str, Sequence[tuple[str, str | None]]]) -> int:
        """Learn from a picture whose state is known (`canoes`: the state's canoes by
        player, as (place, gem)); returns how many hulls it learned from."""
        learned = 0
        for canoe in seen:
            if canoe.texture is None:
                continue
            there = [gem for place, gem in canoes.get(canoe.player, ()) if place == canoe.place]
            if there and all(gem is None for gem in there):
                self._empty.setdefault(canoe.player, deque(maxlen=KEEP)).append(canoe.texture)
                learned += 1
        return learned


__all__ = ["ENOUGH", "KEEP", "HullLooks", "SeenCanoe"]
