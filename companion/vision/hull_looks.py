"""How each canoe colour's hulls look at this table, learned from its confirmed pictures.

Calibration sees each colour's hull once, on one slot, in the light there: where the
lamp tints the board unevenly, hulls elsewhere on the river leave that class, and their
pixels go to the print's classes (the tuned w107's brown hulls: a quarter of their pixels
classed brown on the stills). A confirmed picture (``memory.BoardMemory.confirm``) says
where every canoe lies: a canoe alone on its slot is found there by its shape, whatever
its colour class (``dock_canoes.find_slot_canoe``, as calibration finds it), and its
hull's pixels are how that colour looks at that slot now. Each colour's class is fitted
again from the latest look at every slot (PRIOR_PX pixels of calibration's class taken
with them), and the detector classifies with it from the next picture on.

>>> hulls = HullLooks(board, profile.classes, px_per_mm=1.0)        # doctest: +SKIP
>>> changed = hulls.learn(corrected, state.canoes, detector.profile.classes)  # doctest: +SKIP
>>> detector.profile = detector.profile.with_classes(changed)     # doctest: +SKIP

It does not drift into error: a hull its state puts there that looks likelier another
colour's than its own (the state is wrong there, a move the players will put right) is
not learned from, nor a patch too small for a hull; a slot's look older than MAX_AGE
confirmed pictures no longer counts (the light has moved on). Not kept over a restart
(``resume``): the next confirmed picture teaches it again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np

from companion.rules.state import Canoe

from .board import Board
from .dock_canoes import find_slot_canoe
from .profile import ColourClass, features, fit_class, squared_distance

# Calibration's class counts as this many hull pixels (about one hull of one photo) among
# those learned at the table: the first picture moves it halfway, a river full of them
# most of the way.
PRIOR_PX = 150
# Pixels taken from one hull (evenly spread over it): every slot counts alike.
SAMPLE_PX = 150
# Fewer pixels than this are no hull found (a rim, a glare's edge).
LEAST_PX = 24
# A slot's look counts for this many confirmed pictures after it was seen...
MAX_AGE = 40
# ... and is measured again once it is this many old (finding a hull by its shape takes
# some 4 ms a slot here; the light does not drift from one move to the next).
REFRESH = 4
# The class is replaced once its mean moved this far (in its own spread) or its spread
# changed by this factor in volume: less changes few colours' labels and costs a
# look-up table's update all the same.
MOVED = 0.5
SPREAD = 1.5


class HullLooks:
    """The latest look of each canoe colour's hull at each slot, and the classes they
    make."""

    def __init__(self, board: Board, calibrated: Mapping[str, ColourClass],
                 px_per_mm: float = 1.0) -> None:
        self.board = board
        self.scale = px_per_mm
        self._calibrated = {n: c for n, c in calibrated.items() if n.startswith("canoe:")}
        self._seen: dict[tuple[str, str], tuple[int, np.ndarray]] = {}
        self._pictures = 0

    def learn(self, img: np.ndarray, canoes: Mapping[str, Sequence[Canoe]],
              current: Mapping[str, ColourClass]) -> dict[str, ColourClass]:
        """Learn from a confirmed picture (`img`: the light-corrected board image) of a
        state whose canoes are `canoes` (player -> (place, gem) each). `current`: the
        classes the detector classifies with now. Returns the canoe classes that
        changed enough to classify with (class name -> class); empty when none did."""
        self._pictures += 1
        on = Counter(place for held in canoes.values() for place, _ in held)
        learned = set()
        for player, held in canoes.items():
            name = f"canoe:{player}"
            if name not in self._calibrated:
                continue
            for place, _ in held:
                if place not in self.board.slots or on[place] != 1:
                    continue
                last = self._seen.get((name, place))
                if last is not None and self._pictures - last[0] < REFRESH:
                    continue
                px = self._hull(img, place, player, current)
                if px is not None:
                    self._seen[(name, place)] = (self._pictures, px)
                    learned.add(name)
        for key in [k for k, (when, _) in self._seen.items()
                    if self._pictures - when >= MAX_AGE]:
            del self._seen[key]
        changed = {}
        for name in sorted(learned):
            fitted = self.fitted(name)
            if fitted is not None and _moved(current[name], fitted):
                changed[name] = fitted
        return changed

    def fitted(self, name: str) -> ColourClass | None:
        """The class of canoe class `name` from the looks learned (None before any):
        fitted to their pixels, with calibration's class counted as PRIOR_PX more."""
        px = [p for (n, _), (_, p) in self._seen.items() if n == name]
        if not px:
            return None
        learned = fit_class(np.concatenate(px))
        prior = self._calibrated[name]
        n = float(sum(len(p) for p in px))
        w = PRIOR_PX / (PRIOR_PX + n)
        mean = w * prior.mean + (1 - w) * learned.mean
        # The mixture's spread: each part's own, and how far its mean lies from the whole's.
        cov = (w * (prior.cov + np.outer(prior.mean - mean, prior.mean - mean))
               + (1 - w) * (learned.cov + np.outer(learned.mean - mean, learned.mean - mean)))
        return ColourClass(mean, cov, w * prior.bgr + (1 - w) * learned.bgr)

    def _hull(self, img: np.ndarray, slot: str, player: str,
              current: Mapping[str, ColourClass]) -> np.ndarray | None:
        """The pixels (at most SAMPLE_PX) of the hull of `player`'s canoe alone on
        `slot`, None when no hull is found there or it looks likelier another canoe
        colour than its own."""
        lone = find_slot_canoe(img, self.board, slot, player, self.scale)
        if lone is None or len(lone.hull[0]) < LEAST_PX * self.scale ** 2:
            return None
        px = img[lone.hull].astype(np.float64)
        middle = features(np.median(px, axis=0))[None]
        cost = {n: float(squared_distance(middle, c)[0] + c.log_det)
                for n, c in current.items() if n.startswith("canoe:")}
        if min(cost, key=cost.__getitem__) != f"canoe:{player}":
            return None
        step = max(1, len(px) // SAMPLE_PX)
        return px[::step][:SAMPLE_PX]


def _moved(old: ColourClass, new: ColourClass) -> bool:
    """Whether `new` differs from `old` enough to classify with (MOVED, SPREAD)."""
    far = float(squared_distance(new.mean[None], old)[0]) ** 0.5
    return far >= MOVED or abs(new.log_det - old.log_det) >= np.log(SPREAD)


__all__ = ["LEAST_PX", "MAX_AGE", "PRIOR_PX", "REFRESH", "SAMPLE_PX", "HullLooks"]
