"""The observation a perfect camera reports for an engine state (vision.md form)."""

import json
import random

import pytest

from companion.rules import SLOTS, Game
from companion.rules.random_play import random_position
from companion.vision.expected import canoes_of, expected_observation


def worked_example_round_one() -> Game:
    """rules.md section 7, after phase II of round 1."""
    game = Game(["blue", "green", "yellow", "red", "brown"])
    game.apply({"event": "cards", "cards": {"blue": 6, "green": "cloud", "yellow": 5,
                                            "red": 1, "brown": 4}})
    for text in ("D-4+clear", "cloud up", "D-3+violet", "D-1", "D-4"):
        game.push_san(text)
    return game


def test_new_game_has_every_canoe_on_the_dock_and_every_slot_empty():
    obs = expected_observation(Game(["blue", "green", "yellow"]))
    assert obs["dock"] == [{"player": p, "gem": None}
                           for p in ("blue", "blue", "green", "green", "yellow", "yellow")]
    assert obs["falls"] == []
    assert all(obs["slots"][s] == {"disc": True, "canoes": []} for s in SLOTS)


def test_every_slot_of_the_rules_appears_with_its_disc():
    obs = expected_observation(Game(["blue", "green", "yellow"]))
    assert list(obs["slots"]) == list(SLOTS)
    assert all(entry["disc"] is True for entry in obs["slots"].values())


def test_perfect_camera_is_stable_and_sees_all_four_markers():
    obs = expected_observation(Game(["blue", "green", "yellow"]))
    assert obs["stable"] is True
    assert obs["markers"] == 4


def test_canoes_in_the_river_are_listed_on_their_slot_with_their_cargo():
    obs = expected_observation(worked_example_round_one())
    assert obs["slots"]["4"]["canoes"] == [{"player": "blue", "gem": "clear"},
                                           {"player": "brown", "gem": None}]
    assert obs["slots"]["3"]["canoes"] == [{"player": "yellow", "gem": "violet"}]
    assert obs["slots"]["1"]["canoes"] == [{"player": "red", "gem": None}]


def test_weather_is_the_cloud_position_after_a_cloud_turn():
    assert expected_observation(worked_example_round_one())["weather"] == 1


def test_fallen_canoes_are_listed_below_the_falls_without_gems():
    game = Game(["blue", "green", "yellow"])
    game.apply({"event": "cards", "cards": {"blue": 6, "green": 1, "yellow": 2}})
    for text in ("D-6L", "D-1", "D-2"):
        game.push_san(text)
    game.apply({"event": "river", "steps": 1, "branches": ["L"]})
    game.apply({"event": "cards", "cards": {"blue": 2, "green": 2, "yellow": 3}})
    for _ in range(2):  # green and yellow first, then blue goes over the falls
        game.apply(game.legal_turns()[0])
    game.push_san("7L-F")
    obs = expected_observation(game)
    assert obs["falls"] == [{"player": "blue", "gem": None}]


def test_snapshot_state_and_game_give_the_same_observation():
    game = random_position(random.Random(7), rounds=5)
    from_game = expected_observation(game)
    assert expected_observation(game.state) == from_game
    assert expected_observation(game.snapshot()) == from_game
    assert expected_observation(json.loads(json.dumps(game.snapshot()))) == from_game


def test_every_canoe_of_a_random_state_is_reported_exactly_once():
    rng = random.Random(3)
    for _ in range(20):
        game = random_position(rng)
        obs = expected_observation(game)
        seen = [c["player"] for s in obs["slots"].values() for c in s["canoes"]]
        seen += [c["player"] for c in obs["dock"] + obs["falls"]]
        assert sorted(seen) == sorted(p for p in game.players for _ in range(2))


def test_observation_is_plain_json():
    obs = expected_observation(random_position(random.Random(11), rounds=4))
    assert json.loads(json.dumps(obs)) == obs


def test_canoes_of_reads_a_snapshot_in_the_engine_form():
    game = worked_example_round_one()
    assert canoes_of(game.snapshot())["blue"] == [("D", None), ("4", "clear")]


def test_a_snapshot_without_canoes_is_refused_with_one_line():
    with pytest.raises(ValueError, match="snapshot needs 'canoes'") as err:
        expected_observation({"weather": 0})
    assert "\n" not in str(err.value)


def test_a_canoe_on_no_place_of_the_board_is_refused():
    snap = Game(["blue", "green", "yellow"]).snapshot()
    snap["canoes"]["blue"][0]["at"] = "8L"
    with pytest.raises(ValueError, match="'8L', which is no place on the board"):
        expected_observation(snap)


def test_a_snapshot_with_a_bad_weather_is_refused():
    snap = Game(["blue", "green", "yellow"]).snapshot()
    snap["weather"] = "sunny"
    with pytest.raises(ValueError, match="'weather' must be a number"):
        expected_observation(snap)


def test_a_snapshot_with_a_gem_of_no_colour_is_refused():
    snap = Game(["blue", "green", "yellow"]).snapshot()
    snap["canoes"]["blue"][0]["gem"] = "emerald"
    with pytest.raises(ValueError, match="'emerald', which is no gem"):
        expected_observation(snap)
