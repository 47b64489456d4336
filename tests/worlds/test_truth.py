"""The truth of a frame comes from the rules engine's state (tools/worlds/truth.py)."""

import random

import pytest

from companion.rules import SLOTS, Game
from companion.rules.random_play import random_position
from tools.worlds.truth import observation


def test_a_new_game_shows_every_canoe_on_the_dock_and_every_disc():
    truth = observation(Game(["red", "blue", "green"]).state.snapshot())
    assert [c["player"] for c in truth["dock"]] == ["red", "red", "blue", "blue", "green", "green"]
    assert truth["falls"] == []
    assert set(truth["slots"]) == set(SLOTS)
    assert all(s == {"disc": True, "canoes": []} for s in truth["slots"].values())
    assert truth["stable"] is True and truth["markers"] == 4 and truth["weather"] == 0


def test_every_canoe_of_the_state_is_listed_once_where_it_lies():
    for seed in range(30):
        snap = random_position(random.Random(seed)).state.snapshot()
        truth = observation(snap)
        seen = [(c["player"], slot) for slot, s in truth["slots"].items() for c in s["canoes"]]
        seen += [(c["player"], "D") for c in truth["dock"]]
        seen += [(c["player"], "F") for c in truth["falls"]]
        want = [(p, c["at"]) for p in snap["players"] for c in snap["canoes"][p]]
        assert sorted(seen) == sorted(want)
        assert truth["weather"] == snap["weather"]


def test_a_canoe_at_the_falls_carries_no_gem_R_RIVER_4():
    snap = Game(["red", "blue", "green"]).state.snapshot()
    snap["canoes"]["red"][0] = {"at": "F", "gem": "blue"}
    assert observation(snap)["falls"] == [{"player": "red", "gem": None}]


def test_a_missing_disc_is_reported_and_an_unknown_slot_refused():
    snap = Game(["red", "blue", "green"]).state.snapshot()
    assert observation(snap, ["7R"])["slots"]["7R"]["disc"] is False
    with pytest.raises(ValueError, match="no slot 8"):
        observation(snap, ["8"])


def test_a_canoe_on_no_place_is_refused():
    snap = Game(["red", "blue", "green"]).state.snapshot()
    snap["canoes"]["red"][0] = {"at": "9", "gem": None}
    with pytest.raises(ValueError, match="no place"):
        observation(snap)
