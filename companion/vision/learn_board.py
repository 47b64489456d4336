"""The empty board's own look, learned from the calibration photos (of the layout or of
any known state): its brightness
(shadows are measured against it), which print colours show where (a colour where the
board never shows it is something in the way), and its colour and texture cell by cell
(what departs from it is not the board); and the water in a canoe's shadow."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import cast

import cv2
import numpy as np

from .board import Board, Polygon
from .detect import Detector, Reading
from .disc_looks import DiscLooks
from .dock_canoes import HULL_MM, DockCanoe, dock_area, find_dock_canoes, find_slot_canoe
from .known import BoardUnseen, KnownBoard, PlaceError
from .locate import BoardLocator
from .masks import polygon_mask, ring_pixels
from .profile import (
    GROUND_CELL_MM,
    MIN_SIGMA,
    SHADE_CELL_MM,
    ColourProfile,
    features,
)
from .surface import cell_look, cell_px
from .take_looks import robust
from .thresholds import RIM_MM, _odd

# A cell of the print away from the places takes a piece's colour class when this share
# of its pixels do (less is the blur where two prints meet).
PRINT_PIECE_SHARE = 0.25
# How far from a weather position's centre the cloud on it may hide the print (mm).
CLOUD_REACH_MM = 14
# The water in a canoe's shadow (``canoe_shadow_pixels``): pixels of an occupied disc this
# far clear of its canoe's outline (mm), darker than the empty discs by this many of their
# spreads (robustly measured, and at least MIN_SIGMA's: a shadow is some 16% darker at
# least, whatever the sensor's noise), and enough of them to learn a colour from (mm²: 50 pixels
# at the calibration's 1 px/mm, as for a cluster of the print).
SHADOW_CLEAR_MM = 2.0
SHADOW_DARKER = 3.0
SHADOW_LEAST_MM2 = 50


def board_luma(board: Board, profile: ColourProfile, shots: list[np.ndarray],
               px_per_mm: float, known: KnownBoard | None = None) -> np.ndarray:
    """The empty board's brightness per SHADE_CELL_MM cell (median over the cell, then
    over the photos, so a shadow on one photo does not stay); NaN under the pieces of
    `known` (default: the calibration layout)."""
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
        raise BoardUnseen("the board's markers are not visible in the photos")
    luma = np.median(np.array(per_shot), axis=0).astype(np.float32)
    luma[_under_pieces(board, known, (gh, gw), c / px_per_mm)] = np.nan
    return _per_shade_cell(board, luma)


def board_surface(board: Board, profile: ColourProfile, shots: list[np.ndarray],
                  px_per_mm: float, known: KnownBoard | None = None
                  ) -> tuple[np.ndarray, np.ndarray]:
    """The empty board's look per SHADE_CELL_MM cell (``surface.cell_look``: mean
    chromaticity and grey-level spread), seen as the detector sees the board (light
    and shadows taken out, smoothed); the median over the photos. Cells where the
    pieces of `known` show are taken from the rest of their disc (a disc looks the same
    all over), or are NaN (the cloud's place, a deposit holding gems, the dock under its
    canoes: between them it is learned)."""
    known = known or KnownBoard.layout()
    det = Detector(board, profile, px_per_mm)
    c = cell_px(px_per_mm)
    chromas, textures = [], []
    for image in shots:
        where = BoardLocator(board).locate(image)
        if where is None:
            continue
        img = det.prepare(image, where)[0]
        chroma, texture = cell_look(img, c)
        covered = ~bare_cells(img, board, known, px_per_mm)
        chroma[covered] = np.nan
        texture[covered] = np.nan
        chromas.append(chroma)
        textures.append(texture)
    if not chromas:
        raise BoardUnseen("the board's markers are not visible in the photos")
    with warnings.catch_warnings():  # a cell no photo shows bare stays NaN
        warnings.simplefilter("ignore", RuntimeWarning)
        chroma = np.nanmedian(np.array(chromas), axis=0).astype(np.float32)
        texture = np.nanmedian(np.array(textures), axis=0).astype(np.float32)
    _fill_discs(board, chroma, texture, c / px_per_mm)
    return (np.stack([_per_shade_cell(board, chroma[..., k]) for k in (0, 1)], axis=-1),
            _per_shade_cell(board, texture))


def bare_cells(img: np.ndarray, board: Board, known: KnownBoard, px_per_mm: float,
               wanted: np.ndarray | None = None,
               dock: Callable[[], np.ndarray] | None = None) -> np.ndarray:
    """The cells (of ``surface.cell_px``) of a light-corrected picture of a known state
    that show the board bare: not under its pieces, their blur and shadows (the canoes
    found where they lie on the dock and alone on a slot, ``_covered_dock`` and
    ``_covered_slots``; the rest of a place holding pieces hidden whole). `wanted`: the
    only cells asked about, if not all (the canoes are not looked for where none of
    them is). `dock`: gives the cells the dock's canoes hide (``dock_cover``) when they
    are needed, if the caller may know them from a picture of the same dock."""
    c = cell_px(px_per_mm)
    shape = (img.shape[0] // c, img.shape[1] // c)
    hidden = _under_pieces(board, known, shape, c / px_per_mm, found_apart=True)
    if wanted is not None:
        wanted = wanted & ~hidden
        if not wanted.any():
            return wanted
    near_dock = _grown(shape, board.dock, c / px_per_mm)
    if wanted is None or (wanted & _on_dock(board, img.shape, c, px_per_mm)).any():
        hidden |= dock() if dock is not None else _covered_dock(img, board, known, c, px_per_mm)
    else:
        # None of the cells asked about could show bare (the search shows only cells
        # wholly on the dock bare): no need to look for its canoes.
        hidden |= near_dock
    hidden |= _covered_slots(img, board, known, c, px_per_mm, wanted)
    return ~hidden if wanted is None else wanted & ~hidden


def _fill_discs(board: Board, chroma: np.ndarray, texture: np.ndarray,
                cell_mm: float) -> None:
    """Cells on a disc that a canoe hid take the look of that disc's other
    cells (or, if none shows, of the other discs'): in place."""
    cx, cy = _cell_centres(texture.shape, cell_mm)
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


def _covered_dock(img: np.ndarray, board: Board, known: KnownBoard, side: int,
                  px_per_mm: float) -> np.ndarray:
    """The cells (of `side` pixels) on and around the dock that the canoes a known state
    puts there may hide in a light-corrected picture: all but the whole cells
    ``find_dock_canoes`` sees bare (the dock short of the hulls, their blur and
    shadows); all of them when it does not find every canoe. (The canoes of a set-up
    game cover much of the dock but not all: what shows between them is the dock's own
    look, without which a canoe coming home would read as something unlike the
    board.)"""
    rows, cols = img.shape[0] // side, img.shape[1] // side
    if not known.dock:
        return np.zeros((rows, cols), bool)
    near = _grown((rows, cols), board.dock, side / px_per_mm)
    try:
        _, bare = find_dock_canoes(img, board, [p for p, _ in known.dock], px_per_mm)
    except PlaceError:
        return near
    cells = bare[:rows * side, :cols * side].reshape(rows, side, cols, side)
    return near & ~cast(np.ndarray, cells.all(axis=(1, 3)))


def dock_cover(img: np.ndarray, board: Board, known: KnownBoard, px_per_mm: float
               ) -> np.ndarray:
    """The cells (of ``surface.cell_px``) on and around the dock that its canoes in a
    light-corrected picture of a known state may hide (see ``bare_cells``)."""
    return _covered_dock(img, board, known, cell_px(px_per_mm), px_per_mm)


def _on_dock(board: Board, img_shape: tuple[int, ...], side: int, px_per_mm: float
             ) -> np.ndarray:
    """The cells (of `side` pixels) wholly on the dock short of its rim
    (``dock_area``): the only ones ``_covered_dock`` may find bare."""
    rows, cols = img_shape[0] // side, img_shape[1] // side
    dock = dock_area(img_shape, board, px_per_mm)[:rows * side, :cols * side]
    return cast(np.ndarray, dock.reshape(rows, side, cols, side).all(axis=(1, 3)))


def _covered_slots(img: np.ndarray, board: Board, known: KnownBoard, side: int,
                   px_per_mm: float, wanted: np.ndarray | None = None) -> np.ndarray:
    """The cells (of `side` pixels) a lone canoe of a known state covers in a
    light-corrected picture, found where it lies (``find_slot_canoe``: any way round),
    with a margin for its blur and shadow; its whole disc when it is not found, or when
    none of its disc's cells is `wanted`."""
    rows, cols = img.shape[0] // side, img.shape[1] // side
    cell_mm = side / px_per_mm
    cx, cy = _cell_centres((rows, cols), cell_mm)
    covered = np.zeros((rows, cols), bool)
    margin = 0.75 * cell_mm + 3.0  # a cell touching the hull, its blur and shadow
    for slot, (player, _) in known.lone_canoes().items():
        sx, sy = board.slots[slot]
        disc = np.hypot(cx - sx, cy - sy) <= board.disc_radius_mm + cell_mm
        canoe = (find_slot_canoe(img, board, slot, player, px_per_mm)
                 if wanted is None or (wanted & disc).any() else None)
        if canoe is None:
            covered |= disc
            continue
        (x, y), a = canoe.centre_mm, math.radians(canoe.angle_deg)
        along = np.abs((cx - x) * math.cos(a) + (cy - y) * math.sin(a))
        across = np.abs((cy - y) * math.cos(a) - (cx - x) * math.sin(a))
        covered |= (along <= HULL_MM[0] / 2 + margin) & (across <= HULL_MM[1] / 2 + margin)
    return covered


def _under_pieces(board: Board, known: KnownBoard | None, shape: tuple[int, ...],
                  cell_mm: float, found_apart: bool = False) -> np.ndarray:
    """Cells (of `cell_mm`) the known board's pieces may hide: the discs of its canoes;
    the cloud; a dock, falls or deposit holding pieces, whole. With `found_apart`, not
    the discs of lone canoes nor the dock: the cells they cover were told apart on each
    photo (``_covered_slots``, ``_covered_dock``)."""
    known = known or KnownBoard.layout()
    cx, cy = _cell_centres(shape, cell_mm)
    hidden = np.zeros(shape[:2], bool)
    lone = known.lone_canoes() if found_apart else {}
    for slot in known.river:
        if slot in lone:
            continue
        sx, sy = board.slots[slot]
        hidden |= np.hypot(cx - sx, cy - sy) <= board.disc_radius_mm + cell_mm
    wx, wy = board.weather_mm[known.weather]
    hidden |= np.hypot(cx - wx, cy - wy) <= CLOUD_REACH_MM + cell_mm
    for poly in known.holding(board):
        if found_apart and poly == board.dock:
            continue
        hidden |= _grown(shape, poly, cell_mm)
    return hidden


def canoe_shadow_pixels(img: np.ndarray, board: Board,
                        canoes: list[tuple[str, DockCanoe]], disc_px: np.ndarray,
                        px_per_mm: float) -> np.ndarray:
    """The pixels of the water in the shadows the canoes a known state puts on the river
    cast (`canoes`: slot and canoe found there) on a light-corrected, straightened
    picture whose empty discs show `disc_px`: none when the light casts none thick
    enough to pass for a hull. A lamp's shadow of a canoe on pale water can take a dark
    hull's colour class and a hull's shape; measured against this look
    (``profile.SHADOW``), it is no hull.
    The canoe's found place and angle are a little off (its angle is found to 15
    degrees), so parts of its hull and rim lie beyond the outline cleared. Of the dark
    pixels, only those whose chromaticity is nearer the empty discs' than the canoe's
    hull's count (its hull's, blurred into the water, is nearer the hull's), and of
    those only patches thicker than a canoe's rim (RIM_MM, as a hull's body is:
    ``CanoeFinder._hulls``): a thin dark line along the hull is its own edge."""
    s = px_per_mm
    h, w = img.shape[:2]
    disc, spreads = robust(features(disc_px.astype(np.float64)), np.array(MIN_SIGMA))
    middle, spread = float(disc[2]), float(spreads[2])
    half = tuple(int((side / 2 + SHADOW_CLEAR_MM) * s) for side in HULL_MM)
    dark = np.zeros((h, w), np.uint8)
    for slot, canoe in canoes:
        if not len(canoe.hull[0]):
            continue  # (no hull made out: nothing to tell its edge from its shadow by)
        ys, xs = ring_pixels((h, w), s, board.slots[slot], 0, 0.85 * board.disc_radius_mm)
        clear = np.ones((h, w), np.uint8)
        cx, cy = canoe.centre_mm
        cv2.ellipse(clear, (int(cx * s), int(cy * s)), half, canoe.angle_deg, 0, 360, 0,
                    -1)
        f = features(img[ys, xs].astype(np.float64))
        hull = np.median(features(img[canoe.hull].astype(np.float64))[:, :2], axis=0)
        water = (np.linalg.norm(f[:, :2] - disc[:2], axis=1)
                 < np.linalg.norm(f[:, :2] - hull, axis=1))
        dark[ys, xs] |= (clear[ys, xs].astype(bool) & water
                         & (f[:, 2] < middle - SHADOW_DARKER * spread)).astype(np.uint8)
    rim = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (_odd(RIM_MM * s),) * 2)
    shadow = img[cv2.morphologyEx(dark, cv2.MORPH_OPEN, rim).astype(bool)]
    return shadow if len(shadow) >= SHADOW_LEAST_MM2 * s * s else shadow[:0]


def _cell_centres(shape: tuple[int, ...], cell_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """The board position (mm) of the middle of each cell of a grid: (x, y) grids."""
    gy, gx = np.mgrid[0:shape[0], 0:shape[1]]
    return (gx + 0.5) * cell_mm, (gy + 0.5) * cell_mm


def _grown(shape: tuple[int, ...], poly: Polygon, cell_mm: float) -> np.ndarray:
    """The cells of a grid a board polygon touches, grown by a cell all round (its
    pieces' blur and shadow reach that far)."""
    return cv2.dilate(polygon_mask(shape, poly, 1 / cell_mm),
                      np.ones((3, 3), np.uint8)).astype(bool)


def _per_shade_cell(board: Board, grid: np.ndarray) -> np.ndarray:
    """A grid stored per SHADE_CELL_MM whatever the resolution it was measured at
    (NaN kept)."""
    out_h = int(board.size_mm[1] // SHADE_CELL_MM)
    out_w = int(board.size_mm[0] // SHADE_CELL_MM)
    return cv2.resize(grid.astype(np.float32), (out_w, out_h),
                      interpolation=cv2.INTER_NEAREST)


def ground_map(board: Board, profile: ColourProfile, shots: list[np.ndarray],
               px_per_mm: float, known: KnownBoard | None = None) -> dict[str, np.ndarray]:
    """Where each class of the board itself shows on the layout photos (cells of
    GROUND_CELL_MM). What lies under the pieces is filled in from its like: every slot
    may show what any slot shows, every weather position what any does, every cell of
    a dock, falls or deposit what the rest of it shows. Also, for a piece's class, where
    the print away from every place takes it (``_print_pieces``)."""
    det = Detector(board, profile, px_per_mm)
    cell = GROUND_CELL_MM * px_per_mm
    w_mm, h_mm = board.size_mm
    gh, gw = int(math.ceil(h_mm / GROUND_CELL_MM)), int(math.ceil(w_mm / GROUND_CELL_MM))
    names = profile.names
    ground = profile.ground()
    seen = {names[i]: np.zeros((gh, gw), bool) for i in ground}
    labelled = [det.prepare(image, where)[1] for image in shots
                if (where := BoardLocator(board).locate(image)) is not None]
    # Each pixel's cell (flat index): every photo is straightened to the same shape.
    ys, xs = np.mgrid[0:det.shape[0], 0:det.shape[1]]
    index = ((ys / cell).astype(int).clip(0, gh - 1) * gw
             + (xs / cell).astype(int).clip(0, gw - 1))
    for labels in labelled:
        for i in ground:
            seen[names[i]].flat[index[labels == i]] = True
    cx_mm, cy_mm = _cell_centres((gh, gw), GROUND_CELL_MM)
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
    known = known or KnownBoard.layout()
    for poly in known.holding(board):
        inside = polygon_mask((gh, gw), poly, 1 / GROUND_CELL_MM).astype(bool)
        for m in seen.values():
            if (m & inside).any():
                m |= inside
    seen.update(_print_pieces(board, profile, labelled, index, (gh, gw)))
    grow = np.ones((3, 3), np.uint8)
    for name, m in seen.items():
        seen[name] = cv2.dilate(m.astype(np.uint8), grow).astype(bool)
    return seen


def _print_pieces(board: Board, profile: ColourProfile, labelled: list[np.ndarray],
                  index: np.ndarray, grid: tuple[int, int]) -> dict[str, np.ndarray]:
    """Where the print itself, away from every place a piece may lie, takes a piece's
    colour class on the photos (`labelled`: their class labels; `index`: each pixel's
    cell of `grid`, GROUND_CELL_MM on the board) in cells PRINT_PIECE_SHARE of whose
    pixels or more take it: grass that a green hull's class takes in by this lamp, a
    patch of earth of a brown hull's. The hands stage takes no such patch for something
    reaching in over the board (on a tuned world, one at the board's edge made every
    picture look like a hand, the calibration photos too)."""
    cx, cy = _cell_centres(grid, GROUND_CELL_MM)
    places = np.zeros(grid, bool)
    for x, y in board.slots.values():
        places |= np.hypot(cx - x, cy - y) <= 1.45 * board.disc_radius_mm + GROUND_CELL_MM
    for x, y in board.weather_mm.values():
        places |= np.hypot(cx - x, cy - y) <= CLOUD_REACH_MM + GROUND_CELL_MM
    for poly in (board.dock, board.falls, *board.deposits.values()):
        places |= _grown(grid, poly, GROUND_CELL_MM)
    names = profile.names
    ground = set(profile.ground())
    pieces = [i for i in range(len(names)) if i not in ground]
    found = {names[i]: np.zeros(grid, bool) for i in pieces}
    size = np.maximum(np.bincount(index.ravel(), minlength=grid[0] * grid[1]), 1)
    for labels in labelled:
        for i in pieces:
            hit = np.bincount(index[labels == i], minlength=grid[0] * grid[1]) / size
            found[names[i]] |= (hit.reshape(grid) >= PRINT_PIECE_SHARE) & ~places
    return {name: m for name, m in found.items() if m.any()}


def disc_looks(readings: list[Reading], known: KnownBoard) -> DiscLooks | None:
    """How each slot's ring looks with its disc, and a ring without one, in the
    readings of photos of `known` (their ``disc_contrasts``, from a detector given disc
    looks to measure against: the calibration layout has no disc on 7R; a set-up game
    has every disc in place, so it teaches no look without one, and no disc is then
    called missing). None when no ring showed."""
    looks = DiscLooks()
    for reading in readings:
        seen = reading.disc_contrasts
        looks.learn({s: v for s, v in seen.items() if s not in known.no_disc}, with_disc=True)
        looks.learn({s: v for s, v in seen.items() if s in known.no_disc}, with_disc=False)
    return looks if looks.with_disc or looks.without else None


__all__ = ["bare_cells", "board_luma", "board_surface", "canoe_shadow_pixels", "disc_looks",
           "dock_cover", "ground_map"]
