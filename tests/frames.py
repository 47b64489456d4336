"""Rendered frames as a camera aimed amiss sees them (tests/vision, tests/app)."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.board import Board
from companion.vision.render import Shot


def turned_off(shot: Shot, board: Board, share: float) -> np.ndarray:
    """The shot as a camera sees it whose picture of marker 2's corner is pulled out by
    `share` of the board's diagonal, markers 0, 1 and 3 staying where they were (three
    are enough to find the board): from about 0.3-0.45 (by the camera's pose) the
    default board's falls leave the picture."""
    c = board.markers.centres_mm
    pts = cv2.perspectiveTransform(np.array([[c[0], c[1], c[2], c[3]]], np.float64),
                                   shot.homography)[0].astype(np.float32)
    moved = pts.copy()
    moved[2] += share * (pts[2] - pts[0])
    h, w = shot.image.shape[:2]
    return cv2.warpPerspective(shot.image, cv2.getPerspectiveTransform(pts, moved), (w, h),
                               borderMode=cv2.BORDER_CONSTANT, borderValue=(60, 80, 100))


def cut_along(shot: Shot, board: Board, y_mm: float) -> np.ndarray:
    """The shot as a camera sees it whose picture ends at the board's line y = y_mm (a
    sliver of the board's rim beyond it, on the dock's side): the frame turned so that
    the line is its top edge, and cut there."""
    w_mm, h_mm = board.size_mm
    a, b, centre = cv2.perspectiveTransform(np.array(
        [[(0.0, y_mm), (w_mm, y_mm), (w_mm / 2, h_mm / 2)]], np.float64), shot.homography)[0]
    angle = np.arctan2(b[1] - a[1], b[0] - a[0])
    c, s = np.cos(-angle), np.sin(-angle)
    turn = np.array([[c, -s], [s, c]])  # the line along +x
    if (turn @ (centre - a))[1] < 0:
        turn = -turn  # (half a turn more, the board below the line: no mirror image)
    h, w = shot.image.shape[:2]
    corners = (turn @ (np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) - a).T).T
    shift = np.array([-corners[:, 0].min(), 0.0])
    affine = np.hstack([turn, (shift - turn @ a)[:, None]])
    size = (int(corners[:, 0].max() + shift[0]), int(corners[:, 1].max()))
    return cv2.warpAffine(shot.image, affine, size, borderMode=cv2.BORDER_CONSTANT,
                          borderValue=(60, 80, 100))
