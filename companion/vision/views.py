"""Are two pictures of one view? The same camera position (``same_view``), or a camera
knocked on its stand between them (``knocked_only``) whose straightened board still
compares place by place (``print_agrees``). A move is compared with the picture before
it only then (``memory.BoardMemory``); else the reading alone must do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .surface import PIXEL_CHANGE, largest_change

if TYPE_CHECKING:
    from .detect import Detector
    from .locate import Location

# Two pictures are of the same view when the board's corners moved less than this many
# pixels between them.
SAME_VIEW_PX = 3.0
# A knocked camera moved the board's picture by at most this share of its diagonal
# (``knocked_only``): a turn of 0.5-1.5 degrees moves it by 1.3-3.2% (the worlds' lenses);
# the synthetic camera put down anew (``render.Nuisance.mild``'s poses) by 10-43%.
KNOCK = 0.05
# Two pictures compare place by place (``print_agrees``) while at most this share of the
# print where no piece may lie changed: 0.00-0.11% between two pictures from one camera
# position (a move made between them), 0.00% after the camera was turned 0.5-1.5 degrees
# but once (1.87%, on w110: not looked into), 0.0-0.7% with the two registered 1.25 mm
# (one pixel) apart, 1.5-6.5% at 2.5 mm (tuned w101, w105, w110: their banks' print is
# mostly too plain to show a smaller slip).
KNOCKED_SHARE = 0.005


def same_view(a: Location, b: Location) -> bool:
    """Whether two locations of the board are of one camera position (the board's
    corners, as the homographies put them, moved less than SAME_VIEW_PX)."""
    return float(np.abs(_square(a) - _square(b)).max()) < SAME_VIEW_PX


def knocked_only(a: Location, b: Location) -> bool:
    """Whether the board's picture moved between two locations by no more than a
    camera knocked on its stand moves it (KNOCK: turned a degree or two, or slid a few
    centimetres, which shifts a piece's top against the board by under a pixel of the
    straightened board), not put down elsewhere (which shows the pieces' sides)."""
    pa, pb = _square(a), _square(b)
    return float(np.abs(pa - pb).max()) <= KNOCK * float(np.linalg.norm(pa[2] - pa[0]))


def print_agrees(detector: Detector, before: np.ndarray, after: np.ndarray) -> bool:
    """Whether two light-corrected board images (``Reading.corrected``) are registered
    as two pictures from one camera position are: where no move changes anything (the
    print where no piece may lie) at most KNOCKED_SHARE of the pixels changed. A camera
    knocked a little (turned, slid) straightens the same board millimetres from another
    position: its pictures still compare, place by place, with the ones before. (The
    flat print agrees from any position: only ``knocked_only`` tells a camera put down
    elsewhere, whose pictures show the pieces from another side.)"""
    bare = detector.print_only
    if not bare[0].size:
        return False
    most = largest_change(before, after)[bare]
    return float(np.count_nonzero(most > PIXEL_CHANGE)) <= KNOCKED_SHARE * most.size


def _square(where: Location) -> np.ndarray:
    """Where a location puts the corners of the board's first 500 mm square in the
    picture (pixels)."""
    corners = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]) * 500.0
    p = np.c_[corners, np.ones(4)] @ np.linalg.inv(where.homography).T
    return p[:, :2] / p[:, 2:3]


__all__ = ["KNOCK", "KNOCKED_SHARE", "SAME_VIEW_PX", "knocked_only", "print_agrees",
           "same_view"]
