"""The river, read by where the canoes' looks went: canoes ride their discs (R-RIVER-4).

>>> slots = EmptySlots(detector)                                  # doctest: +SKIP
>>> slots.learn(confirmed.corrected, game.state)                  # doctest: +SKIP
>>> ranked = rank_rivers(slots, before, after, game)              # doctest: +SKIP
>>> ranked[0].branches, ranked[0].score                           # doctest: +SKIP
(('L', 'R'), 0.4)

A river step moves every disc one slot downstream, and the canoes on a disc with it. So
whatever a slot shows on top of its empty look after the river is what some slot showed
before it, or nothing (a new disc); which one, each push of the round's speed and branches
says. Comparing what is on the slots, as colour histograms of the pixels unlike each
slot's empty look, tells the pushes apart without naming a single canoe's colour: the
looks are this picture's own, so a blue canoe on blue water, a gem in the glare of a
lamp, or three canoes crowding one disc move as they are.

A slot's empty look is its pixels in a confirmed picture whose state has no canoe there
(the setup shows them all); discs are transparent, so the print under a slot belongs to
the slot, not to the disc.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from companion.rules import SLOTS, downstream

if TYPE_CHECKING:
    from companion.rules import Game, State

    from .detect import Detector

# A pixel is part of what lies on a slot when one of its channels differs from the slot's
# empty look by more than this (light-corrected levels; a canoe or a gem differs by 60+).
FOREGROUND = 35
# Colour histogram bins per channel: coarse enough that a canoe's shading from one slot
# to the next stays in its bins, fine enough to tell the five hull colours apart.
BINS = 4
# How much of a slot's disc is compared (of its radius): canoes lie on their disc.
REACH = 1.05
# Less than this share of a canoe's area on a slot is nothing on it.
SPECK = 0.4
# The share of its pixels a canoe may lose on another slot's print and stay itself.
SHRINK = 0.3
# The best pushes decide when every push leaving another board mismatches at least
# CLEAR times as much plus APART canoe areas: a canoe's look changes a little from
# slot to slot under the lamp; a canoe on the wrong slot costs its whole area.
CLEAR = 1.5
APART = 1.0


@dataclass(frozen=True)
class RiverRanking:
    """One push sequence of the round's speed, and how far the looks it predicts are
    from the picture after (canoe areas of mismatched pixels, 0 = all went where it says)."""

    branches: tuple[str, ...]
    score: float


def sources(branches: Sequence[str]) -> dict[str, str | None]:
    """For each slot after the pushes, the slot whose disc lies there now (None: a disc
    pushed in behind the rope, empty)."""
    at: dict[str, str | None] = {slot: slot for slot in SLOTS}
    for branch in branches:
        moved: dict[str, str | None] = {}
        for slot, origin in at.items():
            to = downstream(slot, branch)
            if to is None:
                moved[slot] = origin
            elif to != "F":
                moved[to] = origin
        moved["1"] = None
        at = moved
    return at


class EmptySlots:
    """Each slot's look with nothing on it, for one camera position."""

    def __init__(self, detector: Detector) -> None:
        self.detector = detector
        s = detector.scale
        r = detector.board.disc_radius_mm * REACH
        self._boxes: dict[str, tuple[slice, slice, np.ndarray]] = {}
        h, w = detector.shape
        for slot, (cx, cy) in detector.board.slots.items():
            x0, x1 = max(int((cx - r) * s), 0), min(int((cx + r) * s) + 1, w)
            y0, y1 = max(int((cy - r) * s), 0), min(int((cy + r) * s) + 1, h)
            yy, xx = np.mgrid[y0:y1, x0:x1]
            inside = np.hypot((xx + 0.5) / s - cx, (yy + 0.5) / s - cy) <= r
            self._boxes[slot] = (slice(y0, y1), slice(x0, x1), inside)
        self.looks: dict[str, np.ndarray] = {}

    def reset(self) -> None:
        """Forget every look (the camera moved)."""
        self.looks.clear()

    def learn(self, picture: np.ndarray, state: State) -> list[str]:
        """Take the looks of the slots the state leaves empty in this confirmed picture;
        returns those slots."""
        occupied = {at for canoes in state.canoes.values() for at, _ in canoes}
        empty = [slot for slot in SLOTS if slot not in occupied]
        for slot in empty:
            ys, xs, _ = self._boxes[slot]
            self.looks[slot] = picture[ys, xs].copy()
        return empty

    def take_up(self, looks: dict[str, np.ndarray]) -> None:
        """Looks kept from before a restart (``vision.resume``): those of this board's
        slots, of their boxes' size."""
        for slot, look in looks.items():
            if slot in self._boxes:
                ys, xs, inside = self._boxes[slot]
                if look.shape == (*inside.shape, 3):
                    self.looks[slot] = look

    def known(self) -> bool:
        return all(slot in self.looks for slot in SLOTS)

    def on_top(self, picture: np.ndarray, slot: str) -> np.ndarray:
        """The colour histogram (BINS^3 counts) of what lies on a slot in a picture."""
        ys, xs, inside = self._boxes[slot]
        patch = picture[ys, xs]
        b, g, r = cv2.split(cv2.absdiff(patch, self.looks[slot]))
        fore = (cv2.max(cv2.max(b, g), r) > FOREGROUND) & inside
        px = patch[fore].astype(np.int32) * BINS // 256
        index = (px[:, 0] * BINS + px[:, 1]) * BINS + px[:, 2]
        counts = np.bincount(index, minlength=BINS ** 3).astype(np.float64)
        if counts.sum() < SPECK * self.detector.canoe_px:
            return np.zeros((BINS + 2) ** 3)  # a neighbour's tip, a shadow's edge: nothing
        # A colour near a bin's edge falls on either side from one picture to the next:
        # each count is shared with the neighbouring bins.
        cube = np.pad(counts.reshape(BINS, BINS, BINS), 1)
        for axis in range(3):
            cube = 0.5 * cube + 0.25 * (np.roll(cube, 1, axis) + np.roll(cube, -1, axis))
        return cube.ravel()


def rank_rivers(slots: EmptySlots, before: np.ndarray, after: np.ndarray, game: Game
                ) -> list[RiverRanking]:
    """Every push sequence of the round's speed (R-RIVER-1), best first, scored by how
    well the slots' looks after follow their discs from the picture before."""
    speed = game.speed or 0
    if not slots.known():
        raise ValueError("the slots' empty looks are not all known yet")
    was = {slot: slots.on_top(before, slot) for slot in SLOTS}
    now = {slot: slots.on_top(after, slot) for slot in SLOTS}
    nothing = np.zeros_like(now["1"])
    unit = max(slots.detector.canoe_px, 1.0)
    out = []
    for branches in product("LR", repeat=speed):
        come = sources(branches)
        miss = sum(_apart(now[slot], was[src] if src else nothing) for slot, src in come.items())
        out.append(RiverRanking(tuple(branches), miss / unit))
    out.sort(key=lambda r: r.score)
    return out


def river_board(slots: EmptySlots, before: np.ndarray, after: np.ndarray, game: Game
                ) -> dict[str, Any] | None:
    """The board after the river (an observation, vision.md, weather as now) as the
    best pushes of the round's speed put it, when they fit clearly better than any push
    leaving another board (CLEAR times the best's mismatch plus APART canoe areas); else
    None, and the reading decides."""
    ranked = rank_rivers(slots, before, after, game)
    best = layout_after(game, ranked[0].branches)
    for other in ranked[1:]:
        if other.score >= CLEAR * ranked[0].score + APART:
            break
        if layout_after(game, other.branches) != best:
            return None
    return best


def _apart(a: np.ndarray, b: np.ndarray) -> float:
    """How unlike two slots' contents are (pixels): the colours one shows and the other
    does not, weighted by the larger; and what one has more of than the other, beyond
    SHRINK (the same canoe on a print nearer its own colour shows fewer pixels unlike
    it). A canoe where none came costs all of it."""
    na, nb = float(a.sum()), float(b.sum())
    big = max(na, nb)
    if big == 0.0:
        return 0.0
    if min(na, nb) == 0.0:
        return big
    unlike = big * (1.0 - float(np.minimum(a / na, b / nb).sum()))
    return unlike + max(0.0, abs(na - nb) - SHRINK * big)


def layout_after(game: Game, branches: Sequence[str]) -> dict[str, Any]:
    """The observation a perfect camera makes after these pushes (the weather as now)."""
    from companion.rules import River

    from .candidates import scratch_copy
    from .expected import expected_observation

    trial = scratch_copy(game)
    trial.apply(River(len(branches), tuple(branches)))
    return expected_observation(trial.state)





__all__ = ["APART", "BINS", "CLEAR", "FOREGROUND", "REACH", "SHRINK", "SPECK", "EmptySlots",
           "RiverRanking", "layout_after", "rank_rivers", "river_board", "sources"]
