"""How big the pieces look at this table: a hull, a gem and the cloud, in mm² of their
colour class, measured on the calibration photos (``companion calibrate profile``)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from .board import Board
from .detect import Detector
from .dock_canoes import HULL_MM
from .known import BoardUnseen, KnownBoard, PlaceError
from .locate import BoardLocator
from .masks import ring_pixels
from .profile import ColourProfile

# A hull's colour class covers a whole hull when the rectangle around it is about a
# canoe's size (HULL_MM): this much of it or more, and short of the side walls and blur
# making it look this much bigger. A class that misses most of its hull (glare, a print
# of the hull's colour taking the rest) says nothing of how big a hull looks: on a tuned
# world's layout photos (w107) two hulls' classes measured 17 x 11 and 16 x 12 mm, and
# with such hulls the median over all ten came to 38 x 12 mm and 320 mm².
WHOLE_LOW = (0.75, 0.6)
WHOLE_HIGH = (1.5, 1.6)


def measure_sizes(board: Board, profile: ColourProfile, images: list[np.ndarray],
                  px_per_mm: float, known: KnownBoard | None = None,
                  base: ColourProfile | None = None) -> dict[str, float]:
    """How big a hull, a gem and the cloud look (mm² of their colour class), measured
    on the photos: the median over the known board's canoes alone on a slot whose
    colour class shows a whole hull, and its cloud. Sizes the photos do not show are
    `base`'s."""
    known = known or KnownBoard.layout()
    det = Detector(board, profile, px_per_mm)
    s2 = px_per_mm ** 2
    hulls: list[tuple[float, float, float, float]] = []   # area, box, long, short side
    gem: list[float] = []
    cloud: list[float] = []
    k = max(3, int(round(3 * px_per_mm)) | 1)
    close = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))

    def hull_of(labels: np.ndarray, area: tuple[np.ndarray, np.ndarray], c: str) -> None:
        ys, xs = area
        hull = labels[ys, xs] == profile.index(f"canoe:{c}")
        area_mm2 = np.count_nonzero(hull) / s2
        mask: np.ndarray = np.zeros(labels.shape, np.uint8)
        mask[ys[hull], xs[hull]] = 1
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, close)
        n, parts, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        if n > 1:
            big = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
            py, px = np.nonzero(parts == big)
            (_, _), (bw, bh), _ = cv2.minAreaRect(np.column_stack([px, py]).astype(np.float32))
            hulls.append((area_mm2, bw * bh / s2, max(bw, bh) / px_per_mm,
                          min(bw, bh) / px_per_mm))
        else:
            hulls.append((area_mm2, 0.0, 0.0, 0.0))

    for image in images:
        where = BoardLocator(board).locate(image)
        if where is None:
            continue
        labels = det.prepare(image, where)[1]
        h, w = labels.shape
        for slot, (c, g) in known.lone_canoes().items():
            hull_of(labels, ring_pixels((h, w), px_per_mm, board.slots[slot], 0, 26.0), c)
            if g is not None:
                ys, xs = ring_pixels((h, w), px_per_mm, board.slots[slot], 0, 6.5)
                # The gem is what interrupts the hull in the canoe's middle.
                gem.append(np.count_nonzero(labels[ys, xs] != profile.index(f"canoe:{c}"))
                           / s2)
        ys, xs = ring_pixels((h, w), px_per_mm, board.weather_mm[known.weather], 0, 16.0)
        cloud.append(np.count_nonzero(labels[ys, xs] == profile.index("cloud")) / s2)
    if not hulls and not cloud:
        raise BoardUnseen("the board's markers are not visible in the photos")
    sizes = {**hull_sizes(hulls), "gem": float(np.median(gem)) if gem else 0.0,
             "cloud": float(np.median(cloud))}
    if base is not None:
        # The sizes are of pieces as the detector sees them on the river (a hull on a
        # disc, water blurred into its edge; a hull on the dock shows half as big again):
        # with no canoe alone on a slot (none whose class shows a whole hull), or no gem
        # in one, they are kept from `base`.
        whole = any(whole_hull(long, short) for _, _, long, short in hulls)
        keep = [] if whole else ["canoe", "canoe_box", "canoe_long_mm", "canoe_short_mm"]
        for name in keep + ([] if gem else ["gem"]):
            sizes[name] = base.sizes_mm2[name]
    for name, v in sizes.items():
        if not v > 0 or math.isnan(v):
            raise PlaceError(f"no {name.split('_')[0]} was seen where {known.name} puts one")
    return sizes


def whole_hull(long_mm: float, short_mm: float) -> bool:
    """Whether a hull's colour class, by the rectangle around it, shows a whole hull
    (WHOLE_LOW, WHOLE_HIGH)."""
    return all(lo * mm <= side <= hi * mm for side, mm, lo, hi
               in zip((long_mm, short_mm), HULL_MM, WHOLE_LOW, WHOLE_HIGH, strict=True))


def hull_sizes(hulls: Sequence[tuple[float, float, float, float]]) -> dict[str, float]:
    """How big a hull looks, from each calibration hull's colour class (its area, the
    area of the rectangle around it and that rectangle's long and short side, mm² and
    mm): the medians over those showing a whole hull (``whole_hull``), or over all when
    none does, what they show being all there is to go by."""
    whole = [h for h in hulls if whole_hull(h[2], h[3])] or list(hulls)
    median = np.median(np.array(whole, np.float64), axis=0) if whole else np.zeros(4)
    return {"canoe": float(median[0]), "canoe_box": float(median[1]),
            "canoe_long_mm": float(median[2]), "canoe_short_mm": float(median[3])}


__all__ = ["hull_sizes", "measure_sizes", "whole_hull"]
