"""Rendered frames as a camera aimed amiss sees them (tests/vision, tests/app)."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.board import Board
from companion.vision.render import Shot


def turned_off(shot: Shot, board: Board, share: float) -> np.ndarray:
    """The shot as a camera sees it whose picture of marker 2's corner is pulled out by
    `share` of the board's diagonal, markers 0, 1 and 3 staying where they were (three
    are enough to find the board): from about 0.4 on the default board's falls leave
    the picture."""
    c = board.markers.centres_mm
    pts = cv2.perspectiveTransform(np.array([[c[0], c[1], c[2], c[3]]], np.float64),
                                   shot.homography)[0].astype(np.float32)
    moved = pts.copy()
    moved[2] += share * (pts[2] - pts[0])
    h, w = shot.image.shape[:2]
    return cv2.warpPerspective(shot.image, cv2.getPerspectiveTransform(pts, moved), (w, h),
                               borderMode=cv2.BORDER_CONSTANT, borderValue=(60, 80, 100))
