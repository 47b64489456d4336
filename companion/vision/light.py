"""Taking the room's light out of the picture: the white paper around the four markers
is the reference. Its colour at each corner gives a gain per channel there; between the
corners the gain is interpolated, so uneven light, a dim room and a white-balance shift
all come out as the same corrected image.

>>> meter = LightMeter(board, px_per_mm=1.0)
>>> corrected = meter.correct(rectified, visible={0, 1, 2, 3})
"""

from __future__ import annotations

import cv2
import numpy as np

from .board import Board
from .markers import WHITE_BAND

# The value the marker paper has after correction (headroom above it for glare).
PAPER_WHITE = 225.0
SATURATED = 250.0  # a paper white this bright is clipped by the camera
GRID_MM = 40.0  # the gain is computed on a coarse grid and smoothly resized


class LightMeter:
    """Measures the paper white of each marker in rectified board images and corrects
    them. Remembers the last white of a covered marker."""

    def __init__(self, board: Board, px_per_mm: float) -> None:
        self.board = board
        self.scale = px_per_mm
        w = int(round(board.size_mm[0] * px_per_mm))
        h = int(round(board.size_mm[1] * px_per_mm))
        self.shape = (h, w)
        self._bands: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        yy, xx = np.mgrid[0:h, 0:w]
        side = board.markers.size_mm
        lo, hi = side * (0.5 + WHITE_BAND[0]), side * (0.5 + WHITE_BAND[1])
        for i, (cx, cy) in board.markers.centres_mm.items():
            x0, x1 = int((cx - hi) * px_per_mm), int((cx + hi) * px_per_mm) + 1
            y0, y1 = int((cy - hi) * px_per_mm), int((cy + hi) * px_per_mm) + 1
            x0, y0 = max(x0, 0), max(y0, 0)
            dx = np.abs((xx[y0:y1, x0:x1] + 0.5) / px_per_mm - cx)
            dy = np.abs((yy[y0:y1, x0:x1] + 0.5) / px_per_mm - cy)
            cheb = np.maximum(dx, dy)
            ys, xs = np.nonzero((cheb >= lo) & (cheb <= hi))
            self._bands[i] = (ys + y0, xs + x0)
        self.whites: dict[int, np.ndarray] = {}
        self.saturated = False
        cell = GRID_MM * px_per_mm
        gh, gw = max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)
        gy, gx = np.mgrid[0:gh, 0:gw].astype(np.float64)
        self._grid = (gx / (gw - 1) * board.size_mm[0], gy / (gh - 1) * board.size_mm[1])

    def measure(self, rectified: np.ndarray, visible: set[int] | frozenset[int]) -> None:
        """Read the paper white at each visible marker."""
        for i in visible:
            ys, xs = self._bands.get(i, (None, None))
            if ys is None or len(ys) == 0:
                continue
            px = rectified[ys, xs].astype(np.float32)
            # The brightest half of the band: a shadow edge or a finger on the paper
            # only darkens part of it.
            bright = px.sum(axis=1)
            px = px[bright >= np.median(bright)]
            self.whites[i] = np.maximum(np.median(px, axis=0), 1.0)
        # Paper at the top of the camera's range: the light is too bright to be measured,
        # and colours near white are clipped.
        self.saturated = any(float(w.max()) >= SATURATED for w in self.whites.values())

    def gain(self) -> np.ndarray:
        """Per-pixel BGR gain (float32, board image shape) from the known whites."""
        h, w = self.shape
        if not self.whites:
            return np.ones((h, w, 3), np.float32)
        ids = sorted(self.whites)
        pts = np.array([self.board.markers.centres_mm[i] for i in ids], np.float64)
        whites = np.array([self.whites[i] for i in ids], np.float64)
        gx, gy = self._grid
        cols = [np.ones(len(ids))]
        grid_cols = [np.ones_like(gx)]
        if len(ids) >= 3:
            cols += [pts[:, 0], pts[:, 1]]
            grid_cols += [gx, gy]
        if len(ids) >= 4:
            cols.append(pts[:, 0] * pts[:, 1])
            grid_cols.append(gx * gy)
        a = np.stack(cols, axis=1)
        coef, *_ = np.linalg.lstsq(a, whites, rcond=None)
        field = np.tensordot(np.stack(grid_cols, axis=-1), coef, axes=1)
        field = np.maximum(field, 1.0)
        g = (PAPER_WHITE / field).astype(np.float32)
        return cv2.resize(g, (w, h), interpolation=cv2.INTER_LINEAR)

    def gain_at(self, point: tuple[float, float]) -> np.ndarray:
        """The BGR gain at one board point (mm), from the last whites measured."""
        if not self.whites:
            return np.ones(3, np.float32)
        ids = sorted(self.whites)
        pts = np.array([self.board.markers.centres_mm[i] for i in ids], np.float64)
        whites = np.array([self.whites[i] for i in ids], np.float64)
        x, y = point
        cols, at = [np.ones(len(ids))], [1.0]
        if len(ids) >= 3:
            cols += [pts[:, 0], pts[:, 1]]
            at += [x, y]
        if len(ids) >= 4:
            cols.append(pts[:, 0] * pts[:, 1])
            at.append(x * y)
        coef, *_ = np.linalg.lstsq(np.stack(cols, axis=1), whites, rcond=None)
        white = np.maximum(np.asarray(at) @ coef, 1.0)
        return (PAPER_WHITE / white).astype(np.float32)

    def correct(self, rectified: np.ndarray, visible: set[int] | frozenset[int]) -> np.ndarray:
        """The rectified image with the light taken out (uint8 BGR)."""
        self.measure(rectified, visible)
        out = cv2.multiply(rectified.astype(np.float32), self.gain())
        return np.clip(out, 0, 255).astype(np.uint8)


__all__ = ["LightMeter", "PAPER_WHITE"]
