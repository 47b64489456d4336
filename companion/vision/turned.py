"""Finding the board again after a knock, from the markers still in the picture.

A knock turns a camera on its mount; it hardly moves it. A pure turn R moves every
point of the picture by one homography, K R K^-1 (K: the camera's focal length and
centre), whatever lies there, so the board's new homography is the last one turned:
three unknowns (the turn's angles; the focal length is the camera's, read off the
last homography), where a homography has eight. The eight corners of two markers then
fix it over the whole board, not only near them, as long as the camera only turned: a
fit that leaves any corner more than `fit_mm` from where the board file has it, or that
needs a turn larger than a knock, is no such camera and finds nothing (vision.md: three
markers find a board afresh). A camera moved 10 mm or more towards the board or 40 mm
along it is refused so (two markers on one edge may still take a move along that edge
for a turn); one that moved a few millimetres as it turned, as a knocked stand does, fits
with the board a few millimetres off.

The focal length is read off the last homography itself: a square board seen through
a lens with its centre in the middle of the picture makes the board's two axes, taken
back through K, perpendicular and of one length (Zhang's constraints). When the board
faces the camera squarely the two say little, and a common webcam's is taken
(its error moves the board by a second-order amount).

>>> k = np.array([[1000.0, 0, 640], [0, 1000.0, 360], [0, 0, 1]])
>>> tilt = cv2.Rodrigues(np.array([0.3, 0.0, 0.0]))[0]
>>> board_to_px = k @ np.column_stack([tilt[:, 0], tilt[:, 1], [-200, -150, 700]])
>>> last = np.linalg.inv(board_to_px)            # the homography before the knock
>>> round(focal_length(last, (1280, 720)))
1000
>>> knock = k @ cv2.Rodrigues(np.array([0.0, 0.02, 0.0]))[0] @ np.linalg.inv(k)
>>> mm = np.array([[0.0, 0], [40, 0], [40, 40], [0, 40], [360, 0], [400, 0], [400, 40],
...                [360, 40]])                   # two markers' corners
>>> px = cv2.perspectiveTransform(mm[None], knock @ board_to_px)[0]
>>> found = turned_homography(last, px, mm, (1280, 720), fit_mm=2.0)
>>> far = cv2.perspectiveTransform(np.array([[[200.0, 300.0]]]), knock @ board_to_px)
>>> cv2.perspectiveTransform(far, found).round(1).tolist()
[[[200.0, 300.0]]]
"""

from __future__ import annotations

import math

import cv2
import numpy as np

# A knock turns the camera by a few degrees; more is someone aiming it anew, who also
# moves it (then the markers seen do not fix the board: three must be seen).
KNOCK_DEG = 10.0
# A webcam's horizontal field of view, for the focal length when the last homography
# does not tell it (the board square to the camera).
WEBCAM_FOV_DEG = 65.0
# How far (in log focal length) the fit may take the focal length from the last
# homography's before that costs as much as one corner a pixel off. A knock does not
# zoom: held loose (0.3), the focal length let two markers on one edge take a camera
# moved 10-20 mm towards the board for a turned one, the board then 10-20 mm off;
# held at 2 % such moves are refused (tests/vision/test_turned.py).
FOCAL_SPREAD = 0.02
_ITERATIONS = 20


def focal_length(homography: np.ndarray, size: tuple[int, int]) -> float:
    """The focal length (pixels) of the camera that saw the board through `homography`
    (image px -> board mm) in a picture of `size` (width, height), its centre in the
    middle; a common webcam's when the homography does not tell."""
    w, h = size
    fallback = (w / 2) / math.tan(math.radians(WEBCAM_FOV_DEG) / 2)
    to_centre = np.array([[1.0, 0.0, -w / 2], [0.0, 1.0, -h / 2], [0.0, 0.0, 1.0]])
    g = to_centre @ np.linalg.inv(homography)  # board mm -> picture, centre at 0
    g = g / max(float(np.linalg.norm(g[:2, :2])), 1e-12)
    g1, g2 = g[:, 0], g[:, 1]
    # r1 . r2 = 0 and |r1| = |r2| for r = K^-1 g: each reads a + b f^2 = 0.
    a = np.array([g1[0] * g2[0] + g1[1] * g2[1],
                  g1[0] ** 2 + g1[1] ** 2 - g2[0] ** 2 - g2[1] ** 2])
    b = np.array([g1[2] * g2[2], g1[2] ** 2 - g2[2] ** 2])
    f2 = -float(a @ b) / max(float(b @ b), 1e-30)
    if not math.isfinite(f2) or f2 <= 0 or not 0.3 * w <= math.sqrt(f2) <= 3.0 * w:
        return fallback
    return math.sqrt(f2)


def turned_homography(last: np.ndarray, corners_px: np.ndarray, corners_mm: np.ndarray,
                      size: tuple[int, int], fit_mm: float) -> np.ndarray | None:
    """The board's homography (image px -> board mm) of a camera that only turned since
    it saw the board through `last`, fitted to marker corners it sees now (`corners_px`,
    (n, 2)) and where the board file has them (`corners_mm`); None when no turn of a
    knock's size puts every corner within `fit_mm` of where it belongs."""
    w, h = size
    f0 = focal_length(last, size)
    seen_from_last = np.linalg.inv(last)  # board mm -> the last picture
    board = np.hstack([np.asarray(corners_mm, np.float64), np.ones((len(corners_mm), 1))])
    px = np.asarray(corners_px, np.float64)

    def project(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        f = math.exp(p[3])
        k = np.array([[f, 0.0, w / 2], [0.0, f, h / 2], [0.0, 0.0, 1.0]])
        turn, _ = cv2.Rodrigues(p[:3].reshape(3, 1))
        g = k @ turn @ np.linalg.inv(k) @ seen_from_last
        q = board @ g.T
        return q[:, :2] / q[:, 2:3], g

    def residuals(p: np.ndarray) -> np.ndarray:
        q, _ = project(p)
        return np.concatenate([(q - px).ravel(), [(p[3] - math.log(f0)) / FOCAL_SPREAD]])

    # Gauss-Newton from no turn at all; four unknowns, so the Jacobian by differences.
    p = np.array([0.0, 0.0, 0.0, math.log(f0)])
    steps = np.array([1e-6, 1e-6, 1e-6, 1e-5])
    for _ in range(_ITERATIONS):
        r = residuals(p)
        jac = np.column_stack([(residuals(p + np.eye(4)[j] * steps[j]) - r) / steps[j]
                               for j in range(4)])
        step = np.linalg.lstsq(jac, -r, rcond=None)[0]
        p = p + step
        if not np.all(np.isfinite(p)):
            return None
        if np.abs(step).max() < 1e-9:
            break
    if math.degrees(float(np.linalg.norm(p[:3]))) > KNOCK_DEG:
        return None
    _, g = project(p)
    try:
        found = np.linalg.inv(g)
    except np.linalg.LinAlgError:
        return None
    back = cv2.perspectiveTransform(px.reshape(-1, 1, 2), found).reshape(-1, 2)
    if not np.all(np.isfinite(back)) or \
            np.abs(back - board[:, :2]).max() > fit_mm:
        return None
    return found / found[2, 2]


__all__ = ["focal_length", "turned_homography"]
