"""Perft: `legal_turns` counts for hand-built positions (game-log.md "Legal turns": one
turn per distinct resulting state). Every count is derived from rules.md by hand in
the comment beside it; more counts sit next to the rules they pin (test_r_which,
test_r_gem, test_r_steal, test_r_land, test_r_move, test_r_pts, test_r_cli)."""

import pytest

from .helpers import count, turn_position


@pytest.mark.parametrize("card,n", [
    (1, 1),  # D→1
    (2, 1),  # D→2
    (3, 1),  # D→3 (D→1 then an op: no deposit at 1)
    (4, 1),  # D→4 (D→2 then an op: no deposit at 2)
    (5, 2),  # D→5; D→3 + load violet
    (6, 3),  # D→6L; D→6R; D→4 + load clear
])
def test_perft_R_WHICH_1_both_canoes_docked(card, n):
    # The two docked canoes are identical: launching either gives the same state.
    assert count(turn_position("blue", card), "blue", card) == n


@pytest.mark.parametrize("card,n", [(2, 1), (5, 2), (6, 3)])
def test_perft_R_WHICH_4_last_canoe_on_the_dock(card, n):
    # As with two docked canoes: the one left must be launched, same choices.
    game = turn_position("blue", card, canoes={"blue": [("F", None), ("D", None)]})
    assert count(game, "blue", card) == n


def test_perft_R_WHICH_1_a_foreign_gem_in_the_clear_deposit_adds_a_load():
    # Card 6 from the dock: 6L, 6R, or 4 + load — clear or the violet lying there: 4.
    game = turn_position("blue", 6, deposits={"violet": {"violet": 6},
                                              "clear": {"clear": 7, "violet": 1},
                                              "yellow": {"yellow": 7}, "blue": {"blue": 7},
                                              "red": {"red": 7}})
    assert count(game, "blue", 6) == 4


def test_perft_R_WHICH_2_river_canoe_with_optional_launch():
    # A on 3 (empty), B on D, card 2. A: load violet and stay; down to 5; up to 1 → 3.
    # B, if launched: D→2 → 1. A alone 3 + A with B 3 = 6.
    game = turn_position("blue", 2, canoes={"blue": [("3", None), ("D", None)]})
    assert count(game, "blue", 2) == 6


def test_perft_R_WHICH_3_both_in_the_river_near_the_falls():
    # A on 6L with red, B on 1 empty, card 3 (both must act).
    # A: down 3 → F (red home to the red deposit); up 3 → 3 loaded;
    #    unload at blue (start) then down 1 → 7L or up 1 → 5;
    #    move 1 and unload at the end: 7L (red deposit) or 5 (yellow deposit) → 6.
    # B: down 3 → 4; up 3 → lands empty (1 step, 2 lost) → 2 (no deposit 1 step away).
    # No interaction: 6 × 2 = 12.
    game = turn_position("blue", 3, canoes={"blue": [("6L", "red"), ("1", None)]})
    assert count(game, "blue", 3) == 12


def test_perft_R_WHICH_4_last_canoe_in_the_river_with_a_1():
    # Blue's only canoe on 7R with red, card 1: over the falls or up to 6R → 2.
    game = turn_position("blue", 1, canoes={"blue": [("F", None), ("7R", "red")]})
    assert count(game, "blue", 1) == 2


def test_perft_every_listed_turn_is_legal_and_ends_somewhere_else():
    # Not a count from the rules, but the contract of the count: each listed turn is
    # judged legal, and no two end in the same state.
    game = turn_position("blue", 4, canoes={"blue": [("5", "yellow"), ("3", None)],
                                            "green": [("2", "violet"), ("D", None)]})
    ends = set()
    for turn in game.legal_turns("blue", 4):
        assert game.check(turn).ok, turn
        game.apply(turn)
        ends.add(game.state.key())
        game.undo()
    assert len(ends) == count(game, "blue", 4)
