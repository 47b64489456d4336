"""The gems stage measures a canoe's middle again only when it changed where the gem
lies (``GemReader._evidence_cached``)."""

from __future__ import annotations

import numpy as np

from companion.vision.gems import GemReader
from companion.vision.thresholds import SAME_MIDDLE


class _CountingReader(GemReader):
    """A gems stage that counts its measurements instead of making them."""

    def __init__(self) -> None:
        self.gem_px, self.scale, self._gem_cache, self.measured = 50.0, 1.0, {}, 0

    def gem_evidence(self, *args, **kwargs):  # type: ignore[override]
        self.measured += 1
        return self.measured


def _frame(reader: _CountingReader, img: np.ndarray) -> object:
    cache: dict = {}
    evidence = reader._evidence_cached(None, None, img, (20.0, 20.0), "red", cache)
    reader._gem_cache = cache  # as the detector keeps it from frame to frame
    return evidence


def test_a_middle_that_stays_is_measured_once():
    reader = _CountingReader()
    img = np.full((40, 40, 3), 100, np.uint8)
    assert [_frame(reader, img) for _ in range(5)] == [1, 1, 1, 1, 1]


def test_small_changes_that_add_up_are_measured_again():
    # A lamp brightening a little between views: no one step reaches SAME_MIDDLE, but the
    # middle is compared with the picture its evidence came from, so the sum does.
    reader = _CountingReader()
    step = SAME_MIDDLE * 0.6
    seen = [_frame(reader, np.full((40, 40, 3), 100 + round(k * step), np.uint8))
            for k in range(4)]
    assert seen == [1, 1, 2, 2]
