"""From one frame (and where the board is in it) to the observation of vision.md.

>>> detector = Detector(load_board(), load_profile())
>>> reading = detector.read(image, locator.locate(image))
>>> reading.observation["slots"]["4"]
{'disc': True, 'canoes': [{'player': 'blue', 'gem': 'clear'}]}

How it looks:
1. The frame is warped into board millimetres (``px_per_mm`` pixels per mm). The light
   is taken out with the marker paper as white (``light.LightMeter``: level, tint,
   gradient), and shadows against the empty board's brightness, which the profile
   knows cell by cell.
2. Every pixel gets a colour class from the learned profile (one table look-up).
3. Hands: blobs that are not board nor pieces (no known colour, or a colour of the
   board where the board never shows it) and reach in over the board's edge, or are
   big and mostly of no known colour, are something in the way; so is what departs
   from the empty board's own look there (``surface.Surface``: a hand with a class the
   board shows at that place). No canoe is read next to it, nor anywhere in a canoe
   colour it shows, and the view is not stable.
4. Canoes: each canoe colour's blobs, judged by shape against the hull the profile
   measured: one hull, two side by side or end to end (a player has two), or no canoe
   (a streak along a bank, the dark rim of another canoe). A canoe on a slot lies on its
   disc: across the flow it may stray, along it not beyond the disc.
5. Gems: a canoe's middle is read from the camera frame itself (sharper), against the
   canoe's own hull: pixels unlike the hull give the direction in which the middle
   leaves the hull's colour, towards one gem's colour; a faceted middle of the hull's
   own colour is that colour's gem. Unsure is "unknown".
6. Discs: a slot's ring (its canoes left out) unlike the other slots' and nearer this
   frame's water has no disc; hidden by canoes, it has one. Weather: the track
   position whose middle is much whiter than around it (the cloud).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.rules import SLOTS
from companion.rules.geometry import PLAYER_COLOURS

from .board import Board, Polygon
from .light import LightMeter
from .locate import Location
from .profile import (
    CANOE_CLASSES,
    GEM_CLASSES,
    GROUND_CELL_MM,
    MIN_SIGMA,
    NONE,
    SHADE_CELL_MM,
    ColourProfile,
    features,
)
from .surface import Surface

EDGE_BAND_MM = (3.0, 8.0)   # the band inside the board's edge an arm must cross
CLEAR_OF_EDGE_MM = 3.0      # pixels nearer the edge than this are not looked at
HULL_D2 = 11.34             # a pixel is unlike its hull beyond this (chi-square 99%, 3 dof)
CLOUD_CONTRAST = 0.08       # the cloud's place is this much brighter (relative) than others
SHADE_MM = 15.0             # shadows are taken out at this scale (Gaussian sigma)
SMOOTH_MM = 3.0             # the board image is averaged over this much (box filter)
HAND_STEP = 2               # hands are looked for at this fraction of the resolution
CLOSE_MM = 3.0              # gaps in a hull this small are mended
REACH_MM = 30.0             # an arm reaches at least this far in over the board's edge
HAND_COLOUR_PX = 0.3        # a hand showing this much (canoe areas) of a canoe colour
PLAIN_UNLIKE = 0.1          # a surface cell this unlike the board there is not the board
BARE_MM2 = 6000.0           # that much of it where canoes lie, with no canoe's colour: an arm
CROWD_UNLIKE = 0.5          # share of a big canoe-coloured blob unlike the board: an arm
NEAR_HAND_MM = 12.0         # canoes touching this band around a hand are not read
RIM_MM = 3.5                # a canoe's dark edge or shadow is thinner than this
UNKNOWN_MM = 5.0            # patches of unknown colour thinner than this are blur
ALONG_FLOW = 0.9            # a canoe's middle lies this close to its disc's, along the flow
ONE_CANOE = (1.4, 1.8)      # one hull is at most this long and wide (canoe lengths, widths)
SOLID = 0.65                # one hull fills at least this share of its convex outline
TWO_CANOES = 1.6            # a blob this many canoe widths wide (or lengths long) is two
TWO_HULLS = 1.5             # ... if it has this many hulls' pixels
SIDE_BY_SIDE = 0.8          # canoe widths between the middles of two canoes side by side
ON_TOP = 0.5                # two hulls' middles nearer than this (widths) are one canoe
CACHE_MM = 3.0              # a canoe within this of where it was is the same canoe
SAME_MIDDLE = 12.0          # mean grey-level change of a canoe's middle that is only noise
DISC_SEEN = 0.05            # share of a disc's ring that must show to tell it from water
DISC_APART = 0.02           # chromaticity distance below which two rings look alike
GEM_PX_PER_MM = 3.0         # gems are read at this resolution, from the camera frame
GEM_CORE = 0.2              # share of a gem's area taken as its colour
GEM_TEXTURE = 6.0           # a faceted middle's brightness spreads this many times the noise
GEM_UNLIKE = 0.3            # share of a gem's area unlike the hull: less is an empty canoe
GEM_FILL = 0.3              # a gem's colour makes at least this share of the canoe's middle
GEM_ANGLE = 35.0            # degrees: how far a gem's colour may point off its class
GEM_MARGIN = 3.0            # degrees: how much nearer the best gem must be than the next


@dataclass
class Reading:
    """What one frame shows."""

    observation: dict[str, Any]
    occluded: bool                      # something (a hand) is over the board
    corrected: np.ndarray = field(repr=False)  # the light-corrected board image
    timings: dict[str, float] = field(default_factory=dict)


class Detector:
    """Reads pieces off frames of one board with one colour profile."""

    def __init__(self, board: Board, profile: ColourProfile, px_per_mm: float = 1.0) -> None:
        self.board = board
        self.profile = profile
        self.scale = px_per_mm
        self.light = LightMeter(board, px_per_mm)
        h, w = self.light.shape
        self.shape = (h, w)
        names = profile.names
        self._canoe_idx = {c.split(":")[1]: names.index(c) for c in CANOE_CLASSES}
        self._gem_idx = {g.split(":")[1]: names.index(g) for g in GEM_CLASSES}
        self._cloud = names.index("cloud")
        self._water = names.index("water")
        self._pieces = np.ones(256, bool)  # labels that are not the board
        self._pieces[profile.ground()] = False
        self._pieces[NONE] = False
        px2 = px_per_mm ** 2
        self.canoe_px = profile.sizes_mm2["canoe"] * px2
        self.gem_px = profile.sizes_mm2["gem"] * px2
        self.cloud_px = profile.sizes_mm2["cloud"] * px2
        self.canoe_box = profile.sizes_mm2["canoe_box"] * px2
        self._close = cv2.getStructuringElement(cv2.MORPH_ELLIPSE,
                                                (_odd(CLOSE_MM * px_per_mm),) * 2)
        self._solid = cv2.getStructuringElement(cv2.MORPH_ELLIPSE,
                                                (_odd(RIM_MM * px_per_mm),) * 2)
        self._solid_small = cv2.getStructuringElement(
            cv2.MORPH_ELLIPSE, (_odd(UNKNOWN_MM * px_per_mm / HAND_STEP),) * 2)
        self._shade_ref: np.ndarray | None = None
        self._gain: np.ndarray | None = None
        self._gem_cache: dict[tuple[str, int, int], tuple[np.ndarray, str | None]] = {}
        if profile.board_luma is not None:
            self._shade_cell = max(2, 2 * int(round(SHADE_CELL_MM * px_per_mm / 2)))
            rows = self.shape[0] // self._shade_cell
            cols = self.shape[1] // self._shade_cell
            ref = cv2.resize(np.nan_to_num(profile.board_luma, nan=0.0), (cols, rows),
                             interpolation=cv2.INTER_NEAREST)
            self._shade_ref = np.where(ref > 0, ref, np.nan).astype(np.float32)
        self._ground_bit = np.zeros(256, np.uint32)
        self._allowed: np.ndarray | None = None
        if profile.ground_map:
            self._build_allowed()
        self._is_canoe = np.zeros(256, bool)
        self._is_canoe[list(self._canoe_idx.values())] = True
        profile.lut()  # build it now, not on the first frame
        self._gem_zones: tuple[float, float, int, np.ndarray, np.ndarray, np.ndarray] | None \
            = None
        self._build_masks()
        self.surface = (Surface(board, profile, px_per_mm, self._places())
                        if profile.board_chroma is not None
                        and profile.board_texture is not None else None)
        if self.surface is not None:
            rows, cols = self.surface.shape
            c = self.surface.cell_px
            self._river_cells = self.canoe_area[:rows * c, :cols * c] \
                .reshape(rows, c, cols, c).all(axis=(1, 3))

    # -- fixed masks of the board ----------------------------------------------------------

    def _px(self, pts: Polygon | list[tuple[float, float]]) -> np.ndarray:
        return np.round(np.asarray(pts, np.float64) * self.scale).astype(np.int32)

    def _build_masks(self) -> None:
        b, s = self.board, self.scale
        h, w = self.shape
        m = int(round(CLEAR_OF_EDGE_MM * s))
        valid = np.zeros((h, w), np.uint8)
        valid[m:h - m, m:w - m] = 1
        side = b.markers.size_mm
        from .markers import PAPER_MARGIN  # the paper is not looked at for pieces

        half = side * (0.5 + PAPER_MARGIN) + 1
        for cx, cy in b.markers.centres_mm.values():
            cv2.rectangle(valid, tuple(self._px([(cx - half, cy - half)])[0]),
                          tuple(self._px([(cx + half, cy + half)])[0]), 0, -1)
        # Deposits hold loose gems, never canoes: they are not looked at for pieces.
        for poly in b.deposits.values():
            cv2.fillPoly(valid, [self._px(poly)], 0)
            cv2.polylines(valid, [self._px(poly)], True, 0, max(1, int(round(2 * s))))
        self.valid = valid.astype(bool)
        edge = np.ones((h, w), np.uint8)
        e = int(round(EDGE_BAND_MM[1] * s))
        edge[e:h - e, e:w - e] = 0
        self.edge = edge.astype(bool) & self.valid
        self.deposit_mask = np.zeros((h, w), np.uint8)
        for poly in b.deposits.values():
            cv2.fillPoly(self.deposit_mask, [self._px(poly)], 1)
        r = b.disc_radius_mm
        yy, xx = np.mgrid[0:h, 0:w]
        self._annulus: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        for slot, (cx, cy) in b.slots.items():
            d = np.hypot((xx + 0.5) / s - cx, (yy + 0.5) / s - cy)
            self._annulus[slot] = np.nonzero((d >= 0.5 * r) & (d <= 0.88 * r))
        pts = list(b.weather_mm.items())
        step = min(math.dist(a[1], c[1]) for a in pts for c in pts if a[0] != c[0])
        # The cloud: its middle against the ring around it, at each track position.
        cloud_r = math.sqrt(self.profile.sizes_mm2["cloud"] / math.pi)
        self._weather: dict[int, tuple[tuple[np.ndarray, np.ndarray],
                                       tuple[np.ndarray, np.ndarray]]] = {}
        for value, (cx, cy) in pts:
            d = np.hypot((xx + 0.5) / s - cx, (yy + 0.5) / s - cy)
            inner = np.nonzero(d <= 0.6 * cloud_r)
            outer = np.nonzero((d >= 1.35 * cloud_r) & (d <= min(1.9 * cloud_r, 0.5 * step)))
            self._weather[value] = (inner, outer)
        self.place_mask = {}
        for slot, c in b.slots.items():
            mk = np.zeros((h, w), np.uint8)
            cv2.circle(mk, tuple(self._px([c])[0]), int(1.3 * r * s), 1, -1)
            self.place_mask[slot] = mk.astype(bool)
        for name, poly in (("D", b.dock), ("F", b.falls)):
            mk = np.zeros((h, w), np.uint8)
            cv2.fillPoly(mk, [self._px(poly)], 1)
            self.place_mask[name] = mk.astype(bool)
        # Canoes lie only where a place is: on or beside a slot's disc, on the dock,
        # below the falls. Elsewhere (weather track, banks) nothing is taken for one.
        near = np.zeros((h, w), np.uint8)
        for c in b.slots.values():
            cv2.circle(near, tuple(self._px([c])[0]), int(1.6 * r * s), 1, -1)
        self.canoe_area = (near.astype(bool) | self.place_mask["D"] | self.place_mask["F"]) \
            & self.valid
        # All the slots' rings in one index (and the box around them), read at once;
        # every other pixel of a ring is plenty for its median colour.
        ring_ys = np.concatenate([self._annulus[slot][0][::2] for slot in SLOTS])
        ring_xs = np.concatenate([self._annulus[slot][1][::2] for slot in SLOTS])
        ends = np.cumsum([len(self._annulus[slot][0][::2]) for slot in SLOTS])
        pad = self._close.shape[0]
        box = (max(int(ring_ys.min()) - pad, 0), min(int(ring_ys.max()) + pad + 1, h),
               max(int(ring_xs.min()) - pad, 0), min(int(ring_xs.max()) + pad + 1, w))
        self._rings = (box, ring_ys, ring_xs,
                       list(zip([0, *ends[:-1].tolist()], ends.tolist(), strict=True)))
        # Where this frame's water is sampled (every third pixel of the river's places).
        probe = np.zeros((h, w), bool)
        probe[::3, ::3] = True
        self._water_probe = np.nonzero(self.canoe_area & probe)
        step = HAND_STEP
        self._valid_small = self.valid[step // 2::step, step // 2::step]
        ys, xs = np.mgrid[step // 2:h:step, step // 2:w:step]
        self._inward_small = np.minimum(np.minimum(xs, w - 1 - xs),
                                        np.minimum(ys, h - 1 - ys)) / s  # mm from the edge
        self._edge_small = self.edge[step // 2::step, step // 2::step]
        self._canoe_area_small = self.canoe_area[step // 2::step, step // 2::step]

    def _unexplained(self, canoe: np.ndarray,
                     departure: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        """Surface cells of something big where canoes lie that is plainly unlike the
        board there but shows no canoe's colour: an arm down the river in a light that
        gives it the colour class of a print (it entered over a print of its own colour,
        so it is not seen joined to the board's edge)."""
        assert self.surface is not None
        rows, cols = self.surface.shape
        c = self.surface.cell_px
        share = cv2.resize(canoe[:rows * c, :cols * c].astype(np.uint8) * 255, (cols, rows),
                           interpolation=cv2.INTER_AREA) / 255.0
        bare = (departure[0] > PLAIN_UNLIKE) & self._river_cells & (share < 0.05)
        n, parts, stats, _ = cv2.connectedComponentsWithStats(bare.astype(np.uint8),
                                                              connectivity=8)
        out = np.zeros((rows, cols), bool)
        for i in range(1, n):
            if stats[i, cv2.CC_STAT_AREA] * (c / self.scale) ** 2 >= BARE_MM2:
                out |= parts == i
        return out

    def _places(self) -> np.ndarray:
        """Where pieces may lie: canoe places, deposits (loose gems), the weather track
        (the cloud)."""
        places = self.canoe_area | self.deposit_mask.astype(bool)
        mk = np.zeros(self.shape, np.uint8)
        cloud_r = 1.5 * math.sqrt(self.profile.sizes_mm2["cloud"] / math.pi)
        for c in self.board.weather_mm.values():
            cv2.circle(mk, tuple(self._px([c])[0]), int(round(cloud_r * self.scale)), 1, -1)
        return places | mk.astype(bool)

    # -- one frame ---------------------------------------------------------------------------

    def forget(self) -> None:
        """Forget what earlier frames showed (a new camera, a new table)."""
        self._gem_cache = {}
        self._gain = None

    def rectify(self, image: np.ndarray, location: Location) -> np.ndarray:
        """The frame warped into board millimetres (BGR, px_per_mm)."""
        s = self.scale
        to_rect = np.diag([s, s, 1.0]) @ location.homography
        h, w = self.shape
        return cv2.warpPerspective(image, to_rect, (w, h), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)

    def corrected(self, image: np.ndarray, location: Location) -> np.ndarray:
        """The frame in board millimetres with the light taken out, smoothed (sensor
        noise in a dim room would otherwise scatter the colours)."""
        rect = self.rectify(image, location)
        self.light.measure(rect, frozenset(location.seen))
        gain = self.light.gain()
        if self._shade_ref is not None:
            shade = self._shading(rect, gain)
            gain = cv2.divide(gain, cv2.merge([shade, shade, shade]))
        self._gain = gain  # the gems are read with it too
        out = cv2.convertScaleAbs(cv2.multiply(rect.astype(np.float32), gain))
        k = _odd(SMOOTH_MM * self.scale)
        return cv2.blur(out, (k, k))

    def prepare(self, image: np.ndarray, location: Location, clock: _Clock | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
        """The board image (light and shadows taken out) and its colour classes."""
        img = self.corrected(image, location)
        if clock:
            clock.lap("rectify+light")
        labels = self.profile.classify(img)
        if clock:
            clock.lap("classify")
        return img, labels

    def read(self, image: np.ndarray, location: Location) -> Reading:
        """The observation of one frame (stable as far as this one frame can tell)."""
        clock = _Clock()
        img, labels = self.prepare(image, location, clock)
        canoe = self._is_canoe[labels]  # pixels of any canoe colour, used throughout
        blocked = self._hands(labels)
        departure = None
        if self.surface is not None:
            # What the colour classes let pass: unlike the board's own look there.
            departure = self.surface.departure(img)
            arm = self.surface.reaching_in(img, departure) | self._unexplained(canoe,
                                                                               departure)
            if arm.any():
                c = self.surface.cell_px
                cells = np.repeat(np.repeat(arm.astype(np.uint8), c, axis=0), c, axis=1)
                h, w = min(cells.shape[0], blocked.shape[0]), min(cells.shape[1],
                                                                  blocked.shape[1])
                blocked[:h, :w] |= cells[:h, :w] & self.valid[:h, :w]
        clock.lap("hands")
        hulls: list[tuple[str, np.ndarray, np.ndarray]] = []
        free = self.canoe_area & ~blocked.astype(bool)
        for player, (found, crowd) in self._canoes(labels, canoe & free).items():
            if crowd is not None and (self.surface is None or departure is None
                                      or self.surface.departs(crowd, departure) >= CROWD_UNLIKE):
                # (Not water in a light that gives it a canoe's colour class.)
                blocked |= crowd
            hulls.extend((player, ys, xs) for ys, xs in found)
        hulls = self._apart_from_each_other(hulls)
        occluded_places: list[str] = []
        if blocked.any():
            # Nothing is read next to a hand: a finger or its shadow can look like a hull.
            grow = _odd(2 * NEAR_HAND_MM * self.scale)
            near = cv2.dilate(blocked, np.ones((grow, grow), np.uint8)).astype(bool)
            occluded_places = [p for p, mk in self.place_mask.items() if (mk & near).any()]
            hulls = [(p, ys, xs) for p, ys, xs in hulls if not near[ys, xs].any()]
            # Nor anywhere in a colour the hand itself shows: a patch of an arm cut off
            # from the rest of it by a shadow would pass for a canoe of that colour.
            on_hand = np.bincount(labels[blocked.astype(bool)], minlength=256)
            skin = {p for p, i in self._canoe_idx.items() if on_hand[i] >= HAND_COLOUR_PX
                    * self.canoe_px}
            hulls = [(p, ys, xs) for p, ys, xs in hulls if p not in skin]
        canoes: list[tuple[str, tuple[float, float], str | None]] = []
        cache: dict[tuple[str, int, int], tuple[np.ndarray, str | None]] = {}
        for player, ys, xs in hulls:
            centre = ((xs.mean() + 0.5) / self.scale, (ys.mean() + 0.5) / self.scale)
            # On the dock and below the falls canoes are empty by the rules (R-LAND-2,
            # R-RIVER-4): only a gem plainly of another colour is reported there.
            ashore = self.board.place_at(centre) in ("D", "F")
            canoes.append((player, centre, self._gem_cached(
                image, location, img, centre, player, cache, ashore, (ys, xs))))
        self._gem_cache = cache
        clock.lap("canoes")
        obs = self._observation(img, labels, canoe, canoes, location, occluded_places)
        clock.lap("discs+weather")
        return Reading(obs, bool(occluded_places) or bool(blocked.any()), img, clock.laps)

    def _build_allowed(self) -> None:
        """Per pixel (at the hands' resolution): bits of the board classes that may
        show there."""
        assert self.profile.ground_map is not None
        names = self.profile.names
        step = HAND_STEP
        h, w = self.shape
        ys, xs = np.mgrid[step // 2:h:step, step // 2:w:step]
        allowed = np.zeros(ys.shape, np.uint32)
        for bit, (name, m) in enumerate(self.profile.ground_map.items()):
            if name not in names or bit >= 32:
                continue
            self._ground_bit[names.index(name)] = 1 << bit
            cy = np.clip((ys / self.scale / GROUND_CELL_MM).astype(int), 0, m.shape[0] - 1)
            cx = np.clip((xs / self.scale / GROUND_CELL_MM).astype(int), 0, m.shape[1] - 1)
            allowed |= np.where(m[cy, cx], np.uint32(1 << bit), np.uint32(0))
        self._allowed = allowed

    def _shading(self, rect: np.ndarray, gain: np.ndarray) -> np.ndarray:
        """The shadows on the board, as a brightness factor per pixel. The empty board's
        brightness is known cell by cell (the profile's board_luma), so a cell darker
        or brighter than that, taken as the median over the cell so that a canoe on it
        does not count, shows the light there; the ratio is smoothed. (The marker paper
        alone cannot see a shadow between the corners.)"""
        c = self._shade_cell
        gh, gw = self._shade_ref.shape
        # Every other pixel of every other row is plenty for a median of the cell.
        sub = rect[:gh * c:2, :gw * c:2].astype(np.float32) * gain[:gh * c:2, :gw * c:2]
        lum = cv2.transform(sub, np.ones((1, 3), np.float32))  # (a numpy sum is slow)
        half = c // 2
        blocks = lum.reshape(gh, half, gw, half).transpose(0, 2, 1, 3).reshape(gh, gw, -1)
        mid = blocks.shape[2] // 2
        ratio = np.partition(blocks, mid, axis=2)[..., mid] / self._shade_ref
        ok = np.isfinite(ratio) & (ratio > 0.2) & (ratio < 5.0)
        ratio = np.where(ok, ratio, 0.0).astype(np.float32)
        sigma = SHADE_MM * self.scale / c
        num = cv2.GaussianBlur(ratio, (0, 0), sigma)
        den = cv2.GaussianBlur(ok.astype(np.float32), (0, 0), sigma)
        shade = np.where(den > 0.02, num / np.maximum(den, 1e-6), 1.0).astype(np.float32)
        h, w = self.shape
        shade = cv2.resize(shade, (gw * c, gh * c), interpolation=cv2.INTER_LINEAR)
        full = np.ones((h, w), np.float32)
        full[:shade.shape[0], :shade.shape[1]] = shade[:h, :w]
        return full

    def _hands(self, labels: np.ndarray) -> np.ndarray:
        """Pixels of things over the board (a hand and its arm), looked for at half the
        resolution: blobs not of the board that reach in from its edge, or that are
        mostly of no colour the profile knows."""
        step = HAND_STEP
        small = labels[step // 2::step, step // 2::step]
        # Pixels of no known colour count only in patches: thin lines of them are where
        # two known colours blur into each other.
        odd = small == NONE
        if self._allowed is not None:
            # A colour of the board where the board never shows it: something in the way.
            # In a glaring room clipped colours drift from one print to another where
            # the pieces lie, so there it is not trusted; elsewhere it still is (a pale
            # hand in such light has its brightness taken out as if it were light, and
            # then looks like the dock's print).
            bit = self._ground_bit[small]
            misplaced = (bit != 0) & ((bit & self._allowed) == 0)
            if self.light.saturated:
                misplaced &= ~self._canoe_area_small
            odd |= misplaced
        unknown = cv2.morphologyEx(odd.astype(np.uint8), cv2.MORPH_OPEN, self._solid_small)
        foreign = ((self._pieces[small] | unknown.astype(bool)) & self._valid_small)
        n, cc, stats, _ = cv2.connectedComponentsWithStats(foreign.astype(np.uint8),
                                                           connectivity=8)
        blocked_small = np.zeros(small.shape, np.uint8)
        big = 0.5 * self.canoe_px / step ** 2
        for i in range(1, n):
            x, y, w, h, area = stats[i]
            if area < big:
                continue  # a speck: no hand, and too small to hide a canoe
            sub = cc[y:y + h, x:x + w] == i
            if (self._edge_small[y:y + h, x:x + w] & sub).any() and \
                    self._inward_small[y:y + h, x:x + w][sub].max() >= REACH_MM:
                blocked_small[y:y + h, x:x + w][sub] = 1  # reaches in from off the board
                continue
            unknown_px = np.count_nonzero(odd[y:y + h, x:x + w][sub])
            if unknown_px > max(3 * self.canoe_px / step ** 2, 0.5 * area):
                blocked_small[y:y + h, x:x + w][sub] = 1  # a sleeve, a phone
        blocked = np.zeros(self.shape, np.uint8)
        if blocked_small.any():
            up = np.repeat(np.repeat(blocked_small, step, axis=0), step, axis=1)
            blocked[:up.shape[0], :up.shape[1]] = up[:self.shape[0], :self.shape[1]]
        return blocked

    def _canoes(self, labels: np.ndarray, free: np.ndarray
                ) -> dict[str, tuple[list[tuple[np.ndarray, np.ndarray]], np.ndarray | None]]:
        """For each canoe colour: the hull pixels (ys, xs) of each canoe, and the pixels
        of a blob of that colour too big for a player's two canoes (a hand), if any.
        `free`: the pixels of any canoe colour where canoes are looked for."""
        anyc = free.astype(np.uint8)
        n, cc, stats, _ = cv2.connectedComponentsWithStats(anyc, connectivity=8)
        pieces: dict[int, list[tuple[np.ndarray, np.ndarray]]] = {
            i: [] for i in self._canoe_idx.values()}
        least = 0.15 * self.canoe_px
        pad = self._close.shape[0]
        hh, ww = labels.shape
        for i in range(1, n):
            x, y, w, h, area = stats[i]
            if area < least:
                continue
            x0, y0 = max(x - pad, 0), max(y - pad, 0)
            x1, y1 = min(x + w + pad, ww), min(y + h + pad, hh)
            comp = cc[y0:y1, x0:x1] == i
            lab = labels[y0:y1, x0:x1]
            counts = np.bincount(lab[comp], minlength=256)
            for idx in pieces:
                if counts[idx] < least:
                    continue
                m = (comp & (lab == idx)).astype(np.uint8)
                m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, self._close)
                k, parts, st, _ = cv2.connectedComponentsWithStats(m, connectivity=8)
                for j in range(1, k):
                    if st[j, cv2.CC_STAT_AREA] >= least:
                        ys, xs = np.nonzero(parts == j)
                        pieces[idx].append((ys + y0, xs + x0))
        out = {}
        for player, idx in self._canoe_idx.items():
            mask = (labels == idx) & free if pieces[idx] else None
            out[player] = self._hulls(pieces[idx], mask, labels.shape)
        return out

    def _hulls(self, pieces: list[tuple[np.ndarray, np.ndarray]], mask: np.ndarray | None,
               shape: tuple[int, ...]
               ) -> tuple[list[tuple[np.ndarray, np.ndarray]], np.ndarray | None]:
        """Canoes of one colour from its pieces (see _canoes)."""
        found: list[tuple[np.ndarray, np.ndarray]] = []
        crowd = None
        if mask is None:
            return found, crowd
        for ys, xs in self._join_halves(pieces):
            seen = mask[ys, xs]  # the pixels of the colour itself, not the closing's
            n_seen = np.count_nonzero(seen)
            if n_seen < 0.5 * self.canoe_px:
                continue
            y, x = ys.min(), xs.min()
            part = np.zeros((ys.max() - y + 1, xs.max() - x + 1), np.uint8)
            part[ys[seen] - y, xs[seen] - x] = 1
            body = np.count_nonzero(cv2.erode(part, self._solid)) / self.canoe_px
            if body < 0.2:
                continue  # a thin rim: the dark edge or shadow of another canoe
            count = self._count(ys[seen], xs[seen])
            if count == 1 and body < 0.4 and self._solidity(ys[seen], xs[seen]) < SOLID:
                # Neither a thick body nor a hull's outline: specks of a canoe's colour
                # in glaring water. (A hull cut by its gem is still thick.)
                continue
            if count == 0:
                if n_seen >= 2.6 * self.canoe_px:
                    # More of one colour than a player's two canoes: an arm, a sleeve.
                    if crowd is None:
                        crowd = np.zeros(shape, np.uint8)
                    crowd[ys, xs] = 1
                continue  # no canoe's shape: a streak along a bank, scattered specks
            if count == 2 and n_seen < TWO_HULLS * self.canoe_px:
                count = 1  # one hull and a fringe of its colour on the next canoe
            halves = self._split(ys[seen], xs[seen], count)
            if len(halves) > 1:
                # Two canoes are two whole hulls; otherwise it is one canoe and a
                # neighbour's rim or a gem of its colour.
                whole = [hv for hv in halves if self._whole_hull(*hv)]
                if len(whole) < 2:
                    whole = whole[:1]
                elif not self._apart(*whole):
                    # Both halves of one canoe cut along its length (a gem of its colour
                    # in the next canoe made the blob too wide for one).
                    whole = [(ys[seen], xs[seen])]
                halves = whole
            found.extend(halves)
        return found, crowd

    def _apart_from_each_other(self, hulls: list[tuple[str, np.ndarray, np.ndarray]]
                               ) -> list[tuple[str, np.ndarray, np.ndarray]]:
        """Canoes do not lie on each other: of two hulls (of any colours) whose middles
        are within ON_TOP canoe widths, the larger is the canoe and the other a part of
        it in a neighbouring colour (a reddish brown hull)."""
        if len(hulls) < 2:
            return hulls
        hulls = sorted(hulls, key=lambda h: -len(h[1]))
        middles = np.array([(xs.mean(), ys.mean()) for _, ys, xs in hulls])
        least = ON_TOP * self.profile.sizes_mm2["canoe_short_mm"] * self.scale
        kept: list[int] = []
        for i, middle in enumerate(middles):
            if not kept or np.hypot(*(middles[kept] - middle).T).min() >= least:
                kept.append(i)
        return [hulls[i] for i in kept]

    def _apart(self, a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]
               ) -> bool:
        """Whether two halves of a blob lie as two canoes side by side do: their
        middles most of a canoe's width apart or more."""
        gap = math.hypot(float(a[1].mean() - b[1].mean()), float(a[0].mean() - b[0].mean()))
        return gap >= SIDE_BY_SIDE * self.profile.sizes_mm2["canoe_short_mm"] * self.scale

    def _whole_hull(self, ys: np.ndarray, xs: np.ndarray) -> bool:
        return len(ys) >= 0.5 * self.canoe_px and self._count(ys, xs) == 1 and \
            self._envelope(ys, xs) >= 0.6 * self.canoe_box

    def _sides(self, ys: np.ndarray, xs: np.ndarray) -> tuple[float, float]:
        """Long and short side (mm) of the rectangle around some pixels, in canoe
        lengths and widths (as the profile measured them)."""
        (_, _), (bw, bh), _ = cv2.minAreaRect(np.column_stack([xs, ys]).astype(np.float32))
        sizes = self.profile.sizes_mm2
        return (max(bw, bh) / self.scale / sizes["canoe_long_mm"],
                min(bw, bh) / self.scale / sizes["canoe_short_mm"])

    def _count(self, ys: np.ndarray, xs: np.ndarray) -> int:
        """How many canoes a blob of one colour is by its shape: one, two (side by side
        or end to end: a player has two), or 0 when it has no canoe's shape."""
        length, width = self._sides(ys, xs)
        if length <= ONE_CANOE[0] and width <= ONE_CANOE[1]:
            return 1 if length >= 0.5 and width >= 0.45 else 0  # not a streak, not a speck
        if TWO_CANOES <= width <= 3.2 and length <= 1.6:
            return 2  # side by side
        if TWO_CANOES <= length <= 2.5 and width <= 2.0:
            return 2  # end to end
        return 0

    @staticmethod
    def _solidity(ys: np.ndarray, xs: np.ndarray) -> float:
        """The share of its convex outline a blob fills (a hull, even cut by its gem,
        fills most of it; specks scattered over water do not)."""
        outline = cv2.convexHull(np.column_stack([xs, ys]).astype(np.int32))
        return len(ys) / max(cv2.contourArea(outline), 1.0)

    @staticmethod
    def _envelope(ys: np.ndarray, xs: np.ndarray) -> float:
        (_, _), (bw, bh), _ = cv2.minAreaRect(np.column_stack([xs, ys]).astype(np.float32))
        return float(bw * bh)

    def _join_halves(self, pieces: list[tuple[np.ndarray, np.ndarray]]
                     ) -> list[tuple[np.ndarray, np.ndarray]]:
        """Join pieces of one colour that together make one canoe's size: a hull cut in
        two by its gem (a blue gem in a brown hull can look like water)."""
        reach = 8.0 * self.scale
        pieces = list(pieces)
        joined = True
        while joined and len(pieces) > 1:
            joined = False
            for a in range(len(pieces)):
                for b in range(a + 1, len(pieces)):
                    (ya, xa), (yb, xb) = pieces[a], pieces[b]
                    if (xa.min() > xb.max() + reach or xb.min() > xa.max() + reach
                            or ya.min() > yb.max() + reach or yb.min() > ya.max() + reach):
                        continue
                    ys, xs = np.concatenate([ya, yb]), np.concatenate([xa, xb])
                    if self._envelope(ys, xs) <= 1.25 * self.canoe_box \
                            and max(len(ya), len(yb)) < 0.9 * self.canoe_px:
                        pieces[a] = (ys, xs)
                        del pieces[b]
                        joined = True
                        break
                if joined:
                    break
        return pieces

    def _split(self, ys: np.ndarray, xs: np.ndarray,
               count: int) -> list[tuple[np.ndarray, np.ndarray]]:
        """The pixels of one canoe, or of two canoes of one colour touching each other:
        side by side (as two canoes share a disc) they are cut across the blob's
        shorter side, end to end across its longer one, where the two halves are each
        most compact (two-means along that direction)."""
        if count == 1 or len(xs) < 4:
            return [(ys, xs)]
        pts = np.column_stack([xs, ys]).astype(np.float32)
        box = cv2.boxPoints(cv2.minAreaRect(pts))
        e1, e2 = box[1] - box[0], box[2] - box[1]
        short, long_ = (e1, e2) if np.linalg.norm(e1) <= np.linalg.norm(e2) else (e2, e1)
        _, width = self._sides(ys, xs)
        cut = short if width >= TWO_CANOES else long_
        t = pts @ (cut / max(float(np.linalg.norm(cut)), 1e-6))
        order = np.argsort(t)
        ts = t[order].astype(np.float64)
        n = len(ts)
        k = np.arange(1, n)
        s1, q1 = np.cumsum(ts)[:-1], np.cumsum(ts * ts)[:-1]
        s2, q2 = ts.sum() - s1, float((ts * ts).sum()) - q1
        spread = (q1 - s1 * s1 / k) + (q2 - s2 * s2 / (n - k))
        at = int(np.argmin(spread)) + 1
        first, second = order[:at], order[at:]
        return [(ys[first], xs[first]), (ys[second], xs[second])]

    def _gem_cached(self, image: np.ndarray, location: Location, img: np.ndarray,
                    centre: tuple[float, float], player: str,
                    cache: dict[tuple[str, int, int], tuple[np.ndarray, str | None]],
                    ashore: bool = False, hull: tuple[np.ndarray, np.ndarray] | None = None
                    ) -> str | None:
        """The gem of a canoe, read again only if the canoe's middle changed since the
        last frame (a still camera sees the same canoe thirty times a second). `hull`:
        the canoe's pixels (ys, xs), which give the direction it lies in."""
        r = int(math.ceil(math.sqrt(self.gem_px / math.pi))) + 2
        x, y = int(centre[0] * self.scale), int(centre[1] * self.scale)
        middle = img[max(y - r, 0):y + r + 1, max(x - r, 0):x + r + 1].astype(np.int16)
        key = (player, int(centre[0] // CACHE_MM), int(centre[1] // CACHE_MM))
        last = self._gem_cache.get(key)
        if last is not None and last[0].shape == middle.shape and \
                float(np.abs(middle - last[0]).mean()) < SAME_MIDDLE:
            gem = last[1]
        else:
            axis = self._axis(*hull) if hull is not None else None
            gem = self._gem(image, location, centre, player, ashore, axis)
        cache[key] = (middle, gem)
        return gem

    def _gem(self, image: np.ndarray, location: Location, centre: tuple[float, float],
             player: str, ashore: bool = False, axis: tuple[float, float] | None = None
             ) -> str | None:
        """The gem in the middle of the canoe lying at `centre` (mm): None for an empty
        canoe, a gem colour, or "unknown".

        The camera blurs a gem's colour into its hull's, so a gem is judged by the
        direction in which the canoe's middle leaves the hull's own colour: towards which
        gem's colour. The hull is the local light reference, so shadows do not matter."""
        evidence = self.gem_evidence(image, location, centre, player, axis)
        if evidence is None:
            return "unknown"
        unlike, hull, core, texture, middle = evidence
        own = player if player in self._gem_idx else None
        if unlike < GEM_UNLIKE:
            # Nothing of another colour than the hull's: empty, unless the middle is
            # faceted. Then it is a gem of the hull's own colour (a red gem in a red
            # canoe), if there is such a gem.
            if texture <= GEM_TEXTURE or ashore:
                return None
            return own or "unknown"
        v = core - hull
        angles = []
        for g in self._gem_idx:
            u = self.profile.classes[f"gem:{g}"].bgr - hull
            cos = float(v @ u / max(np.linalg.norm(v) * np.linalg.norm(u), 1e-6))
            angles.append((math.degrees(math.acos(max(-1.0, min(1.0, cos)))), g))
        angles.sort()
        (best, gem), (second, _) = angles[0], angles[1]
        if own and gem != own and texture > GEM_TEXTURE and not ashore \
                and self._blend(middle, hull, gem) < GEM_FILL:
            # A gem of the hull's own colour leaves the hull's colour mostly at its
            # highlights, which point towards white as a clear gem does. But a gem
            # fills most of the canoe's middle: if the middle's mean colour is hardly
            # on the way from the hull's colour to that gem's, the gem is not there;
            # the faceted middle is the hull's own gem.
            return own
        if best <= GEM_ANGLE and second - best >= GEM_MARGIN:
            return gem
        return "unknown"

    def _blend(self, colour: np.ndarray, hull: np.ndarray, gem: str) -> float:
        """How far a colour lies on the way from a hull's colour to a gem's (0 the hull,
        1 the gem): the share of the gem in a blur of both."""
        u = self.profile.classes[f"gem:{gem}"].bgr - hull
        return float((colour - hull) @ u / max(float(u @ u), 1e-6))

    def _gem_geometry(self) -> tuple[float, float, int, np.ndarray, np.ndarray, np.ndarray]:
        """The patch a canoe's middle is read from: gem radius and patch half-size (mm),
        patch side (px), and its zones: hull ring, gem area, gem middle."""
        if self._gem_zones is None:
            p = GEM_PX_PER_MM
            gem_r = math.sqrt(self.profile.sizes_mm2["gem"] / math.pi)
            half = gem_r + 5.0
            n = int(round(2 * half * p))
            yy, xx = np.mgrid[0:n, 0:n]
            dist = np.hypot((xx + 0.5) / p - half, (yy + 0.5) / p - half)
            self._gem_zones = (gem_r, half, n, dist > gem_r + 2.0, dist <= gem_r + 1.5,
                               dist <= 0.75 * gem_r)
        return self._gem_zones

    def _gem_middle(self, axis: tuple[float, float]) -> np.ndarray:
        """The gem's zone of a canoe's middle patch for a canoe lying along `axis`: as
        long as the round zone, as wide as the gem."""
        p = GEM_PX_PER_MM
        gem_r, half, n, _, _, _ = self._gem_geometry()
        yy, xx = np.mgrid[0:n, 0:n]
        dx, dy = (xx + 0.5) / p - half, (yy + 0.5) / p - half
        along = dx * axis[0] + dy * axis[1]
        across = dy * axis[0] - dx * axis[1]
        return np.square(along / (gem_r + 1.5)) + np.square(across / gem_r) <= 1.0

    @staticmethod
    def _axis(ys: np.ndarray, xs: np.ndarray) -> tuple[float, float] | None:
        """The long direction of a hull's pixels (a unit vector), None if it has none."""
        if len(xs) < 8:
            return None
        evals, evecs = np.linalg.eigh(np.cov(np.vstack([xs, ys]).astype(np.float64)))
        if evals[1] < 1.5 * max(evals[0], 1e-9):
            return None  # about round: no direction to trust
        return float(evecs[0, 1]), float(evecs[1, 1])

    def _gain_at(self, centre: tuple[float, float]) -> np.ndarray:
        """The light (and shadow) correction at a board point, from the last frame."""
        if self._gain is None:
            return self.light.gain_at(centre)
        h, w = self._gain.shape[:2]
        x = min(max(int(centre[0] * self.scale), 0), w - 1)
        y = min(max(int(centre[1] * self.scale), 0), h - 1)
        return self._gain[y, x]

    def gem_evidence(self, image: np.ndarray, location: Location, centre: tuple[float, float],
                     player: str, axis: tuple[float, float] | None = None
                     ) -> tuple[float, np.ndarray, np.ndarray, float, np.ndarray] | None:
        """What the middle of a canoe shows: (how much of a gem's area is unlike the
        hull, the hull's colour, the colour of the most unlike part, how uneven the
        middle's brightness is in units of sensor noise, the middle's mean colour),
        colours in the canoe's own light (the hull taken as the profile's hull colour).
        Read from the camera frame itself, sharper than the board image. None if no hull
        is seen. `axis`: the canoe's long direction (board mm), if known; across it the
        middle is read only as wide as a gem, so the water beside a narrow hull, which
        the camera blurs into it, is not taken for a gem's colour."""
        p = GEM_PX_PER_MM
        gem_r, half, n, ring_zone, middle, facets = self._gem_geometry()
        if axis is not None:
            middle = self._gem_middle(axis)
        shift = np.array([[p, 0, (half - centre[0]) * p], [0, p, (half - centre[1]) * p],
                          [0, 0, 1]])
        patch = cv2.warpPerspective(image, shift @ location.homography, (n, n),
                                    flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        gain = self._gain_at(centre)
        patch = cv2.multiply(patch, (float(gain[0]), float(gain[1]), float(gain[2]), 0.0))
        labels = self.profile.classify(patch)
        ring = ring_zone & (labels == self._canoe_idx[player])
        if np.count_nonzero(ring) < 8:
            return None
        hull_px = patch[ring].astype(np.float32)
        hull_f = features(hull_px)
        hull_mean = np.median(hull_f, axis=0)
        hull_cov = np.cov(hull_f, rowvar=False) + np.diag(np.square(MIN_SIGMA))
        px = patch[middle].astype(np.float32)
        d = features(px) - hull_mean
        d2 = np.einsum("ni,ij,nj->n", d, np.linalg.inv(hull_cov), d)
        area = self.profile.sizes_mm2["gem"] * p * p
        unlike = np.count_nonzero(d2 > HULL_D2)
        # The gem's purest part: the pixels least like the hull (its edges are blurred
        # into the hull, its middle much less).
        take = max(4, int(min(max(unlike, 1), GEM_CORE * area)))
        core = px[np.argpartition(d2, len(d2) - take)[-take:]]
        hull = np.median(hull_px, axis=0)
        # A shadow dims all channels alike: one factor, from the hull's brightness.
        light = float(np.clip(self.profile.classes[f"canoe:{player}"].bgr.sum()
                              / max(hull.sum(), 1.0), 0.5, 2.0))
        # A cut gem's facets make its middle uneven; a hull's middle is as smooth as the
        # rest of the hull. How uneven is measured against the sensor noise, taken from
        # the hull's own pixels (the median Laplacian: a hull's edges and its darker
        # inside are too few to move it).
        lum = patch.sum(axis=2, dtype=np.int32).astype(np.float32)
        noise = float(np.median(np.abs(cv2.Laplacian(lum, cv2.CV_32F)[ring])))
        texture = float(np.std(lum[facets])) / max(noise, 1.0)
        mean_mid = patch[facets].astype(np.float32).mean(axis=0)
        return (unlike / area, hull * light, np.median(core, axis=0) * light, texture,
                mean_mid * light)

    def _weather_value(self, img: np.ndarray) -> int | None:
        """Where the cloud stands: the track position whose middle is most whiter than
        its surroundings (None when no position stands out: the cloud is in a hand)."""
        scores = []
        for value, (inner, outer) in self._weather.items():
            mid = np.median(img[inner].sum(axis=1, dtype=np.int32))
            around = np.median(img[outer].sum(axis=1, dtype=np.int32))
            scores.append((float(mid / max(around, 1.0)), value))
        scores.sort(reverse=True)
        (best, value), (second, _) = scores[0], scores[1]
        return value if best - second >= CLOUD_CONTRAST else None

    def _discs(self, img: np.ndarray, labels: np.ndarray, canoe: np.ndarray
               ) -> dict[str, bool]:
        """Which slots have their disc. A slot's ring inside the disc's rim (its canoes
        left out) is compared in chromaticity with the same ring of the other slots,
        most of which have their disc, and with the water in this frame: a ring unlike
        the others and nearer the water is a slot without its disc. (Colour classes
        alone are not enough: in some light neither the disc's nor the water's class
        fits.) A ring hidden by canoes has its disc: a canoe rides on one."""
        looks: dict[str, np.ndarray] = {}
        (y0, y1, x0, x1), ys, xs, bounds = self._rings
        near_canoe = cv2.dilate(canoe[y0:y1, x0:x1].astype(np.uint8), self._close)
        free = near_canoe[ys - y0, xs - x0] == 0
        colours = img[ys, xs]
        for slot, (a, b) in zip(SLOTS, bounds, strict=True):
            ok = free[a:b]
            if np.count_nonzero(ok) >= DISC_SEEN * (b - a):
                looks[slot] = _chroma(np.median(colours[a:b][ok], axis=0))
        present = {slot: True for slot in SLOTS}
        if len(looks) < 3:
            return present
        discs = np.median(np.array(list(looks.values())), axis=0)
        ys, xs = self._water_probe
        water_px = img[ys, xs][labels[ys, xs] == self._water]
        water = (_chroma(np.median(water_px, axis=0)) if len(water_px) >= 50
                 else _chroma(self.profile.classes["water"].bgr))
        apart = max(DISC_APART, 0.5 * float(np.hypot(*(discs - water))))
        for slot, look in looks.items():
            off = float(np.hypot(*(look - discs)))
            present[slot] = not (off > apart and float(np.hypot(*(look - water))) < off)
        return present

    def _observation(self, img: np.ndarray, labels: np.ndarray, canoe: np.ndarray,
                     canoes: list, location: Location,
                     occluded: list[str]) -> dict[str, Any]:
        b = self.board
        discs = self._discs(img, labels, canoe)
        slots: dict[str, dict[str, Any]] = {s: {"disc": discs[s], "canoes": []}
                                            for s in SLOTS}
        dock: list[dict[str, Any]] = []
        falls: list[dict[str, Any]] = []
        for player, centre, gem in canoes:
            place = b.place_at(centre)
            if place is None or self.deposit_mask[int(centre[1] * self.scale),
                                                  int(centre[0] * self.scale)]:
                continue
            if place not in ("D", "F"):
                # On its disc: canoes share a disc side by side, across the flow, so
                # one lying further along the flow than the disc reaches is no canoe
                # (a fleck of water the colour of a blue hull).
                fx, fy = b.flow(place)
                sx, sy = b.slots[place]
                if abs((centre[0] - sx) * fx + (centre[1] - sy) * fy) > ALONG_FLOW * \
                        b.disc_radius_mm:
                    continue
            seen = {"player": player, "gem": gem}
            if place == "D":
                dock.append(seen)
            elif place == "F":
                falls.append(seen)
            else:
                slots[place]["canoes"].append(seen)
        weather = self._weather_value(img)
        for s in slots.values():
            s["canoes"].sort(key=canoe_order)
        dock.sort(key=canoe_order)
        falls.sort(key=canoe_order)
        obs: dict[str, Any] = {"stable": not occluded, "markers": location.markers,
                               "weather": weather, "slots": slots, "dock": dock,
                               "falls": falls}
        obs["occluded"] = sorted(occluded, key=_place_order)
        obs["homography_kept"] = location.kept
        return obs


def _chroma(bgr: np.ndarray) -> np.ndarray:
    """r and g chromaticity of one BGR colour."""
    x = np.asarray(bgr, np.float64)
    total = float(x.sum()) + 3.0
    return np.array([(x[2] + 1.0) / total, (x[1] + 1.0) / total])


def _odd(px: float) -> int:
    """A kernel size: the odd number of pixels nearest to px, at least 3."""
    return max(3, 2 * int(round(px / 2)) + 1)


def canoe_order(canoe: dict[str, Any]) -> tuple[int, str]:
    """Canoes are listed by player in the order of the rules, then by gem."""
    player = canoe["player"]
    return (PLAYER_COLOURS.index(player) if player in PLAYER_COLOURS else 99,
            canoe["gem"] or "")


def _place_order(place: str) -> int:
    order = ("D", *SLOTS, "F")
    return order.index(place) if place in order else 99


class _Clock:
    def __init__(self) -> None:
        import time

        self._now = time.perf_counter
        self._t = self._now()
        self.laps: dict[str, float] = {}

    def lap(self, name: str) -> None:
        t = self._now()
        self.laps[name] = (t - self._t) * 1000
        self._t = t


__all__ = ["Detector", "Reading", "canoe_order"]
