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

from collections.abc import Iterable
from typing import cast

import cv2
import numpy as np

from companion.rules import SLOTS

from .board import Board
from .cloud import TrackLooks
from .detect import SMOOTH_MM, Detector, Reading, _odd
from .disc_looks import DiscLooks
from .dock_canoes import find_dock_canoes, find_slot_canoe
from .known import BoardUnseen, KnownBoard, PlaceError, pile_pixels
from .layout import (
    LAYOUT_CANOES,
    LAYOUT_EMPTY_DISCS,
    LAYOUT_NO_DISC,
    LAYOUT_WEATHER,
    layout_state,
)
from .learn_board import (
    board_luma,
    board_surface,
    canoe_shadow_pixels,
    disc_looks,
    ground_map,
)
from .light import LightMeter
from .locate import BoardLocator, Location
from .masks import deposit_pixels, polygon_mask, ring_pixels
from .piece_sizes import measure_sizes
from .profile import (
    CANOE_CLASSES,
    GEM_CLASSES,
    GROUND_CLASSES,
    MIN_SIGMA,
    SHADOW,
    ColourProfile,
    ProfileError,
    features,
)
from .read_back import read_back
from .straighten import out_of_frame
from .thresholds import CLEAR_OF_EDGE_MM

BOARD_CLASSES = 6  # the printed board is learned as this many colour clusters
# With every disc in its slot, the water is learned from the ring around the empty discs:
# the share of its pixels nearest the discs' own hue (the rest is banks and rocks).
WATER_SHARE = 0.4


def _gem_px(img: np.ndarray, hull: tuple[np.ndarray, np.ndarray],
            middle: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """The pixels in a canoe's middle that are least like its hull: the gem (none
    when too little of the hull was made out to tell them by)."""
    mid = img[middle]
    if len(hull[0]) < 8:
        return mid[:0]
    hull_px = features(img[hull].astype(np.float64))
    f = features(mid.astype(np.float64))
    mean = np.median(hull_px, axis=0)
    cov = np.cov(hull_px, rowvar=False) + np.diag(np.square(MIN_SIGMA))
    d = f - mean
    d2 = np.einsum("ni,ij,nj->n", d, np.linalg.inv(cov), d)
    # The gem covers about a third of the middle; its core is the most unlike part.
    keep = d2 >= np.quantile(d2, 0.8)
    return mid[keep]


def _straight(board: Board, image: np.ndarray, px_per_mm: float,
              detector: Detector | None) -> tuple[np.ndarray, Location]:
    """The light-corrected board image of one photo (with a detector from a first
    profile, shadows taken out as the detector does) and where the board lies in it."""
    where = BoardLocator(board).locate(image)
    if where is None:
        raise BoardUnseen("fewer than three of the board's four markers are visible in "
                          "the photo")
    if detector is not None:
        return detector.prepare(image, where)[0], where
    s = px_per_mm
    meter = LightMeter(board, px_per_mm)
    to_rect = np.diag([s, s, 1.0]) @ where.homography
    rect = cv2.warpPerspective(image, to_rect, meter.shape[::-1], flags=cv2.INTER_LINEAR)
    k = _odd(SMOOTH_MM * px_per_mm)
    return cv2.blur(meter.correct(rect, frozenset(where.seen)), (k, k)), where


def sample_known(board: Board, image: np.ndarray, known: KnownBoard, px_per_mm: float = 1.0,
                 detector: Detector | None = None,
                 unseen: list[str] | None = None) -> dict[str, np.ndarray]:
    """Light-corrected BGR pixels per class from one photo of a known board: each
    piece's colour where `known` puts it, the discs, the water (also in the shadows of the
    canoes on it), the cloud, the print.
    A canoe not made out (on a slot or the dock) raises PlaceError; with `unseen`
    given, the line saying so is added to it instead, and the canoe left out."""
    img, _ = _straight(board, image, px_per_mm, detector)
    s = px_per_mm
    h, w = img.shape[:2]
    r = board.disc_radius_mm
    out: dict[str, list[np.ndarray]] = {}

    def take(name: str, idx: tuple[np.ndarray, np.ndarray]) -> None:
        out.setdefault(name, []).append(img[idx])

    afloat = []
    for slot, (canoe, gem) in known.lone_canoes().items():
        lone = find_slot_canoe(img, board, slot, canoe, s)
        if lone is None:
            said = f"slot {slot}: the {canoe} canoe {known.name} puts there is not seen"
            if unseen is None:
                raise PlaceError(said)
            unseen.append(said)
            continue
        afloat.append((slot, lone))
        hull = lone.hull
        middle = ring_pixels((h, w), s, lone.centre_mm, 0, 7.0)
        take(f"canoe:{canoe}", hull)
        if gem is not None:
            out.setdefault(f"gem:{gem}", []).append(_gem_px(img, hull, middle))
    # The print of a place holding pieces is learned where they leave it bare: the dock
    # around its canoes, a deposit's least unlike half around its gems.
    prints = []
    if known.dock:
        found, bare = find_dock_canoes(img, board, [p for p, _ in known.dock], s, unseen)
        for dock_canoe in found:
            take(f"canoe:{dock_canoe.player}", dock_canoe.hull)
        prints.append(img[bare])
    deposits = deposit_pixels(board, (h, w), s)
    for deposit, gem in known.piles().items():
        gems, bare_px = pile_pixels(img[deposits[deposit]])
        out.setdefault(f"gem:{gem}", []).append(gems)
        prints.append(bare_px)
    empty = [slot for slot in SLOTS if slot not in known.river and slot not in known.no_disc]
    for slot in empty:
        take("disc", ring_pixels((h, w), s, board.slots[slot], 0.45 * r, 0.85 * r))
    for slot in known.no_disc:
        take("water", ring_pixels((h, w), s, board.slots[slot], 0, 0.8 * r))
    if not known.no_disc and empty:
        # Every disc in its slot: the water is what lies around the discs (clear acrylic
        # shows the same water through it): of the ring outside each empty disc, the
        # pixels nearest the discs' own hue, not the banks and rocks beside the river.
        ring = np.concatenate([img[ring_pixels((h, w), s, board.slots[slot], 1.05 * r, 1.35 * r)]
                               for slot in empty])
        disc_hue = np.median(features(np.concatenate(out["disc"]))[:, :2], axis=0)
        off = np.linalg.norm(features(ring)[:, :2] - disc_hue, axis=1)
        out["water"] = [ring[off <= np.quantile(off, WATER_SHARE)]]
    if "disc" in out:
        shadow = canoe_shadow_pixels(img, board, afloat, np.concatenate(out["disc"]), s)
        if len(shadow):
            out[SHADOW] = [shadow]
    wx, wy = board.weather_mm[known.weather]
    take("cloud", ring_pixels((h, w), s, (wx, wy), 0, 5.0))
    out["ground"] = [img[_ground(board, known, (h, w), s) > 0], *prints]
    return {k: np.concatenate(v) for k, v in out.items()}


def _ground(board: Board, known: KnownBoard, shape: tuple[int, int], s: float) -> np.ndarray:
    """Where the printed board shows on a photo of `known`: every place without pieces."""
    h, w = shape
    r = board.disc_radius_mm
    ground: np.ndarray = np.zeros((h, w), np.uint8)
    held = known.holding(board)
    for poly in (board.dock, board.falls, *board.deposits.values()):
        if poly not in held:
            ground |= polygon_mask((h, w), poly, s)
    # (uint8 as before: OpenCV's stubs cannot tell a result's dtype)
    ground = cast(np.ndarray, cv2.erode(ground, np.ones((5, 5), np.uint8)))
    for value, c in board.weather_mm.items():
        if value != known.weather:
            ys, xs = ring_pixels((h, w), s, c, 0, 12.0)
            ground[ys, xs] = 1
    for c in board.slots.values():
        ys, xs = ring_pixels((h, w), s, c, 0.9 * r, 1.45 * r)
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
    # The pieces on the river, the cloud and the places holding pieces are not print.
    for slot in known.river:
        ys, xs = ring_pixels((h, w), s, board.slots[slot], 0, 1.45 * r)
        ground[ys, xs] = 0
    ys, xs = ring_pixels((h, w), s, board.weather_mm[known.weather], 0, 14.0)
    ground[ys, xs] = 0
    for slot in SLOTS:
        ys, xs = ring_pixels((h, w), s, board.slots[slot], 0, 0.88 * r)
        ground[ys, xs] = 0
    for poly in known.holding(board):
        ground[cv2.dilate(polygon_mask((h, w), poly, s), np.ones((5, 5), np.uint8)) > 0] = 0
    return ground


def sample_layout(board: Board, image: np.ndarray, px_per_mm: float = 1.0,
                  detector: Detector | None = None) -> dict[str, np.ndarray]:
    """`sample_known` for a photo of the calibration layout."""
    return sample_known(board, image, KnownBoard.layout(), px_per_mm, detector)


def learn_profile(board: Board, images: Iterable[np.ndarray], px_per_mm: float = 1.0,
                  source: str = "", known: KnownBoard | None = None,
                  base: ColourProfile | None = None) -> ColourProfile:
    """A colour profile from photos of a known board: the calibration layout (the
    module text) or, with `known`, any state of a game. Colours the photos do not show
    (the canoes of players not at this table, a gem in no canoe and no pile) are kept
    from `base`; without one, every colour must show."""
    known = known or KnownBoard.layout()
    shots = list(images)
    if not shots:
        raise ProfileError(f"no photos of {known.name} given")
    wheres = [BoardLocator(board).locate(image) for image in shots]
    located = [(image, where) for image, where in zip(shots, wheres, strict=True)
               if where is not None]
    _whole_boards(board, shots, wheres)
    # Twice: the second time with shadows taken out by the first profile, as the
    # detector will see the table.
    profile = _learn_once(board, shots, px_per_mm, source, None, known, base)
    profile = _learn_once(board, shots, px_per_mm, source, Detector(board, profile, px_per_mm),
                          known, base)
    profile.board_luma = board_luma(board, profile, shots, px_per_mm, known)
    profile.ground_map = ground_map(board, profile, shots, px_per_mm, known)
    profile.board_chroma, profile.board_texture = board_surface(board, profile, shots,
                                                                px_per_mm, known)
    profile.track = TrackLooks.learn(board, located, known.weather)
    det = Detector(board, profile, px_per_mm)
    det.disc_looks = DiscLooks()   # (the detector measures rings it has looks for)
    readings = [det.read(image, where) for image, where in located]
    profile.discs = disc_looks(readings, known)
    profile.hull_spread = river_hull_spread(readings, known)
    # Read back as play will read: with the hulls' look learned, shadows are told apart.
    det = Detector(board, profile, px_per_mm)
    profile.notes += read_back([det.read(image, where) for image, where in located], known)
    return profile


def river_hull_spread(readings: list[Reading], known: KnownBoard) -> float | None:
    """How uneven this table's hulls on the river look (``canoes.hull_spread``): the
    median over the hulls the readings of photos of `known` found where a canoe of
    their colour lies on a slot. None when none was found (a set-up game has every
    canoe on the dock: shadows are then not told from hulls)."""
    spreads = [spread for reading in readings for player, place, spread in reading.hulls
               if player in {p for p, _ in known.river.get(place or "", ())}]
    return float(np.median(spreads)) if spreads else None


def not_shown(known: KnownBoard) -> list[str]:
    """The piece classes a photo of `known` does not show."""
    shown = {f"canoe:{p}" for p in known.canoes_shown()} | \
        {f"gem:{g}" for g in known.gems_shown()}
    return [c for c in CANOE_CLASSES + GEM_CLASSES if c not in shown]


def _whole_boards(board: Board, shots: list[np.ndarray],
                  wheres: list[Location | None]) -> None:
    """Every photo whose board was found (`wheres`: where, None if not) shows all of
    it: the board's look is learned everywhere (what tells a hand from the print), and
    where a photo does not reach it would be learned from streaks. Raises BoardUnseen
    naming the first that does not. (One whose board was not found is said where it
    is straightened.)"""
    m = CLEAR_OF_EDGE_MM
    w, h = board.size_mm
    for n, (image, where) in enumerate(zip(shots, wheres, strict=True), 1):
        if where is None:
            continue
        outside = out_of_frame(where.homography, image.shape, (int(h), int(w)), 1.0)
        if outside is not None and outside[int(m):int(h - m), int(m):int(w - m)].any():
            which = f"photo {n}" if len(shots) > 1 else "the photo"
            raise BoardUnseen(f"{which} does not show all of the board (part of it is out "
                              "of the picture): aim the camera at the whole board")


def _learn_once(board: Board, shots: list[np.ndarray], px_per_mm: float, source: str,
                detector: Detector | None, known: KnownBoard,
                base: ColourProfile | None) -> ColourProfile:
    pooled: dict[str, list[np.ndarray]] = {}
    # A canoe one photo does not make out (in glare, a blue hull on a blue river, hulls
    # pressed together on the dock) is said, and learned from the photos that show it.
    # One that no photo shows is an error: the photos may not be of the known state.
    not_seen: list[list[str]] = []  # per photo
    for image in shots:
        here: list[str] = []
        for name, px in sample_known(board, image, known, px_per_mm, detector,
                                     here).items():
            pooled.setdefault(name, []).append(px)
        not_seen.append(here)
    for said in not_seen[0]:
        if all(said in other for other in not_seen):
            raise PlaceError(said)
    samples = {k: np.concatenate(v) for k, v in pooled.items()}
    ground = samples.pop("ground").astype(np.float32)
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.5)
    rng = np.random.default_rng(0)
    if len(ground) > 60000:
        ground = ground[rng.choice(len(ground), 60000, replace=False)]
    cv2.setRNGSeed(1)
    # (bestLabels None: OpenCV makes them; its stubs want an array passed)
    _, lab, _ = cv2.kmeans(ground, BOARD_CLASSES, None, crit, 3,  # type: ignore[call-overload]
                           cv2.KMEANS_PP_CENTERS)
    lab = lab.ravel()
    for k in range(BOARD_CLASSES):
        if np.count_nonzero(lab == k) >= 50:
            samples[f"board:{k}"] = ground[lab == k]
    # Sizes are measured with a first profile on the same photos.
    sizes = {"canoe": 600.0, "canoe_box": 720.0, "canoe_long_mm": 45.0, "canoe_short_mm": 16.0,
             "gem": 60.0, "cloud": 300.0}
    profile = ColourProfile.learn(samples, sizes, source)
    # (Every slot holding canoes leaves no empty disc to learn the disc and water from.)
    missing = [c for c in CANOE_CLASSES + GEM_CLASSES + GROUND_CLASSES
               if c not in profile.classes]
    if missing and base is None:
        raise PlaceError(f"no {missing[0].replace(':', ' ')} is shown where {known.name} "
                         "puts one")
    profile.notes = [f"photo {number}: {said}: learned from the other photos"
                     for number, missed in enumerate(not_seen, 1) for said in missed]
    for name in missing:
        profile.classes[name] = base.classes[name]  # type: ignore[union-attr]
    profile.sizes_mm2 = measure_sizes(board, profile, shots, px_per_mm, known, base)
    # Gems are judged as the detector sees them (the sharper view of a canoe's middle),
    # so the colours of gems carried are learned that way too, over the first estimate.
    det = Detector(board, profile, px_per_mm)
    seen: dict[str, list[np.ndarray]] = {}
    carried = {s: c for s, c in known.lone_canoes().items() if c[1] is not None}
    for image in shots:
        where = BoardLocator(board).locate(image)
        if where is None:
            continue
        det.corrected(image, where)  # measures the light
        for slot, (canoe, gem) in carried.items():
            ev = det.gem_evidence(image, where, board.slots[slot], canoe)
            if ev is not None:
                seen.setdefault(f"gem:{gem}", []).append(ev.core)
    for name, colours in seen.items():
        profile.classes[name].bgr = np.median(np.array(colours), axis=0)
    unseen = sorted({f"gem:{g}" for _, g in carried.values()} - set(seen)
                    - {f"gem:{g}" for g in known.piles().values()})
    if unseen:
        raise PlaceError(f"no canoe with {unseen[0].split(':')[1]} gem seen where "
                         f"{known.name} puts it")
    return profile


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


__all__ = ["LAYOUT_CANOES", "LAYOUT_EMPTY_DISCS", "LAYOUT_NO_DISC", "LAYOUT_WEATHER",
           "KnownBoard", "board_luma", "board_surface", "ground_map", "layout_state",
           "learn_profile", "not_shown", "river_hull_spread", "sample_known", "sample_layout",
           "synthetic_profile"]
