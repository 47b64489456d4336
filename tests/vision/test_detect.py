"""Detection on rendered boards: what the camera sees is what the state says."""

from __future__ import annotations

import numpy as np
import pytest

from companion.rules import Game
from companion.vision.gems import _change
from companion.vision.observer import Vision
from companion.vision.render import Hand, Nuisance

from .conftest import same_view


@pytest.fixture(scope="module")
def vision(board, profile):
    return Vision(board, profile, settle=1)


def _observe(vision, image):
    vision.reset()
    return vision.observe(image)


def test_clean_picture_of_mid_game_is_read_exactly(vision, renderer, mid_game):
    shot = renderer.render(mid_game.state, seed=11, nuisance=Nuisance.clean())
    obs = _observe(vision, shot.image)
    assert obs["stable"] and obs["markers"] == 4
    assert same_view(obs, shot.truth)


def test_mildly_disturbed_picture_is_read_exactly(vision, renderer, mid_game):
    shot = renderer.render(mid_game.state, seed=12, nuisance=Nuisance.mild())
    assert same_view(_observe(vision, shot.image), shot.truth)


def test_blue_canoe_on_blue_water_is_seen(vision, renderer):
    state = {"canoes": {"blue": [{"at": "2", "gem": None}, {"at": "6R", "gem": None}],
                        "red": [{"at": "D", "gem": None}, {"at": "D", "gem": None}]},
             "weather": 0, "deposits": {}}
    shot = renderer.render(state, seed=13, nuisance=Nuisance.mild())
    obs = _observe(vision, shot.image)
    assert obs["slots"]["2"]["canoes"] == [{"player": "blue", "gem": None}]
    assert obs["slots"]["6R"]["canoes"] == [{"player": "blue", "gem": None}]


def test_red_gem_in_red_canoe_is_seen(vision, renderer):
    state = {"canoes": {"red": [{"at": "4", "gem": "red"}, {"at": "D", "gem": None}]},
             "weather": 0, "deposits": {}}
    shot = renderer.render(state, seed=14, nuisance=Nuisance.mild())
    assert _observe(vision, shot.image)["slots"]["4"]["canoes"] == [
        {"player": "red", "gem": "red"}]


def test_two_canoes_of_one_player_on_one_slot_count_two(vision, renderer):
    state = {"canoes": {"green": [{"at": "3", "gem": None}, {"at": "3", "gem": "violet"}]},
             "weather": 0, "deposits": {}}
    shot = renderer.render(state, seed=15, nuisance=Nuisance.mild())
    canoes = _observe(vision, shot.image)["slots"]["3"]["canoes"]
    assert [c["player"] for c in canoes] == ["green", "green"]


def test_weather_is_read_at_every_value(vision, renderer):
    for value in (-1, 0, 1, 2):
        state = {"canoes": {}, "weather": value, "deposits": {}}
        shot = renderer.render(state, seed=20 + value, nuisance=Nuisance.mild())
        assert _observe(vision, shot.image)["weather"] == value


def test_missing_disc_is_reported(vision, renderer):
    state = Game(["red", "blue", "green"]).state
    shot = renderer.render(state, seed=16, nuisance=Nuisance.mild(), missing_discs=["7L"])
    obs = _observe(vision, shot.image)
    assert obs["slots"]["7L"]["disc"] is False
    assert all(obs["slots"][s]["disc"] for s in obs["slots"] if s != "7L")


@pytest.mark.parametrize("seed", [30, 31, 32, 33])
def test_hand_over_the_board_is_unstable_and_invents_no_canoe(vision, renderer, mid_game,
                                                              seed):
    shot = renderer.render(mid_game.state, seed=seed, nuisance=Nuisance.mild(), hand=True)
    obs = _observe(vision, shot.image)
    if obs is None:  # the hand hid a marker: no board, no canoes
        return
    assert obs["stable"] is False
    truth = shot.truth
    for place, seen in [(s, v["canoes"]) for s, v in obs["slots"].items()] + \
            [("D", obs["dock"]), ("F", obs["falls"])]:
        want = truth["dock"] if place == "D" else truth["falls"] if place == "F" \
            else truth["slots"][place]["canoes"]
        players = [c["player"] for c in want]
        for canoe in seen:
            assert canoe["player"] in players, f"invented {canoe} at {place}"
            players.remove(canoe["player"])


def test_dark_skinned_hand_is_not_a_brown_canoe(vision, renderer):
    state = {"canoes": {"red": [{"at": "D", "gem": None}, {"at": "D", "gem": None}]},
             "weather": 0, "deposits": {}}
    shot = renderer.render(state, seed=40, nuisance=Nuisance.mild(),
                           hand=Hand("right", (240.0, 300.0), (105, 72, 52)))
    obs = _observe(vision, shot.image)
    assert obs is not None and obs["stable"] is False
    seen = [c for v in obs["slots"].values() for c in v["canoes"]]
    assert not any(c["player"] == "brown" for c in seen + obs["dock"] + obs["falls"])


def test_stream_is_stable_only_after_the_view_settles(board, profile, renderer, mid_game):
    vision = Vision(board, profile, settle=3)
    shot = renderer.render(mid_game.state, seed=50, nuisance=Nuisance.mild())
    flags = [vision.observe(shot.image)["stable"] for _ in range(4)]
    assert flags == [False, False, True, True]


def test_stream_turns_unstable_when_a_hand_comes(board, profile, renderer, mid_game):
    vision = Vision(board, profile, settle=2)
    calm = renderer.render(mid_game.state, seed=51, nuisance=Nuisance.mild())
    hand = renderer.render(mid_game.state, seed=51, nuisance=Nuisance.mild(),
                           hand=Hand("left", (200.0, 300.0)))
    assert [vision.observe(calm.image)["stable"] for _ in range(2)] == [False, True]
    obs = vision.observe(hand.image)
    assert obs is None or obs["stable"] is False


def test_gem_loaded_in_place_is_seen_in_the_next_frame(board, profile, renderer):
    # The detector reads a canoe's gem again only when its middle changed: loading a
    # gem into a canoe that did not move must show in the very next frame.
    vision = Vision(board, profile, settle=1)
    empty = {"canoes": {"green": [{"at": "3", "gem": None}, {"at": "D", "gem": None}]},
             "weather": 0, "deposits": {}}
    loaded = {"canoes": {"green": [{"at": "3", "gem": "violet"}, {"at": "D", "gem": None}]},
              "weather": 0, "deposits": {}}
    first = renderer.render(empty, seed=60, nuisance=Nuisance.mild())
    again = renderer.render(empty, seed=60, nuisance=Nuisance.mild(), frame=1)
    after = renderer.render(loaded, seed=60, nuisance=Nuisance.mild(), frame=2)
    assert vision.observe(first.image)["slots"]["3"]["canoes"][0]["gem"] is None
    assert vision.observe(again.image)["slots"]["3"]["canoes"][0]["gem"] is None
    assert vision.observe(after.image)["slots"]["3"]["canoes"][0]["gem"] == "violet"


@pytest.mark.parametrize("hull", ["brown", "blue"])
def test_R_STEAL_1_a_gem_leaving_a_hull_as_bright_is_gone_in_the_next_frame(board, profile,
                                                                           renderer, hull):
    # A violet gem is about as bright as a brown or a blue hull: the middle is measured
    # again when it changed where the gem lay, not by its average with the hull around.
    # (Here blue is the case the old average missed; brown is coverage.)
    vision = Vision(board, profile, settle=1)
    loaded = {"canoes": {hull: [{"at": "4", "gem": "violet"}, {"at": "D", "gem": None}]},
              "weather": 0, "deposits": {}}
    robbed = {"canoes": {hull: [{"at": "4", "gem": None}, {"at": "D", "gem": None}]},
              "weather": 0, "deposits": {}}
    before = renderer.render(loaded, seed=61, nuisance=Nuisance.mild())
    after = renderer.render(robbed, seed=61, nuisance=Nuisance.mild(), frame=1)
    assert vision.observe(before.image)["slots"]["4"]["canoes"][0]["gem"] == "violet"
    assert vision.observe(after.image)["slots"]["4"]["canoes"][0]["gem"] is None


def test_a_change_where_the_gem_lies_is_not_averaged_away_by_the_hull_around():
    # Only the gem's disc changes, by 30 levels: over a square crop twice the gem's size
    # that averages to less than the noise a still view allows; over the disc it does not.
    before = np.full((17, 17, 3), 100, np.int16)
    after = before.copy()
    ys, xs = np.ogrid[:17, :17]
    disc = (ys - 8) ** 2 + (xs - 8) ** 2 <= 4 ** 2
    after[disc] += 30
    assert float(np.abs(after - before).mean()) < 12
    assert _change(after, before, (8, 8), 4.0) == pytest.approx(30.0)
    assert _change(before, before, (8, 8), 4.0) == 0.0
