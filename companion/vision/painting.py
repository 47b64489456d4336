"""Drawing helpers of the synthetic camera (``render``, and ``pieces_paint`` that paints
what it photographs): textures, blends, the shapes of hulls and gems, free spots in a
polygon, and the camera's pose as a homography."""

from __future__ import annotations

import math

import cv2
import numpy as np

from .board import Polygon, inside

# Sizes of the pieces (mm), vision.md "Nominal colours".
CANOE_LENGTH, CANOE_WIDTH = 45.0, 16.0
GEM_SIZE = 9.0


def _texture(rng: np.random.Generator, shape: tuple[int, int], amount: float,
             grain: float) -> np.ndarray:
    """Smooth random brightness variation around 1 (+- amount), features ~grain px."""
    h, w = shape
    sh, sw = max(2, int(h / grain) + 2), max(2, int(w / grain) + 2)
    small = rng.normal(0, 1, (sh, sw)).astype(np.float32)
    big: np.ndarray = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    big /= max(float(np.abs(big).max()), 1e-6)
    return 1 + amount * big


def _blend(img: np.ndarray, other: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    a = alpha[..., None]
    out = img.astype(np.float32) * (1 - a) + other.astype(np.float32) * a
    return np.clip(out, 0, 255).astype(np.uint8)


def _multiply(img: np.ndarray, poly_px16: np.ndarray, factor: float, scale: float) -> None:
    """Darken the inside of a polygon softly (a shadow)."""
    x, y, w, h = cv2.boundingRect(poly_px16 // 16)
    pad = int(3 * scale) + 2
    x0, y0 = max(x - pad, 0), max(y - pad, 0)
    x1, y1 = min(x + w + pad, img.shape[1]), min(y + h + pad, img.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillPoly(mask, [poly_px16 - np.array([x0 * 16, y0 * 16], np.int32)], 1.0, cv2.LINE_AA,
                 shift=4)
    mask = cv2.GaussianBlur(mask, (0, 0), 0.8 * scale)
    roi = img[y0:y1, x0:x1].astype(np.float32)
    roi *= (1 - (1 - factor) * mask)[..., None]
    img[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)


def _hull(p: tuple[float, float], angle: float, length: float,
          width: float) -> list[tuple[float, float]]:
    """A canoe's outline: pointed at both ends."""
    a = math.radians(angle)
    ca, sa = math.cos(a), math.sin(a)
    pts = []
    for k in range(32):
        t = 2 * math.pi * k / 32
        u = length / 2 * math.cos(t)
        v = width / 2 * math.sin(t) * (1 - 0.35 * math.cos(t) ** 4)
        pts.append((p[0] + u * ca - v * sa, p[1] + u * sa + v * ca))
    return pts


def _ellipse(p: tuple[float, float], angle: float, a: float,
             b: float) -> list[tuple[float, float]]:
    ca, sa = math.cos(angle), math.sin(angle)
    return [(p[0] + a * math.cos(t) * ca - b * math.sin(t) * sa,
             p[1] + a * math.cos(t) * sa + b * math.sin(t) * ca)
            for t in np.linspace(0, 2 * math.pi, 28, endpoint=False)]


def _capsule(a: tuple[float, float], b: tuple[float, float],
             r: float) -> list[tuple[float, float]]:
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    pts = []
    for t in np.linspace(-math.pi / 2, math.pi / 2, 9):
        pts.append((b[0] + r * math.cos(ang + t), b[1] + r * math.sin(ang + t)))
    for t in np.linspace(math.pi / 2, 3 * math.pi / 2, 9):
        pts.append((a[0] + r * math.cos(ang + t), a[1] + r * math.sin(ang + t)))
    return pts


def _centroid(poly: Polygon) -> tuple[float, float]:
    xs, ys = zip(*poly, strict=True)
    return sum(xs) / len(xs), sum(ys) / len(ys)


def _spot_in(poly: Polygon, taken: list[tuple[float, float]], gap: float,
             rng: np.random.Generator) -> tuple[float, float]:
    lo = np.min(poly, axis=0) + GEM_SIZE / 2
    hi = np.max(poly, axis=0) - GEM_SIZE / 2
    best, best_d = (float(lo[0]), float(lo[1])), -1.0
    for _ in range(60):
        p = (float(rng.uniform(lo[0], hi[0])), float(rng.uniform(lo[1], hi[1])))
        if not inside(p, poly):
            continue
        d = min((math.dist(p, q) for q in taken), default=1e9)
        if d >= gap:
            return p
        if d > best_d:
            best, best_d = p, d
    return best


def _grid_spots(poly: Polygon, n: int,
                rng: np.random.Generator) -> list[tuple[tuple[float, float], float]]:
    """n places for canoes lying in rows in a polygon (dock or falls)."""
    lo, hi = np.min(poly, axis=0), np.max(poly, axis=0)
    w, h = hi - lo
    cell_w, cell_h = CANOE_LENGTH + 8, CANOE_WIDTH + 6
    upright = h > w
    if upright:
        cell_w, cell_h = cell_h, cell_w
    cols, rows = max(1, int(w // cell_w)), max(1, int(h // cell_h))
    cells = [(lo[0] + (c + 0.5) * w / cols, lo[1] + (r + 0.5) * h / rows)
             for r in range(rows) for c in range(cols)]
    cells = [p for p in cells if inside(p, poly)] or cells
    picks = rng.permutation(len(cells))[:n]
    spots = [((float(cells[i][0] + rng.normal(0, 1.5)), float(cells[i][1] + rng.normal(0, 1))),
              90.0 if upright else 0.0) for i in picks]
    while len(spots) < n:  # more canoes than cells: pile them up
        p, a = spots[len(spots) % max(len(picks), 1)]
        spots.append(((p[0] + 4, p[1] + 4), a + 20))
    return spots


def _rotation(rx: float, ry: float, rz: float) -> np.ndarray:
    cx, sx, cy, sy, cz, sz = (math.cos(rx), math.sin(rx), math.cos(ry), math.sin(ry),
                              math.cos(rz), math.sin(rz))
    mx = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    my = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    mz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    return mx @ my @ mz


def _pose_homography(rot: np.ndarray, dist: float, f: float, centre: tuple[float, float],
                     size: tuple[float, float]) -> np.ndarray:
    k = np.array([[f, 0, centre[0]], [0, f, centre[1]], [0, 0, 1]])
    t = np.array([0, 0, dist])
    rt = np.column_stack([rot[:, 0], rot[:, 1], t])
    shift = np.array([[1, 0, -size[0] / 2], [0, 1, -size[1] / 2], [0, 0, 1]])
    return k @ rt @ shift


__all__ = ["CANOE_LENGTH", "CANOE_WIDTH", "GEM_SIZE"]
