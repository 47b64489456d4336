"""Finding the canoes a known state puts on the dock, for learning their colours from a
photo of a set-up game (R-SETUP-3: every canoe starts on the dock), and a canoe it puts
alone on a slot (the calibration layout).

Nothing about this table's colours is known yet, so the canoes are found by what holds
at any table: they are unlike the dock's print (which fills most of the dock: its
median), they have a canoe's shape and size (about 45 x 16 mm, vision.md), and the
state says how many of each colour lie there. Which colour a hull is comes from its
chromaticity in the marker paper's white balance: the nearest nominal colour among the
colours the state puts on the dock, never among all five; where that leaves canoes not
made out, the nearest in hue and saturation, then as this photo's hulls show them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import cv2
import numpy as np

from .board import Board
from .colours import CANOE_RGB
from .known import PlaceError
from .masks import pixels, polygon_mask
from .profile import MIN_SIGMA, features
from .take_looks import robust

HULL_MM = (45.0, 16.0)     # a canoe's length and width (vision.md)
TURNS = 12                 # orientations tried (every 15 degrees)
UNLIKE_PRINT = 3.0         # robust z-score beyond which a pixel is not the print
# The share of a hull's inner ellipse its colour must fill for a canoe to be seen there.
# On the tuned worlds' set-up photos a canoe's own colour fills 0.5-1.0 of it (a red hull's
# shaded inside lies nearer brown's hue), the print of a colour not on the dock nothing.
COVERED = 0.3
# A lone canoe's hull on a slot fills this share of its shrunk ellipse with pixels beyond
# the disc's spread, unless the spread hides it: on the tuned worlds' layout photos a
# whole hull fills 0.73-1.0, one the spread hides 0.29-0.51 (its colour near the print's).
HULL_SHOWN = 0.6
SHADOW_MM = 6.0            # around a hull, its blur and shadow are not the dock's print
MIDDLE_MM = 7.5            # a hull's middle, where a gem may lie
OUTLINE_MM = (2.0, 4.0)    # beyond a hull's outline, its blur; then what lies around it
# How far a hull's hue strays from its nominal one, and (a factor) its saturation: on the
# tuned worlds' set-up photos a median 5 degrees (90th percentile 12) and 1.3 (1.6).
HUE_SPREAD_DEG = 10.0
SATURATION_SPREAD = math.log(2.0)
ADAPT = 2                  # rounds of moving each colour to this photo's hulls of it


@dataclass(frozen=True)
class DockCanoe:
    player: str
    centre_mm: tuple[float, float]
    angle_deg: float
    hull: tuple[np.ndarray, np.ndarray]   # (ys, xs) of its inner pixels unlike the print


def _ellipse(angle: float, a: float, b: float, side: int) -> np.ndarray:
    """A filled ellipse of half-axes a, b (pixels) turned `angle` degrees, centred in a
    side x side float32 square of zeros."""
    k = np.zeros((side, side), np.float32)
    cv2.ellipse(k, (side // 2, side // 2), (int(round(a)), max(1, int(round(b)))), angle,
                0, 360, 1.0, -1)
    return k


def _kernel(angle: float, s: float, shrink: float) -> np.ndarray:
    a, b = HULL_MM[0] / 2 * shrink * s, HULL_MM[1] / 2 * shrink * s
    k = _ellipse(angle, a, b, int(2 * a + 3) | 1)
    return k / k.sum()


def _outline(angle: float, s: float) -> np.ndarray:
    """A band around a hull's outline, OUTLINE_MM[0] beyond it (its blur) and
    OUTLINE_MM[1] wide, as a kernel of sum 1."""
    gap, width = (v * s for v in OUTLINE_MM)
    a, b = HULL_MM[0] / 2 * s, HULL_MM[1] / 2 * s
    side = int(2 * (a + gap + width) + 3) | 1
    k = _ellipse(angle, a + gap + width, b + gap + width, side) \
        - _ellipse(angle, a + gap, b + gap, side)
    return k / k.sum()


def _respond(mine: np.ndarray, hull: np.ndarray, ring: np.ndarray) -> np.ndarray:
    """Per pixel of a mask of one colour, a hull centred there: how much of it the colour
    fills, less how much of the band around its outline (-1 where it fills less than
    COVERED)."""
    m = mine.astype(np.float32)
    fill = cv2.filter2D(m, -1, hull, borderType=cv2.BORDER_CONSTANT)
    beyond = cv2.filter2D(m, -1, ring, borderType=cv2.BORDER_CONSTANT)
    return np.where(fill >= COVERED, fill - beyond, -1.0).astype(np.float32)


def _nominal(names: Sequence[str]) -> np.ndarray:
    """The (r, g) chromaticities of the nominal canoe colours of `names`, (n, 2)."""
    return features(np.array([CANOE_RGB[p][::-1] for p in names], np.float64))[:, :2]


def _print_look(f: np.ndarray, where: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The robust median and spread of features `f` over `where` (a mask): the print
    that fills most of it."""
    return robust(f[where], np.array(MIN_SIGMA))


def _unlike(f: np.ndarray, where: np.ndarray,
            look: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """The pixels of `where` (a mask) whose features lie beyond UNLIKE_PRINT robust
    z-scores from the median of `where` (`look`, when already measured:
    ``_print_look``): what is not the print that fills most of it."""
    median, spread = look if look is not None else _print_look(f, where)
    z = np.sqrt((((f - median) / spread) ** 2).sum(axis=2))
    return cast(np.ndarray, where & (z > UNLIKE_PRINT))


def _nearest_nominal(f: np.ndarray, names: Sequence[str]) -> np.ndarray:
    """Per pixel of features `f`, the index in `names` of the nominal canoe colour it is
    nearest in hue and saturation around the white point, each in its own tolerance
    (HUE_SPREAD_DEG, SATURATION_SPREAD). Blur, shade and this table's light mix a hull
    with grey: its saturation falls or rises by a factor while its hue moves little (a
    red hull seen pink lies nearer brown's chromaticity than red's, never nearer brown's
    hue; a reddish brown hull has a hue between brown's and red's and brown's
    saturation)."""
    white = 1.0 / 3.0
    nominal = _nominal(names) - white
    v = f[..., :2] - white
    hue = np.arctan2(v[..., 1], v[..., 0])[..., None]
    turn = np.angle(np.exp(1j * (hue - np.arctan2(nominal[:, 1], nominal[:, 0]))))
    sat = np.log(np.maximum(np.linalg.norm(v, axis=-1), 1e-3))[..., None]
    ratio = sat - np.log(np.linalg.norm(nominal, axis=1))
    off = (np.degrees(turn) / HUE_SPREAD_DEG) ** 2 + (ratio / SATURATION_SPREAD) ** 2
    return cast(np.ndarray, np.argmin(off, axis=-1))


def _nearest_here(f: np.ndarray, where: np.ndarray, first: np.ndarray, n: int) -> np.ndarray:
    """Per pixel, the index of the colour it is nearest in chromaticity, each colour
    as this photo shows it: the median of the pixels of `where` first put to it
    (`first`), then of those nearest that, ADAPT times. A reddish brown hull's shaded
    inside, nearer red's nominal hue than brown's, lies nearer these brown hulls than
    these red ones."""
    nearest = first
    for _ in range(ADAPT):
        off = np.full((*f.shape[:2], n), np.inf)
        for i in range(n):
            mine = f[where & (nearest == i)][:, :2]
            if len(mine):
                off[..., i] = np.linalg.norm(f[..., :2] - np.median(mine, axis=0), axis=-1)
        nearest = np.argmin(off, axis=-1)
    return nearest


def dock_area(shape: tuple[int, ...], board: Board, px_per_mm: float) -> np.ndarray:
    """The dock's pixels short of its rim, in an image of `shape`: where its canoes are
    looked for, and the most of it they can show bare."""
    return cast(np.ndarray, cv2.erode(polygon_mask(shape[:2], board.dock, px_per_mm),
                                      np.ones((3, 3), np.uint8)).astype(bool))


def find_dock_canoes(img: np.ndarray, board: Board, players: Sequence[str],
                     px_per_mm: float = 1.0, unseen: list[str] | None = None
                     ) -> tuple[list[DockCanoe], np.ndarray]:
    """The canoes of `players` (one entry a canoe) on the dock of a light-corrected,
    straightened picture, and the dock's print around them (a mask: the dock short of
    the canoes, their blur and their shadows). Raises PlaceError naming a colour not
    found; with `unseen` given, adds to it instead the line saying so, for
    each colour of which fewer canoes were made out than the state puts there, and
    leaves out of the print whatever on the dock is unlike it (a canoe not made out)."""
    s = px_per_mm
    whole_dock = dock_area(img.shape[:2], board, s)
    # Only the dock and what a hull on it, its blur and shadow reach are looked at.
    x0, y0, dw, dh = cv2.boundingRect(whole_dock.astype(np.uint8))
    pad = int(math.ceil((HULL_MM[0] + SHADOW_MM) * s)) + 4
    x0, y0 = max(x0 - pad, 0), max(y0 - pad, 0)
    x1, y1 = min(x0 + dw + 2 * pad, img.shape[1]), min(y0 + dh + 2 * pad, img.shape[0])
    found, bare = _find_on_dock(img[y0:y1, x0:x1], whole_dock[y0:y1, x0:x1], players, s,
                                unseen)
    out = np.zeros_like(whole_dock)
    out[y0:y1, x0:x1] = bare
    return [DockCanoe(c.player, (c.centre_mm[0] + x0 / s, c.centre_mm[1] + y0 / s),
                      c.angle_deg, (c.hull[0] + y0, c.hull[1] + x0)) for c in found], out


def _take_hulls(unlike: np.ndarray, nearest: np.ndarray, names: Sequence[str],
                wanted: Counter[str], s: float
                ) -> tuple[list[DockCanoe], np.ndarray, Counter[str]]:
    """The hulls of the colours `wanted` made out among the pixels `unlike` the print,
    each pixel of the colour `nearest` puts it to (an index in `names`); what they and
    their outlines cover; and how many of each colour were not made out."""
    h, w = unlike.shape[:2]
    kernels = [(a, _kernel(a, s, 0.8), _outline(a, s))
               for a in np.arange(TURNS) * (180.0 / TURNS)]
    reach = max(ring.shape[0] for _, _, ring in kernels) // 2 + 1
    taken = np.zeros((h, w), bool)
    found: list[DockCanoe] = []
    need = Counter(wanted)
    # Each colour's hull and outline responses, worked out once: a canoe taken changes
    # them only within a kernel's reach of it (``_respond``).
    scores = {i: [_respond(unlike & (nearest == i), k, ring) for _, k, ring in kernels]
              for i, player in enumerate(names)}
    # Canoes side by side touch: the hull of any colour still wanted that is best
    # filled and best outlined is taken first, and its place is no other canoe's. (Two
    # canoes of one colour side by side fill a hull's ellipse at any angle; only along
    # them does little of their colour lie beyond its outline.)
    while +need:
        best = None
        for i, player in enumerate(names):
            if need[player] <= 0:
                continue
            for (angle, _, _), score in zip(kernels, scores[i], strict=True):
                _, value, _, (x, y) = cv2.minMaxLoc(score)
                if value > -1.0 and (best is None or value > best[0]):
                    best = (value, player, i, angle, x, y)
        if best is None:
            break
        _, player, i, angle, x, y = best
        inner = np.zeros((h, w), np.uint8)
        cv2.ellipse(inner, (x, y), (int(HULL_MM[0] / 2 * 0.85 * s), int(HULL_MM[1] / 2 * 0.8 * s)),
                    angle, 0, 360, 1, -1)
        whole = np.zeros((h, w), np.uint8)
        cv2.ellipse(whole, (x, y), (int(HULL_MM[0] / 2 * s) + 1, int(HULL_MM[1] / 2 * s) + 1),
                    angle, 0, 360, 1, -1)
        # All of the hull unlike the print is this canoe's, its shaded inside too (which
        # may lie nearer another colour's hue than its own).
        hull = pixels(inner.astype(bool) & unlike & ~taken)
        taken |= whole.astype(bool)
        # The responses near the canoe taken, again without it.
        ys, xs = np.nonzero(whole)
        if not len(ys):
            ys, xs = np.array([y]), np.array([x])
        y0, y1 = max(int(ys.min()) - reach, 0), min(int(ys.max()) + reach + 1, h)
        x0, x1 = max(int(xs.min()) - reach, 0), min(int(xs.max()) + reach + 1, w)
        py0, py1 = max(y0 - reach, 0), min(y1 + reach, h)
        px0, px1 = max(x0 - reach, 0), min(x1 + reach, w)
        for j in scores:
            if need[names[j]] <= (1 if j == i else 0):
                continue
            mine = (unlike & (nearest == j) & ~taken)[py0:py1, px0:px1]
            for (_, k, ring), score in zip(kernels, scores[j], strict=True):
                part = _respond(mine, k, ring)
                score[y0:y1, x0:x1] = part[y0 - py0:y1 - py0, x0 - px0:x1 - px0]
        found.append(DockCanoe(player, ((x + 0.5) / s, (y + 0.5) / s), float(angle), hull))
        need[player] -= 1
    return found, taken, need


def _find_on_dock(img: np.ndarray, dock: np.ndarray, players: Sequence[str],
                  s: float, unseen: list[str] | None = None
                  ) -> tuple[list[DockCanoe], np.ndarray]:
    """``find_dock_canoes`` in a part of the picture holding the dock (`dock`: its
    mask there); positions in that part."""
    f = features(img)
    unlike = _unlike(f, dock)
    wanted = Counter(players)
    names = sorted(wanted)
    # The nominal chromaticity nearest first; where that makes out fewer hulls than
    # the state puts there (a red hull that this table's light shows pink, nearer
    # brown's chromaticity than red's), hue and saturation, then this photo's hulls.
    nominal = _nominal(names)
    nearest = np.argmin(np.linalg.norm(f[..., None, :2] - nominal[None, None], axis=3), axis=2)
    found, taken, need = _take_hulls(unlike, nearest, names, wanted, s)
    if +need:
        again = _take_hulls(unlike, _nearest_here(f, unlike, _nearest_nominal(f, names),
                                                  len(names)), names, wanted, s)
        if sum((+again[2]).values()) < sum((+need).values()):
            found, taken, need = again
    for player, n in (+need).items():
        of = wanted[player]
        said = (f"dock: {n} of the {of} {player} canoe{'s' if of > 1 else ''} the state "
                f"puts there {'is' if n == 1 else 'are'} not seen")
        if unseen is None:
            raise PlaceError(said)
        unseen.append(said)
    if +need:
        # A canoe not made out is somewhere unlike the print: none of that is print.
        taken |= unlike & dock
    grow = max(3, int(round(SHADOW_MM * s)) | 1)
    shadows = cv2.dilate(taken.astype(np.uint8), np.ones((grow, grow), np.uint8)).astype(bool)
    return found, dock & ~shadows


def find_slot_canoe(img: np.ndarray, board: Board, slot: str, player: str,
                    px_per_mm: float = 1.0) -> DockCanoe | None:
    """The one canoe (of `player`) a known state puts on `slot` of a light-corrected,
    straightened picture: the canoe-shaped patch unlike the disc around it, lying any way
    round (a canoe is never put down exactly along the flow). Its hull leaves out the
    middle, where a gem may lie. None when no such patch is there.

    Unlike the disc is beyond the disc's robust spread (``_unlike``), or where that
    shows less than HULL_SHOWN of a hull, nearer the player's colour than the disc's in
    chromaticity (``_nearer_own``), if that shows more: a disc's print under glare holds
    two looks (a white sheen beside the water) whose spread can hide a hull of a colour
    near the print's."""
    s = px_per_mm
    h, w = img.shape[:2]
    cx, cy = board.slots[slot]
    reach = 0.95 * board.disc_radius_mm
    x0, y0 = max(int((cx - reach) * s), 0), max(int((cy - reach) * s), 0)
    x1, y1 = min(int((cx + reach) * s) + 2, w), min(int((cy + reach) * s) + 2, h)
    part = img[y0:y1, x0:x1]
    disc = np.zeros(part.shape[:2], np.uint8)
    cv2.circle(disc, (int(cx * s) - x0, int(cy * s) - y0), int(reach * s), 1, -1)
    on_disc = disc.astype(bool)
    f = features(part)
    # A hull covers a fifth of its disc or so: the disc's median is the disc.
    look = _print_look(f, on_disc)
    unlike = _unlike(f, on_disc, look)
    best = _lying(unlike, s)
    if best[0] < HULL_SHOWN:
        own = _nearer_own(f, on_disc, player, look[0])
        if (other := _lying(own, s))[0] > best[0]:
            unlike, best = own, other
    value, angle, x, y = best
    if value < COVERED:
        return None
    # Anywhere along the hull the shrunk ellipse is as full: the hull's middle is the
    # middle of what is unlike the disc within the whole ellipse there.
    whole = np.zeros(part.shape[:2], np.uint8)
    cv2.ellipse(whole, (x, y), (int(HULL_MM[0] / 2 * s), int(HULL_MM[1] / 2 * s)), angle,
                0, 360, 1, -1)
    wy, wx = np.nonzero(whole.astype(bool) & unlike)
    x, y = int(round(wx.mean())), int(round(wy.mean()))
    ys, xs = pixels(hull_inner(part.shape[:2], (x, y), angle, s) & unlike)
    return DockCanoe(player, ((x + x0 + 0.5) / s, (y + y0 + 0.5) / s), angle,
                     (ys + y0, xs + x0))


def hull_inner(shape: tuple[int, ...], centre: tuple[int, int], angle: float, s: float
               ) -> np.ndarray:
    """The pixels (a mask of `shape`) a layout hull centred at `centre` (column, row),
    turned `angle` degrees, teaches its colour from: short of its rim (a pixel or two
    off at its edge would teach the water's blend) and of its middle (a gem)."""
    inner = np.zeros(shape[:2], np.uint8)
    cv2.ellipse(inner, centre, (int(HULL_MM[0] / 2 * 0.8 * s), int(HULL_MM[1] / 2 * 0.6 * s)),
                angle, 0, 360, 1, -1)
    cv2.circle(inner, centre, int(round(MIDDLE_MM * s)), 0, -1)
    return inner.astype(bool)


def _lying(unlike: np.ndarray, s: float) -> tuple[float, float, int, int]:
    """Where and which way round a hull's shrunk ellipse is fullest of `unlike` pixels
    (a mask): the share it fills, its angle and its centre (column, row)."""
    m = unlike.astype(np.float32)
    best = (-1.0, 0.0, 0, 0)
    for angle in np.arange(TURNS) * (180.0 / TURNS):
        resp = cv2.filter2D(m, -1, _kernel(angle, s, 0.8), borderType=cv2.BORDER_CONSTANT)
        _, value, _, (x, y) = cv2.minMaxLoc(resp)
        if value > best[0]:
            best = (float(value), float(angle), x, y)
    return best


def _nearer_own(f: np.ndarray, where: np.ndarray, player: str, median: np.ndarray
                ) -> np.ndarray:
    """The pixels of `where` (a mask) whose chromaticity lies nearer `player`'s nominal
    canoe colour than the print's (`median`, its features: ``_print_look``). A shadow
    keeps the print's chromaticity; only its brightness falls."""
    own = _nominal([player])[0]
    chroma = f[..., :2]
    return cast(np.ndarray, where & (np.linalg.norm(chroma - own, axis=-1)
                                     < np.linalg.norm(chroma - median[:2], axis=-1)))


__all__ = ["DockCanoe", "HULL_MM", "dock_area", "find_dock_canoes", "find_slot_canoe",
           "hull_inner"]
