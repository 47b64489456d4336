"""A camera that sees only part of the board (knocked on its stand, or aimed so) says
which part it does not see and reads nothing from that picture; one whose frame misses
only the board's bare margin reads it as before."""

from __future__ import annotations

import dataclasses

import pytest

from companion.rules import Game
from companion.vision.observer import Vision
from companion.vision.render import SKIN_RGB, Hand, Nuisance

from ..frames import cut_along, turned_off
from .conftest import same_view


@pytest.fixture(scope="module")
def shot(renderer, mid_game):
    return renderer.render(mid_game.state, seed=11, nuisance=Nuisance.clean())


def test_a_board_partly_out_of_the_picture_is_not_stable_and_names_what_is_unseen(
        board, profile, shot):
    frame = turned_off(shot, board, 0.45)
    vision = Vision(board, profile, settle=1)
    obs = vision.observe(frame)
    assert obs is not None and obs["markers"] == 3
    assert not obs["stable"]
    assert obs["out_of_view"] == ["F"]
    # Nothing is over the board: the part out of the picture is no hand.
    assert obs["occluded"] == []
    assert vision.last_reading.in_the_way == ["out of view"]


def test_a_frame_that_misses_only_the_board_around_its_places_reads_it(board, profile, shot):
    # Every place, deposit and the cloud's track are in the picture: what is out of it
    # is not read, and nothing there is in the way.
    frame = turned_off(shot, board, 0.3)
    vision = Vision(board, profile, settle=1)
    obs = vision.observe(frame)
    assert vision.detector.out_of_frame(frame.shape, vision.last_location) is not None
    assert obs["stable"] and obs["out_of_view"] == [] and obs["occluded"] == []
    assert same_view(obs, shot.truth)


def test_a_hand_over_a_board_partly_out_of_the_picture_is_still_in_the_way(
        board, profile, renderer, mid_game):
    # (What the frame does not reach is no hand; what is over the board still is.)
    board_w, board_h = board.size_mm
    shot = renderer.render(mid_game.state, seed=11, nuisance=Nuisance.clean(), camera=11,
                           hand=Hand("right", (0.8 * board_w, 0.75 * board_h)))
    vision = Vision(board, profile, settle=1)
    obs = vision.observe(turned_off(shot, board, 0.3))
    assert vision.detector.out_of_frame(shot.image.shape, vision.last_location) is not None
    assert not obs["stable"]
    assert "6R" in obs["occluded"]


# (test_surface's light, in which a pale hand over the dock takes the print's colour
# classes: only the board's own look tells it.)
BRIGHT = dataclasses.replace(Nuisance.mild(), light=(1.35, 1.45))
FIVE = Game(["blue", "green", "yellow", "red", "brown"])


@pytest.mark.parametrize("seed", [64, 69])
def test_a_pale_hand_in_over_a_rim_cut_off_by_the_picture_is_in_the_way(
        board, profile, renderer, seed):
    # The frame ends 1.5 mm inside the board: the edge cells are not seen, and the hand
    # comes in over the picture's edge instead.
    shot = renderer.render(FIVE.state, seed=seed, nuisance=BRIGHT,
                           hand=Hand("top", (222.0, 95.0), SKIN_RGB[0]))
    frame = cut_along(shot, board, 1.5)
    vision = Vision(board, profile, settle=1)
    obs = vision.observe(frame)
    assert vision.detector.out_of_frame(frame.shape, vision.last_location) is not None
    assert not obs["stable"] and "D" in obs["occluded"]


@pytest.mark.parametrize("seed", [64, 69])
def test_a_rim_cut_off_by_the_picture_with_nothing_over_it_is_read(board, profile,
                                                                    renderer, seed):
    shot = renderer.render(FIVE.state, seed=seed, nuisance=BRIGHT)
    obs = Vision(board, profile, settle=1).observe(cut_along(shot, board, 1.5))
    assert obs["stable"] and obs["out_of_view"] == []
    assert same_view(obs, shot.truth)


def test_the_whole_board_in_the_picture_has_nothing_out_of_view(board, profile, shot):
    vision = Vision(board, profile, settle=1)
    obs = vision.observe(shot.image)
    assert obs["out_of_view"] == []
    assert vision.detector.out_of_frame(shot.image.shape, vision.last_location) is None
