"""The move picker's order (companion.rules.ranking): what players usually want first,
trips over the falls last (issue 12 item 6)."""

from __future__ import annotations

from companion.rules import format_turn
from companion.rules.ranking import rank_turns

from .helpers import turn_position


def ranked(game):
    turns = game.legal_turns()
    order = rank_turns(game.state, turns)
    assert sorted(map(format_turn, order)) == sorted(map(format_turn, turns))
    return [format_turn(t) for t in order]


def test_moves_over_the_falls_come_last():
    game = turn_position("blue", 3, canoes={"blue": [("6L", None), ("D", None)]})
    order = ranked(game)
    over = [n for n, t in enumerate(order) if "-F" in t]
    assert over and over == list(range(len(order) - len(over), len(order)))


def test_landing_a_gem_comes_first():
    game = turn_position("blue", 2, canoes={"blue": [("1", "red"), ("D", None)]})
    assert ranked(game)[0].startswith("1-D")


def test_loading_comes_before_an_empty_move():
    game = turn_position("blue", 6, canoes={"blue": [("D", None), ("D", None)]})
    first = ranked(game)[0]
    assert "+" in first, first


def test_a_canoe_the_river_may_take_this_round_comes_after_a_safe_one():
    # Green and yellow played 6 and 5: the river moves at least 5 steps; a canoe left
    # on 5 or below the fork is in danger, one brought up to the dock is not.
    game = turn_position("blue", 4, others=6, canoes={"blue": [("4", None), ("D", None)]})
    order = ranked(game)
    assert order.index("4-D") < order.index("4-6L+blue")


def test_the_cloud_and_an_unknown_player_keep_their_order():
    game = turn_position("blue", "cloud")
    assert ranked(game) == [format_turn(t) for t in game.legal_turns()]
