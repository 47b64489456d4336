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
   leaves the hull's colour, towards one gem's colour; a middle paler than this table's
   empty hulls is a clear gem; a faceted middle of the hull's own colour is that
   colour's gem. On the river a model fitted on many tables weighs what these rules
   say (``gem_model.weigh``). Unsure is "unknown".
6. Discs: a slot's ring (its canoes left out) unlike the other slots' and nearer this
   frame's water has no disc; hidden by canoes, it has one. Weather: the track
   position whose middle is much whiter than around it (the cloud).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, cast

import cv2
import numpy as np

from companion.rules import SLOTS
from companion.rules.geometry import PLAYER_COLOURS

from .board import Board
from .canoes import CanoeFinder
from .cloud import CloudFinder
from .discs import DiscReader
from .gem_model import GemModel, load_gem_model, table_gem_colours
from .gems import GemReader
from .hands import HandFinder
from .light import LightMeter
from .locate import Location
from .looks import PieceLooks
from .masks import BoardMasks, pixels
from .profile import (
    CANOE_CLASSES,
    GEM_CLASSES,
    NONE,
    SHADE_CELL_MM,
    ColourProfile,
)
from .seen_canoes import SeenCanoe
from .stage import GemEvidence
from .straighten import Straightener
from .surface import Surface, cell_px, fresh
from .thresholds import (
    CLOSE_MM,
    CROWD_UNLIKE,
    HAND_COLOUR_PX,
    HAND_STEP,
    NEAR_HAND_MM,
    RIM_MM,
    SMOOTH_MM,
    UNKNOWN_MM,
    _odd,
)


@dataclass
class Reading:
    """What one frame shows."""

    observation: dict[str, Any]
    occluded: bool                      # something (a hand) is over the board
    corrected: np.ndarray = field(repr=False)  # the light-corrected board image
    timings: dict[str, float] = field(default_factory=dict)
    canoes: list[SeenCanoe] = field(default_factory=list)  # each canoe read, for ``looks``
    # What made the view occluded, in words (for benchmarks and diagnostics; the camera's
    # status names the places: observation["occluded"]).
    in_the_way: list[str] = field(default_factory=list)
    # Per slot, its ring's brightness against the water around it (``disc_contrasts``):
    # what ``DiscLooks`` learns from a confirmed picture.
    disc_contrasts: dict[str, float] = field(default_factory=dict)
    # Each hull found (before shadows are told from hulls, and before a colour is cut to
    # a player's two canoes): its colour, place (None off every place) and
    # ``canoes.hull_spread``: what calibration learns a hull's look by.
    hulls: list[tuple[str, str | None, float]] = field(default_factory=list)
    # The board's look cells (``surface``) the frame does not reach, where the picture
    # is streaks: nothing of the board's look is learned there (None: it reaches all).
    unseen: np.ndarray | None = field(default=None, repr=False)
    # Each canoe's middle as measured (player, the place it is reported at or None,
    # ``GemEvidence`` or None): what the gem model (``gem_model``) is fitted on.
    middles: list[tuple[str, str | None, GemEvidence | None]] = field(
        default_factory=list, repr=False)


class Detector(BoardMasks, Straightener, HandFinder, CanoeFinder, GemReader, DiscReader):
    """Reads pieces off frames of one board with one colour profile.

    The stages are its bases, one module each (masks, straighten, hands, canoes, gems,
    discs); this class holds their shared state and runs them in order (``read``), and
    decides what the evidence makes of each place (``_observation``)."""

    def __init__(self, board: Board, profile: ColourProfile, px_per_mm: float = 1.0,
                 gem_model: GemModel | None | bool = True) -> None:
        """`gem_model` weighs gems on the river: True, the packaged one; None, none."""
        self.board = board
        self.profile = profile
        self.gem_model = load_gem_model() if gem_model is True else gem_model or None
        self._gem_colours = table_gem_colours(profile)
        self.scale = px_per_mm
        self.light = LightMeter(board, px_per_mm)
        self.looks = PieceLooks()
        # The slots' looks with and without a disc (calibration's, then this table's).
        self.disc_looks = copy.deepcopy(profile.discs)
        self._contrasts: dict[str, float] = {}
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
        self._shade_ref = None
        self._gain = None
        self._gem_cache = {}
        if profile.board_luma is not None:
            self._shade_cell = max(2, 2 * int(round(SHADE_CELL_MM * px_per_mm / 2)))
            rows = self.shape[0] // self._shade_cell
            cols = self.shape[1] // self._shade_cell
            ref = cv2.resize(np.nan_to_num(profile.board_luma, nan=0.0), (cols, rows),
                             interpolation=cv2.INTER_NEAREST)
            self._shade_ref = np.where(ref > 0, ref, np.nan).astype(np.float32)
        self._ground_bit = np.zeros(256, np.uint32)
        self._piece_bit = np.zeros(256, np.uint32)
        self._allowed = None
        self._printed = None
        if profile.ground_map:
            self._build_allowed()
        self._is_canoe = np.zeros(256, bool)
        self._is_canoe[list(self._canoe_idx.values())] = True
        profile.lut()  # build it now, not on the first frame
        self._gem_zones = None
        self._cloud_finder = (CloudFinder(board, profile.track) if profile.track is not None
                              else None)
        self._build_masks()
        pieces = self.piece_area()
        # The print where no piece may lie (rows, cols): where a move changes nothing
        # (``views.print_agrees``).
        self.print_only = pixels(self.valid & ~pieces)
        self.surface = (Surface(board, profile, px_per_mm, pieces)
                        if profile.board_chroma is not None
                        and profile.board_texture is not None else None)
        if self.surface is not None:
            rows, cols = self.surface.shape
            c = self.surface.cell_px
            # (an array: numpy's stubs cannot tell from `axis` that it is no scalar)
            self._river_cells = cast(np.ndarray, self.canoe_area[:rows * c, :cols * c]
                                     .reshape(rows, c, cols, c).all(axis=(1, 3)))
            self._deposit_cells = cast(np.ndarray, self.deposit_mask[:rows * c, :cols * c]
                                       .reshape(rows, c, cols, c).any(axis=(1, 3)))

    # -- fixed masks of the board ----------------------------------------------------------


    # -- one frame ---------------------------------------------------------------------------

    def forget(self) -> None:
        """Forget what earlier frames showed (a new camera, a new table)."""
        self._gem_cache = {}
        self._gain = None


    def read(self, image: np.ndarray, location: Location,
             reference: np.ndarray | None = None) -> Reading:
        """The observation of one frame (stable as far as this one frame can tell).
        `reference`: the light-corrected board image (``Reading.corrected``) of a picture
        of the same view that was clear and confirmed: what was over the board in it
        already is no hand now."""
        clock = _Clock()
        img, labels = self.prepare(image, location, clock)
        canoe = self._is_canoe[labels]  # pixels of any canoe colour, used throughout
        side = cell_px(self.scale)
        changed = (fresh(img, reference, side)
                   if reference is not None and reference.shape == img.shape else None)
        outside = self.out_of_frame(image.shape, location)
        unseen_px: np.ndarray | None = None
        unseen_cells: np.ndarray | None = None
        if outside is not None:
            # Where the frame does not reach, ``rectify`` repeats its edge: streaks that
            # the smoothing mixes into the pixels beside them. Neither is the board nor
            # anything over it: they are not seen at all, and nothing there is read
            # (what comes in over them is, as over the board's edge).
            k = _odd(SMOOTH_MM * self.scale) + 2
            unseen_px = cv2.dilate(outside.astype(np.uint8), np.ones((k, k), np.uint8)
                                   ).astype(bool)
            if self.surface is not None:
                rows, cols = self.surface.shape
                c = self.surface.cell_px
                unseen_cells = np.asarray(unseen_px[:rows * c, :cols * c].reshape(
                    rows, c, cols, c).any(axis=(1, 3)))
                unseen_px |= _cells_to_px(unseen_cells, c, self.shape)
        blocked = self._hands(labels, None if changed is None else _cells_to_px(
            changed, side, self.shape))
        if unseen_px is not None:
            blocked[unseen_px] = 0
        why = ["not the board, from the edge or of no colour"] if blocked.any() else []
        departure = None
        if self.surface is not None:
            # What the colour classes let pass: unlike the board's own look there.
            departure = self.surface.departure(img, unseen_cells)
            share = self._canoe_share(canoe)
            arm = self.surface.reaching_in(img, departure, self._piece_cells(share),
                                           changed, unseen_cells) | \
                self._unexplained(share, departure, changed)
            if arm.any():
                why.append("unlike the board")
                blocked |= _cells_to_px(arm, self.surface.cell_px, self.shape) & self.valid
        # (What is not read is out of view: a canoe where the streaks blur in too.)
        unseen = self.out_of_view(unseen_px) if unseen_px is not None else []
        if unseen:
            why.append("out of view")
        clock.lap("hands")
        hulls: list[tuple[str, np.ndarray, np.ndarray]] = []
        free = self.canoe_area & ~blocked.astype(bool)
        if unseen_px is not None:
            free &= ~unseen_px
        for player, (found, crowd) in self._canoes_apart_from_the_print(
                img, labels, canoe & free, departure).items():
            if crowd is not None and (self.surface is None or departure is None
                                      or self.surface.departs(crowd, departure) >= CROWD_UNLIKE):
                # (Not water in a light that gives it a canoe's colour class.)
                blocked |= crowd
                why.append(f"too much {player} for two canoes")
            hulls.extend((player, ys, xs) for ys, xs in found)
        measured = self._measured(img, hulls)
        hulls = self._apart_from_each_other(self._not_shadows(hulls, measured))
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
        hulls = self._two_of_a_colour(img, hulls, labels)
        canoes: list[tuple[str, tuple[float, float], str | None]] = []
        seen: list[SeenCanoe] = []
        cache: dict[tuple[str, int, int], tuple[np.ndarray, GemEvidence | None]] = {}
        middles = []
        for player, ys, xs in hulls:
            centre = self._middle(ys, xs)
            middles.append((player, centre, self._evidence_cached(
                image, location, img, centre, player, cache, (ys, xs))))
        plain = self._plain_texture(e for _, _, e in middles)
        for player, centre, evidence in middles:
            # On the dock and below the falls canoes are empty by the rules (R-LAND-2,
            # R-RIVER-4): only a gem plainly of another colour is reported there.
            place = self.board.place_at(centre)
            read = self._gem(evidence, player, place in ("D", "F"), plain)
            canoes.append((player, centre, read.gem))
            if place is not None:
                seen.append(SeenCanoe(player, place, read.texture, read.core, read.gem,
                                      read.look))
        self._gem_cache = cache
        clock.lap("canoes")
        obs = self._observation(img, image, labels, canoe, canoes, location,
                                occluded_places, unseen)
        clock.lap("discs+weather")
        return Reading(obs, bool(occluded_places) or bool(blocked.any()) or bool(unseen),
                       img, clock.laps, seen, why, dict(self._contrasts), measured,
                       unseen_cells, [(player, self._reported_at(centre), evidence)
                                      for player, centre, evidence in middles])


    def _canoes_apart_from_the_print(
            self, img: np.ndarray, labels: np.ndarray, free: np.ndarray,
            departure: tuple[np.ndarray, np.ndarray] | None
    ) -> dict[str, tuple[list[tuple[np.ndarray, np.ndarray]], np.ndarray | None]]:
        """``_canoes``; where a colour makes a mass too big for two canoes, that colour
        is looked at again without the cells that look as the board's own print does
        there (a dock printed in a hull's colour joins the canoes lying on it into one
        mass; without it they are canoes again)."""
        found = self._canoes(img, labels, free)
        massed = [p for p, (_, crowd) in found.items() if crowd is not None]
        if not massed or self.surface is None or departure is None:
            return found
        like = _cells_to_px(self.surface.like_board(departure), self.surface.cell_px,
                            self.shape)
        again = self._canoes(img, labels, free & ~like)
        return {p: again[p] if p in massed else seen for p, seen in found.items()}

    def _observation(self, img: np.ndarray, image: np.ndarray, labels: np.ndarray,
                     canoe: np.ndarray, canoes: list, location: Location,
                     occluded: list[str], unseen: list[str]) -> dict[str, Any]:
        discs = self._discs(img, labels, canoe)
        for hidden in [*occluded, *unseen]:
            # Nothing is read next to a hand: its shadow tints a ring as a disc does;
            # nor where the frame does not reach.
            if hidden in discs:
                discs[hidden] = True
                self._contrasts.pop(hidden, None)
        slots: dict[str, dict[str, Any]] = {s: {"disc": discs[s], "canoes": []}
                                            for s in SLOTS}
        dock: list[dict[str, Any]] = []
        falls: list[dict[str, Any]] = []
        for player, centre, gem in canoes:
            place = self._reported_at(centre)
            if place is None:
                continue
            seen = {"player": player, "gem": gem}
            if place == "D":
                dock.append(seen)
            elif place == "F":
                falls.append(seen)
            else:
                slots[place]["canoes"].append(seen)
        weather = self._weather_value(img, image, location)
        for s in slots.values():
            s["canoes"].sort(key=canoe_order)
        dock.sort(key=canoe_order)
        falls.sort(key=canoe_order)
        obs: dict[str, Any] = {"stable": not occluded, "markers": location.markers,
                               "weather": weather, "slots": slots, "dock": dock,
                               "falls": falls}
        obs["occluded"] = sorted(occluded, key=_place_order)
        obs["out_of_view"] = sorted(unseen, key=_place_order)
        obs["homography_kept"] = location.kept
        return obs


def _cells_to_px(cells: np.ndarray, side: int, shape: tuple[int, int]) -> np.ndarray:
    """A mask of cells of `side` pixels as a mask of pixels of `shape` (False past the
    last whole cell)."""
    out = np.zeros(shape, bool)
    up = np.repeat(np.repeat(cells, side, axis=0), side, axis=1)
    h, w = min(up.shape[0], shape[0]), min(up.shape[1], shape[1])
    out[:h, :w] = up[:h, :w]
    return out


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


__all__ = ["SMOOTH_MM", "Detector", "Reading", "_odd", "canoe_order"]
