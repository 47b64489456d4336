"""A hull's outline holds its inside.

Under a lamp a dark hull's inside can look paler than its rim and take the class of the
board around it (a brown hull's inside on a brown dock takes the print's): only the rim
is then of the hull's colour class, too thin to be a hull by itself, though a hull's
outline it plainly is. The canoes stage (``canoes.CanoeFinder``) counts what such an
outline encloses as part of the hull when the two make a whole hull, and judges the
hull's colour by its pixels of its class alone.
"""

from __future__ import annotations

import cv2
import numpy as np


def hull_insides(outline: np.ndarray, labels: np.ndarray, idx: int, is_canoe: np.ndarray,
                 hull_px: float) -> np.ndarray:
    """What the outlines in a mask (uint8) of canoe colour class `idx` enclose that
    could be a hull's inside, as a bool mask: each hole no bigger than a hull
    (`hull_px` pixels) and not mostly of another canoe's colour (`is_canoe`: class
    index -> bool), by the classes `labels` of the same pixels. (A rim of this colour
    around a canoe of another colour is that canoe's dark edge.) A hole touching the
    mask's edge is not enclosed."""
    held = np.zeros(outline.shape, bool)
    holes = (outline == 0).astype(np.uint8)
    k, cc, st, _ = cv2.connectedComponentsWithStats(holes, connectivity=4)
    if k <= 2:
        return held
    edge = np.unique(np.concatenate([cc[0], cc[-1], cc[:, 0], cc[:, -1]]))
    for j in range(1, k):
        if j in edge or st[j, cv2.CC_STAT_AREA] > hull_px:
            continue
        x, y, w, h = st[j, :4]
        hole = cc[y:y + h, x:x + w] == j
        there = labels[y:y + h, x:x + w][hole]
        if np.count_nonzero(is_canoe[there] & (there != idx)) * 2 < len(there):
            held[y:y + h, x:x + w] |= hole
    return held


def own_colours(img: np.ndarray, labels: np.ndarray | None, idx: int, ys: np.ndarray,
                xs: np.ndarray) -> np.ndarray:
    """The colours of a hull's pixels (ys, xs) of the board image `img` that are of its
    colour class `idx` (all of them without `labels`, or when none is)."""
    if labels is not None:
        of = labels[ys, xs] == idx
        if of.any():
            ys, xs = ys[of], xs[of]
    return img[ys, xs]


__all__ = ["hull_insides", "own_colours"]
