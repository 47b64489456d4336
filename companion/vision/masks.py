"""The fixed masks of one board at one resolution: where pieces may lie, the rings of
the slots' discs, the weather track, the band along the edge an arm crosses. Computed
once from the board file; nothing here looks at a frame.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.rules import SLOTS

from .board import CANOE_REACH, Board, Polygon
from .stage import Stage
from .thresholds import (
    CLEAR_OF_EDGE_MM,
    EDGE_BAND_MM,
    HAND_STEP,
)


def polygon_mask(shape: tuple[int, ...], poly: Polygon, px_per_mm: float) -> np.ndarray:
    """A board polygon (mm) filled in an image of `shape` at `px_per_mm` (uint8, 1 inside)."""
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(np.asarray(poly, np.float64) * px_per_mm).astype(np.int32)], 1)
    return mask


def pixels(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The (ys, xs) of a 2-D mask's nonzero pixels (``np.nonzero``, typed as the pair it
    is for two dimensions)."""
    ys, xs = np.nonzero(mask)
    return ys, xs


def deposit_pixels(board: Board, shape: tuple[int, ...], px_per_mm: float
                   ) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each deposit's pixels, short of its edge (a printed border is not a gem)."""
    return {name: pixels(cv2.erode(polygon_mask(shape, poly, px_per_mm),
                                   np.ones((5, 5), np.uint8)))
            for name, poly in board.deposits.items()}


def ring_pixels(shape: tuple[int, int], scale: float, centre: tuple[float, float],
                r0: float, r1: float) -> tuple[np.ndarray, np.ndarray]:
    """The pixels (ys, xs) of an image of `shape` at `scale` px/mm whose middle lies
    from `r0` to `r1` mm of a board point: a disc (r0 0) or a ring around it."""
    h, w = shape
    cx, cy = centre
    x0, x1 = int(max((cx - r1) * scale, 0)), int(min((cx + r1) * scale + 1, w))
    y0, y1 = int(max((cy - r1) * scale, 0)), int(min((cy + r1) * scale + 1, h))
    yy, xx = np.mgrid[y0:y1, x0:x1]
    d = np.hypot((xx + 0.5) / scale - cx, (yy + 0.5) / scale - cy)
    ys, xs = np.nonzero((d >= r0) & (d <= r1))
    return ys + y0, xs + x0


class BoardMasks(Stage):
    """The masks stage of ``Detector`` (its state lives on the detector: see
    ``Detector.__init__``)."""

    def _px(self, pts: Polygon | list[tuple[float, float]]) -> np.ndarray:
        return np.round(np.asarray(pts, np.float64) * self.scale).astype(np.int32)

    def _build_masks(self) -> None:
        b, s = self.board, self.scale
        h, w = self.shape
        m = int(round(CLEAR_OF_EDGE_MM * s))
        valid = np.zeros((h, w), np.uint8)
        valid[m:h - m, m:w - m] = 1
        side = b.markers.size_mm
        from .markers import PAPER_MARGIN  # the paper is not looked at for pieces

        half = side * (0.5 + PAPER_MARGIN) + 1
        for cx, cy in b.markers.centres_mm.values():
            cv2.rectangle(valid, tuple(self._px([(cx - half, cy - half)])[0]),
                          tuple(self._px([(cx + half, cy + half)])[0]), 0, -1)
        # Deposits hold loose gems, never canoes: they are not looked at for pieces.
        for poly in b.deposits.values():
            cv2.fillPoly(valid, [self._px(poly)], 0)
            cv2.polylines(valid, [self._px(poly)], True, 0, max(1, int(round(2 * s))))
        self.valid = valid.astype(bool)
        edge = np.ones((h, w), np.uint8)
        e = int(round(EDGE_BAND_MM[1] * s))
        edge[e:h - e, e:w - e] = 0
        self.edge = edge.astype(bool) & self.valid
        self.deposit_mask = np.zeros((h, w), np.uint8)
        for poly in b.deposits.values():
            self.deposit_mask |= polygon_mask((h, w), poly, s)
        r = b.disc_radius_mm
        yy, xx = np.mgrid[0:h, 0:w]
        self._annulus = {}
        self._outside = {}
        for slot, (cx, cy) in b.slots.items():
            d = np.hypot((xx + 0.5) / s - cx, (yy + 0.5) / s - cy)
            self._annulus[slot] = pixels((d >= 0.5 * r) & (d <= 0.88 * r))
            # The water just outside the disc's rim (a disc's tint is told against it).
            self._outside[slot] = pixels((d >= 1.1 * r) & (d <= 1.4 * r) & self.valid)
        pts = list(b.weather_mm.items())
        step = min(math.dist(a[1], c[1]) for a in pts for c in pts if a[0] != c[0])
        # The cloud: its middle against the ring around it, at each track position.
        cloud_r = math.sqrt(self.profile.sizes_mm2["cloud"] / math.pi)
        self._weather = {}
        for value, (cx, cy) in pts:
            d = np.hypot((xx + 0.5) / s - cx, (yy + 0.5) / s - cy)
            inner = pixels(d <= 0.6 * cloud_r)
            outer = pixels((d >= 1.35 * cloud_r) & (d <= min(1.9 * cloud_r, 0.5 * step)))
            self._weather[value] = (inner, outer)
        self.place_mask = {}
        for slot, c in b.slots.items():
            mk = np.zeros((h, w), np.uint8)
            cv2.circle(mk, tuple(self._px([c])[0]), int(1.3 * r * s), 1, -1)
            self.place_mask[slot] = mk.astype(bool)
        for name, poly in (("D", b.dock), ("F", b.falls)):
            self.place_mask[name] = polygon_mask((h, w), poly, s).astype(bool)
        # Canoes lie only where a place is: on or beside a slot's disc, on the dock,
        # below the falls. Elsewhere (weather track, banks) nothing is taken for one.
        near = np.zeros((h, w), np.uint8)
        for c in b.slots.values():
            cv2.circle(near, tuple(self._px([c])[0]), int(CANOE_REACH * r * s), 1, -1)
        self.canoe_area = (near.astype(bool) | self.place_mask["D"] | self.place_mask["F"]) \
            & self.valid
        # All the slots' rings in one index (and the box around them), read at once;
        # every other pixel of a ring is plenty for its median colour.
        ring_ys = np.concatenate([self._annulus[slot][0][::2] for slot in SLOTS])
        ring_xs = np.concatenate([self._annulus[slot][1][::2] for slot in SLOTS])
        ends = np.cumsum([len(self._annulus[slot][0][::2]) for slot in SLOTS])
        pad = self._close.shape[0]
        box = (max(int(ring_ys.min()) - pad, 0), min(int(ring_ys.max()) + pad + 1, h),
               max(int(ring_xs.min()) - pad, 0), min(int(ring_xs.max()) + pad + 1, w))
        self._rings = (box, ring_ys, ring_xs,
                       list(zip([0, *ends[:-1].tolist()], ends.tolist(), strict=True)))
        # ... and the box around the water outside them (``disc_contrasts``).
        out_ys = np.concatenate([self._outside[slot][0] for slot in SLOTS])
        out_xs = np.concatenate([self._outside[slot][1] for slot in SLOTS])
        self._outside_box = (max(int(out_ys.min()) - pad, 0),
                             min(int(out_ys.max()) + pad + 1, h),
                             max(int(out_xs.min()) - pad, 0),
                             min(int(out_xs.max()) + pad + 1, w))
        # Where this frame's water is sampled (every third pixel of the river's places).
        probe = np.zeros((h, w), bool)
        probe[::3, ::3] = True
        self._water_probe = pixels(self.canoe_area & probe)
        step = HAND_STEP
        self._valid_small = self.valid[step // 2::step, step // 2::step]
        ys, xs = np.mgrid[step // 2:h:step, step // 2:w:step]
        self._inward_small = np.minimum(np.minimum(xs, w - 1 - xs),
                                        np.minimum(ys, h - 1 - ys)) / s  # mm from the edge
        self._edge_small = self.edge[step // 2::step, step // 2::step]
        self._canoe_area_small = self.canoe_area[step // 2::step, step // 2::step]

    def out_of_view(self, outside: np.ndarray) -> list[str]:
        """What the game is read from that lies (partly) in `outside`, pixels of the
        board the frame does not reach: the places, then "deposits" and "weather" (the
        board file's names of the deposits and the cloud's track). The board around
        them is not needed: the table knows its look from the calibration, and learns
        again only where pieces lie."""
        names = [p for p, mk in self.place_mask.items() if (mk & self.valid & outside).any()]
        if (self.deposit_mask.astype(bool) & outside).any():
            names.append("deposits")
        if any(outside[ys, xs].any() or outside[oys, oxs].any()
               for (ys, xs), (oys, oxs) in self._weather.values()):
            names.append("weather")
        return names

    def piece_area(self) -> np.ndarray:
        """Where pieces may lie: canoe places, deposits (loose gems), the weather track
        (the cloud)."""
        places = self.canoe_area | self.deposit_mask.astype(bool)
        mk = np.zeros(self.shape, np.uint8)
        cloud_r = 1.5 * math.sqrt(self.profile.sizes_mm2["cloud"] / math.pi)
        for c in self.board.weather_mm.values():
            cv2.circle(mk, tuple(self._px([c])[0]), int(round(cloud_r * self.scale)), 1, -1)
        return places | mk.astype(bool)


__all__ = ["BoardMasks", "deposit_pixels", "pixels", "polygon_mask", "ring_pixels"]
