"""A gem taken from a pile or put on one, seen as a spot of the pile's change that
stands out of the change around it (``pile_spots``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.conditioned import (
    DEPOSIT_CHANGE,
    PIXEL_CHANGE,
    _gem_sized,
    _gem_width,
    _place_pixels,
    changed_places,
)
from companion.vision.observer import Vision
from companion.vision.pile_spots import SPOT_LEVELS, spotted
from companion.vision.surface import largest_change

GEM = 9          # a gem's width in pixels
SIDE = 80        # the box around a pile


def _disc(centre: tuple[int, int], radius: float, side: int = SIDE) -> np.ndarray:
    yy, xx = np.mgrid[0:side, 0:side]
    return np.hypot(yy - centre[0], xx - centre[1]) <= radius


def _noise(seed: int, sigma: float = 1.0) -> np.ndarray:
    # (Signed noise: harsher than the change ``conditioned`` measures, which is never
    # below nought; ``_measured`` below makes that one.)
    return np.random.default_rng(seed).normal(0.0, sigma, (SIDE, SIDE)).astype(np.float32)


def _measured(seed: int, sigma: float, gem: float = 0.0) -> np.ndarray:
    # Two noisy pictures of a grey print, a gem's change of `gem` levels between them,
    # measured as ``conditioned._gem_sized`` measures a pile: the largest channel's
    # change, less its median over PILE_AROUND_MM (here 31 pixels), in uint8.
    rng = np.random.default_rng(seed)
    grey = np.full((SIDE, SIDE, 3), 120.0)
    after = grey.copy()
    after[_disc((40, 40), GEM / 2)] += gem
    most = largest_change(*(np.clip(p + rng.normal(0.0, sigma, p.shape), 0, 255)
                            .astype(np.uint8) for p in (grey, after)))
    return cv2.subtract(most, cv2.medianBlur(most, 31))


EVERYWHERE = np.ones((SIDE, SIDE), bool)


@pytest.mark.parametrize("seed", range(5))
def test_a_gem_wide_change_of_a_few_levels_over_noise_is_a_spot(seed):
    over = _noise(seed)
    over[_disc((40, 40), GEM / 2)] += 6.0
    assert spotted(over, EVERYWHERE, GEM)


@pytest.mark.parametrize("seed", range(20))
def test_sensor_noise_alone_holds_no_spot(seed):
    assert not spotted(_noise(seed, sigma=3.0), EVERYWHERE, GEM)


@pytest.mark.parametrize("seed", range(10))
def test_the_change_as_measured_holds_a_gems_spot_and_no_other(seed):
    assert spotted(_measured(seed, 1.0, gem=10.0), EVERYWHERE, GEM)
    assert not spotted(_measured(seed, 3.0), EVERYWHERE, GEM)


def test_a_change_strongest_beyond_the_piles_reach_is_not_the_piles():
    # A gem-sized change whose middle lies just beyond the pile's reach (something come
    # near the pile, not on it): its edge within the reach is no spot of the pile's.
    over = np.zeros((SIDE, SIDE), np.float32)
    over[_disc((40, 56), GEM / 2)] += 16.0
    reach = np.zeros((SIDE, SIDE), bool)
    reach[:, :52] = True
    assert not spotted(over, reach, GEM)
    reach[:, :60] = True
    assert spotted(over, reach, GEM)


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
    least = DEPOSIT_CHANGE + 3 * float(np.median(most[::4, ::4]))  # (as changed_places)
    plain, faint, spots = _gem_sized(detector, most, least)
    idx = _place_pixels(detector)["deposit:violet"]
    assert np.count_nonzero(plain[idx] | faint[idx]) < detector.gem_px
    assert "deposit:violet" in spots
    changed = changed_places(detector, before, after)
    assert "deposit:violet" in changed
    assert not {p for p in changed if p.startswith("deposit:")} - {"deposit:violet"}


def test_a_spot_beside_a_canoes_change_off_the_pile_is_no_gem(vision, board, picture):
    # A canoe come next to a deposit changes the board beside it by far more than a
    # gem (PIXEL_CHANGE): a faint spot at the pile's edge there does not stand out of
    # the change around it, the canoe's in its ring.
    detector = vision.detector
    ys, xs = _place_pixels(detector)["deposit:violet"]
    g = _gem_width(detector)
    row = int(np.median(ys))
    left = int(xs[ys == row].min())
    spot = _disc((row, left + g // 2), g / 2, side=max(picture.shape[:2])
                 )[:picture.shape[0], :picture.shape[1]]
    lifted = picture.astype(np.float32)
    lifted[spot] += 8.0
    after = lifted.astype(np.uint8)
    most = largest_change(picture, after)
    assert "deposit:violet" in _gem_sized(detector, most, DEPOSIT_CHANGE)[2]
    bow = np.zeros(picture.shape[:2], bool)
    bow[row - g:row + g + 1, left - g - 3:left - g] = True
    lifted[bow] += 2 * PIXEL_CHANGE
    most = largest_change(picture, np.clip(lifted, 0, 255).astype(np.uint8))
    assert "deposit:violet" not in _gem_sized(detector, most, DEPOSIT_CHANGE)[2]
