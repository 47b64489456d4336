"""R-MOVE: direction, the fork, sharing slots, entering and leaving the river."""

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


def test_R_MOVE_1_a_canoe_goes_all_the_way_up():
    game = turn_position("blue", 3, canoes={"blue": [("5", None), ("D", None)]})
    assert_legal(game, turn("blue", move("5", "2")))


def test_R_MOVE_1_turning_round_to_use_up_points_is_illegal():
    """4 points from 4 to 2 would need going down one and up three; the canoe never
    turns, so two points are left unspent (cited as R-PTS-2)."""
    game = turn_position("blue", 4, canoes={"blue": [("4", None), ("D", None)]})
    assert_illegal(game, turn("blue", move("4", "2")), "R-PTS-2", "blue", "2 of 4")


def test_R_MOVE_2_going_down_from_5_the_player_picks_either_branch():
    for branch in ("6L", "6R"):
        game = turn_position("blue", 1, canoes={"blue": [("5", None), ("D", None)]})
        assert_legal(game, turn("blue", move("5", branch)))
        assert canoes_of(game, "blue") == [("D", None), (branch, None)]


def test_R_MOVE_2_a_launch_past_the_fork_picks_a_branch_too():
    game = turn_position("blue", 6)
    assert_legal(game, turn("blue", move("D", "6R")))


def test_R_MOVE_2_below_the_fork_a_canoe_stays_in_its_branch():
    game = turn_position("blue", 1, canoes={"blue": [("6L", None), ("D", None)]})
    assert_illegal(game, turn("blue", move("6L", "7R")), "R-MOVE-4", "blue", "7R")


def test_R_MOVE_2_perft_both_branches_count():
    """Blue on 4 (empty) and D, card 2: the river canoe goes down to 6L or 6R, up to 2, or
    loads clear where it is (3 + 1 = 4 ways); each alone, or with the other launched to 2
    (no interaction): 4 + 4 = 8."""
    game = turn_position("blue", 2, canoes={"blue": [("4", None), ("D", None)]})
    assert count(game, "blue", 2) == 8


def test_R_MOVE_3_canoes_share_a_slot_and_pass_each_other():
    game = turn_position("blue", 2, canoes={"blue": [("3", None), ("D", None)],
                                            "green": [("4", "clear"), ("5", None)],
                                            "yellow": [("5", "yellow"), ("5", None)]})
    assert_legal(game, turn("blue", move("3", "5")))
    assert canoes_of(game, "blue") == [("D", None), ("5", None)]


def test_R_MOVE_3_an_occupied_slot_is_no_reason_to_stop_early():
    game = turn_position("blue", 2, canoes={"blue": [("3", None), ("D", None)],
                                            "green": [("4", None), ("D", None)]})
    assert_illegal(game, turn("blue", move("3", "4")), "R-PTS-2", "blue", "1 of 2")


def test_R_MOVE_4_up_one_branch_cannot_go_down_the_other():
    game = turn_position("blue", 3, canoes={"blue": [("7L", None), ("D", None)]})
    assert_illegal(game, turn("blue", move("7L", "6R")), "R-MOVE-4", "blue", "6R",
                   "through 5")


def test_R_MOVE_4_up_a_branch_to_the_fork_is_fine():
    game = turn_position("blue", 2, canoes={"blue": [("7L", None), ("D", None)]})
    assert_legal(game, turn("blue", move("7L", "5")))


def test_R_MOVE_5_a_canoe_enters_the_river_at_1_and_moves_on():
    game = turn_position("blue", 2)
    assert_legal(game, turn("blue", move("D", "2")))


def test_R_MOVE_5_a_docked_canoe_listed_without_moving_is_illegal():
    game = turn_position("blue", 2)
    assert_illegal(game, turn("blue", move("D")), "R-MOVE-5", "blue", "launched")


def test_R_MOVE_5_a_canoe_leaves_the_river_only_by_the_rope_or_the_falls():
    """The dock is reached upstream; a canoe that goes down does not return to D."""
    game = turn_position("blue", 6, canoes={"blue": [("7L", None), ("D", None)]})
    assert_illegal(game, turn("blue", move("7L", "D")), "R-PTS-1", "blue",
                   "needs 7 points")


def test_R_MOVE_6_over_the_waterfall_is_legal_and_the_gem_goes_home():
    game = turn_position("blue", 4, canoes={"blue": [("5", "clear"), ("D", None)]})
    assert_legal(game, turn("blue", move("5", "F")))
    assert canoes_of(game, "blue") == [("D", None), ("F", None)]
    assert game.snapshot()["deposits"]["clear"] == {"clear": 7}
    assert gem_total(game) == 35


def test_R_MOVE_6_a_canoe_with_points_to_pass_7L_cannot_stay_on_7L():
    game = turn_position("blue", 3, canoes={"blue": [("6L", None), ("D", None)]})
    assert_illegal(game, turn("blue", move("6L", "7L")), "R-PTS-2", "blue", "2 of 3")


def test_R_MOVE_6_the_falls_cannot_be_reached_with_too_few_points():
    game = turn_position("blue", 2, canoes={"blue": [("5", None), ("D", None)]})
    assert_illegal(game, turn("blue", move("5", "F")), "R-PTS-1", "blue", "the falls",
                   "needs 3 points", "gives 2")


def test_R_MOVE_7_the_whole_card_on_ops_and_no_step():
    game = turn_position("blue", 4, canoes={"blue": [("5", "violet"), ("D", None)]})
    assert_legal(game, turn("blue", move("5", pre=["unload", "load:yellow"])))
    assert canoes_of(game, "blue") == [("D", None), ("5", "yellow")]
    assert game.snapshot()["deposits"]["yellow"] == {"violet": 1, "yellow": 6}


def test_R_MOVE_7_standing_still_with_points_left_is_illegal():
    game = turn_position("blue", 3, canoes={"blue": [("5", None), ("D", None)]})
    assert_illegal(game, turn("blue", move("5", pre=["load:yellow"])), "R-PTS-2",
                   "blue", "1 of 3")
