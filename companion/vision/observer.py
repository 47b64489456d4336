"""The vision as one object: frames in, observations (shared/spec/vision.md) out.

>>> vision = Vision()                       # calibration/board.json + profile.json
>>> obs = vision.observe(cv2.imread("board.jpg"))
>>> obs["slots"]["1"]["canoes"]
[{'player': 'red', 'gem': None}]
>>> for obs in vision.watch(ImageFolder("shots/")):   # a stream: only stable views
...     print(obs["weather"])

`observe` returns None when the board cannot be found (fewer than 4 markers and no
earlier homography from this camera). In a stream, a view is `stable` only when nothing
is over the board and the picture and what it shows stayed the same for `settle` frames.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .board import Board, load_board
from .detect import Detector, Reading
from .locate import BoardLocator, Location
from .profile import ColourProfile, load_profile

# A cell of the board image counts as changed between two frames when its mean grey
# level moved more than this (the light-corrected scale: marker paper = 225).
CHANGE_LEVEL = 10.0
CELL_MM = 8.0


class Vision:
    """Board finding, detection and stability for one camera."""

    def __init__(self, board: Board | str | Path | None = None,
                 profile: ColourProfile | str | Path | None = None,
                 px_per_mm: float = 0.8, settle: int = 5) -> None:
        self.board = board if isinstance(board, Board) else load_board(board)
        self.profile = (profile if isinstance(profile, ColourProfile)
                        else load_profile(profile))
        self.locator = BoardLocator(self.board)
        self.detector = Detector(self.board, self.profile, px_per_mm)
        self.settle = max(1, settle)
        self._history: list[tuple[str, np.ndarray]] = []
        self.last_reading: Reading | None = None
        self.last_location: Location | None = None  # where the board was in that frame
        self.timings: dict[str, float] = {}

    def reset(self) -> None:
        """Forget the camera's position and the recent frames."""
        self.locator.reset()
        self.detector.forget()
        self._history.clear()

    def observe(self, image: np.ndarray) -> dict[str, Any] | None:
        """The observation of one frame, or None if the board is not found."""
        if image is None or image.ndim != 3 or image.shape[2] != 3 or image.size == 0:
            raise ValueError("not a colour image")
        t0 = time.perf_counter()
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        where = self.locator.locate(gray)
        t1 = time.perf_counter()
        if where is None:
            self._history.clear()
            self.timings = {"markers": (t1 - t0) * 1000}
            return None
        reading = self.detector.read(image, where)
        self.last_reading = reading
        self.last_location = where
        self.timings = {"markers": (t1 - t0) * 1000, **reading.timings}
        obs = reading.observation
        obs["stable"] = self._settled(reading)
        return obs

    def _settled(self, reading: Reading) -> bool:
        if reading.occluded:
            self._history.clear()
            return False
        obs = reading.observation
        key = repr((obs["weather"], obs["slots"], obs["dock"], obs["falls"]))
        s = self.detector.scale
        cell = max(1, int(round(CELL_MM * s)))
        gray = cv2.cvtColor(reading.corrected, cv2.COLOR_BGR2GRAY)
        small = cv2.resize(gray, (gray.shape[1] // cell, gray.shape[0] // cell),
                           interpolation=cv2.INTER_AREA).astype(np.float32)
        if self._history:
            last_key, last_small = self._history[-1]
            moved = np.abs(small - last_small) > CHANGE_LEVEL
            if last_key != key or moved.mean() > 0.002:
                self._history.clear()
        self._history.append((key, small))
        del self._history[:-self.settle]
        return len(self._history) >= self.settle

    def watch(self, frames: Iterable[np.ndarray], every: bool = False
              ) -> Iterator[dict[str, Any]]:
        """Observations of a stream of frames: each new stable view once (or every
        frame's observation with every=True; None for frames without the board)."""
        last = None
        for frame in frames:
            obs = self.observe(frame)
            if every:
                yield obs  # type: ignore[misc]
                continue
            if obs is None or not obs["stable"]:
                continue
            key = repr((obs["weather"], obs["slots"], obs["dock"], obs["falls"]))
            if key != last:
                last = key
                yield obs


__all__ = ["Vision"]
