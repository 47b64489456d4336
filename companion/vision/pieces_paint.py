"""What the synthetic camera (``render``) photographs: the printed board, the pieces
lying on it, and a hand reaching over it.

>>> from companion.vision.board import load_board
>>> paint_board(load_board(), 1.0).shape[2]
3

They are painted here, apart from the camera itself (its pose, the photograph and what
the room does to it, in ``render``), so that each module stays small; the shapes and
textures they share are ``painting``'s. The board and the pieces are painted in board
millimetres (``scale`` pixels a millimetre), the hand straight into the camera frame.
The board art (water, banks, printed deposits) is the renderer's own invention;
everything geometric comes from the Board. Every random draw is made in a fixed order,
so a picture depends on the seed alone.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import cv2
import numpy as np

from companion.rules.geometry import PLAYER_COLOURS

from .board import Board, Polygon
from .colours import CANOE_RGB, CLOUD_RGB, GEM_RGB, RGB, bgr
from .markers import PAPER_MARGIN, marker_image
from .painting import (
    CANOE_LENGTH,
    CANOE_WIDTH,
    GEM_SIZE,
    _blend,
    _capsule,
    _centroid,
    _ellipse,
    _grid_spots,
    _hull,
    _multiply,
    _spot_in,
    _texture,
)

CLOUD_RADIUS = 11.0
CANOE_GAP = 18.0  # centre to centre of canoes lying side by side on one disc

# The board art (sRGB), the renderer's own.
WATER_RGB = (52, 105, 150)
BANK_RGB = (112, 140, 88)
DOCK_RGB = (176, 160, 132)
FALLS_RGB = (118, 138, 150)
DEPOSIT_RGB = (132, 122, 104)
PRINT_RGB = (55, 60, 55)
SKIN_RGB: tuple[RGB, ...] = ((232, 190, 160), (205, 150, 115), (160, 110, 80),
                             (105, 72, 52), (225, 175, 140))


@dataclass(frozen=True)
class Hand:
    """A hand over the board: reaching from `edge` ("top", "right", "bottom", "left")
    to `reach` (board mm), skin colour sRGB."""

    edge: str
    reach: tuple[float, float]
    skin: RGB = SKIN_RGB[0]
    angle: float = 0.0  # degrees the hand is turned off the straight reach


def _px(pts: Iterable[tuple[float, float]], scale: float) -> np.ndarray:
    """Board mm to art pixels, in OpenCV's 4 fractional bits (shift=4)."""
    return np.round(np.asarray(list(pts), np.float64) * scale * 16).astype(np.int32)


# -- the empty board -----------------------------------------------------------------------

def paint_board(board: Board, scale: float) -> np.ndarray:
    """The printed board without pieces, BGR at `scale` px per mm."""
    b, s = board, scale
    w, h = int(round(b.size_mm[0] * s)), int(round(b.size_mm[1] * s))
    rng = np.random.default_rng(20040)
    art = np.empty((h, w, 3), np.float32)
    art[:] = bgr(BANK_RGB)
    art *= _texture(rng, (h, w), 0.08, 18 * s)[..., None]
    img = np.clip(art, 0, 255).astype(np.uint8)
    r = b.disc_radius_mm
    # The river: dock -> 1 ... 5 -> both branches -> falls.
    dock_c = _centroid(b.dock)
    falls_c = _centroid(b.falls)
    trunk = [dock_c] + [b.slots[s_] for s_ in ("1", "2", "3", "4", "5")]
    left = [b.slots["5"], b.slots["6L"], b.slots["7L"], (b.slots["7L"][0], falls_c[1])]
    right = [b.slots["5"], b.slots["6R"], b.slots["7R"], (b.slots["7R"][0], falls_c[1])]
    water = np.zeros((h, w), np.uint8)
    for line in (trunk, left, right):
        cv2.polylines(water, [_px(line, s)], False, 255, int(2.5 * r * s),
                      cv2.LINE_AA, shift=4)
    cv2.fillPoly(water, [_px(b.falls, s)], 255, cv2.LINE_AA, shift=4)
    ripple = _texture(rng, (h, w), 0.10, 6 * s)
    water_img = np.empty((h, w, 3), np.float32)
    water_img[:] = bgr(WATER_RGB)
    water_img *= ripple[..., None]
    img = _blend(img, water_img, water.astype(np.float32) / 255)
    # Falls: rocks and foam; dock: planks.
    _fill(img, b.falls, FALLS_RGB, rng, 0.12, s)
    _fill(img, b.dock, DOCK_RGB, rng, 0.06, s)
    x0, y0 = np.min(b.dock, axis=0)
    x1, y1 = np.max(b.dock, axis=0)
    for y in np.arange(y0 + 12, y1, 12.0):
        cv2.line(img, tuple(_px([(x0 + 2, y)], s)[0]), tuple(_px([(x1 - 2, y)], s)[0]),
                 bgr((140, 125, 100)), max(1, int(s)), cv2.LINE_AA, shift=4)
    for gem, poly in b.deposits.items():
        _fill(img, poly, DEPOSIT_RGB, rng, 0.08, s)
        cv2.polylines(img, [_px(poly, s)], True, bgr(GEM_RGB[gem]), max(1, int(1.5 * s)),
                      cv2.LINE_AA, shift=4)
    # Slot rings printed on the water, where the discs rest.
    for c in b.slots.values():
        cv2.circle(img, tuple(_px([c], s)[0]), int(r * s * 16), bgr((70, 120, 160)),
                   max(1, int(s)), cv2.LINE_AA, shift=4)
    # Weather track.
    pts = list(b.weather_mm.items())
    step = min(math.dist(a[1], c[1]) for a in pts for c in pts if a[0] != c[0])
    for value, c in pts:
        cv2.circle(img, tuple(_px([c], s)[0]), int(step * 0.42 * s * 16),
                   bgr((120, 128, 118)), -1, cv2.LINE_AA, shift=4)
        cv2.circle(img, tuple(_px([c], s)[0]), int(step * 0.42 * s * 16),
                   bgr(PRINT_RGB), max(1, int(s)), cv2.LINE_AA, shift=4)
        label = f"+{value}" if value > 0 else str(value)
        org = _px([(c[0] + step * 0.5, c[1] + step * 0.12)], s)[0] // 16
        cv2.putText(img, label, (int(org[0]), int(org[1])), cv2.FONT_HERSHEY_SIMPLEX,
                    0.12 * s, bgr(PRINT_RGB), max(1, int(s / 2)), cv2.LINE_AA)
    # The four markers on their white paper.
    m = b.markers
    for i, (cx, cy) in m.centres_mm.items():
        half = m.size_mm * (0.5 + PAPER_MARGIN)
        paper = [(cx - half, cy - half), (cx + half, cy - half),
                 (cx + half, cy + half), (cx - half, cy + half)]
        cv2.fillPoly(img, [_px(paper, s)], bgr((246, 246, 242)), cv2.LINE_AA, shift=4)
        side = int(round(m.size_mm * s))
        mk = marker_image(i, side, m.dictionary)
        x, y = int(round((cx - m.size_mm / 2) * s)), int(round((cy - m.size_mm / 2) * s))
        ink = np.where(mk[..., None] > 127, np.uint8(246), np.uint8(22))
        img[y:y + side, x:x + side] = np.broadcast_to(ink, (side, side, 3))
    return img


def _fill(img: np.ndarray, poly: Polygon, rgb: RGB, rng: np.random.Generator,
          amount: float, scale: float) -> None:
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.fillPoly(mask, [_px(poly, scale)], 255, cv2.LINE_AA, shift=4)
    tex = np.empty(img.shape, np.float32)
    tex[:] = bgr(rgb)
    tex *= _texture(rng, img.shape[:2], amount, 4 * scale)[..., None]
    img[:] = _blend(img, tex, mask.astype(np.float32) / 255)


# -- the pieces on it ----------------------------------------------------------------------

def paint_pieces(art: np.ndarray, board: Board, scale: float,
                 canoes: Mapping[str, list[tuple[str, str | None]]], weather: int,
                 deposits: Mapping[str, Mapping[str, int]], missing: set[str],
                 rng: np.random.Generator, jitter_mm: float, glare: float) -> np.ndarray:
    """A copy of the board's art (`paint_board`) with the pieces put down on it: gems in
    the deposits, the discs (but those `missing`), the cloud at `weather`, the canoes.
    jitter_mm: how carelessly pieces are put down; glare: chance of glare on a disc."""
    b = board
    img = art.copy()
    jit = jitter_mm
    # Gems lying in the deposits.
    for dep, poly in b.deposits.items():
        gems = deposits.get(dep, {})
        placed: list[tuple[float, float]] = []
        for colour in sorted(gems):
            for _ in range(int(gems[colour])):
                p = _spot_in(poly, placed, GEM_SIZE * 0.9, rng)
                placed.append(p)
                _gem(img, p, colour, rng, scale)
    # Discs (transparent) in their slots, with glare.
    r = b.disc_radius_mm
    for slot, c in b.slots.items():
        if slot in missing:
            continue
        c = (c[0] + rng.normal(0, jit * 0.5), c[1] + rng.normal(0, jit * 0.5))
        _disc(img, c, r, rng, rng.random() < glare, scale)
    # The cloud on the weather track.
    wc = b.weather_mm[weather]
    _cloud(img, (wc[0] + rng.normal(0, jit), wc[1] + rng.normal(0, jit)), scale)
    # Canoes: on each slot side by side along the flow; on dock and falls in rows.
    by_place: dict[str, list[tuple[str, str | None]]] = {}
    for player in PLAYER_COLOURS:
        for place, gem in canoes.get(player, []):
            by_place.setdefault(place, []).append((player, gem))
    for place, here in by_place.items():
        order = [here[i] for i in rng.permutation(len(here))]
        if place in ("D", "F"):
            poly = b.dock if place == "D" else b.falls
            spots = _grid_spots(poly, len(order), rng)
            for (player, gem), (p, ang) in zip(order, spots, strict=True):
                _canoe(img, p, ang + rng.normal(0, 6), player,
                       None if place == "F" else gem, rng, scale)
            continue
        c = b.slots[place]
        fx, fy = b.flow(place)
        ang = math.degrees(math.atan2(fy, fx))
        n = len(order)
        for k, (player, gem) in enumerate(order):
            off = (k - (n - 1) / 2) * CANOE_GAP
            p = (c[0] - fy * off + rng.normal(0, jit), c[1] + fx * off + rng.normal(0, jit))
            _canoe(img, p, ang + rng.normal(0, 4), player, gem, rng, scale)
    return img


def _disc(img: np.ndarray, c: tuple[float, float], r: float,
          rng: np.random.Generator, glare: bool, scale: float) -> None:
    s = scale
    x0, y0 = int((c[0] - r - 3) * s), int((c[1] - r - 3) * s)
    x1, y1 = int((c[0] + r + 3) * s) + 1, int((c[1] + r + 3) * s) + 1
    x0, y0 = max(x0, 0), max(y0, 0)
    roi: np.ndarray = img[y0:y1, x0:x1].astype(np.float32)
    centre = ((c[0] * s - x0) * 16, (c[1] * s - y0) * 16)
    ctr = (int(centre[0]), int(centre[1]))
    body = np.zeros(roi.shape[:2], np.uint8)
    cv2.circle(body, ctr, int(r * s * 16), 255, -1, cv2.LINE_AA, shift=4)
    a = body.astype(np.float32)[..., None] / 255
    roi = roi * (1 - 0.22 * a) + 0.22 * a * np.array(bgr((225, 238, 245)), np.float32)
    rim = np.zeros(roi.shape[:2], np.uint8)
    cv2.circle(rim, ctr, int((r - 0.8) * s * 16), 255, max(1, int(1.6 * s)),
               cv2.LINE_AA, shift=4)
    a = rim.astype(np.float32)[..., None] / 255 * 0.45
    roi = roi * (1 - a) + a * 235
    if glare:
        gl = np.zeros(roi.shape[:2], np.float32)
        ang = rng.uniform(0, 2 * math.pi)
        d = rng.uniform(0.2, 0.75) * r
        g = (int((c[0] * s - x0 + math.cos(ang) * d * s) * 16),
             int((c[1] * s - y0 + math.sin(ang) * d * s) * 16))
        axes = (int(rng.uniform(5, 11) * s * 16), int(rng.uniform(2, 5) * s * 16))
        cv2.ellipse(gl, g, axes, math.degrees(ang) + 90, 0, 360, 1.0, -1, cv2.LINE_AA,
                    shift=4)
        gl = cv2.GaussianBlur(gl, (0, 0), 1.5 * s) * rng.uniform(0.5, 0.9)
        gl *= body.astype(np.float32) / 255
        roi = roi * (1 - gl[..., None]) + gl[..., None] * 252
    img[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)


def _cloud(img: np.ndarray, c: tuple[float, float], scale: float) -> None:
    s = scale
    p = tuple(_px([(c[0] + 1.5, c[1] + 1.5)], s)[0])
    cv2.circle(img, p, int(CLOUD_RADIUS * s * 16), (60, 60, 60), -1, cv2.LINE_AA, shift=4)
    p = tuple(_px([c], s)[0])
    cv2.circle(img, p, int(CLOUD_RADIUS * s * 16), bgr(CLOUD_RGB), -1, cv2.LINE_AA, shift=4)
    cv2.circle(img, p, int(CLOUD_RADIUS * s * 16), bgr((200, 200, 205)), max(1, int(s)),
               cv2.LINE_AA, shift=4)


def _canoe(img: np.ndarray, p: tuple[float, float], angle: float, player: str,
           gem: str | None, rng: np.random.Generator, scale: float) -> None:
    rgb = np.array(CANOE_RGB[player], np.float32) * rng.uniform(0.94, 1.06)
    hull = _hull(p, angle, CANOE_LENGTH, CANOE_WIDTH)
    shadow = _hull((p[0] + 1.2, p[1] + 1.6), angle, CANOE_LENGTH, CANOE_WIDTH)
    _multiply(img, _px(shadow, scale), 0.55, scale)
    col = tuple(float(v) for v in np.clip(rgb, 0, 255)[::-1])
    cv2.fillPoly(img, [_px(hull, scale)], col, cv2.LINE_AA, shift=4)
    inner = _hull(p, angle, CANOE_LENGTH * 0.8, CANOE_WIDTH * 0.62)
    dark = tuple(v * 0.82 for v in col)
    cv2.fillPoly(img, [_px(inner, scale)], dark, cv2.LINE_AA, shift=4)
    cv2.polylines(img, [_px(hull, scale)], True, tuple(v * 0.6 for v in col),
                  max(1, int(scale * 0.6)), cv2.LINE_AA, shift=4)
    if gem:
        g = (p[0] + rng.normal(0, 0.8), p[1] + rng.normal(0, 0.8))
        _gem(img, g, gem, rng, scale, tint=rgb)


def _gem(img: np.ndarray, p: tuple[float, float], gem: str, rng: np.random.Generator,
         scale: float, tint: np.ndarray | None = None) -> None:
    base: np.ndarray = np.array(GEM_RGB[gem], np.float32)
    if gem == "clear" and tint is not None:
        base = 0.9 * base + 0.1 * tint
    rot = rng.uniform(0, math.pi)
    rad = GEM_SIZE / 2 * rng.uniform(0.95, 1.05)
    ring = [(p[0] + rad * math.cos(rot + k * math.pi / 3),
             p[1] + rad * math.sin(rot + k * math.pi / 3)) for k in range(6)]
    _multiply(img, _px([(x + 0.8, y + 1.0) for x, y in ring], scale), 0.6, scale)
    for k in range(6):
        tri = [p, ring[k], ring[(k + 1) % 6]]
        shade = 0.85 + 0.25 * math.cos(rot + k * math.pi / 3 - 0.8)
        col = np.clip(base * shade, 0, 255)[::-1]
        cv2.fillPoly(img, [_px(tri, scale)], tuple(float(v) for v in col), cv2.LINE_AA,
                     shift=4)
    table = [(p[0] + rad * 0.45 * math.cos(rot + k * math.pi / 3),
              p[1] + rad * 0.45 * math.sin(rot + k * math.pi / 3)) for k in range(6)]
    top = np.clip(base * 1.05 + 10, 0, 255)[::-1]
    cv2.fillPoly(img, [_px(table, scale)], tuple(float(v) for v in top), cv2.LINE_AA, shift=4)
    hl = (p[0] - rad * 0.35, p[1] - rad * 0.35)
    cv2.circle(img, tuple(_px([hl], scale)[0]), int(rad * 0.18 * scale * 16),
               (250, 250, 250), -1, cv2.LINE_AA, shift=4)


# -- a hand over it, in the camera frame ---------------------------------------------------

def paint_hand(frame: np.ndarray, homography: np.ndarray, board_size_mm: tuple[float, float],
               hand: Hand, rng: np.random.Generator) -> np.ndarray:
    """Paint `hand` (and its soft shadow) into the camera frame in place; homography:
    board mm -> frame px. Returns the mask of the frame's pixels the hand covers."""
    bw, bh = board_size_mm
    tx, ty = hand.reach
    start = {"top": (tx, -400.0), "bottom": (tx, bh + 400.0),
             "left": (-400.0, ty), "right": (bw + 400.0, ty)}[hand.edge]
    ang = math.atan2(ty - start[1], tx - start[0]) + math.radians(hand.angle)
    ux, uy = math.cos(ang), math.sin(ang)
    nx, ny = -uy, ux
    wrist = (tx - ux * 60, ty - uy * 60)
    arm = [(start[0] + nx * 40, start[1] + ny * 40), (wrist[0] + nx * 30, wrist[1] + ny * 30),
           (wrist[0] - nx * 30, wrist[1] - ny * 30), (start[0] - nx * 40, start[1] - ny * 40)]
    shapes = [arm, _ellipse((tx - ux * 20, ty - uy * 20), ang, 50, 42)]
    for k in range(4):
        off = (k - 1.5) * 19
        base = (tx + ux * 15 + nx * off, ty + uy * 15 + ny * off)
        length = (55, 68, 72, 62)[k] * rng.uniform(0.9, 1.1)
        tip = (base[0] + ux * length, base[1] + uy * length)
        shapes.append(_capsule(base, tip, 8.5))
    thumb_base = (tx - ux * 20 + nx * 40, ty - uy * 20 + ny * 40)
    tip = (thumb_base[0] + (ux + nx) * 35, thumb_base[1] + (uy + ny) * 35)
    shapes.append(_capsule(thumb_base, tip, 10))
    h_img, w_img = frame.shape[:2]
    mask = np.zeros((h_img, w_img), np.uint8)
    shadow = np.zeros((h_img, w_img), np.uint8)
    for shape in shapes:
        pts = cv2.perspectiveTransform(np.array([shape], np.float64), homography)[0]
        cv2.fillPoly(mask, [np.round(pts * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
        cast_shadow = [(x + 25, y + 30) for x, y in shape]
        pts = cv2.perspectiveTransform(np.array([cast_shadow], np.float64), homography)[0]
        cv2.fillPoly(shadow, [np.round(pts * 16).astype(np.int32)], 255, cv2.LINE_AA,
                     shift=4)
    sh = cv2.GaussianBlur(shadow.astype(np.float32) / 255, (0, 0), 8)[..., None]
    out = frame.astype(np.float32) * (1 - 0.45 * sh)
    skin = np.empty_like(out)
    skin[:] = bgr(hand.skin)
    shade = _texture(rng, (h_img, w_img), 0.12, 30)
    skin *= shade[..., None]
    a = mask.astype(np.float32)[..., None] / 255
    frame[:] = np.clip(out * (1 - a) + skin * a, 0, 255).astype(np.uint8)
    return mask


__all__ = ["CANOE_GAP", "CLOUD_RADIUS", "SKIN_RGB", "Hand", "paint_board", "paint_hand",
           "paint_pieces"]
