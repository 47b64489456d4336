"""A knocked camera only turned: its new homography from the last one and two markers."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.locate import TURNED_FIT_MM
from companion.vision.render import Nuisance
from companion.vision.turned import KNOCK_DEG, focal_length, turned_homography


def _turn(focal: float, size: tuple[int, int], axis, degrees: float) -> np.ndarray:
    """K R K^-1: how a camera turned by `degrees` about `axis` moves its picture."""
    w, h = size
    k = np.array([[focal, 0, w / 2], [0, focal, h / 2], [0, 0, 1.0]])
    a = np.asarray(axis, np.float64)
    rot, _ = cv2.Rodrigues(a / np.linalg.norm(a) * np.radians(degrees))
    return k @ rot @ np.linalg.inv(k)


def _corners(board, to_image: np.ndarray, markers) -> tuple[np.ndarray, np.ndarray]:
    mm = np.concatenate([np.array(board.markers.corners_mm(i), np.float64) for i in markers])
    px = cv2.perspectiveTransform(mm.reshape(-1, 1, 2), to_image).reshape(-1, 2)
    return px, mm


def _board_error(board, found: np.ndarray, to_image: np.ndarray) -> float:
    """The farthest (mm) any point of the board is put from where it is."""
    w, h = board.size_mm
    pts = np.array([[(x, y) for x in np.linspace(0, w, 9) for y in np.linspace(0, h, 7)]])
    seen = cv2.perspectiveTransform(pts, to_image)
    return float(np.abs(cv2.perspectiveTransform(seen, found)[0] - pts[0]).max())


def _looking_at(board, focal: float, size: tuple[int, int], tilt: float, yaw: float,
                roll: float, moved=(0.0, 0.0, 0.0)) -> np.ndarray:
    """Board mm -> picture of a camera `focal` px, its centre in the middle of the
    picture, 700 mm from the board's middle (less `moved`, in its own axes) and turned
    by these angles (degrees)."""
    w, h = size
    k = np.array([[focal, 0, w / 2], [0, focal, h / 2], [0, 0, 1.0]])
    rot, _ = cv2.Rodrigues(np.radians([tilt, yaw, roll]).reshape(3, 1))
    bw, bh = board.size_mm
    centre = np.array([[1, 0, -bw / 2], [0, 1, -bh / 2], [0, 0, 1.0]])
    g = k @ np.column_stack([rot[:, 0], rot[:, 1], np.array([0, 0, 700.0]) - moved]) \
        @ centre
    return g / g[2, 2]


@pytest.mark.parametrize("tilt", [8.0, 16.0, 30.0])
def test_the_focal_length_is_read_off_the_homography(board, tilt):
    for focal in (700.0, 1024.0, 1500.0):
        seen = _looking_at(board, focal, (1280, 720), tilt, 5.0, 80.0)
        found = focal_length(np.linalg.inv(seen), (1280, 720))
        assert abs(found / focal - 1) < 0.02


def test_a_board_square_to_the_camera_gives_a_webcam_focal_length(board):
    seen = _looking_at(board, 1024.0, (1280, 720), 0.0, 0.0, 90.0)
    assert 800 < focal_length(np.linalg.inv(seen), (1280, 720)) < 1200


@pytest.mark.parametrize("markers", [(0, 1), (1, 2), (2, 3), (0, 3), (0, 2), (1, 3)])
def test_two_markers_of_a_knocked_camera_fix_the_whole_board(renderer, board, mid_game,
                                                             markers):
    rng = np.random.default_rng(len(markers) * 10 + markers[0] * 3 + markers[1])
    shot = renderer.render(mid_game.state, seed=8, nuisance=Nuisance.issue())
    last = np.linalg.inv(shot.homography)
    for _ in range(5):
        knock = _turn(renderer.focal, renderer.size, rng.normal(size=3), rng.uniform(0.5, 3))
        now = knock @ shot.homography
        px, mm = _corners(board, now, markers)
        px += rng.normal(scale=0.3, size=px.shape)  # corners are found to ~0.3 px
        found = turned_homography(last, px, mm, renderer.size, TURNED_FIT_MM)
        assert found is not None
        assert _board_error(board, found, now) < 1.5


def test_a_camera_moved_elsewhere_is_not_taken_for_a_turned_one(renderer, board, mid_game):
    before = renderer.render(mid_game.state, seed=8, nuisance=Nuisance.issue())
    after = renderer.render(mid_game.state, seed=9, nuisance=Nuisance.issue())
    for markers in ((0, 1), (2, 3), (1, 2)):
        px, mm = _corners(board, after.homography, markers)
        assert turned_homography(np.linalg.inv(before.homography), px, mm, renderer.size,
                                 TURNED_FIT_MM) is None


def test_a_turn_beyond_a_knock_is_not_fitted(renderer, board, mid_game):
    # Someone aiming the camera anew also moves it: three markers must find the board.
    shot = renderer.render(mid_game.state, seed=8, nuisance=Nuisance.issue())
    knock = _turn(renderer.focal, renderer.size, (0.1, 0.2, 1.0), 2 * KNOCK_DEG)
    px, mm = _corners(board, knock @ shot.homography, (0, 1))
    assert turned_homography(np.linalg.inv(shot.homography), px, mm, renderer.size,
                             TURNED_FIT_MM) is None


@pytest.mark.parametrize("moved", [(0, 0, 10), (0, 0, 20), (40, 0, 0)])
def test_a_camera_moved_towards_or_along_the_board_is_not_taken_for_a_turned_one(board,
                                                                                moved):
    # A knock does not zoom: two markers on one edge cannot take a camera come 10 mm
    # nearer for a turned one (with the focal length free they did, the board 10-20 mm
    # off).
    before = _looking_at(board, 1024.0, (1280, 720), 15.0, 3.0, 88.0)
    after = _looking_at(board, 1024.0, (1280, 720), 15.0, 3.0, 88.0, moved)
    for markers in ((0, 1), (1, 2), (2, 3), (0, 3), (0, 2)):
        px, mm = _corners(board, after, markers)
        assert turned_homography(np.linalg.inv(before), px, mm, (1280, 720),
                                 TURNED_FIT_MM) is None
