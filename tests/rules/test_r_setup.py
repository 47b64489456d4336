"""R-SETUP: the game as it starts (rules.md section 3) and the setup event."""

import pytest

from companion.rules import Game, LogError, parse_event

from .helpers import FIVE, assert_illegal, cards, cloud, gem_total, move, turn


def test_R_SETUP_1_seven_gems_of_each_colour_lie_in_their_own_deposit():
    snap = Game(list(FIVE)).snapshot()
    assert snap["deposits"] == {g: {g: 7} for g in ("red", "blue", "clear", "yellow",
                                                     "violet")}
    assert gem_total(Game(list(FIVE))) == 35


def test_R_SETUP_1_no_gem_of_another_colour_lies_in_a_deposit_at_the_start():
    game = Game(["blue", "green", "yellow"])
    game.apply(cards(blue=6, green=5, yellow=4))
    assert_illegal(game, turn("blue", move("D", "4", post=["load:violet"])), "R-GEM-3",
                   "clear deposit", "violet")


def test_R_SETUP_2_the_cloud_starts_on_zero():
    game = Game(["blue", "green", "yellow"])
    assert game.snapshot()["weather"] == 0
    game.apply(cards(blue="cloud", green="cloud", yellow="cloud"))
    game.apply(cloud("blue", "down"))
    assert game.snapshot()["weather"] == -1


def test_R_SETUP_2_two_steps_down_from_the_start_leave_the_track():
    """From 0 the cloud can go down once (to -1), not twice."""
    game = Game(["blue", "green", "yellow"])
    game.apply(cards(blue="cloud", green="cloud", yellow="cloud"))
    game.apply(cloud("blue", "down"))
    assert_illegal(game, cloud("green", "down"), "R-WEATHER-1", "-1")


def test_R_SETUP_3_every_player_has_two_canoes_on_the_dock_and_seven_cards():
    snap = Game(list(FIVE)).snapshot()
    for player in FIVE:
        assert snap["canoes"][player] == [{"at": "D", "gem": None}] * 2
        assert snap["hands"][player] == [1, 2, 3, 4, 5, 6, "cloud"]
        assert snap["camps"][player] == []


def test_R_SETUP_3_no_canoe_is_in_the_river_at_the_start():
    """Moving a canoe from 3 in round 1 is told as: both canoes are on the dock."""
    game = Game(["blue", "green", "yellow"])
    game.apply(cards(blue=2, green=5, yellow=4))
    assert_illegal(game, turn("blue", move("3", "5")), "R-WHICH-1", "blue", "dock")


def test_R_SETUP_4_the_start_player_holds_the_ring_and_turns_go_clockwise():
    game = Game(["blue", "green", "yellow", "red"], start="yellow")
    game.apply(cards(blue=3, green=4, yellow=5, red=6))
    assert game.snapshot()["start"] == "yellow"
    assert game.state.turn_order == ("yellow", "red", "blue", "green")
    assert game.to_move == "yellow"


def test_R_SETUP_4_start_defaults_to_the_first_seat():
    assert Game(["red", "blue", "green"]).snapshot()["start"] == "red"


def test_R_SETUP_4_a_player_after_the_start_player_cannot_go_first():
    game = Game(["blue", "green", "yellow"], start="green")
    game.apply(cards(blue=3, green=4, yellow=5))
    assert_illegal(game, turn("yellow", move("D", "5")), "R-TURN-1", "green", "yellow")


@pytest.mark.parametrize("players", [["blue", "green"], ["blue"] * 3,
                                     ["blue", "green", "yellow", "red", "brown", "pink"],
                                     ["blue", "green", "purple"]])
def test_R_SETUP_4_three_to_five_distinct_colours_or_the_setup_is_rejected(players):
    with pytest.raises(LogError):
        parse_event({"event": "setup", "players": players})


def test_R_SETUP_4_a_start_player_who_is_not_seated_is_rejected():
    with pytest.raises(LogError, match="start"):
        parse_event({"event": "setup", "players": ["blue", "green", "yellow"],
                     "start": "red"})
