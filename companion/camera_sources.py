"""Which camera the table watches: the Pi's, a USB one, a video or a folder of
pictures, or, with none attached, a simulated one that photographs the table's own game.

>>> source = open_camera("auto", table)   # doctest: +SKIP
>>> frame = source.read()                 # doctest: +SKIP
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from companion.vision.sources import FrameSource, SourceError, open_source

if TYPE_CHECKING:
    from companion.app import Table

log = logging.getLogger("companion.camera")


class SimulatedCamera(FrameSource):
    """A camera that photographs the table's current game with the synthetic renderer
    (mild nuisances: a little tilt, noise and uneven light), hanging still."""

    name = "simulated"

    def __init__(self, table: Table, board: Any = None, size: tuple[int, int] = (1280, 720)
                 ) -> None:
        from companion.vision.board import load_board
        from companion.vision.render import Nuisance, Renderer

        self.table = table
        self.renderer = Renderer(board if board is not None else load_board(), size=size)
        self.nuisance = Nuisance.mild()
        self._n = 0
        self._frame: np.ndarray | None = None
        self._version = -1

    def read(self) -> np.ndarray | None:
        game = self.table.game
        if game is None:
            return None
        # The board only changes with the game: paint it once per version, as a real
        # camera would keep seeing the same still board.
        if self._frame is None or self.table.version != self._version:
            self._version = self.table.version
            self._n += 1
            self._frame = self.renderer.render(game.state, seed=self._n,
                                               nuisance=self.nuisance, camera=0).image
        return self._frame


def open_camera(spec: str, table: Table) -> FrameSource | None:
    """The frame source for `companion serve --camera SPEC`: "auto" (the Pi camera, else
    the first USB camera, else the simulated one), "sim", "none", or anything
    ``companion.vision.sources.open_source`` takes (a camera number, a video, a folder).
    Falls back to the simulated camera with a one-line warning when SPEC cannot open."""
    if spec == "none":
        return None
    if spec == "sim":
        return SimulatedCamera(table)
    tries = [spec] if spec != "auto" else auto_candidates()
    for word in tries:
        try:
            return open_source(word)
        except (SourceError, OSError, ImportError, RuntimeError) as exc:
            if spec != "auto":
                log.warning("camera %s: %s; using the simulated camera", spec, exc)
    if spec == "auto":
        log.warning("camera: no camera found here; using the simulated camera")
    return SimulatedCamera(table)


def auto_candidates() -> list[str]:
    """What `--camera auto` tries, in order: the Pi camera, then the first USB one."""
    out = []
    try:
        import picamera2  # noqa: F401

        out.append("pi")
    except ImportError:
        pass
    if Path("/dev/video0").exists():
        out.append("0")
    return out


__all__ = ["SimulatedCamera", "auto_candidates", "open_camera"]
