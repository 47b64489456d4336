"""How this table's camera sees gems leave their piles, learned from confirmed moves.

>>> takes = TakeLooks()
>>> for size in (1.0, 1.2, 0.9):
...     takes.learn_take("blue", seen=True, size=size)
>>> takes.takes_shown()
{'blue': 0.8}
>>> takes.two_taken("blue", 2.3), takes.two_taken("blue", 1.1)
(True, False)

A translucent gem gone from among its like may leave a pile looking the same, and how
much of a pile one gem's leaving changes depends on the lamp, the print and the
calibration's size of a gem: both are learned here, per colour, from the takes the
game confirmed (``memory.BoardMemory``), never assumed. ``looks.PieceLooks`` holds
these beside the canoes' looks.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

# Takes of the last this-many gems of a colour are kept (the light drifts).
KEEP = 24
# How often a gem taken from a deposit was seen leave its pile starts as if one take had
# been seen and one missed: until a colour's takes have shown again and again, a pile
# not seen to change is no evidence that none was taken from it.
TAKES_PRIOR = (1, 1)
# How much of a pile changes when one gem of a colour leaves it (in gems' areas) is
# learned from this table's confirmed single takes seen, once TAKES_ENOUGH of that
# colour were: their logarithm's median and spread (robust; never below TAKE_SPREAD).
# No size is assumed before: what "a gem's area" covers of a pile's change depends on
# the lamp, the print and the calibration's size of a gem (assuming one gem's area, 2
# of 54 single takes at the tables not tuned on were called two). A change is two gems
# taken, not one, when two gems' change explains it TWO_LIKELIER times better than one
# gem's (two takes' sizes add: their logarithm lies ln 2 further, its spread over
# sqrt 2) and it is larger than any single take of that colour seen here (the model's
# tails are thin; this table's own largest is the guard). Tuned games: one violet, blue
# or yellow gem changed 0.7 to 1.6 gems' areas (one in ten less, half hidden), two 1.8
# to 2.4; a clear gem 0.1 to 0.7, its two 0.6 to 1.0.
TAKES_ENOUGH = 3
TAKE_SPREAD = 0.2
TWO_LIKELIER = 20.0


class TakeLooks:
    """How often gems of each colour were seen leave their piles here, and how much of
    a pile one leaving changed."""

    def __init__(self) -> None:
        # Gems of each colour taken from a deposit in confirmed moves: was the pile seen
        # to change?
        self._takes: dict[str, deque[bool]] = {}
        # How much of its pile changed when one gem of a colour was taken and seen (in
        # gems' areas), logarithms.
        self._take_sizes: dict[str, deque[float]] = {}

    def _takes_json(self) -> dict[str, Any]:
        return {"takes": {g: list(v) for g, v in self._takes.items()},
                "take_sizes": {g: [round(x, 4) for x in v] for g, v in self._take_sizes.items()}}

    def _read_takes(self, data: Mapping[str, Any]) -> None:
        """What ``_takes_json`` wrote; ValueError (or KeyError, TypeError) if it is not."""
        self._takes = {str(gem): sightings(seen, bool) for gem, seen in data["takes"].items()}
        self._take_sizes = {str(gem): deque(_log_sizes(logs), maxlen=KEEP)
                            for gem, logs in data["take_sizes"].items()}

    def learn_take(self, gem: str, seen: bool, size: float | None = None) -> None:
        """A confirmed move took a `gem` from a deposit: the picture after it saw that
        pile change (`seen`), or not; `size`: how much of the pile changed (in gems'
        areas), when that gem was all the move took from or put on it."""
        self._takes.setdefault(gem, deque(maxlen=KEEP)).append(seen)
        if seen and size is not None and size > 0:
            self._take_sizes.setdefault(gem, deque(maxlen=KEEP)).append(float(np.log(size)))

    def two_taken(self, gem: str, size: float) -> bool:
        """Whether a pile's change of `size` (in gems' areas) is two `gem`s taken rather
        than one, by this table's single takes of that colour (see TWO_LIKELIER)."""
        own = self._take_sizes.get(gem, ())
        if size <= 0 or len(own) < TAKES_ENOUGH:
            return False
        logs = np.array(own)
        middle, spread_ = robust(logs, TAKE_SPREAD)
        centre, spread = float(middle), float(spread_)
        x = float(np.log(size))
        one = ((x - centre) / spread) ** 2 / 2 + np.log(spread)
        two_spread = spread / np.sqrt(2)
        two = ((x - centre - np.log(2)) / two_spread) ** 2 / 2 + np.log(two_spread)
        return bool(x > float(logs.max()) and one - two >= np.log(TWO_LIKELIER))

    def takes_shown(self) -> dict[str, float]:
        """How often a gem of each colour taken from a deposit in this table's recent
        confirmed moves was seen leave it (a share, from 0 to 1, TAKES_PRIOR included):
        the colours taken so far only. A translucent gem gone from among its like may
        leave a pile looking the same; where this table's camera has seen every take of
        a colour, a pile of it not seen to change says no gem left it."""
        return {gem: share(takes, TAKES_PRIOR)
                for gem, takes in sorted(self._takes.items()) if takes}


def sightings(seen: list[Any], *kinds: type, maxlen: int = KEEP) -> deque[Any]:
    """Sightings read back from JSON (``to_json``): yes/no, or colours named; ValueError
    when one is of another kind."""
    if not all(isinstance(x, kinds) for x in seen):
        raise ValueError("a sighting is not what it counts")
    return deque(seen, maxlen=maxlen)


def _log_sizes(logs: list[Any]) -> list[float]:
    """Take sizes read back from JSON (their logarithms); ValueError when one is not a
    finite number (a yes or no, a name: not a size)."""
    if not all(isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)
               for x in logs):
        raise ValueError("a take's size is not a number")
    return [float(x) for x in logs]


def share(seen: Iterable[bool], prior: tuple[int, int]) -> float:
    """The share of times something was seen, starting from `prior` (pretended
    sightings, pretended misses)."""
    seen = list(seen)
    shown, missed = prior
    return (sum(seen) + shown) / (len(seen) + shown + missed)


def robust(seen: np.ndarray, floor: float | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The median of sightings (along the first axis) and their spread (the median
    absolute deviation scaled to a normal sigma), never below `floor`."""
    centre = np.median(seen, axis=0)
    return centre, np.maximum(1.4826 * np.median(np.abs(seen - centre), axis=0), floor)


__all__ = ["KEEP", "TAKES_ENOUGH", "TAKES_PRIOR", "TAKE_SPREAD", "TWO_LIKELIER", "TakeLooks",
           "robust", "share", "sightings"]
