"""The camera over the table: where it hangs, where it looks, and its pinhole projection.

POV-Ray is left-handed; board (x, y) mm lies at POV (x, 0, -y) with y up, so that a
camera looking down with its sky towards the board's top edge sees the board unmirrored.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from companion.vision.board import Board

from .world import LENSES, World

HEIGHT_MM = (450.0, 750.0)   # camera height above the table
SIZE = (1280, 720)


def pov(x: float, y: float, z: float = 0.0) -> np.ndarray:
    """Board mm (x, y) and height z -> POV-Ray coordinates."""
    return np.array([x, z, -y], float)


@dataclass(frozen=True)
class Pose:
    location: np.ndarray      # POV coordinates
    look_at: np.ndarray
    sky: np.ndarray
    fov_deg: float            # horizontal
    lens: str
    size: tuple[int, int] = SIZE

    def axes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        f = self.look_at - self.location
        f /= np.linalg.norm(f)
        r = np.cross(self.sky, f)
        r /= np.linalg.norm(r)
        u = np.cross(f, r)
        return f, r, u

    def project(self, points: np.ndarray) -> np.ndarray:
        """POV points (n, 3) -> image pixels (n, 2), before lens distortion."""
        f, r, u = self.axes()
        d = np.atleast_2d(points) - self.location
        w, h = self.size
        k = (w / 2) / math.tan(math.radians(self.fov_deg) / 2)
        z = d @ f
        return np.stack([w / 2 + k * (d @ r) / z, h / 2 - k * (d @ u) / z], axis=1)

    def height_mm(self) -> float:
        return float(self.location[1])

    def homography(self, board: Board, top_mm: float = 0.0) -> np.ndarray:
        """Board mm -> image px (undistorted) for points on the board's surface."""
        import cv2

        w, h = board.size_mm
        src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
        dst = self.project(np.array([pov(x, y, top_mm) for x, y in src])).astype(np.float32)
        return cv2.getPerspectiveTransform(src, dst)


def _pose(board: Board, cam: dict, fov: float, lens: str, dist: float) -> Pose:
    w, h = board.size_mm
    aim = np.array([w / 2 + cam["aim_mm"][0], h / 2 + cam["aim_mm"][1]])
    # Which board direction points up in the image: the board's top edge, turned so the
    # board's long side lies along the frame's long side, either way round, plus yaw.
    up_deg = 90.0 if cam["landscape"] else 0.0
    if cam["flip"]:
        up_deg += 180.0
    up_deg += cam["yaw_deg"]
    a = math.radians(up_deg)
    up_board = np.array([math.sin(a), -math.cos(a)])    # board-plane direction, y down
    t = math.radians(cam["tilt_deg"])
    # A tilted camera hangs on the image-bottom side of the aim, looking forward.
    ground = aim - up_board * dist * math.sin(t)
    location = pov(ground[0], ground[1], dist * math.cos(t))
    look_at = pov(aim[0], aim[1], 0.0)
    sky = pov(up_board[0], up_board[1], 0.0)
    return Pose(location, look_at, sky / np.linalg.norm(sky), fov, lens)


def _distance(board: Board, cam: dict, fov: float, lens: str, fill: float) -> float:
    """The camera distance at which the board spans `fill` of the frame, all in view."""
    lo, hi = 200.0, 3000.0
    w, h = board.size_mm
    corners = np.array([pov(x, y) for x, y in ((0, 0), (w, 0), (w, h), (0, h))])
    for _ in range(40):
        mid = (lo + hi) / 2
        px = _pose(board, cam, fov, lens, mid).project(corners)
        span = max((px[:, 0].max() - px[:, 0].min()) / SIZE[0],
                   (px[:, 1].max() - px[:, 1].min()) / SIZE[1])
        margin = 8.0   # px: the whole board in the picture, whatever the tilt
        outside = ((px < margin).any() or (px[:, 0] > SIZE[0] - margin).any()
                   or (px[:, 1] > SIZE[1] - margin).any())
        if span > fill or outside:
            lo = mid
        else:
            hi = mid
    return hi


def fit_pose(board: Board, world: World) -> Pose:
    """The world's camera, as far away as makes the board fill its share of the frame.

    If the drawn lens needs the camera higher than a real mount (75 cm), the camera goes
    on the highest mount, squared up if need be; only if the board is still not wholly in
    view is the next wider lens taken, as a user would."""
    cam = world.camera
    names = list(LENSES)
    start = names.index(cam["lens"])
    for lens in names[start:] + names[:start][::-1]:
        fov = LENSES[lens] * cam["fov_deg"] / LENSES[cam["lens"]]
        pose = _pose(board, cam, fov, lens, _distance(board, cam, fov, lens, cam["fill"]))
        if pose.height_mm() <= HEIGHT_MM[1]:
            break
        # Too high for the drawn share of the frame: a user hangs the camera on the
        # highest mount and lets the board fill more, if it is still wholly in view.
        # Then squares the camera up with the board (no yaw, aimed at its centre).
        top = HEIGHT_MM[1] / math.cos(math.radians(cam["tilt_deg"]))
        square = dict(cam, yaw_deg=0.0, aim_mm=[0.0, 0.0])
        found = False
        for c in (cam, square):
            if _distance(board, c, fov, lens, 1.0) <= top:
                pose, found = _pose(board, c, fov, lens, top), True
                break
        if found:
            break
    if pose.height_mm() < HEIGHT_MM[0]:   # small boards: never lower than a real mount
        pose = _pose(board, cam, fov, lens, HEIGHT_MM[0] / math.cos(math.radians(cam["tilt_deg"])))
    return pose
