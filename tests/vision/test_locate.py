"""Board finding: the homography from the markers, kept while markers are covered."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.locate import BoardLocator
from companion.vision.render import Nuisance


def _cover(image: np.ndarray, homography: np.ndarray, board, marker: int) -> np.ndarray:
    """Paint a grey patch over one marker (a hand over it)."""
    out = image.copy()
    cx, cy = board.markers.centres_mm[marker]
    h = board.markers.size_mm * 0.8
    pts = np.array([[[cx - h, cy - h], [cx + h, cy - h], [cx + h, cy + h], [cx - h, cy + h]]])
    img = cv2.perspectiveTransform(pts.astype(np.float64), homography)[0]
    cv2.fillPoly(out, [np.round(img).astype(np.int32)], (120, 140, 170))
    return out


def test_homography_maps_board_to_truth(renderer, board, mid_game):
    shot = renderer.render(mid_game.state, seed=8, nuisance=Nuisance.issue())
    where = BoardLocator(board).locate(shot.image)
    assert where is not None and where.markers == 4 and not where.kept
    pts = np.array([list(board.slots.values())], np.float64)
    img = cv2.perspectiveTransform(pts, shot.homography)
    back = where.to_board(img[0])
    assert np.abs(back - pts[0]).max() < 1.5  # mm


def test_covered_marker_without_history_is_not_found(renderer, board, mid_game):
    shot = renderer.render(mid_game.state, seed=8)
    covered = _cover(shot.image, shot.homography, board, 2)
    assert BoardLocator(board).locate(covered) is None


def test_covered_marker_keeps_last_homography(renderer, board, mid_game):
    shot = renderer.render(mid_game.state, seed=8)
    locator = BoardLocator(board)
    first = locator.locate(shot.image)
    later = locator.locate(_cover(shot.image, shot.homography, board, 2))
    assert later is not None and later.kept and later.markers == 3
    assert np.allclose(later.homography, first.homography)


def test_moved_camera_with_covered_marker_loses_the_board(renderer, board, mid_game):
    locator = BoardLocator(board)
    assert locator.locate(renderer.render(mid_game.state, seed=8).image) is not None
    moved = renderer.render(mid_game.state, seed=9, nuisance=Nuisance.issue())
    assert locator.locate(_cover(moved.image, moved.homography, board, 0)) is None


def test_black_frame_has_no_board(board):
    assert BoardLocator(board).locate(np.zeros((720, 1280), np.uint8)) is None
