"""The canoes stage judges a hull by how sure its colour is, not only by its class: a
canoe-shaped patch the classifier gives to a canoe colour by a hair (dark water, a disc
in a canoe's shadow) is no canoe; the hull's own colour in the same shape is one."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.detect import Detector
from companion.vision.thresholds import HULL_LIKELIER

SCALE = 0.8  # pixels per mm, as the table reads


@pytest.fixture(scope="module")
def detector(board, profile):
    return Detector(board, profile, SCALE)


def _water_with_patch(detector, board, profile, share_of_blue: float, seed: int = 0):
    """The straightened board all water, with a canoe-shaped patch on slot 3 whose colour
    lies `share_of_blue` of the way from the water's to the blue hull's, with noise."""
    water, blue = profile.classes["water"].bgr, profile.classes["canoe:blue"].bgr
    h, w = detector.shape
    img = np.empty((h, w, 3), np.float32)
    img[:] = water
    hull = np.zeros((h, w), np.uint8)
    (x, y), (fx, fy) = board.slots["3"], board.flow("3")
    cv2.ellipse(hull, (int(x * SCALE), int(y * SCALE)), (int(22.5 * SCALE), int(8 * SCALE)),
                float(np.degrees(np.arctan2(fy, fx))), 0, 360, 1, -1)
    img[hull > 0] = (1 - share_of_blue) * water + share_of_blue * blue
    img += np.random.default_rng(seed).normal(0, 2.0, img.shape)
    return np.clip(np.round(img), 0, 255).astype(np.uint8), hull > 0


def _canoes_of(detector, img, player):
    labels = detector.profile.classify(img)
    canoe = detector._is_canoe[labels]
    return detector._canoes(img, labels, canoe & detector.canoe_area)[player][0]


def _blue_canoes(detector, img):
    return _canoes_of(detector, img, "blue")


def test_patch_of_blue_class_only_by_a_hair_is_no_canoe(detector, board, profile):
    img, hull = _water_with_patch(detector, board, profile, 0.5)
    labels = profile.classify(img)
    # The classifier calls most of it blue hull: the shape alone would pass for a canoe.
    assert np.count_nonzero(labels[hull] == profile.index("canoe:blue")) \
        >= 0.8 * detector.canoe_px
    assert profile.likelier(img[hull], "canoe:blue") < HULL_LIKELIER
    assert _blue_canoes(detector, img) == []


def test_hull_of_its_own_colour_is_a_canoe(detector, board, profile):
    img, hull = _water_with_patch(detector, board, profile, 1.0)
    assert profile.likelier(img[hull], "canoe:blue") >= HULL_LIKELIER
    assert len(_blue_canoes(detector, img)) == 1


def test_likelier_is_far_below_zero_for_the_board_and_far_above_for_each_hull(profile):
    for name in ("canoe:brown", "canoe:yellow", "canoe:red", "canoe:blue", "canoe:green"):
        own = np.repeat(profile.classes[name].bgr[None], 20, axis=0)
        water = np.repeat(profile.classes["water"].bgr[None], 20, axis=0)
        assert profile.likelier(own, name) > 2 * HULL_LIKELIER
        assert profile.likelier(water, name) < 0


def test_likelier_of_no_pixels_is_no_evidence(profile):
    assert profile.likelier(np.zeros((0, 3)), "canoe:blue") == 0.0


def _dock_with(detector, board, profile, paint) -> np.ndarray:
    """The straightened board, all of one ground colour (water), with `paint(img)`
    drawing pieces on it, and a little noise."""
    h, w = detector.shape
    img = np.empty((h, w, 3), np.float32)
    img[:] = profile.classes["water"].bgr
    paint(img)
    img += np.random.default_rng(1).normal(0, 2.0, img.shape)
    return np.clip(np.round(img), 0, 255).astype(np.uint8)


def _dock_centre(board) -> tuple[int, int]:
    x, y = np.mean(np.array(board.dock, float), axis=0)
    return int(x * SCALE), int(y * SCALE)


def _crowd(detector, img, player):
    labels = detector.profile.classify(img)
    canoe = detector._is_canoe[labels]
    return detector._canoes(img, labels, canoe & detector.canoe_area)[player][1]


def test_a_solid_mass_of_a_canoes_colour_too_big_for_two_canoes_is_an_arm(detector, board,
                                                                          profile):
    brown = profile.classes["canoe:brown"].bgr
    cx, cy = _dock_centre(board)

    def sleeve(img):
        cv2.ellipse(img, (cx, cy), (int(40 * SCALE), int(22 * SCALE)), 0, 0, 360,
                    brown.tolist(), -1)

    assert _crowd(detector, _dock_with(detector, board, profile, sleeve), "brown") is not None


def test_canoes_in_a_row_with_rims_of_one_colour_between_them_are_no_arm(detector, board,
                                                                        profile):
    # Three hulls side by side on the dock, their rims and shadows read as brown all
    # round them: more brown than two canoes, but no mass; its outline takes in the hulls.
    brown = profile.classes["canoe:brown"].bgr
    hulls = [profile.classes[f"canoe:{c}"].bgr for c in ("red", "yellow", "red")]
    cx, cy = _dock_centre(board)
    half = (int(8 * SCALE), int(22.5 * SCALE))

    def row(img):
        for dx in (-20, 0, 20):
            centre = (cx + int(dx * SCALE), cy)
            cv2.ellipse(img, centre, (half[0] + 5, half[1] + 5), 0, 0, 360, brown.tolist(), -1)
        for dx, hull in zip((-20, 0, 20), hulls, strict=True):
            cv2.ellipse(img, (cx + int(dx * SCALE), cy), half, 0, 0, 360, hull.tolist(), -1)

    img = _dock_with(detector, board, profile, row)
    labels = profile.classify(img)
    assert np.count_nonzero(labels == profile.index("canoe:brown")) >= 2.6 * detector.canoe_px
    assert _crowd(detector, img, "brown") is None


def _blue_pair(detector, board, profile, stagger_mm: float, angle: float):
    """The straightened board all water, with two blue hulls side by side on slot 3,
    touching, lying at `angle` degrees and one `stagger_mm` ahead of the other."""
    water, blue = profile.classes["water"].bgr, profile.classes["canoe:blue"].bgr
    h, w = detector.shape
    img = np.empty((h, w, 3), np.float32)
    img[:] = water
    hull = np.zeros((h, w), np.uint8)
    (x, y) = board.slots["3"]
    a = np.radians(angle)
    along, across = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    for side in (-1, 1):
        cx, cy = np.array([x, y]) + side * 7.5 * across + side * stagger_mm / 2 * along
        cv2.ellipse(hull, (int(cx * SCALE), int(cy * SCALE)),
                    (int(22.5 * SCALE), int(8 * SCALE)), angle, 0, 360, 1, -1)
    img[hull > 0] = blue
    img += np.random.default_rng(1).normal(0, 2.0, img.shape)
    return np.clip(np.round(img), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("stagger_mm", [0.0, 10.0, 16.0])
@pytest.mark.parametrize("angle", [20.0, 65.0])
def test_R_SETUP_3_two_canoes_of_one_player_side_by_side_are_two_canoes(
        detector, board, profile, stagger_mm, angle):
    # A player has two canoes (R-SETUP-3) and may bring both to one disc, where they
    # touch side by side, one often ahead of the other: whichever way the blob's outline
    # suggests, they are cut where two whole hulls result.
    img = _blue_pair(detector, board, profile, stagger_mm, angle)
    assert len(_blue_canoes(detector, img)) == 2


def test_a_line_of_a_canoes_colour_two_canoes_long_is_no_canoe(detector, board, profile):
    # A dock's dark border in a lamp's light can take the brown hull's class: as long as
    # two canoes end to end, with too few pixels for two and no whole hull among them.
    brown = profile.classes["canoe:brown"].bgr
    cx, cy = _dock_centre(board)

    def border(img):
        cv2.rectangle(img, (cx - int(45 * SCALE), cy - int(3 * SCALE)),
                      (cx + int(45 * SCALE), cy + int(3 * SCALE)), brown.tolist(), -1)

    assert _canoes_of(detector, _dock_with(detector, board, profile, border), "brown") == []


@pytest.mark.parametrize("beside_mm", [0.0, 6.5])
def test_a_hull_with_a_fringe_of_its_colour_past_its_end_is_one_canoe(detector, board,
                                                                      profile, beside_mm):
    # A neighbour's rim of the hull's colour, thinner than RIM_MM (2 px here), runs on
    # past its tip, along its middle or along its side: the blob is longer than one
    # canoe, too small for two, and one canoe.
    brown = profile.classes["canoe:brown"].bgr
    cx, cy = _dock_centre(board)
    dy = int(beside_mm * SCALE)

    def hull_and_fringe(img):
        cv2.ellipse(img, (cx, cy), (int(20 * SCALE), int(7 * SCALE)), 0, 0, 360,
                    brown.tolist(), -1)
        cv2.rectangle(img, (cx + int(18 * SCALE), cy + dy - 1),
                      (cx + int(52 * SCALE), cy + dy), brown.tolist(), -1)

    img = _dock_with(detector, board, profile, hull_and_fringe)
    assert len(_canoes_of(detector, img, "brown")) == 1


def test_of_hulls_on_one_spot_those_with_body_are_kept_not_a_rim_of_more_pixels(detector):
    # Two red hulls side by side whose dark edges take the brown class all round them:
    # the edge has more pixels than either hull, its middle lies between them, and it
    # has less body than either (``CanoeFinder._apart_from_each_other``).
    h, w = detector.shape
    inner = np.zeros((h, w), np.uint8)
    for y in (145, 155):
        cv2.ellipse(inner, (200, y), (18, 6), 0.0, 0, 360, 1, -1)
    rim = cv2.dilate(inner, np.ones((7, 7), np.uint8)) & ~inner
    reds = [np.nonzero(inner[:150]), np.nonzero(inner[150:])]
    reds[1] = (reds[1][0] + 150, reds[1][1])
    brown = np.nonzero(rim)
    assert len(brown[0]) > max(len(r[0]) for r in reds)
    kept = detector._apart_from_each_other([("brown", *brown), *(("red", *r) for r in reds)])
    assert sorted(p for p, _, _ in kept) == ["red", "red"]
