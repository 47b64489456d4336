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
>>> detector.profile = hulls.learn(corrected, state.canoes, detector.profile)  # doctest: +SKIP

It does not drift into error: a hull its state puts there that looks likelier another
colour's than its own (the state is wrong there, a move the players will put right) is
not learned from, nor a patch too small for a hull; a class that would make a patch of
its colour bigger than a canoe shows where the board alone lies (an empty disc; the
print, but where calibration saw it take that colour) is not used: a hull's edge
blurred into the water, taken for its colour, would have it find canoes on the discs,
and hands in the print. Nor one with which the picture it was learned from, whose
state is known, is read with more canoes against that state than before
(``misreads_of``). A slot's look older than MAX_AGE confirmed pictures no longer counts
(the light has moved on). Not kept over a restart (``resume``): the next confirmed
picture teaches it again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

import cv2
import numpy as np

from companion.rules.state import Canoe

from .board import Board
from .dock_canoes import find_slot_canoe
from .masks import ring_pixels
from .profile import (
    GROUND_CELL_MM,
    ColourClass,
    ColourProfile,
    features,
    fit_class,
    squared_distance,
)
from .thresholds import HULL_SHOWS

if TYPE_CHECKING:
    from .detect import Detector

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
              profile: ColourProfile, bare: tuple[np.ndarray, np.ndarray] | None = None,
              edge: np.ndarray | None = None,
              misreads: Callable[[ColourProfile], int] | None = None) -> ColourProfile:
        """Learn from a confirmed picture (`img`: the light-corrected board image) of a
        state whose canoes are `canoes` (player -> (place, gem) each). `profile`: the one
        the detector classifies with now; `bare`: the pixels (ys, xs) where no piece may
        lie (``Detector.print_only``); `edge`: the board's edge (``Detector.edge``);
        `misreads`: how many canoes this picture is read with against its state, with a
        profile (``misreads_of``). Returns the profile to classify with from now on:
        `profile` itself when no canoe class changed enough (MOVED, SPREAD), or every one
        that did would make a patch of its colour where the board alone lies
        (``_makes_a_hull``) or read this very picture worse."""
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
                px = self._hull(img, place, player, profile.classes)
                if px is not None:
                    self._seen[(name, place)] = (self._pictures, px)
                    learned.add(name)
        for key in [k for k, (when, _) in self._seen.items()
                    if self._pictures - when >= MAX_AGE]:
            del self._seen[key]
        for name in sorted(learned):
            fitted = self.fitted(name)
            if fitted is None or not _moved(profile.classes[name], fitted):
                continue
            trial = profile.with_classes({name: fitted})
            if self._makes_a_hull(img, on, bare, edge, profile, trial, name):
                continue
            if misreads is not None and misreads(trial) > misreads(profile):
                continue
            profile = trial
        return profile

    def _makes_a_hull(self, img: np.ndarray, on: Counter[str],
                      bare: tuple[np.ndarray, np.ndarray] | None,
                      edge: np.ndarray | None, profile: ColourProfile, trial: ColourProfile,
                      name: str) -> bool:
        """Whether `trial` (`profile` with class `name` learned) would classify as that
        class a patch bigger than HULL_SHOWS of a hull, and bigger than any `profile`
        does, where it would be taken for a piece or a hand: on a disc no canoe lies
        on (a canoe where none lies), or on the print where no piece may lie (`bare`)
        joined to the board's `edge` (a hand reaching in), but where calibration saw the
        print take the class (``ColourProfile.ground_map``: a patch of earth a brown
        hull's class took in there is no hand)."""
        shape = (img.shape[0], img.shape[1])
        discs = np.zeros(shape, bool)
        r = self.board.disc_radius_mm
        for slot, centre in self.board.slots.items():
            if not on[slot]:
                discs[ring_pixels(shape, self.scale, centre, 0, 0.85 * r)] = True
        printed = np.zeros(shape, bool)
        if bare is not None:
            printed[bare] = True
            seen = (profile.ground_map or {}).get(name)
            if seen is not None:
                ys, xs = np.nonzero(printed)
                cy = np.clip((ys / self.scale / GROUND_CELL_MM).astype(int), 0, seen.shape[0] - 1)
                cx = np.clip((xs / self.scale / GROUND_CELL_MM).astype(int), 0, seen.shape[1] - 1)
                printed[ys[seen[cy, cx]], xs[seen[cy, cx]]] = False
        reach = edge if edge is not None else np.zeros(shape, bool)
        index = profile.names.index(name)
        least = HULL_SHOWS * profile.sizes_mm2["canoe"] * self.scale ** 2
        now, then = (_largest((p.classify(img) == index) & (discs | printed), discs | reach)
                     for p in (profile, trial))
        return then > max(now, least)

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
        # Each part's own spread, not how far apart they lie: a class that follows the
        # light, not one that spans both lights (and the print between them).
        cov = w * prior.cov + (1 - w) * learned.cov
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


def misreads_of(detector: Detector, img: np.ndarray, canoes: Mapping[str, Sequence[Canoe]]
                ) -> Callable[[ColourProfile], int]:
    """How many canoes `detector`'s canoe stage reads a confirmed picture (`img`: its
    light-corrected board image) with against its state (whose canoes are `canoes`),
    classifying with a given profile: per colour and place, the canoes found more or
    fewer than the state has there, and a player's two canoes for a blob of one colour
    too big for them (read as a hand: the view would never be still)."""
    expected: Counter[tuple[str, str | None]] = Counter(
        (player, place) for player, held in canoes.items() for place, _ in held)

    def count(profile: ColourProfile) -> int:
        kept = detector.profile
        detector.profile = profile   # (the canoe stage measures hulls by its profile)
        try:
            labels = profile.classify(img)
            found = detector._canoes(img, labels, detector._is_canoe[labels]
                                     & detector.canoe_area)
        finally:
            detector.profile = kept
        seen: Counter[tuple[str, str | None]] = Counter()
        crowds = 0
        for player, (hulls, crowd) in found.items():
            crowds += crowd is not None
            for ys, xs in hulls:
                seen[(player, detector.board.place_at(detector._middle(ys, xs)))] += 1
        places = set(seen) | set(expected)
        return int(sum(abs(seen[k] - expected[k]) for k in places)) + 2 * crowds

    return count


def _largest(mask: np.ndarray, touching: np.ndarray) -> int:
    """The pixels of the largest 8-connected patch of a mask that has a pixel in
    `touching` (0 for none)."""
    n, parts, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8),
                                                          connectivity=8)
    if n < 2:
        return 0
    touched = np.unique(parts[touching & mask])
    areas = stats[touched[touched > 0], cv2.CC_STAT_AREA]
    return int(areas.max()) if len(areas) else 0


def _moved(old: ColourClass, new: ColourClass) -> bool:
    """Whether `new` differs from `old` enough to classify with (MOVED, SPREAD)."""
    far = float(squared_distance(new.mean[None], old)[0]) ** 0.5
    return far >= MOVED or abs(new.log_det - old.log_det) >= np.log(SPREAD)


__all__ = ["misreads_of", "LEAST_PX", "MAX_AGE", "PRIOR_PX", "REFRESH", "SAMPLE_PX", "HullLooks"]
