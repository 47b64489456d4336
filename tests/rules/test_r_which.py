"""R-WHICH: which canoes act on a numbered card (rules.md section 5)."""

from .helpers import (
    assert_illegal,
    assert_legal,
    canoes_of,
    count,
    gem_total,
    move,
    turn,
    turn_position,
)


def test_R_WHICH_1_both_on_the_dock_one_is_launched():
    game = turn_position("blue", 3)
    assert_legal(game, turn("blue", move("D", "3")))
    assert canoes_of(game, "blue") == [("D", None), ("3", None)]


def test_R_WHICH_1_both_on_the_dock_launching_both_is_illegal():
    game = turn_position("blue", 3)
    assert_illegal(game, turn("blue", move("D", "3"), move("D", "3")), "R-WHICH-1",
                   "blue", "exactly one")


def test_R_WHICH_1_both_on_the_dock_launching_none_is_illegal():
    game = turn_position("blue", 3)
    assert_illegal(game, turn("blue"), "R-WHICH-1", "blue", "must be launched")


def test_R_WHICH_2_the_river_canoe_acts_and_the_docked_one_may_stay():
    game = turn_position("blue", 2, canoes={"blue": [("3", None), ("D", None)]})
    assert_legal(game, turn("blue", move("3", "5")))
    assert canoes_of(game, "blue") == [("D", None), ("5", None)]


def test_R_WHICH_2_the_docked_canoe_may_be_launched_too():
    game = turn_position("blue", 2, canoes={"blue": [("3", None), ("D", None)]})
    assert_legal(game, turn("blue", move("D", "2"), move("3", "1")))
    assert canoes_of(game, "blue") == [("1", None), ("2", None)]


def test_R_WHICH_2_launching_only_the_docked_canoe_is_illegal():
    game = turn_position("blue", 2, canoes={"blue": [("3", None), ("D", None)]})
    assert_illegal(game, turn("blue", move("D", "2")), "R-WHICH-2", "blue",
                   "in the river must act")


def test_R_WHICH_2_doing_nothing_is_illegal():
    game = turn_position("blue", 2, canoes={"blue": [("3", None), ("D", None)]})
    assert_illegal(game, turn("blue"), "R-WHICH-2", "blue", "must act")


def test_R_WHICH_3_both_river_canoes_act():
    game = turn_position("blue", 2, canoes={"blue": [("3", None), ("6L", None)]})
    assert_legal(game, turn("blue", move("6L", "F"), move("3", "5")))
    assert canoes_of(game, "blue") == [("5", None), ("F", None)]


def test_R_WHICH_3_moving_only_one_of_two_river_canoes_is_illegal():
    game = turn_position("blue", 2, canoes={"blue": [("3", None), ("6L", None)]})
    assert_illegal(game, turn("blue", move("3", "1")), "R-WHICH-3", "blue", "both")


def test_R_WHICH_3_a_landed_canoe_does_not_stand_in_for_the_other():
    game = turn_position("blue", 2, canoes={"blue": [("1", None), ("4", None)]})
    assert_illegal(game, turn("blue", move("1", "D"), move("D", "2")), "R-WHICH-3",
                   "blue", "both")


def test_R_WHICH_4_the_last_canoe_on_the_dock_must_be_launched():
    game = turn_position("blue", 4, canoes={"blue": [("F", None), ("D", None)]})
    assert_illegal(game, turn("blue"), "R-WHICH-4", "blue", "must be launched")
    assert_legal(game, turn("blue", move("D", "4")))


def test_R_WHICH_4_the_last_canoe_in_the_river_must_act():
    game = turn_position("blue", 1, canoes={"blue": [("F", None), ("7R", "red")]})
    assert_illegal(game, turn("blue"), "R-WHICH-4", "blue", "must act")
    assert_legal(game, turn("blue", move("7R", "F")))
    assert canoes_of(game, "blue") == [("F", None), ("F", None)]
    assert game.snapshot()["deposits"]["red"] == {"red": 7} and gem_total(game) == 35


def test_R_WHICH_4_a_canoe_below_the_falls_cannot_act():
    game = turn_position("blue", 1, canoes={"blue": [("F", None), ("7R", None)]})
    assert_illegal(game, turn("blue", move("7R", "F"), move("F", "7R")), "R-WHICH-4",
                   "blue", "below the falls")


def test_R_WHICH_5_the_second_canoe_sees_what_the_first_left():
    """Blue's first canoe unloads violet into the clear deposit (R-MOVE-7: 2 points, no
    move); the second canoe on the same slot then loads that violet gem."""
    game = turn_position("blue", 2, canoes={"blue": [("4", "violet"), ("4", None)]})
    assert_legal(game, turn("blue", move("4", pre=["unload"], gem="violet"),
                            move("4", pre=["load:violet"], gem=None)))
    assert canoes_of(game, "blue") == [("4", None), ("4", "violet")]
    assert game.snapshot()["deposits"]["clear"] == {"clear": 7}


def test_R_WHICH_5_in_the_other_order_the_gem_is_not_there_yet():
    game = turn_position("blue", 2, canoes={"blue": [("4", "violet"), ("4", None)]})
    assert_illegal(game, turn("blue", move("4", pre=["load:violet"], gem=None),
                              move("4", pre=["unload"], gem="violet")),
                   "R-GEM-6", "blue", "clear deposit", "violet")


def test_R_WHICH_5_each_canoe_spends_the_full_card_not_a_share():
    game = turn_position("blue", 5, canoes={"blue": [("3", None), ("6L", None)]})
    assert_illegal(game, turn("blue", move("3", "1"), move("6L", "F")), "R-PTS-2",
                   "blue", "on 3", "3 of 5")


def test_R_WHICH_5_order_matters_perft():
    """Blue: A on 4 with violet, B on 4 empty; card 2; clear deposit 7 clear.
    A: down to 6L or 6R, up to 2 (all with violet), or unload (4, empty) — 4 options.
    B: 6L, 6R, 2, or load clear — 4 options; after A unloaded also load violet.
    A's three moves × B's four = 12; A's unload × B's five = 5; B acting first adds no
    new end. None of the 17 ends coincide (canoes + deposits differ), so 17."""
    game = turn_position("blue", 2, canoes={"blue": [("4", "violet"), ("4", None)]})
    assert count(game, "blue", 2) == 17
