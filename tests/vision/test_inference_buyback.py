"""Buyback inference (phase I): which canoes came back from the falls to the dock."""

import json
import random

import pytest

from companion.rules import Buyback, Game
from companion.rules.random_play import random_phase_events, random_setup_game
from companion.vision.expected import expected_observation
from companion.vision.inference import InferenceError, infer_buybacks


def position(canoes: dict, camps: dict | None = None) -> Game:
    """A phase I position of blue, green and yellow with canoes and camps as given
    (others on the dock); gems in camps are taken from their deposits."""
    game = Game(["blue", "green", "yellow"])
    for player, where in canoes.items():
        game.state.canoes[player] = list(where)
    for player, gems in (camps or {}).items():
        game.state.camps[player] = sorted(gems)
        for gem in gems:
            game.state.take_gem(gem, gem)
    return game


def after(game: Game, events) -> dict:
    """The picture once the buybacks are made; `game` is left unchanged."""
    for event in events:
        game.apply(event)
    try:
        return expected_observation(game)
    finally:
        for _ in events:
            game.undo()


def test_nothing_below_the_falls_means_no_buyback():
    game = position({"blue": [("D", None), ("3", "violet")]})
    result = infer_buybacks(game, expected_observation(game))
    assert result.status == "exact"
    assert result.events == () and result.pending == {}


def test_the_free_canoe_of_r_buy_2_is_decided_by_the_picture():
    game = position({"blue": [("F", None), ("F", None)]})
    result = infer_buybacks(game, after(game, [Buyback("blue")]))
    assert result.status == "exact"
    assert result.events == (Buyback("blue"),)


def test_a_camp_of_one_colour_decides_the_gem_paid():
    game = position({"blue": [("F", None), ("4", None)]}, {"blue": ["red", "red"]})
    result = infer_buybacks(game, after(game, [Buyback("blue", "red")]))
    assert result.status == "exact"
    assert result.events == (Buyback("blue", "red"),)


def test_a_camp_of_several_colours_leaves_the_gem_to_ask():
    game = position({"blue": [("F", None), ("4", None)]}, {"blue": ["red", "blue"]})
    result = infer_buybacks(game, after(game, [Buyback("blue", "red")]))
    assert result.status == "ambiguous"
    assert result.events == ()
    assert result.choices == {"blue": [(Buyback("blue", "blue"),), (Buyback("blue", "red"),)]}


def test_two_canoes_back_pay_two_gems():
    game = position({"green": [("F", None), ("F", None)]}, {"green": ["clear", "clear"]})
    result = infer_buybacks(game, after(game, [Buyback("green", "clear")] * 2))
    assert result.status == "exact"
    assert result.events == (Buyback("green", "clear"), Buyback("green", "clear"))


def test_a_player_left_with_no_canoe_is_pending_with_the_rule():
    game = position({"blue": [("F", None), ("F", None)]}, {"blue": ["violet"]})
    result = infer_buybacks(game, expected_observation(game))
    assert result.status == "exact" and result.events == ()
    assert result.pending == {"blue": "R-BUY-3: blue has no canoe left and must buy one "
                                      "back with a camp gem before the cards"}


def test_more_canoes_back_than_the_camp_can_pay_gives_none():
    game = position({"blue": [("F", None), ("F", None)]}, {"blue": ["violet"]})
    picture = expected_observation(game)
    picture["dock"] += picture["falls"]
    picture["falls"] = []
    result = infer_buybacks(game, picture)
    assert result.status == "none"
    assert result.diff[0]["place"] == "D"
    assert "blue's empty canoe should be below the falls, seen on the dock" in \
        result.diff[0]["problems"]


def test_a_canoe_gone_from_the_falls_but_not_on_the_dock_gives_none():
    game = position({"blue": [("F", None), ("2", None)]}, {"blue": ["red"]})
    picture = expected_observation(game)
    picture["falls"] = []
    result = infer_buybacks(game, picture)
    assert result.status == "none"
    assert result.diff[0]["problems"] == ["blue's empty canoe should be on the dock, not seen"]


def test_random_buybacks_are_inferred_back():
    rng = random.Random(3)
    tried = 0
    while tried < 40:
        game = random_setup_game(rng)
        for _ in range(rng.randint(2, 30)):
            if game.is_over:
                break
            random_phase_events(game, rng)
        if game.phase != "cards" or not any(at == "F" for p in game.players
                                            for at, _ in game.state.canoes[p]):
            continue
        events = random_phase_events(game, rng)
        buybacks = [e for e in events if isinstance(e, Buyback)]
        for _ in events:
            game.undo()
        picture = after(game, buybacks)
        result = infer_buybacks(game, picture)
        assert result.status in ("exact", "ambiguous")
        assert set(result.events) <= set(buybacks)
        chosen = list(result.events) + [e for opts in result.choices.values()
                                        for e in opts[0]]
        assert after(game, chosen) == picture
        tried += 1


def test_buyback_result_is_plain_json():
    game = position({"blue": [("F", None), ("4", None)]}, {"blue": ["red", "blue"]})
    data = infer_buybacks(game, after(game, [Buyback("blue", "blue")])).to_json()
    assert json.loads(json.dumps(data)) == data
    assert data["choices"] == {"blue": [[{"event": "buyback", "player": "blue", "gem": "blue"}],
                                        [{"event": "buyback", "player": "blue", "gem": "red"}]]}


def test_no_buyback_to_infer_outside_phase_one():
    game = position({})
    game.apply({"event": "cards", "cards": {"blue": 1, "green": 2, "yellow": 3}})
    with pytest.raises(InferenceError, match="phase 'turns'"):
        infer_buybacks(game, expected_observation(game))


def test_a_canoe_nudged_on_the_river_is_reported_apart():
    game = position({"blue": [("F", None), ("2", None)]}, {"blue": ["red"]})
    picture = after(game, [Buyback("blue", "red")])
    picture["slots"]["3"]["canoes"] = picture["slots"]["2"]["canoes"]
    picture["slots"]["2"]["canoes"] = []
    result = infer_buybacks(game, picture)
    assert result.status == "exact" and result.events == (Buyback("blue", "red"),)
    assert [m.message for m in result.unexplained] == \
        ["blue's empty canoe should be on 2, seen on 3"]


def test_summaries_say_what_was_bought_and_what_to_ask():
    game = position({"blue": [("F", None), ("4", None)], "green": [("F", None), ("F", None)]},
                    {"blue": ["red", "blue"]})
    result = infer_buybacks(game, after(game, [Buyback("blue", "red"), Buyback("green")]))
    assert result.summary == ("green buys back for free; blue bought back 1 canoe, paid "
                              "with blue or red: ask blue")
    result = infer_buybacks(game, expected_observation(game))
    assert result.summary == ("no buyback; R-BUY-2: green has no canoe left and must take "
                              "one back for free before the cards")
