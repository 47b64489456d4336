"""R-GEO: the board geometry of rules.md section 2 (slots, distances, deposits)."""

import pytest

from companion.rules import DEPOSIT_AT, PLACES, SLOTS, parse_event

from .helpers import assert_illegal, assert_legal, canoes_of, move, turn, turn_position


def test_R_GEO_1_slot_names_are_the_nine_of_rules_md():
    assert SLOTS == ("1", "2", "3", "4", "5", "6L", "6R", "7L", "7R")
    assert PLACES == ("D", *SLOTS, "F")


@pytest.mark.parametrize("place", ["D", "1", "5", "6L", "7R", "F"])
def test_R_GEO_1_every_place_name_parses_in_a_turn(place):
    event = parse_event(turn("blue", move(place, "F")))
    assert event.canoes[0].origin == place


@pytest.mark.parametrize("place", ["6", "8", "6l", "0", "dock", 5])
def test_R_GEO_1_an_unknown_place_name_is_a_log_error(place):
    game = turn_position("blue", 6)
    assert_illegal(game, turn("blue", move("D", place)), "LOG", "place")


@pytest.mark.parametrize("card,to", [(1, "1"), (5, "5")])
def test_R_GEO_2_dock_to_slot_n_is_n_steps(card, to):
    game = turn_position("blue", card)
    assert_legal(game, turn("blue", move("D", to)))


def test_R_GEO_2_from_5_into_a_branch_is_one_step():
    game = turn_position("blue", 1, canoes={"blue": [("5", None), ("D", None)]})
    assert_legal(game, turn("blue", move("5", "6L")))
    assert canoes_of(game, "blue") == [("D", None), ("6L", None)]


def test_R_GEO_2_from_7L_over_the_falls_is_one_step():
    game = turn_position("blue", 1, canoes={"blue": [("7L", None), ("D", None)]})
    assert_legal(game, turn("blue", move("7L", "F")))
    assert canoes_of(game, "blue") == [("D", None), ("F", None)]


def test_R_GEO_2_6L_and_6R_are_not_adjacent():
    """Two points would do if 6L and 6R were neighbours; they are not (R-MOVE-4 cites it)."""
    game = turn_position("blue", 2, canoes={"blue": [("6L", None), ("D", None)]})
    assert_illegal(game, turn("blue", move("6L", "6R")), "R-MOVE-4", "blue", "6R")


def test_R_GEO_3_deposits_and_the_slots_that_reach_them():
    assert DEPOSIT_AT == {"3": "violet", "4": "clear", "5": "yellow", "6L": "blue",
                          "6R": "blue", "7L": "red", "7R": "red"}


@pytest.mark.parametrize("slot,gem", [("3", "violet"), ("4", "clear"), ("5", "yellow"),
                                      ("6L", "blue"), ("6R", "blue"), ("7L", "red"),
                                      ("7R", "red")])
def test_R_GEO_3_each_deposit_slot_loads_its_colour(slot, gem):
    game = turn_position("blue", 2, canoes={"blue": [(slot, None), ("D", None)]})
    assert_legal(game, turn("blue", move(slot, pre=[f"load:{gem}"])))
    assert (slot, gem) in canoes_of(game, "blue")


@pytest.mark.parametrize("slot", ["1", "2"])
def test_R_GEO_3_slots_1_and_2_reach_no_deposit(slot):
    game = turn_position("blue", 2, canoes={"blue": [(slot, None), ("D", None)]})
    assert_illegal(game, turn("blue", move(slot, pre=["load:violet"])), "R-GEM-2", slot)


def test_R_GEO_3_blue_is_not_reached_from_slot_5():
    """The fork (5) reaches yellow; blue lies by the island, one step further."""
    game = turn_position("blue", 2, canoes={"blue": [("5", None), ("D", None)]})
    assert_illegal(game, turn("blue", move("5", pre=["load:blue"])), "R-GEM-3",
                   "yellow deposit", "blue")


def test_R_GEO_4_polish_six_from_the_dock_reaches_clear_and_loads():
    game = turn_position("blue", 6)
    assert_legal(game, turn("blue", move("D", "4", post=["load:clear"])))


def test_R_GEO_4_polish_five_from_the_dock_reaches_violet_and_loads():
    game = turn_position("blue", 5)
    assert_legal(game, turn("blue", move("D", "3", post=["load:violet"])))


def test_R_GEO_4_five_from_the_dock_cannot_reach_yellow_and_load():
    game = turn_position("blue", 5)
    assert_illegal(game, turn("blue", move("D", "5", post=["load:yellow"])), "R-PTS-1",
                   "blue", "needs 7 points", "gives 5")
