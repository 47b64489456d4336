"""Evidence: the slots' discs and the cloud on the weather track.

A slot's ring (its canoes left out), against the water just outside its rim, that looks
as a slot without a disc looked at this table, where the slot's own disc shows plainly,
has no disc (``disc_looks``); until the table knows a slot well, or when its
calibration saw no slot without a disc (a set-up game), the disc is read present. A
profile from before such looks were learned falls back on colour: a ring unlike the
other slots' and nearer this frame's water. Hidden by canoes, a ring has its disc.
Weather: the track position that no longer looks as it did bare at calibration
(``cloud``), or without that look the one whose middle is much whiter than around it.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.rules import SLOTS

from .cloud import CloudFinder
from .locate import Location
from .stage import Stage
from .thresholds import (
    CLOUD_CONTRAST,
    DISC_APART,
    DISC_SEEN,
)


class DiscReader(Stage):
    """The discs stage of ``Detector`` (its state lives on the detector: see
    ``Detector.__init__``)."""

    _cloud_finder: CloudFinder | None

    def _weather_value(self, img: np.ndarray, image: np.ndarray, location: Location
                       ) -> int | None:
        """Where the cloud stands (None when the track does not tell: the cloud is in a
        hand). With the track's bare look learned at calibration, the position that no
        longer looks bare (``cloud``); else the position whose middle is most whiter than
        its surroundings in the light-corrected board image `img`."""
        if self._cloud_finder is not None:
            return self._cloud_finder.where(image, location)
        scores = []
        for value, (inner, outer) in self._weather.items():
            mid = np.median(img[inner].sum(axis=1, dtype=np.int32))
            around = np.median(img[outer].sum(axis=1, dtype=np.int32))
            scores.append((float(mid / max(around, 1.0)), value))
        scores.sort(reverse=True)
        (best, value), (second, _) = scores[0], scores[1]
        return value if best - second >= CLOUD_CONTRAST else None

    def disc_contrasts(self, img: np.ndarray, labels: np.ndarray, canoe: np.ndarray
                       ) -> dict[str, float]:
        """Per slot whose ring and surroundings show (canoes, their blur and shadow
        left out): the ring's median brightness inside the disc's rim over that of the
        water just outside it. A disc's tint is told by it whatever the light."""
        y0, y1, x0, x1 = self._outside_box
        near = np.ones(canoe.shape, bool)
        near[y0:y1, x0:x1] = cv2.dilate(canoe[y0:y1, x0:x1].astype(np.uint8), self._close) > 0
        out: dict[str, float] = {}
        for slot in SLOTS:
            ys, xs = self._annulus[slot]
            inside = ~near[ys, xs]
            if np.count_nonzero(inside) < DISC_SEEN * len(ys):
                continue
            oy, ox = self._outside[slot]
            water = ~near[oy, ox] & (labels[oy, ox] == self._water)
            if np.count_nonzero(water) < DISC_SEEN * len(oy):
                continue
            ring = float(np.median(img[ys[inside], xs[inside]].sum(axis=1, dtype=np.int32)))
            around = float(np.median(img[oy[water], ox[water]].sum(axis=1, dtype=np.int32)))
            if around > 0:
                out[slot] = ring / around
        return out

    def _discs(self, img: np.ndarray, labels: np.ndarray, canoe: np.ndarray
               ) -> dict[str, bool]:
        """Which slots have their disc (``disc_contrasts`` against this table's
        ``DiscLooks``; without them, ``_discs_by_colour``)."""
        looks = self.disc_looks
        if looks is None:
            # (The packaged profile, or one calibrated before disc looks were learned.)
            self._contrasts = {}
            return self._discs_by_colour(img, labels, canoe)
        self._contrasts = self.disc_contrasts(img, labels, canoe)
        return {slot: not looks.missing(slot, self._contrasts.get(slot)) for slot in SLOTS}

    def _discs_by_colour(self, img: np.ndarray, labels: np.ndarray, canoe: np.ndarray
                         ) -> dict[str, bool]:
        """Which slots have their disc, by colour. A slot's ring inside the disc's rim (its canoes
        left out) is compared in chromaticity with the same ring of the other slots,
        most of which have their disc, and with the water in this frame: a ring unlike
        the others and nearer the water is a slot without its disc. (Colour classes
        alone are not enough: in some light neither the disc's nor the water's class
        fits.) A ring hidden by canoes has its disc: a canoe rides on one."""
        looks: dict[str, np.ndarray] = {}
        (y0, y1, x0, x1), ys, xs, bounds = self._rings
        near_canoe = cv2.dilate(canoe[y0:y1, x0:x1].astype(np.uint8), self._close)
        free = near_canoe[ys - y0, xs - x0] == 0
        colours = img[ys, xs]
        for slot, (a, b) in zip(SLOTS, bounds, strict=True):
            ok = free[a:b]
            if np.count_nonzero(ok) >= DISC_SEEN * (b - a):
                looks[slot] = _chroma(np.median(colours[a:b][ok], axis=0))
        present = {slot: True for slot in SLOTS}
        if len(looks) < 3:
            return present
        discs = np.median(np.array(list(looks.values())), axis=0)
        ys, xs = self._water_probe
        water_px = img[ys, xs][labels[ys, xs] == self._water]
        water = (_chroma(np.median(water_px, axis=0)) if len(water_px) >= 50
                 else _chroma(self.profile.classes["water"].bgr))
        apart = max(DISC_APART, 0.5 * float(np.hypot(*(discs - water))))
        for slot, look in looks.items():
            off = float(np.hypot(*(look - discs)))
            present[slot] = not (off > apart and float(np.hypot(*(look - water))) < off)
        return present


def _chroma(bgr: np.ndarray) -> np.ndarray:
    """r and g chromaticity of one BGR colour."""
    x = np.asarray(bgr, np.float64)
    total = float(x.sum()) + 3.0
    return np.array([(x[2] + 1.0) / total, (x[1] + 1.0) / total])


__all__ = ["DiscReader"]
