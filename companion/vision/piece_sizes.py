"""How big the pieces look at this table: a hull, a gem and the cloud, in mm² of their
colour class, measured on the calibration photos (``companion calibrate profile``)."""

from __future__ import annotations

import math

import cv2
import numpy as np

from .board import Board
from .detect import Detector
from .known import BoardUnseen, KnownBoard, PlaceError
from .locate import BoardLocator
from .masks import ring_pixels
from .profile import ColourProfile


def measure_sizes(board: Board, profile: ColourProfile, images: list[np.ndarray],
                  px_per_mm: float, known: KnownBoard | None = None,
                  base: ColourProfile | None = None) -> dict[str, float]:
    """How big a hull, a gem and the cloud look (mm² of their colour class), measured
    on the photos: the median over the known board's canoes alone on a slot and its
    cloud. Sizes the photos do not show are `base`'s."""
    known = known or KnownBoard.layout()
    det = Detector(board, profile, px_per_mm)
    s2 = px_per_mm ** 2
    canoe: list[float] = []
    box: list[float] = []
    gem: list[float] = []
    cloud: list[float] = []
    long_side: list[float] = []
    short_side: list[float] = []
    k = max(3, int(round(3 * px_per_mm)) | 1)
    close = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))

    def hull_of(labels: np.ndarray, area: tuple[np.ndarray, np.ndarray], c: str) -> None:
        ys, xs = area
        hull = labels[ys, xs] == profile.index(f"canoe:{c}")
        canoe.append(np.count_nonzero(hull) / s2)
        mask: np.ndarray = np.zeros(labels.shape, np.uint8)
        mask[ys[hull], xs[hull]] = 1
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, close)
        n, parts, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        if n > 1:
            big = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
            py, px = np.nonzero(parts == big)
            (_, _), (bw, bh), _ = cv2.minAreaRect(np.column_stack([px, py]).astype(np.float32))
            box.append(bw * bh / s2)
            long_side.append(max(bw, bh) / px_per_mm)
            short_side.append(min(bw, bh) / px_per_mm)

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
    if not canoe and not cloud:
        raise BoardUnseen("the board's markers are not visible in the photos")
    sizes = {"canoe": float(np.median(canoe or [0])), "canoe_box": float(np.median(box or [0])),
             "canoe_long_mm": float(np.median(long_side or [0])),
             "canoe_short_mm": float(np.median(short_side or [0])),
             "gem": float(np.median(gem)) if gem else 0.0,
             "cloud": float(np.median(cloud))}
    if base is not None:
        # The sizes are of pieces as the detector sees them on the river (a hull on a
        # disc, water blurred into its edge; a hull on the dock shows half as big again):
        # with no canoe alone on a slot, or no gem in one, they are kept from `base`.
        keep = ["canoe", "canoe_box", "canoe_long_mm", "canoe_short_mm"] if not canoe else []
        for name in keep + ([] if gem else ["gem"]):
            sizes[name] = base.sizes_mm2[name]
    for name, v in sizes.items():
        if not v > 0 or math.isnan(v):
            raise PlaceError(f"no {name.split('_')[0]} was seen where {known.name} puts one")
    return sizes


__all__ = ["measure_sizes"]
