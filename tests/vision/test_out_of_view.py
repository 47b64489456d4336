"""A camera that sees only part of the board (knocked on its stand, or aimed so) says
which part it does not see and reads nothing from that picture; one whose frame misses
only the board's bare margin reads it as before."""

from __future__ import annotations

import pytest

from companion.vision.observer import Vision
from companion.vision.render import Nuisance

from ..frames import turned_off
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


def test_a_frame_that_misses_only_the_board_around_its_places_names_the_edge(
        board, profile, shot):
    # Every place is in the picture, but the board's look (what tells a hand) is not
    # all there: nothing is judged or learned from it until the camera sees it all.
    frame = turned_off(shot, board, 0.3)
    vision = Vision(board, profile, settle=1)
    obs = vision.observe(frame)
    assert obs["out_of_view"] == ["edge"] and not obs["stable"]
    assert obs["occluded"] == []


def test_a_frame_cut_just_past_the_edge_still_reads_the_pieces_in_view(board, profile, shot):
    # (What is out of view is not read; what is in it is read as ever.)
    frame = turned_off(shot, board, 0.3)
    vision = Vision(board, profile, settle=1)
    assert same_view(vision.observe(frame), shot.truth)


def test_the_whole_board_in_the_picture_has_nothing_out_of_view(board, profile, shot):
    vision = Vision(board, profile, settle=1)
    obs = vision.observe(shot.image)
    assert obs["out_of_view"] == []
    assert vision.detector.out_of_frame(shot.image.shape, vision.last_location) is None
