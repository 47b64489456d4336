"""The vision as one object: frames in, observations (shared/spec/vision.md) out.

>>> vision = Vision()                       # calibration/board.json + profile.json
>>> obs = vision.observe(cv2.imread("board.jpg"))
>>> obs["slots"]["1"]["canoes"]
[{'player': 'red', 'gem': None}]
>>> for obs in vision.watch(ImageFolder("shots/")):   # a stream: only stable views
...     print(obs["weather"])

`observe` returns None when the board cannot be found (fewer than 3 markers and no
earlier homography from this camera). With ``settle=1`` every frame is read on its own
(one photo: `vision detect`). In a stream (``settle`` > 1) a view is `stable` once its
pixels stayed the same for `settle` frames (``settle.StillView``) and nothing is over
the board; it is then read once, from the mean of its frames. While a view settles,
frames are only tracked, not read: their observation repeats the pieces of the last
view read, marked not stable (consumers act on stable observations only).
"""

from __future__ import annotations

import copy
import hashlib
import json
import time
from collections.abc import Iterable, Iterator
from functools import cached_property
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.rules import SLOTS

from .board import Board, load_board
from .detect import Detector, Reading
from .gem_model import GemModel
from .locate import BoardLocator, Location
from .profile import ColourProfile
from .profile_file import load_profile
from .settle import StillView
from .views import same_view as _same_camera


class Vision:
    """Board finding, detection and stability for one camera."""

    def __init__(self, board: Board | str | Path | None = None,
                 profile: ColourProfile | str | Path | None = None,
                 px_per_mm: float = 0.8, settle: int = 1,
                 gem_model: GemModel | None | bool = True) -> None:
        """`gem_model`: what reads the gems in canoes on the river (``Detector``)."""
        self.board = board if isinstance(board, Board) else load_board(board)
        self.profile = (profile if isinstance(profile, ColourProfile)
                        else load_profile(profile))
        self.locator = BoardLocator(self.board)
        self.detector = Detector(self.board, self.profile, px_per_mm, gem_model)
        self.settle = max(1, settle)
        self.view = StillView(self.board, self.settle)
        self._read_version = -1  # the still view last read (StillView.version)
        self.last_reading: Reading | None = None
        self.last_location: Location | None = None  # where the board was in that frame
        self.timings: dict[str, float] = {}
        self.still = False  # the last frame was of a view that had settled
        # The last picture of the game as it stands, clear and confirmed (its
        # Reading.corrected and where the board was), set by whoever confirms it (the
        # table's camera): what was over the board in it already is no hand now.
        self.reference: tuple[np.ndarray, Location] | None = None

    @cached_property
    def profile_print(self) -> str:
        """The fingerprint of the board file and colour profile: what the pictures and
        the pieces' looks seen through this vision are of (with another, they do not
        apply)."""
        text = json.dumps([self.board.to_json(), self.profile.to_json()], sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def reset(self) -> None:
        """Forget the camera's position and the recent frames."""
        self.locator.reset()
        self.detector.forget()
        self.view.reset()

    def observe(self, image: np.ndarray) -> dict[str, Any] | None:
        """The observation of one frame, or None if the board is not found."""
        if image is None or image.ndim != 3 or image.shape[2] != 3 or image.size == 0:
            raise ValueError("not a colour image")
        t0 = time.perf_counter()
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        where = self.locator.locate(gray)
        t1 = time.perf_counter()
        self.timings = {"markers": (t1 - t0) * 1000}
        if where is None:
            self.view.reset()
            self.still = False
            return None
        if self.last_location is not None and not where.kept \
                and not _same_camera(self.last_location, where):
            self.view.reset()  # the camera moved: what it saw before is another view
        if self.settle == 1:
            self.still = True
            return self._read(image, where, stable_if_clear=True)
        still = self.view.add(image, gray, where)
        self.timings["track"] = (time.perf_counter() - t1) * 1000
        self.last_location = where
        self.still = still
        if not still:
            return self._moving(where)
        if self._read_version != self.view.version:
            self._read_version = self.view.version
            picture, there = self.view.picture()
            return self._read(picture, there, stable_if_clear=True)
        assert self.last_reading is not None
        obs = copy.deepcopy(self.last_reading.observation)
        obs["markers"] = where.markers
        return obs

    def _read(self, image: np.ndarray, where: Location, stable_if_clear: bool
              ) -> dict[str, Any]:
        reference = None
        if self.reference is not None and _same_camera(self.reference[1], where):
            reference = self.reference[0]
        reading = self.detector.read(image, where, reference)
        self.last_reading = reading
        self.last_location = where
        self.timings.update(reading.timings)
        obs = reading.observation
        obs["stable"] = stable_if_clear and not reading.occluded
        return copy.deepcopy(obs)

    def _moving(self, where: Location) -> dict[str, Any]:
        """A frame of a view still settling: the last view's pieces, not stable."""
        if self.last_reading is not None:
            obs = copy.deepcopy(self.last_reading.observation)
        else:
            obs = {"weather": None, "slots": {s: {"disc": True, "canoes": []}
                                              for s in SLOTS}, "dock": [], "falls": []}
        obs.update(stable=False, markers=where.markers, homography_kept=where.kept)
        return obs

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
