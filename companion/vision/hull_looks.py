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
>>> changed = hulls.learn(corrected, state.canoes, detector.profile)  # doctest: +SKIP
>>> detector.profile = detector.profile.with_classes(changed)     # doctest: +SKIP

It does not drift into error: a hull its state puts there that looks likelier another
colour's than its own (the state is wrong there, a move the players will put right) is
not learned from, nor a patch too small for a hull; a class that would take in more of
the board's own print and empty discs than a hull's worth beyond what it takes in now
is not used (a hull's edge blurred into the water, taken for its colour, would have it
find canoes on every disc); a slot's look older than MAX_AGE confirmed pictures no
longer counts (the light has moved on). Not kept over a restart
(``resume``): the next confirmed picture teaches it again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from companion.rules.state import Canoe

from .board import Board
from .dock_canoes import find_slot_canoe
from .masks import ring_pixels
from .profile import ColourClass, ColourProfile, features, fit_class, squared_distance

# Calibration's class counts as this many hull pixels (about one hull of one photo) among
# those learned at the table: the first picture moves it halfway, a river full of them
# most of the way.
PRIOR_PX = 150
# Pixels taken from one hull (evenly spread over it): every slot counts alike.
SAMPLE_PX = 150
# The board's pixels a class learned is tried on (``_takes_in``).
BOARD_PX = 20000
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
        self._board_mm2 = float(board.size_mm[0] * board.size_mm[1])

    def learn(self, img: np.ndarray, canoes: Mapping[str, Sequence[Canoe]],
              profile: ColourProfile, bare: tuple[np.ndarray, np.ndarray] | None = None
              ) -> dict[str, ColourClass]:
        """Learn from a confirmed picture (`img`: the light-corrected board image) of a
        state whose canoes are `canoes` (player -> (place, gem) each). `profile`: the one
        the detector classifies with now; `bare`: pixels (ys, xs) where no piece may lie
        (``Detector.print_only``). Returns the canoe classes that changed enough to
        classify with (class name -> class), none that would take in more of the board
        (those pixels and the discs the state leaves empty) than a hull's worth beyond
        what the class takes in now; empty when none did."""
        current = profile.classes
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
        board_px: np.ndarray | None = None
        for name in sorted(learned):
            fitted = self.fitted(name)
            if fitted is None or not _moved(current[name], fitted):
                continue
            if board_px is None:
                board_px = self._board_pixels(img, on, bare)
            if self._takes_in(profile, name, fitted, board_px):
                continue
            changed[name] = fitted
        return changed

    def _board_pixels(self, img: np.ndarray, on: Counter[str],
                      bare: tuple[np.ndarray, np.ndarray] | None) -> np.ndarray:
        """The picture's pixels of the board alone (at most BOARD_PX, evenly spread):
        `bare`, and the discs of the slots no canoe lies on."""
        r = self.board.disc_radius_mm
        rings = [ring_pixels(img.shape[:2], self.scale, centre, 0, 0.85 * r)
                 for slot, centre in self.board.slots.items() if not on[slot]]
        parts = [img[ys, xs] for ys, xs in ([bare] if bare is not None else []) + rings]
        px = np.concatenate(parts) if parts else np.zeros((0, 3), np.uint8)
        return px[::max(1, len(px) // BOARD_PX)]

    def _takes_in(self, profile: ColourProfile, name: str, fitted: ColourClass,
                  board_px: np.ndarray) -> bool:
        """Whether `fitted`, as class `name`, would label more of `board_px` than a hull's
        worth (in the share of a hull among the board's pixels) beyond what it labels
        now: then it is not this colour's hull any more but the board's."""
        if not len(board_px):
            return False
        index = profile.names.index(name)
        now = np.count_nonzero(profile.score(board_px)[0] == index)
        trial = replace(profile, classes={**profile.classes, name: fitted}, _lut=None,
                        _cells=None)
        then = np.count_nonzero(trial.score(board_px)[0] == index)
        # (A hull's worth: what one canoe covers of all the board's pixels, sampled alike.)
        hull = len(board_px) * profile.sizes_mm2["canoe"] / self._board_mm2
        return then - now > hull

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


def _moved(old: ColourClass, new: ColourClass) -> bool:
    """Whether `new` differs from `old` enough to classify with (MOVED, SPREAD)."""
    far = float(squared_distance(new.mean[None], old)[0]) ** 0.5
    return far >= MOVED or abs(new.log_det - old.log_det) >= np.log(SPREAD)


__all__ = ["LEAST_PX", "MAX_AGE", "PRIOR_PX", "REFRESH", "SAMPLE_PX", "HullLooks"]
