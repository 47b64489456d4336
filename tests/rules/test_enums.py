"""Phases and places are enums (Phase, Place) whose JSON is game-log.md's and
vision.md's strings, unchanged."""

import json

from companion.rules import PLACES, SLOTS, Game, Phase, Place


def test_a_phase_is_written_and_compared_as_its_log_word():
    game = Game(["blue", "green", "yellow"])
    assert game.phase is Phase.CARDS and game.phase == "cards"
    game.apply({"event": "cards", "cards": {"blue": 6, "green": "cloud", "yellow": 5}})
    assert game.phase is Phase.TURNS
    snap = game.snapshot()
    assert json.loads(json.dumps(snap))["phase"] == "turns"
    assert json.dumps({"phase": game.phase}) == '{"phase": "turns"}'
    assert f"{game.phase}" == "turns" and f"{game.phase!r}" == "'turns'"


def test_places_keep_the_names_of_the_log_and_vision_md():
    assert PLACES == ("D", "1", "2", "3", "4", "5", "6L", "6R", "7L", "7R", "F")
    assert SLOTS == PLACES[1:-1]
    assert json.dumps(list(Place)) == json.dumps(list(PLACES))
    assert {Place.S6L: 1}["6L"] == 1  # a place and its name are the same key
    assert repr(sorted([Place.S7L, Place.S6L])) == "['6L', '7L']"

