"""A gem taken from a pile or put on one, seen as a spot of the pile's change that
stands out of the change around it (``pile_spots``)."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.conditioned import _gem_sized, _gem_width, _place_pixels, changed_places
from companion.vision.observer import Vision
from companion.vision.pile_spots import SPOT_LEVELS, spotted
from companion.vision.surface import largest_change

GEM = 9          # a gem's width in pixels
SIDE = 80        # the box around a pile


def _disc(centre: tuple[int, int], radius: float, side: int = SIDE) -> np.ndarray:
    yy, xx = np.mgrid[0:side, 0:side]
    return np.hypot(yy - centre[0], xx - centre[1]) <= radius


def _noise(seed: int, sigma: float = 1.0) -> np.ndarray:
    # (A pixel's change less the change around it: about as often below nought as above.)
    return np.random.default_rng(seed).normal(0.0, sigma, (SIDE, SIDE)).astype(np.float32)


EVERYWHERE = np.ones((SIDE, SIDE), bool)


@pytest.mark.parametrize("seed", range(5))
def test_a_gem_wide_change_of_a_few_levels_over_noise_is_a_spot(seed):
    over = _noise(seed)
    over[_disc((40, 40), GEM / 2)] += 6.0
    assert spotted(over, EVERYWHERE, GEM)


@pytest.mark.parametrize("seed", range(20))
def test_sensor_noise_alone_holds_no_spot(seed):
    assert not spotted(_noise(seed, sigma=3.0), EVERYWHERE, GEM)


def test_a_spot_among_changes_like_it_is_no_gem():
    # A pile's sharp edges ring in the camera's JPEG: blocks of change as strong as a
    # clear gem's, all over the pile. One more such block is nothing apart.
    over = np.zeros((SIDE, SIDE), np.float32)
    for y in range(4, SIDE - 4, 12):
        for x in range(4, SIDE - 4, 12):
            over[_disc((y, x), GEM / 2)] += 6.0
    assert not spotted(over, EVERYWHERE, GEM)


def test_a_spot_outside_the_piles_reach_is_not_looked_at():
    over = _noise(0)
    over[_disc((40, 40), GEM / 2)] += 6.0
    reach = np.zeros((SIDE, SIDE), bool)
    reach[:, 60:] = True
    assert not spotted(over, reach, GEM)
    assert spotted(over, ~reach, GEM)


def test_a_change_too_small_for_a_gem_is_no_spot_however_still_the_pictures():
    # Two noise-free pictures agree to the level everywhere else: a change of a few
    # levels stands out of nothing, and is still no gem's.
    over = np.zeros((SIDE, SIDE), np.float32)
    over[_disc((40, 40), GEM / 2)] += SPOT_LEVELS - 1.0
    assert not spotted(over, EVERYWHERE, GEM)
    over[_disc((40, 40), GEM / 2)] += 2.0
    assert spotted(over, EVERYWHERE, GEM)


@pytest.fixture(scope="module")
def vision(board, profile):
    return Vision(board, profile, settle=1)


@pytest.fixture(scope="module")
def picture(vision, renderer, mid_game):
    vision.reset()
    assert vision.observe(renderer.render(mid_game.state, seed=5).image) is not None
    return vision.last_reading.corrected.copy()


def _noisy(image: np.ndarray, seed: int, sigma: float) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(image + rng.normal(0.0, sigma, image.shape), 0, 255).astype(np.uint8)


def test_a_clear_gem_taken_in_a_still_view_changes_its_pile(vision, board, picture):
    # A clear gem changes its pile by 8 levels; the noise is a level in each
    # picture. No pixel count notices it (each pixel's change must stand out of the
    # pictures' noise), but its spot stands out of the change around it.
    detector = vision.detector
    s = detector.scale
    centre = np.asarray(board.deposits["violet"], float).mean(axis=0) * s
    gem = _disc((int(centre[1]), int(centre[0])), _gem_width(detector) / 2,
                side=max(picture.shape[:2]))[:picture.shape[0], :picture.shape[1]]
    before = _noisy(picture, 1, 1.0)
    lifted = picture.astype(np.float32)
    lifted[gem] += 8.0
    after = _noisy(lifted, 2, 1.0)
    most = largest_change(before, after)
    least = 10.0 + 3 * float(np.median(most[::4, ::4]))
    plain, faint, spots = _gem_sized(detector, most, least)
    idx = _place_pixels(detector)["deposit:violet"]
    assert np.count_nonzero(plain[idx] | faint[idx]) < detector.gem_px
    assert "deposit:violet" in spots
    changed = changed_places(detector, before, after)
    assert "deposit:violet" in changed
    assert not {p for p in changed if p.startswith("deposit:")} - {"deposit:violet"}
