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


def out_of_frame(homography: np.ndarray, frame_shape: tuple[int, ...],
                 shape: tuple[int, int], px_per_mm: float) -> np.ndarray | None:
    """The pixels of the straightened board image (`shape` at `px_per_mm`) that a frame
    of `frame_shape` does not reach, its board found by `homography` (image px -> board
    mm): a camera knocked or aimed so that part of the board left the picture. None
    when the frame holds the whole board. (``Straightener.rectify`` fills them by
    repeating the frame's edge: streaks that are neither the board nor anything over
    it.)"""
    to_rect = np.diag([px_per_mm, px_per_mm, 1.0]) @ homography
    fh, fw = frame_shape[:2]
    h, w = shape
    corners = np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64)
    there = cv2.perspectiveTransform(corners, np.linalg.inv(to_rect))[0]
    if (there >= 0).all() and (there[:, 0] <= fw).all() and (there[:, 1] <= fh).all():
        return None
    reach = cv2.warpPerspective(np.full((fh, fw), 255, np.uint8), to_rect, (w, h),
                                flags=cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT,
                                borderValue=0)
    outside: np.ndarray = reach == 0
    return outside


class Straightener(Stage):
    """The straighten stage of ``Detector`` (its state lives on the detector: see
    ``Detector.__init__``)."""

    _reach: tuple[bytes, np.ndarray | None] | None = None

    def rectify(self, image: np.ndarray, location: Location) -> np.ndarray:
        """The frame warped into board millimetres (BGR, px_per_mm)."""
        s = self.scale
        to_rect = np.diag([s, s, 1.0]) @ location.homography
        h, w = self.shape
        return cv2.warpPerspective(image, to_rect, (w, h), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)

    def out_of_frame(self, frame_shape: tuple[int, ...], location: Location
                     ) -> np.ndarray | None:
        """``out_of_frame`` on this detector's board image (the last answer kept: a still
        camera asks the same again)."""
        key = location.homography.tobytes() + bytes(repr(frame_shape[:2]), "ascii")
        if self._reach is None or self._reach[0] != key:
            self._reach = (key, out_of_frame(location.homography, frame_shape, self.shape,
                                             self.scale))
        return self._reach[1]

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


__all__ = ["Straightener", "out_of_frame"]
