"""The still view (``settle.StillView``): when the board lies still, and when it changed."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.board import load_board
from companion.vision.locate import BoardLocator, Location
from companion.vision.settle import StillView


def _frame() -> tuple[np.ndarray, np.ndarray, Location]:
    frame = cv2.imread("tests/fixtures/vision/board_mild.jpg")
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    where = BoardLocator(load_board()).locate(gray)
    assert where is not None
    return frame, gray, where


def _refit(where: Location, dx_mm: float, dy_mm: float) -> Location:
    """The same camera's board found again a little off (its markers' corners found a
    fraction of a pixel elsewhere): the homography moved, no pixel did."""
    shift = np.array([[1.0, 0.0, dx_mm], [0.0, 1.0, dy_mm], [0.0, 0.0, 1.0]])
    return Location(shift @ where.homography, where.markers, False, where.seen)


def _put_down(frame: np.ndarray, where: Location, at_mm: tuple[float, float]
              ) -> tuple[np.ndarray, np.ndarray]:
    """The frame with a red piece put down on the board at `at_mm`."""
    changed = frame.copy()
    centre = cv2.perspectiveTransform(np.array([[at_mm]]), np.linalg.inv(where.homography))[0, 0]
    cv2.circle(changed, (int(centre[0]), int(centre[1])), 12, (20, 20, 200), -1)
    return changed, cv2.cvtColor(changed, cv2.COLOR_BGR2GRAY)


def test_a_board_found_again_a_little_off_is_the_same_still_view() -> None:
    frame, gray, where = _frame()
    view = StillView(load_board(), settle=3)
    found = [where, _refit(where, 1.0, -1.0), _refit(where, -1.0, 1.0), where]
    assert [view.add(frame, gray, w) for w in found] == [False, False, True, True]
    assert view.version == 1


def test_a_piece_put_down_starts_a_new_view() -> None:
    frame, gray, where = _frame()
    view = StillView(load_board(), settle=3)
    assert [view.add(frame, gray, where) for _ in range(3)] == [False, False, True]
    changed, changed_gray = _put_down(frame, where, (250.0, 200.0))
    assert view.add(changed, changed_gray, where) is False
    assert view.version == 2
    assert [view.add(changed, changed_gray, where) for _ in range(2)] == [False, True]


def test_a_camera_moved_is_cut_where_it_now_sees_the_board() -> None:
    frame, gray, where = _frame()
    view = StillView(load_board(), settle=2)
    view.add(frame, gray, where)
    view.reset()
    # Set up again elsewhere: the board half as large, in the picture's top left corner.
    moved = cv2.warpAffine(frame, np.float32([[0.5, 0, 0], [0, 0.5, 0]]),
                           (frame.shape[1], frame.shape[0]))
    moved_gray = cv2.cvtColor(moved, cv2.COLOR_BGR2GRAY)
    there = BoardLocator(load_board()).locate(moved_gray)
    assert there is not None
    assert [view.add(moved, moved_gray, there) for _ in range(2)] == [False, True]
    # A piece put down on the board's far side, where the old camera's cells never
    # looked, is a new view.
    w, h = load_board().size_mm
    changed, changed_gray = _put_down(moved, there, (0.85 * w, 0.8 * h))
    assert view.add(changed, changed_gray, there) is False
    assert view.version == 3
