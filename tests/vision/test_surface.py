"""Things over the board told apart from it by the board's own look (surface.py), and
canoes of one colour lying together (detect.py)."""

from __future__ import annotations

import dataclasses
import json

import cv2
import numpy as np
import pytest

from companion.rules import Game
from companion.vision.observer import Vision
from companion.vision.profile import ProfileError
from companion.vision.profile_file import parse_profile
from companion.vision.render import SKIN_RGB, Hand, Nuisance
from companion.vision.surface import fresh

BRIGHT = dataclasses.replace(Nuisance.mild(), light=(1.35, 1.45))


@pytest.fixture(scope="module")
def vision(board, profile):
    return Vision(board, profile, settle=1)


@pytest.fixture(scope="module")
def players():
    return Game(["blue", "green", "yellow", "red", "brown"])


def _observe(vision, image):
    vision.reset()
    return vision.observe(image)


@pytest.mark.parametrize("seed, reach", [(64, (222.0, 174.0)), (69, (150.0, 200.0)),
                                         (72, (222.0, 174.0))])
def test_pale_hand_in_over_the_dock_in_bright_light_is_seen(vision, renderer, players,
                                                            seed, reach):
    # In this light a pale hand takes the colour classes of the dock's print and the
    # bank; only against the board's own look at each place does it stand out.
    shot = renderer.render(players.state, seed=seed, nuisance=BRIGHT,
                           hand=Hand("top", reach, SKIN_RGB[0]))
    obs = _observe(vision, shot.image)
    assert obs is not None and obs["stable"] is False
    reading = vision.last_reading
    assert vision.detector.surface.reaching_in(reading.corrected).any()


@pytest.mark.parametrize("seed", [69, 74])
def test_pale_arm_straight_down_the_river_in_clipped_light_is_seen(vision, renderer,
                                                                   players, seed):
    # Over the dock's print it matches, so it is not seen joined to the board's edge;
    # down the river it is plainly not the board there and has no canoe's colour.
    light = dataclasses.replace(Nuisance.issue(), light=(1.45, 1.6))
    shot = renderer.render(players.state, seed=seed, nuisance=light,
                           hand=Hand("top", (246.0, 388.0), SKIN_RGB[0]))
    obs = _observe(vision, shot.image)
    assert obs is not None and obs["stable"] is False


@pytest.mark.parametrize("seed", [101, 102, 103, 104, 105, 106])
def test_board_without_hand_has_nothing_reaching_in(vision, renderer, mid_game, seed):
    shot = renderer.render(mid_game.state, seed=seed, nuisance=Nuisance.issue())
    obs = _observe(vision, shot.image)
    assert obs is not None and obs["stable"] is True
    assert not vision.detector.surface.reaching_in(vision.last_reading.corrected).any()


def test_profile_keeps_the_board_surface(profile):
    again = parse_profile(json.loads(json.dumps(profile.to_json())))
    assert again.board_chroma.shape == profile.board_chroma.shape
    assert np.allclose(np.nan_to_num(again.board_texture), np.nan_to_num(profile.board_texture),
                       atol=0.06)


def test_damaged_board_surface_is_one_line(profile):
    data = json.loads(json.dumps(profile.to_json()))
    data["board_surface"]["r"] = "stripes"
    with pytest.raises(ProfileError, match="board_surface is damaged") as err:
        parse_profile(data)
    assert "\n" not in str(err.value)


def _hull(img: np.ndarray, centre: tuple[int, int], tilt: float = 0.0) -> None:
    cv2.ellipse(img, centre, (8, 21), tilt, 0, 360, 1, -1)


def test_two_canoes_side_by_side_are_cut_between_them(vision):
    # Two hulls of one colour touching side by side are taller than wide: cut where
    # k-means likes to (top and bottom), each half's middle would lie between them.
    det = vision.detector
    img = np.zeros((70, 70), np.uint8)
    _hull(img, (23, 35), tilt=8)
    _hull(img, (38, 35), tilt=8)
    ys, xs = np.nonzero(img)
    assert det._count(ys, xs) == 2
    halves = det._split(ys, xs, 2)
    middles = sorted((round(float(x.mean())), round(float(y.mean()))) for y, x in halves)
    assert [abs(mx - want) <= 1
            for (mx, _), want in zip(middles, (23, 38), strict=True)] == [True, True]
    assert all(abs(my - 35) <= 1 for _, my in middles)


def test_two_canoes_end_to_end_are_cut_between_them(vision):
    det = vision.detector
    img = np.zeros((100, 40), np.uint8)
    _hull(img, (20, 28))
    _hull(img, (20, 70))
    ys, xs = np.nonzero(img)
    middles = sorted(round(float(y.mean())) for y, _ in det._split(ys, xs, 2))
    assert abs(middles[0] - 28) <= 1 and abs(middles[1] - 70) <= 1


@pytest.mark.parametrize("seed", [7, 26, 31])
def test_missing_disc_under_two_canoes_is_reported(vision, renderer, seed):
    # The canoes hide most of the slot; what shows between them is water, not a disc,
    # though in these lights it has neither the water's nor the disc's colour class.
    state = {"canoes": {"yellow": [{"at": "7R", "gem": "violet"}],
                        "green": [{"at": "7R", "gem": "blue"}]},
             "weather": 0, "deposits": {}}
    shot = renderer.render(state, seed=seed, nuisance=Nuisance.issue(), missing_discs=["7R"])
    obs = _observe(vision, shot.image)
    assert obs["slots"]["7R"]["disc"] is False
    assert [c["player"] for c in obs["slots"]["7R"]["canoes"]] == ["yellow", "green"]
    assert all(obs["slots"][s]["disc"] for s in obs["slots"] if s != "7R")


FRINGES = [
    ({"red": [{"at": "7L", "gem": None}], "brown": [{"at": "7L", "gem": "violet"}]}, 3),
    ({"red": [{"at": "7L", "gem": None}], "brown": [{"at": "7L", "gem": "violet"}]}, 6),
    ({"yellow": [{"at": "6R", "gem": "violet"}], "brown": [{"at": "6R", "gem": "yellow"}]}, 1),
    ({"yellow": [{"at": "6R", "gem": "violet"}], "brown": [{"at": "6R", "gem": "yellow"}]}, 4),
]


@pytest.mark.parametrize("canoes, seed", FRINGES)
def test_canoe_with_a_fringe_of_its_colour_on_the_next_is_one_canoe(vision, renderer,
                                                                    canoes, seed):
    # A reddish brown hull beside a red one, a yellow gem beside a yellow hull: the
    # blob of one colour is wider than one canoe, yet it is one.
    slot = next(iter(canoes.values()))[0]["at"]
    shot = renderer.render({"canoes": canoes, "weather": 0, "deposits": {}}, seed=seed,
                           nuisance=Nuisance.issue())
    obs = _observe(vision, shot.image)
    assert sorted(c["player"] for c in obs["slots"][slot]["canoes"]) == sorted(canoes)
    assert all(not v["canoes"] for s, v in obs["slots"].items() if s != slot)


def test_a_thing_already_in_a_clear_picture_is_the_tables_a_new_one_is_in_the_way(
        vision, renderer, players):
    # What the board's learned look does not know (here a pale hand over the dock, as a
    # stand-in for a print the calibration never saw) but a picture known to be clear
    # already showed is the table's; the same over a picture without it is in the way.
    seed, reach = 64, (222.0, 174.0)
    shot = renderer.render(players.state, seed=seed, nuisance=BRIGHT,
                           hand=Hand("top", reach, SKIN_RGB[0]))
    bare = renderer.render(players.state, seed=seed, nuisance=BRIGHT)
    assert _observe(vision, bare.image)["stable"] is True
    without = vision.last_reading.corrected
    assert _observe(vision, shot.image)["stable"] is False
    img = vision.last_reading.corrected
    side = vision.detector.surface.cell_px
    surface = vision.detector.surface
    assert not surface.reaching_in(img, fresh=fresh(img, img, side)).any()
    assert surface.reaching_in(img, fresh=fresh(img, without, side)).any()
    location = vision.last_location
    assert vision.detector.read(shot.image, location, without).occluded
    assert not vision.detector.read(shot.image, location, img).occluded
