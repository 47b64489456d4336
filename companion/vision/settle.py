"""Is the view still? Tracking frames cheaply, and the picture of a still view.

>>> import cv2
>>> from companion.vision.board import load_board
>>> from companion.vision.locate import BoardLocator
>>> board = load_board()
>>> frame = cv2.imread("tests/fixtures/vision/board_mild.jpg")
>>> gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
>>> where = BoardLocator(board).locate(gray)
>>> view = StillView(board, settle=3)
>>> [view.add(frame, gray, where) for _ in range(4)]   # the same picture four times
[False, False, True, True]
>>> view.picture()[0].shape == frame.shape             # their mean: noise averaged out
True

A stream of frames from a fixed camera is judged still from its pixels only: the board,
straightened coarsely and cut into cells, must stay within CHANGE_LEVEL of the view's
running mean in every cell for ``settle`` frames. The cells of one view are cut where its
first frame put the board: the markers, found again in each frame, move its homography
by a fraction of a millimetre (most on a wide lens that sees the far markers small), and
cells cut by a homography that moved differ at every edge of the print though no pixel
did (a camera that truly moved is another view: ``reset``).
Nothing is read off the pieces while the view changes, so tracking a frame costs a
coarse warp, not a reading; and a still view is read once, from the mean of its frames,
which takes the sensor's noise out the way a careful person looks twice.
"""

from __future__ import annotations

import cv2
import numpy as np

from .board import Board
from .locate import Location

# A cell's mean grey level moved more than this from the view's mean: the view changed.
# A cell averages a few hundred pixels, so sensor noise of 7 levels a pixel moves a
# cell's mean by 3 at most (measured on the 3-D worlds); the cloud moved one step, a gem
# loaded into a canoe that stayed, a finger, move some cell by tens. Any one cell will
# do: a change as small as the cloud's covers only a few of them.
CHANGE_LEVEL = 8.0
CELL_MM = 8.0
SAMPLES = 4
# Frames averaged into the picture of a still view: past this, sensor noise is already
# down to a quarter and more frames only cost time.
MAX_MEAN = 16


class StillView:
    """The frames of one still view of the board from one camera position."""

    def __init__(self, board: Board, settle: int) -> None:
        self.settle = max(1, settle)
        w, h = board.size_mm
        self._cols, self._rows = max(1, int(w // CELL_MM)), max(1, int(h // CELL_MM))
        # Board mm -> the coarse image: SAMPLES x SAMPLES pixels a cell, averaged down to
        # one (warping alone samples, it does not average).
        self._to_coarse = np.diag([SAMPLES / CELL_MM, SAMPLES / CELL_MM, 1.0])
        self.version = 0  # counts the views begun; a new view, a new number
        self.reset()

    def reset(self) -> None:
        """Forget the view (the camera moved, the board was lost)."""
        self.frames = 0
        self._cells: np.ndarray | None = None
        self._sum: np.ndarray | None = None
        self._where: Location | None = None
        self._grid: Location | None = None  # where the view's cells are cut

    def cells(self, gray: np.ndarray, where: Location) -> np.ndarray:
        """The board's mean grey level per cell in one frame."""
        # Halved first (a Gaussian's average of 4 pixels a sample), then sampled.
        half = cv2.pyrDown(gray)
        homography = self._to_coarse @ where.homography @ np.diag([2.0, 2.0, 1.0])
        coarse = cv2.warpPerspective(half, homography, (SAMPLES * self._cols,
                                                        SAMPLES * self._rows),
                                     flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return cv2.resize(coarse, (self._cols, self._rows),
                          interpolation=cv2.INTER_AREA).astype(np.float32)

    def add(self, image: np.ndarray, gray: np.ndarray, where: Location) -> bool:
        """Take one frame; True when the view has been still for ``settle`` frames."""
        if self._grid is None:
            self._grid = where
        cells = self.cells(gray, self._grid)
        if self._cells is not None:
            mean = self._cells / self.frames
            # An auto-exposure's step brightens every cell alike: not a change.
            gain = float(np.median(cells / np.maximum(mean, 1.0)))
            if float(np.abs(cells - gain * mean).max()) > CHANGE_LEVEL:
                # A new view, cut where this frame puts the board (a camera drifting
                # less than a view's change a frame is followed view by view).
                self._start()
                self._grid = where
                cells = self.cells(gray, where)
        if self._cells is None:
            self._cells = np.zeros_like(cells)
            self.version += 1
        self._cells += cells
        if self.frames < MAX_MEAN:
            if self._sum is None or not self.frames:
                self._sum = np.zeros(image.shape, np.float32)
            cv2.accumulate(image, self._sum)
            self._where = where
        self.frames += 1
        return self.frames >= self.settle

    def _start(self) -> None:
        self.frames = 0
        self._cells = None

    def picture(self) -> tuple[np.ndarray, Location]:
        """The mean of the view's frames (uint8 BGR) and where the board was in them."""
        assert self._sum is not None and self._where is not None and self.frames
        n = min(self.frames, MAX_MEAN)
        return cv2.convertScaleAbs(self._sum, alpha=1.0 / n), self._where


__all__ = ["CELL_MM", "CHANGE_LEVEL", "MAX_MEAN", "StillView"]
