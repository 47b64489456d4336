"""Learning the colour profile from photos of the calibration layout.

Lay the pieces out like this (every disc in its slot except 7R, which is taken out;
canoes along the river, each with its gem in the middle; the cloud on 0; dock, falls
and deposits empty), photograph it with the table's camera and light, and run
``companion calibrate profile PHOTO``:

    slot 1: brown canoe with a red gem       slot 2: yellow canoe with a blue gem
    slot 3: red canoe with a clear gem       slot 4: blue canoe with a yellow gem
    slot 5: green canoe with a violet gem    6L, 6R, 7L: empty discs    7R: no disc

Every class is sampled where the layout puts it, so the profile is this table's, this
camera's and this light's. Several photos (other light, other angle) make it sturdier.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import cv2
import numpy as np

from companion.rules import SLOTS

from .board import Board
from .detect import SMOOTH_MM, Detector, _odd
from .light import LightMeter
from .locate import BoardLocator
from .profile import (
    GROUND_CELL_MM,
    MIN_SIGMA,
    SHADE_CELL_MM,
    ColourProfile,
    ProfileError,
    features,
)
from .surface import cell_look, cell_px

# slot -> (canoe colour, gem it carries)
LAYOUT_CANOES: dict[str, tuple[str, str]] = {
    "1": ("brown", "red"), "2": ("yellow", "blue"), "3": ("red", "clear"),
    "4": ("blue", "yellow"), "5": ("green", "violet"),
}
LAYOUT_EMPTY_DISCS = ("6L", "6R", "7L")
LAYOUT_NO_DISC = "7R"
LAYOUT_WEATHER = 0
BOARD_CLASSES = 6  # the printed board is learned as this many colour clusters


def layout_state() -> dict[str, Any]:
    """The calibration layout as a snapshot-like dict (what the renderer paints)."""
    return {"canoes": {c: [{"at": slot, "gem": g}] for slot, (c, g) in LAYOUT_CANOES.items()},
            "weather": LAYOUT_WEATHER, "deposits": {}}


def _disc_px(shape: tuple[int, int], scale: float, centre: tuple[float, float],
             r0: float, r1: float) -> tuple[np.ndarray, np.ndarray]:
    h, w = shape
    cx, cy = centre
    x0, x1 = int(max((cx - r1) * scale, 0)), int(min((cx + r1) * scale + 1, w))
    y0, y1 = int(max((cy - r1) * scale, 0)), int(min((cy + r1) * scale + 1, h))
    yy, xx = np.mgrid[y0:y1, x0:x1]
    d = np.hypot((xx + 0.5) / scale - cx, (yy + 0.5) / scale - cy)
    ys, xs = np.nonzero((d >= r0) & (d <= r1))
    return ys + y0, xs + x0


def _canoe_px(shape: tuple[int, int], scale: float, centre: tuple[float, float],
              flow: tuple[float, float]) -> tuple[tuple[np.ndarray, np.ndarray],
                                                 tuple[np.ndarray, np.ndarray]]:
    """Pixels of a canoe laid along the flow at a slot: its hull (short of the edges, a
    canoe is never put down exactly) and its middle, where the gem is."""
    h, w = shape
    cx, cy = centre
    x0, x1 = int(max((cx - 25) * scale, 0)), int(min((cx + 25) * scale + 1, w))
    y0, y1 = int(max((cy - 25) * scale, 0)), int(min((cy + 25) * scale + 1, h))
    yy, xx = np.mgrid[y0:y1, x0:x1]
    dx, dy = (xx + 0.5) / scale - cx, (yy + 0.5) / scale - cy
    along = dx * flow[0] + dy * flow[1]
    across = -dx * flow[1] + dy * flow[0]
    hull = ((along / 18) ** 2 + (across / 5) ** 2 <= 1) & (np.hypot(dx, dy) > 7.5)
    middle = np.hypot(dx, dy) <= 7.0
    ys, xs = np.nonzero(hull)
    ym, xm = np.nonzero(middle)
    return (ys + y0, xs + x0), (ym + y0, xm + x0)


def _gem_px(img: np.ndarray, hull: tuple[np.ndarray, np.ndarray],
            middle: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """The pixels in a canoe's middle that are least like its hull: the gem."""
    hull_px = features(img[hull].astype(np.float64))
    mid = img[middle]
    f = features(mid.astype(np.float64))
    mean = np.median(hull_px, axis=0)
    cov = np.cov(hull_px, rowvar=False) + np.diag(np.square(MIN_SIGMA))
    d = f - mean
    d2 = np.einsum("ni,ij,nj->n", d, np.linalg.inv(cov), d)
    # The gem covers about a third of the middle; its core is the most unlike part.
    keep = d2 >= np.quantile(d2, 0.8)
    return mid[keep]


def sample_layout(board: Board, image: np.ndarray, px_per_mm: float = 1.0,
                  detector: Detector | None = None) -> dict[str, np.ndarray]:
    """Light-corrected BGR pixels per class from one photo of the layout (with a
    detector from a first profile, shadows are taken out as the detector does)."""
    where = BoardLocator(board).locate(image)
    if where is None:
        raise ProfileError("fewer than three of the board's four markers are visible in "
                           "the photo")
    s = px_per_mm
    if detector is not None:
        img = detector.prepare(image, where)[0]
    else:
        meter = LightMeter(board, px_per_mm)
        to_rect = np.diag([s, s, 1.0]) @ where.homography
        rect = cv2.warpPerspective(image, to_rect, meter.shape[::-1], flags=cv2.INTER_LINEAR)
        k = _odd(SMOOTH_MM * px_per_mm)
        img = cv2.blur(meter.correct(rect, frozenset(where.seen)), (k, k))
    h, w = img.shape[:2]
    r = board.disc_radius_mm
    out: dict[str, list[np.ndarray]] = {}

    def take(name: str, idx: tuple[np.ndarray, np.ndarray]) -> None:
        out.setdefault(name, []).append(img[idx])

    for slot, (canoe, gem) in LAYOUT_CANOES.items():
        hull, middle = _canoe_px((h, w), s, board.slots[slot], board.flow(slot))
        take(f"canoe:{canoe}", hull)
        out.setdefault(f"gem:{gem}", []).append(_gem_px(img, hull, middle))
    for slot in LAYOUT_EMPTY_DISCS:
        take("disc", _disc_px((h, w), s, board.slots[slot], 0.45 * r, 0.85 * r))
    take("water", _disc_px((h, w), s, board.slots[LAYOUT_NO_DISC], 0, 0.8 * r))
    wx, wy = board.weather_mm[LAYOUT_WEATHER]
    take("cloud", _disc_px((h, w), s, (wx, wy), 0, 5.0))
    # The printed board: everywhere the layout leaves empty.
    ground = np.zeros((h, w), np.uint8)
    for poly in (board.dock, board.falls, *board.deposits.values()):
        cv2.fillPoly(ground, [np.round(np.asarray(poly) * s).astype(np.int32)], 1)
    ground = cv2.erode(ground, np.ones((5, 5), np.uint8))
    for value, c in board.weather_mm.items():
        if value != LAYOUT_WEATHER:
            ys, xs = _disc_px((h, w), s, c, 0, 12.0)
            ground[ys, xs] = 1
    for c in board.slots.values():
        ys, xs = _disc_px((h, w), s, c, 0.9 * r, 1.45 * r)
        ground[ys, xs] = 1
    e0, e1 = int(3 * s), int(12 * s)
    band = np.zeros((h, w), np.uint8)
    band[e0:h - e0, e0:w - e0] = 1
    band[e1:h - e1, e1:w - e1] = 0
    ground |= band
    side = board.markers.size_mm
    for cx, cy in board.markers.centres_mm.values():
        half = side * 0.75 + 2
        cv2.rectangle(ground, (int((cx - half) * s), int((cy - half) * s)),
                      (int((cx + half) * s), int((cy + half) * s)), 0, -1)
    # Keep the pieces of the layout out of the ground samples.
    for slot in LAYOUT_CANOES:
        ys, xs = _disc_px((h, w), s, board.slots[slot], 0, 1.45 * r)
        ground[ys, xs] = 0
    ys, xs = _disc_px((h, w), s, (wx, wy), 0, 14.0)
    ground[ys, xs] = 0
    for slot in SLOTS:
        ys, xs = _disc_px((h, w), s, board.slots[slot], 0, 0.88 * r)
        ground[ys, xs] = 0
    out["ground"] = [img[ground > 0]]
    return {k: np.concatenate(v) for k, v in out.items()}


def learn_profile(board: Board, images: Iterable[np.ndarray], px_per_mm: float = 1.0,
                  source: str = "") -> ColourProfile:
    """A colour profile from photos of the calibration layout (see the module text)."""
    shots = list(images)
    if not shots:
        raise ProfileError("no photos of the calibration layout given")
    # Twice: the second time with shadows taken out by the first profile, as the
    # detector will see the table.
    profile = _learn_once(board, shots, px_per_mm, source, None)
    profile = _learn_once(board, shots, px_per_mm, source, Detector(board, profile, px_per_mm))
    profile.board_luma = board_luma(board, profile, shots, px_per_mm)
    profile.ground_map = ground_map(board, profile, shots, px_per_mm)
    profile.board_chroma, profile.board_texture = board_surface(board, profile, shots,
                                                                px_per_mm)
    return profile


def board_luma(board: Board, profile: ColourProfile, shots: list[np.ndarray],
               px_per_mm: float) -> np.ndarray:
    """The empty board's brightness per SHADE_CELL_MM cell (median over the cell, then
    over the photos, so a shadow on one photo does not stay); NaN under the layout's
    pieces and where the photos do not agree enough to tell."""
    det = Detector(board, profile, px_per_mm)
    c = max(2, int(round(SHADE_CELL_MM * px_per_mm)))
    gh, gw = int(board.size_mm[1] * px_per_mm) // c, int(board.size_mm[0] * px_per_mm) // c
    per_shot = []
    for image in shots:
        where = BoardLocator(board).locate(image)
        if where is None:
            continue
        img = det.corrected(image, where)
        lum = img[:gh * c, :gw * c].sum(axis=2, dtype=np.int32)
        blocks = lum.reshape(gh, c, gw, c).transpose(0, 2, 1, 3).reshape(gh, gw, c * c)
        per_shot.append(np.median(blocks, axis=2))
    if not per_shot:
        raise ProfileError("the board's markers are not visible in the photos")
    luma = np.median(np.array(per_shot), axis=0).astype(np.float32)
    luma[_under_layout(board, (gh, gw), c / px_per_mm)] = np.nan
    return _per_shade_cell(board, luma)


def board_surface(board: Board, profile: ColourProfile, shots: list[np.ndarray],
                  px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """The empty board's look per SHADE_CELL_MM cell (``surface.cell_look``: mean
    chromaticity and grey-level spread), seen as the detector sees the board (light
    and shadows taken out, smoothed); the median over the photos. Cells where the
    layout's pieces show are taken from the rest of their disc (a disc looks the same
    all over), or are NaN (the cloud's place)."""
    det = Detector(board, profile, px_per_mm)
    c = cell_px(px_per_mm)
    chromas, textures = [], []
    for image in shots:
        where = BoardLocator(board).locate(image)
        if where is None:
            continue
        chroma, texture = cell_look(det.prepare(image, where)[0], c)
        chromas.append(chroma)
        textures.append(texture)
    if not chromas:
        raise ProfileError("the board's markers are not visible in the photos")
    chroma = np.median(np.array(chromas), axis=0).astype(np.float32)
    texture = np.median(np.array(textures), axis=0).astype(np.float32)
    hidden = _under_layout(board, texture.shape, c / px_per_mm, profile)
    chroma[hidden] = np.nan
    texture[hidden] = np.nan
    _fill_discs(board, chroma, texture, c / px_per_mm)
    return (np.stack([_per_shade_cell(board, chroma[..., k]) for k in (0, 1)], axis=-1),
            _per_shade_cell(board, texture))


def _fill_discs(board: Board, chroma: np.ndarray, texture: np.ndarray,
                cell_mm: float) -> None:
    """Cells on a disc that the layout's canoe hid take the look of that disc's other
    cells (or, if none shows, of the other discs'): in place."""
    rows, cols = texture.shape
    gy, gx = np.mgrid[0:rows, 0:cols]
    cx, cy = (gx + 0.5) * cell_mm, (gy + 0.5) * cell_mm
    reach = board.disc_radius_mm - 0.5 * cell_mm
    on = {slot: np.hypot(cx - x, cy - y) <= reach for slot, (x, y) in board.slots.items()}
    known = np.isfinite(texture) & np.isfinite(chroma).all(axis=2)
    any_disc = np.logical_or.reduce(list(on.values())) & known
    for cells in on.values():
        gap = cells & ~known
        if not gap.any():
            continue
        donors = cells & known if (cells & known).sum() >= 2 else any_disc
        if not donors.any():
            continue
        chroma[gap] = np.median(chroma[donors], axis=0)
        texture[gap] = np.median(texture[donors])


def _under_layout(board: Board, shape: tuple[int, ...], cell_mm: float,
                  profile: ColourProfile | None = None) -> np.ndarray:
    """Cells (of `cell_mm`) the calibration layout's pieces may hide: its canoes' discs,
    or with a profile (which knows a canoe's size) only the strip along the flow each
    canoe lies on; and the cloud."""
    gy, gx = np.mgrid[0:shape[0], 0:shape[1]]
    cx, cy = (gx + 0.5) * cell_mm, (gy + 0.5) * cell_mm
    hidden = np.zeros(shape[:2], bool)
    for slot in LAYOUT_CANOES:
        sx, sy = board.slots[slot]
        if profile is None:
            hidden |= np.hypot(cx - sx, cy - sy) <= board.disc_radius_mm + cell_mm
            continue
        fx, fy = board.flow(slot)
        along = np.abs((cx - sx) * fx + (cy - sy) * fy)
        across = np.abs((cx - sx) * fy - (cy - sy) * fx)
        margin = 0.75 * cell_mm + 3.0  # a cell touching the hull, its blur and shadow
        hidden |= (along <= profile.sizes_mm2["canoe_long_mm"] / 2 + margin) & \
            (across <= profile.sizes_mm2["canoe_short_mm"] / 2 + margin)
    wx, wy = board.weather_mm[LAYOUT_WEATHER]
    hidden |= np.hypot(cx - wx, cy - wy) <= 14 + cell_mm
    return hidden


def _per_shade_cell(board: Board, grid: np.ndarray) -> np.ndarray:
    """A grid stored per SHADE_CELL_MM whatever the resolution it was measured at
    (NaN kept)."""
    out_h = int(board.size_mm[1] // SHADE_CELL_MM)
    out_w = int(board.size_mm[0] // SHADE_CELL_MM)
    return cv2.resize(grid.astype(np.float32), (out_w, out_h),
                      interpolation=cv2.INTER_NEAREST)


def ground_map(board: Board, profile: ColourProfile, shots: list[np.ndarray],
               px_per_mm: float) -> dict[str, np.ndarray]:
    """Where each class of the board itself shows on the layout photos (cells of
    GROUND_CELL_MM). What lies under the layout's pieces is filled in from its like:
    every slot may show what any slot shows, every weather position what any does."""
    det = Detector(board, profile, px_per_mm)
    cell = GROUND_CELL_MM * px_per_mm
    w_mm, h_mm = board.size_mm
    gh, gw = int(math.ceil(h_mm / GROUND_CELL_MM)), int(math.ceil(w_mm / GROUND_CELL_MM))
    names = profile.names
    ground = profile.ground()
    seen = {names[i]: np.zeros((gh, gw), bool) for i in ground}
    for image in shots:
        where = BoardLocator(board).locate(image)
        if where is None:
            continue
        labels = det.prepare(image, where)[1]
        ys, xs = np.mgrid[0:labels.shape[0], 0:labels.shape[1]]
        cy, cx = (ys / cell).astype(int).clip(0, gh - 1), (xs / cell).astype(int).clip(0, gw - 1)
        for i in ground:
            hit = labels == i
            seen[names[i]][cy[hit], cx[hit]] = True
    gy, gx = np.mgrid[0:gh, 0:gw]
    cx_mm, cy_mm = (gx + 0.5) * GROUND_CELL_MM, (gy + 0.5) * GROUND_CELL_MM
    pts = list(board.weather_mm.values())
    step = min(math.dist(a, b) for a in pts for b in pts if a != b)
    # Around every slot (and every weather position) the same things show at the same
    # distance from its centre: water, a disc, its rim. What one shows, all may show,
    # ring by ring; the layout's pieces hide some of them.
    for centres, reach in ((list(board.slots.values()), 1.3 * board.disc_radius_mm),
                           (pts, 0.5 * step)):
        ring = np.full((gh, gw), -1)
        for x, y in centres:
            d = np.hypot(cx_mm - x, cy_mm - y)
            near = (d <= reach) & ((ring < 0) | (d // GROUND_CELL_MM < ring))
            ring[near] = (d[near] // GROUND_CELL_MM).astype(int)
        for m in seen.values():
            rings = np.unique(ring[m & (ring >= 0)])
            m |= np.isin(ring, np.concatenate([rings - 1, rings, rings + 1])) & (ring >= 0)
    grow = np.ones((3, 3), np.uint8)
    for name, m in seen.items():
        seen[name] = cv2.dilate(m.astype(np.uint8), grow).astype(bool)
    return seen


def _learn_once(board: Board, shots: list[np.ndarray], px_per_mm: float, source: str,
                detector: Detector | None) -> ColourProfile:
    pooled: dict[str, list[np.ndarray]] = {}
    for image in shots:
        for name, px in sample_layout(board, image, px_per_mm, detector).items():
            pooled.setdefault(name, []).append(px)
    samples = {k: np.concatenate(v) for k, v in pooled.items()}
    gem_first = {k: v for k, v in samples.items() if k.startswith("gem:")}
    ground = samples.pop("ground").astype(np.float32)
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.5)
    rng = np.random.default_rng(0)
    if len(ground) > 60000:
        ground = ground[rng.choice(len(ground), 60000, replace=False)]
    cv2.setRNGSeed(1)
    _, lab, _ = cv2.kmeans(ground, BOARD_CLASSES, None, crit, 3, cv2.KMEANS_PP_CENTERS)
    lab = lab.ravel()
    for k in range(BOARD_CLASSES):
        if np.count_nonzero(lab == k) >= 50:
            samples[f"board:{k}"] = ground[lab == k]
    # Sizes are measured with a first profile on the same photos.
    sizes = {"canoe": 600.0, "canoe_box": 720.0, "canoe_long_mm": 45.0, "canoe_short_mm": 16.0,
             "gem": 60.0, "cloud": 300.0}
    profile = ColourProfile.learn(samples, sizes, source)
    profile.sizes_mm2 = measure_sizes(board, profile, shots, px_per_mm)
    # Gems are judged as the detector sees them (the sharper view of a canoe's middle),
    # so their colours are learned that way too, over the first estimate.
    det = Detector(board, profile, px_per_mm)
    seen: dict[str, list[np.ndarray]] = {}
    for image in shots:
        where = BoardLocator(board).locate(image)
        if where is None:
            continue
        det.corrected(image, where)  # measures the light
        for slot, (canoe, gem) in LAYOUT_CANOES.items():
            ev = det.gem_evidence(image, where, board.slots[slot], canoe)
            if ev is not None:
                seen.setdefault(f"gem:{gem}", []).append(ev[2])
    for name, colours in seen.items():
        cls = profile.classes[name]
        cls.bgr = np.median(np.array(colours), axis=0)
    missing = [g for g in gem_first if g not in seen]
    if missing:
        raise ProfileError(f"no canoe with {missing[0].split(':')[1]} gem seen where the "
                           "layout puts it")
    return profile


def measure_sizes(board: Board, profile: ColourProfile, images: list[np.ndarray],
                  px_per_mm: float) -> dict[str, float]:
    """How big a hull, a gem and the cloud look (mm² of their colour class), measured
    on the layout photos: the median over the pieces of the layout."""
    det = Detector(board, profile, px_per_mm)
    s2 = px_per_mm ** 2
    canoe, box, gem, cloud, long_side, short_side = [], [], [], [], [], []
    k = max(3, int(round(3 * px_per_mm)) | 1)
    close = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    for image in images:
        where = BoardLocator(board).locate(image)
        if where is None:
            continue
        labels = det.prepare(image, where)[1]
        h, w = labels.shape
        for slot, (c, _gem) in LAYOUT_CANOES.items():
            ys, xs = _disc_px((h, w), px_per_mm, board.slots[slot], 0, 26.0)
            hull = labels[ys, xs] == profile.index(f"canoe:{c}")
            canoe.append(np.count_nonzero(hull) / s2)
            mask = np.zeros((h, w), np.uint8)
            mask[ys[hull], xs[hull]] = 1
            mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, close)
            n, parts, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
            if n > 1:
                big = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
                py, px = np.nonzero(parts == big)
                (_, _), (bw, bh), _ = cv2.minAreaRect(np.column_stack([px, py]).astype(np.float32))
                box.append(bw * bh / s2)
                long_side.append(max(bw, bh) / px_per_mm)
                short_side.append(min(bw, bh) / px_per_mm)
            ys, xs = _disc_px((h, w), px_per_mm, board.slots[slot], 0, 6.5)
            # The gem is what interrupts the hull in the canoe's middle.
            gem.append(np.count_nonzero(labels[ys, xs] != profile.index(f"canoe:{c}")) / s2)
        ys, xs = _disc_px((h, w), px_per_mm, board.weather_mm[LAYOUT_WEATHER], 0, 16.0)
        cloud.append(np.count_nonzero(labels[ys, xs] == profile.index("cloud")) / s2)
    if not canoe:
        raise ProfileError("the board's markers are not visible in the photos")
    sizes = {"canoe": float(np.median(canoe)), "canoe_box": float(np.median(box or [0])),
             "canoe_long_mm": float(np.median(long_side or [0])),
             "canoe_short_mm": float(np.median(short_side or [0])),
             "gem": float(np.median(gem)),
             "cloud": float(np.median(cloud))}
    for name, v in sizes.items():
        if not v > 0 or math.isnan(v):
            raise ProfileError(f"no {name} was seen where the layout puts it")
    return sizes


__all__ = ["LAYOUT_CANOES", "LAYOUT_EMPTY_DISCS", "LAYOUT_NO_DISC", "LAYOUT_WEATHER",
           "layout_state", "learn_profile", "measure_sizes", "sample_layout"]


def synthetic_profile(board: Board, shots: int = 40, px_per_mm: float = 1.0) -> ColourProfile:
    """The default profile: learned from rendered photos of the layout in the nominal
    colours of vision.md, under the light and camera nuisances the vision must survive."""
    from .render import Nuisance, Renderer

    renderer = Renderer(board)
    nz = Nuisance.issue()
    images = [renderer.render(layout_state(), seed=1000 + k, nuisance=nz,
                              missing_discs=(LAYOUT_NO_DISC,)).image for k in range(shots)]
    return learn_profile(board, images, px_per_mm,
                         source=f"synthetic: {shots} rendered photos of the layout, "
                                "nominal colours of vision.md")
