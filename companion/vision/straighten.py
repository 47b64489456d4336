"""Stage 2: straighten the frame into board millimetres and take the light out.

The frame is warped by the homography the board finder gave; the light is taken out with
the marker paper as white (``light.LightMeter``), and shadows against the empty board's
brightness, which the profile knows cell by cell (``_shading``). Then every pixel gets a
colour class from the learned profile (``prepare``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from .locate import Location
from .stage import Stage
from .thresholds import (
    SHADE_MM,
    SMOOTH_MM,
    _odd,
)

if TYPE_CHECKING:
    from .detect import _Clock


class Straightener(Stage):
    """The straighten stage of ``Detector`` (its state lives on the detector: see
    ``Detector.__init__``)."""

    def rectify(self, image: np.ndarray, location: Location) -> np.ndarray:
        """The frame warped into board millimetres (BGR, px_per_mm)."""
        s = self.scale
        to_rect = np.diag([s, s, 1.0]) @ location.homography
        h, w = self.shape
        return cv2.warpPerspective(image, to_rect, (w, h), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)

    def corrected(self, image: np.ndarray, location: Location) -> np.ndarray:
        """The frame in board millimetres with the light taken out, smoothed (sensor
        noise in a dim room would otherwise scatter the colours)."""
        rect = self.rectify(image, location)
        self.light.measure(rect, frozenset(location.seen))
        gain = self.light.gain()
        if self._shade_ref is not None:
            shade = self._shading(rect, gain)
            gain = cv2.divide(gain, cv2.merge([shade, shade, shade]))
        self._gain = gain  # the gems are read with it too
        out = cv2.convertScaleAbs(cv2.multiply(rect.astype(np.float32), gain))
        k = _odd(SMOOTH_MM * self.scale)
        return cv2.blur(out, (k, k))

    def prepare(self, image: np.ndarray, location: Location, clock: _Clock | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
        """The board image (light and shadows taken out) and its colour classes."""
        img = self.corrected(image, location)
        if clock:
            clock.lap("rectify+light")
        labels = self.profile.classify(img)
        if clock:
            clock.lap("classify")
        return img, labels

    def _shading(self, rect: np.ndarray, gain: np.ndarray) -> np.ndarray:
        """The shadows on the board, as a brightness factor per pixel. The empty board's
        brightness is known cell by cell (the profile's board_luma), so a cell darker
        or brighter than that, taken as the median over the cell so that a canoe on it
        does not count, shows the light there; the ratio is smoothed. (The marker paper
        alone cannot see a shadow between the corners.)"""
        ref = self._shade_ref
        assert ref is not None  # (called only when the profile knows the board's brightness)
        c = self._shade_cell
        gh, gw = ref.shape
        # Every other pixel of every other row is plenty for a median of the cell.
        sub = rect[:gh * c:2, :gw * c:2].astype(np.float32) * gain[:gh * c:2, :gw * c:2]
        lum = cv2.transform(sub, np.ones((1, 3), np.float32))  # (a numpy sum is slow)
        half = c // 2
        blocks = lum.reshape(gh, half, gw, half).transpose(0, 2, 1, 3).reshape(gh, gw, -1)
        mid = blocks.shape[2] // 2
        ratio = np.partition(blocks, mid, axis=2)[..., mid] / ref
        ok = np.isfinite(ratio) & (ratio > 0.2) & (ratio < 5.0)
        ratio = np.where(ok, ratio, 0.0).astype(np.float32)
        sigma = SHADE_MM * self.scale / c
        num = cv2.GaussianBlur(ratio, (0, 0), sigma)
        den = cv2.GaussianBlur(ok.astype(np.float32), (0, 0), sigma)
        shade: np.ndarray = np.where(den > 0.02, num / np.maximum(den, 1e-6),
                                     1.0).astype(np.float32)
        h, w = self.shape
        shade = cv2.resize(shade, (gw * c, gh * c), interpolation=cv2.INTER_LINEAR)
        full = np.ones((h, w), np.float32)
        full[:shade.shape[0], :shade.shape[1]] = shade[:h, :w]
        return full


__all__ = ["Straightener"]
