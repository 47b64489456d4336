"""A hull's outline holds its inside (``companion.vision.hull_inside``): under a lamp a dark
hull's inside can look paler than its rim and take the class of the board around it
(a brown hull on a brown dock), leaving only the rim in the hull's class, too thin to be
a hull by itself. What such an outline encloses is part of the hull; what a rim around a
canoe of another colour encloses is that canoe, and an outline too small for a hull
holds none."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.detect import Detector
from companion.vision.observer import Vision
from companion.vision.thresholds import RIM_MM

SCALE = 0.8  # pixels per mm, as the table reads


@pytest.fixture(scope="module")
def detector(board, profile):
    return Detector(board, profile, SCALE)


def _ring_on_water(detector, board, profile, inside: str | None, size: float = 1.0
                   ) -> np.ndarray:
    """The straightened board all water, with a brown hull's rim on slot 3 (thinner
    than RIM_MM) around an inside of the class `inside` (None: the water), the hull
    `size` times a canoe's length and width."""
    water = profile.classes["water"].bgr
    h, w = detector.shape
    img = np.empty((h, w, 3), np.float32)
    img[:] = water
    (x, y), (fx, fy) = board.slots["3"], board.flow("3")
    centre = (int(x * SCALE), int(y * SCALE))
    axes = (int(22.5 * size * SCALE), int(8 * size * SCALE))
    angle = float(np.degrees(np.arctan2(fy, fx)))
    hull = np.zeros((h, w), np.uint8)
    cv2.ellipse(hull, centre, axes, angle, 0, 360, 1, -1)
    rim = int(RIM_MM * SCALE)  # (pixels: under RIM_MM, which would be a body)
    core = np.zeros((h, w), np.uint8)
    cv2.ellipse(core, centre, (axes[0] - rim, axes[1] - rim), angle, 0, 360, 1, -1)
    img[hull > 0] = profile.classes["canoe:brown"].bgr
    img[core > 0] = water if inside is None else profile.classes[inside].bgr
    img += np.random.default_rng(0).normal(0, 2.0, img.shape)
    return np.clip(np.round(img), 0, 255).astype(np.uint8)


def _canoes(detector, img) -> dict[str, int]:
    labels = detector.profile.classify(img)
    canoe = detector._is_canoe[labels]
    found = detector._canoes(img, labels, canoe & detector.canoe_area)
    return {player: len(hulls) for player, (hulls, _) in found.items() if hulls}


def test_a_brown_rim_around_an_inside_of_the_waters_colour_is_a_brown_canoe(
        detector, board, profile):
    img = _ring_on_water(detector, board, profile, None)
    labels = profile.classify(img)
    # Only the rim takes the brown hull's class, and it is thinner than a hull's body.
    brown = labels == profile.index("canoe:brown")
    assert np.count_nonzero(cv2.erode(brown.astype(np.uint8), detector._solid)) \
        < 0.2 * detector.canoe_px
    assert _canoes(detector, img) == {"brown": 1}


def test_a_brown_rim_around_a_blue_hull_is_the_blue_canoes_edge_not_a_brown_canoe(
        detector, board, profile):
    assert _canoes(detector, _ring_on_water(detector, board, profile, "canoe:blue")) == \
        {"blue": 1}


def test_an_outline_too_small_for_a_hull_holds_no_canoe(detector, board, profile):
    assert _canoes(detector, _ring_on_water(detector, board, profile, None, 0.6)) == {}


def _dock(still: dict, obs: dict) -> tuple[list[str], list[str]]:
    return (sorted(c["player"] for c in obs["dock"]),
            sorted(c["player"] for c in still["truth"]["dock"]))


def test_a_brown_hull_whose_inside_takes_the_docks_print_class_is_read(tuned_world):
    # tests/fixtures/worlds/w105 (kept for tuning), still 7: a brown canoe on a wooden
    # dock under a lamp that makes its inside as pale as the wood; only its rim reads as
    # brown, the thinner beside the blue canoe it touches.
    board, profile, stills = tuned_world("w105")
    still = stills[6]
    seen, truth = _dock(still, Vision(board, profile, settle=1).observe(still["image"]))
    assert "brown" in truth
    assert seen == truth
