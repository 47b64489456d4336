"""Which deposits' piles changed between two pictures: a gem taken from a pile, or put
on one, stands out of the change around it.

>>> plain, faint, spots = pile_changes(detector, most, least=10.0)  # doctest: +SKIP

``conditioned`` asks this of the largest channel's change between the pictures before
and after a move (``surface.channel_most``). A pile's change is measured less the
change around it, so that a canoe's shadow moving beside it, or the light correction
brightening it, is not a gem; a gem too faint for that (a clear gem on a grey print) is
looked for as a gem-wide patch (FAINT) or a spot (``pile_spots``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import cv2
import numpy as np

from .masks import deposit_pixels
from .pile_spots import spotted
from .surface import PIXEL_CHANGE
from .thresholds import _odd

if TYPE_CHECKING:
    from .detect import Detector

# A deposit's place name among a picture's changed places: "deposit:violet".
DEPOSIT = "deposit:"
# A deposit's pixel changed when a channel moved more than this many levels over the
# change around it (PILE_AROUND_MM) and over the pictures' own noise (3x their median
# difference): a clear gem on its pile differs from it by 20-30 levels only (measured
# on the tuned worlds), a canoe from the river by 60+; a still view, a mean of frames,
# has a noise of about a level. A deposit changed when a whole gem's area did: a gem
# taken off a pile or dropped on one changes all of it (or, fainter, a gem-wide patch
# of it changed together: FAINT). (Measured on the tuned games'
# consecutive stable frames, 570 deposit pairs, with the change around taken out: no
# pile seen changed that did not, 40 of 43 that did, with the layout calibration; 38 of
# 43 with the setup's, where 16 piles had been seen to change that did not.)
DEPOSIT_CHANGE = 10
# ... over the change around it, the median over this many mm: wider than a gem (5-8
# mm), so that a gem stands out of it, narrower than a shadow's or a light's gradient.
PILE_AROUND_MM = 16.0
# A gem whose pixels each change by less than DEPOSIT_CHANGE (a clear gem on a grey
# print: its soft edge, the sensor's noise over its middle) still changes a gem-wide
# patch of its pile together: pixels that moved over this share of the threshold,
# where the pile's own pixels within a gem's width did too on average, count towards
# the pile's change. (Tuned games, ``benchmarks/worlds_piles.py``: clear takes seen
# 35 -> 41 of 72, gems put seen 4 -> 8 of 15, no unchanged pile of 2,620 seen to change;
# at 0.3 one was, a yellow pile, from the sensor's noise alone.)
FAINT = 0.4


def pile_changes(detector: Detector, most: np.ndarray, least: float
               ) -> tuple[np.ndarray, np.ndarray, set[str]]:
    """Where, over the deposits, a pixel's change less the change around it (the median
    over PILE_AROUND_MM) exceeds `least`: what a gem taken or put changes stands out of
    its pile; a smooth change over the whole pile does not (a canoe's shadow moving next
    to it, or the light correction, which follows the pieces' shading, brightening it).
    False elsewhere. (The median is taken around each deposit whose reach changed by
    more than FAINT of `least` at all, not over the whole board: it is most of a judged
    view's cost.) And, apart, the pixels that exceed FAINT of `least` where the pile's own
    pixels within a gem's width of them do on average: a faint gem's patch (``FAINT``).
    And the deposits (their place names) whose change holds a gem's spot: its disc's
    mean change standing out of the change around it (``pile_spots``), within a gem's
    reach of the pile (a pile's gems lie over its printed edge)."""
    out = np.zeros(most.shape, bool)
    faint = np.zeros(most.shape, bool)
    spots: set[str] = set()
    k = _odd(PILE_AROUND_MM * detector.scale)
    g = gem_width(detector)
    for (place, ys, xs, (y0, y1, x0, x1)), (pile, share, reach) in zip(
            deposit_boxes(detector), _pile_windows(detector), strict=True):
        if int(most[y0:y1, x0:x1][reach].max()) <= FAINT * least:
            continue  # (nothing came or went there)
        part = np.ascontiguousarray(most[y0:y1, x0:x1])
        over = cv2.subtract(part, cv2.medianBlur(part, k))
        py, px = ys - y0, xs - x0
        out[ys, xs] = over[py, px] > least
        # (The mean over the pile's pixels only, where they fill half a gem's width
        # around: a canoe's bow changing the board beside it is not the pile's.)
        mean = cv2.blur(over.astype(np.float32) * pile, (g, g)) / np.maximum(share, 1e-6)
        patch = cv2.dilate(((mean > FAINT * least) & (share >= 0.5)).astype(np.uint8),
                           np.ones((g, g), np.uint8)).astype(bool)
        # (Nor beside a place's change off the pile: a canoe's bow come or gone there
        # blurs into the pile's edge.)
        beside = cv2.dilate(((part > PIXEL_CHANGE) & (pile == 0)).astype(np.uint8),
                            np.ones((g, g), np.uint8)).astype(bool)
        faint[ys, xs] = (patch & ~beside)[py, px] & (over[py, px] > FAINT * least)
        # (A canoe's change beside the pile is in the spot's ring, or peaks beyond the
        # reach: no spot of the pile's, ``pile_spots``.)
        if spotted(over, reach, g, FAINT * least):
            spots.add(place)
    return out, faint, spots


def gem_width(detector: Detector) -> int:
    """A gem's width in pixels (odd)."""
    return _odd(2 * math.sqrt(detector.gem_px / math.pi))


def _pile_windows(detector: Detector) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Per deposit of ``deposit_boxes``, in its rectangle: its pixels (1.0, else 0.0),
    the share of them within a gem's width around each pixel, and where a gem of its
    pile may lie (its pixels and half a gem's width around them: bool), worked out once
    per detector."""
    cached = getattr(detector, "_pile_windows", None)
    if cached is None:
        g = gem_width(detector)
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (g, g))
        cached = []
        for _, ys, xs, (y0, y1, x0, x1) in deposit_boxes(detector):
            pile = np.zeros((y1 - y0, x1 - x0), np.float32)
            pile[ys - y0, xs - x0] = 1.0
            reach = cv2.dilate(pile.astype(np.uint8), disc).astype(bool)
            cached.append((pile, cv2.blur(pile, (g, g)), reach))
        detector._pile_windows = cached  # type: ignore[attr-defined]
    return cached


def deposit_boxes(detector: Detector
                   ) -> list[tuple[str, np.ndarray, np.ndarray, tuple[int, int, int, int]]]:
    """Each deposit's place name, its pixels (ys, xs) and the rectangle (y0, y1, x0,
    x1) around them, with a margin for the median around them (so that the median at
    every pixel of the deposit is the board's own), worked out once per detector."""
    cached = getattr(detector, "_deposit_boxes", None)
    if cached is None:
        h, w = detector.shape
        pad = int(PILE_AROUND_MM * detector.scale)
        cached = []
        for name, (ys, xs) in deposit_pixels(detector.board, detector.shape,
                                             detector.scale).items():
            if not len(ys):
                continue
            cached.append((DEPOSIT + name, ys, xs,
                           (max(int(ys.min()) - pad, 0), min(int(ys.max()) + pad + 1, h),
                            max(int(xs.min()) - pad, 0), min(int(xs.max()) + pad + 1, w))))
        detector._deposit_boxes = cached  # type: ignore[attr-defined]
    return cached


__all__ = ["DEPOSIT", "DEPOSIT_CHANGE", "FAINT", "PILE_AROUND_MM", "deposit_boxes", "gem_width",
           "pile_changes"]
