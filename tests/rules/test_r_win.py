"""R-WIN: the end of the game (rules.md section 8)."""

import pytest

from companion.rules import win_met

from .helpers import (
    assert_illegal,
    assert_legal,
    cards,
    game_at,
    move,
    turn,
    turn_position,
)


@pytest.mark.parametrize("camp", [
    ["blue", "clear", "red", "violet", "yellow"],  # five colours
    ["red", "red", "red", "red"],  # four of one colour
    ["blue", "blue", "blue", "clear", "clear", "clear", "red"],  # seven of any
    ["blue", "clear", "clear", "red", "violet", "yellow"],  # five colours and more
])
def test_R_WIN_1_winning_camps(camp):
    assert win_met(camp)


@pytest.mark.parametrize("camp", [
    [],
    ["blue", "clear", "red", "violet"],  # four colours
    ["red", "red", "red", "blue", "blue", "blue"],  # six, no four alike
    ["red", "red", "red", "clear", "clear", "clear"],
])
def test_R_WIN_1_camps_that_do_not_win(camp):
    assert not win_met(camp)


def _landing(camp, gem, others=3, **kwargs):
    """Blue carries `gem` on 1 and lands it on a 2 with `camp` already in camp."""
    return turn_position("blue", 2, others=others,
                         canoes={"blue": [("1", gem), ("D", None)]},
                         camps={"blue": camp}, **kwargs)


def _finish_round(game):
    for player in game.state.turn_order[game.state.turn_index:]:
        game.apply(turn(player, move("D", "3")))


def test_R_WIN_1_landing_the_fifth_colour_wins():
    game = _landing(["blue", "clear", "violet", "yellow"], "red")
    assert_legal(game, turn("blue", move("1", "D")))
    _finish_round(game)
    assert game.is_over and game.winners == ["blue"]
    assert game.snapshot()["winners"] == ["blue"] and game.phase == "over"


def test_R_WIN_1_the_fourth_gem_of_a_colour_wins():
    game = _landing(["red", "red", "red"], "red")
    game.apply(turn("blue", move("1", "D")))
    _finish_round(game)
    assert game.winners == ["blue"]


def test_R_WIN_1_the_seventh_gem_wins():
    game = _landing(["blue", "blue", "blue", "clear", "clear", "clear"], "red")
    game.apply(turn("blue", move("1", "D")))
    _finish_round(game)
    assert game.winners == ["blue"]


def test_R_WIN_1_a_fifth_gem_of_only_four_colours_does_not_win():
    game = _landing(["blue", "clear", "violet", "yellow"], "clear")
    game.apply(turn("blue", move("1", "D")))
    _finish_round(game)
    assert not game.is_over and game.winners == [] and game.phase == "river"
    assert_legal(game, {"event": "river"})


def _two_winners():
    """Green (ring) lands a fourth red; blue, later in the round, a fifth colour."""
    game = turn_position("green", 2, others=2,
                         canoes={"green": [("2", "red"), ("D", None)],
                                 "blue": [("1", "red"), ("D", None)]},
                         camps={"green": ["red"] * 3,
                                "blue": ["blue", "clear", "violet", "yellow"]})
    game.apply(turn("green", move("2", "D")))
    game.apply(turn("yellow", move("D", "2")))
    game.apply(turn("blue", move("1", "D")))
    return game


def test_R_WIN_2_everyone_who_meets_it_at_the_end_of_phase_II_wins():
    game = _two_winners()
    assert game.is_over
    assert game.winners == ["blue", "green"]  # seating order, not the order of landing


def test_R_WIN_2_the_river_does_not_move_again():
    game = _two_winners()
    assert_illegal(game, {"event": "river"}, "R-WIN-2", "game is over", "blue", "green")


def test_R_WIN_2_no_more_cards_after_the_end():
    game = _two_winners()
    assert_illegal(game, cards(blue=1, green=1, yellow=1), "R-WIN-2", "game is over")


def test_R_WIN_2_a_win_is_decided_only_when_phase_II_ends():
    game = game_at(canoes={"blue": [("1", "red"), ("D", None)]},
                   camps={"blue": ["blue", "clear", "violet", "yellow"]})
    game.apply(cards(blue=2, green=3, yellow=3))
    game.apply(turn("blue", move("1", "D")))
    assert not game.is_over and game.winners == []
    assert game.snapshot()["winners"] == []
