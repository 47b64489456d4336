"""A gem taken from a pile or put on one, seen as a spot of the pile's change that
stands out of the change around it (``pile_spots``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

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
    # measured as ``pile_changes.pile_changes`` measures a pile: the largest channel's
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
