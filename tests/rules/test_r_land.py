"""R-LAND: landing at the camp (rules.md section 5)."""

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


def test_R_LAND_1_moving_up_from_1_lands_on_the_dock():
    game = turn_position("blue", 1, canoes={"blue": [("1", None), ("5", None)]})
    assert_legal(game, turn("blue", move("1", "D"), move("5", "4")))
    assert canoes_of(game, "blue") == [("D", None), ("4", None)]


def test_R_LAND_1_leftover_points_are_lost():
    game = turn_position("blue", 6, canoes={"blue": [("3", None), ("D", None)]})
    assert_legal(game, turn("blue", move("3", "D")))


def test_R_LAND_1_a_canoe_too_far_out_cannot_land():
    game = turn_position("blue", 2, canoes={"blue": [("3", "violet"), ("D", None)]})
    assert_illegal(game, turn("blue", move("3", "D")), "R-PTS-1", "blue", "the dock",
                   "needs 3 points", "gives 2")


def test_R_LAND_2_the_landed_gem_goes_to_the_camp():
    game = turn_position("blue", 4, canoes={"blue": [("2", "red"), ("D", None)]},
                         camps={"blue": ["violet"]})
    assert_legal(game, turn("blue", move("2", "D")))
    snap = game.snapshot()
    assert snap["camps"]["blue"] == ["red", "violet"]
    assert canoes_of(game, "blue") == [("D", None), ("D", None)]
    assert gem_total(game) == 35


def test_R_LAND_2_loading_at_the_start_then_landing_banks_the_gem():
    """The Polish worked example, round 2: red's 5 loads violet on 3 and lands it."""
    game = turn_position("red", 5, canoes={"red": [("3", None), ("D", None)]},
                         players=("red", "blue", "green"))
    assert_legal(game, turn("red", move("3", "D", pre=["load:violet"])))
    assert game.snapshot()["camps"]["red"] == ["violet"]


def test_R_LAND_2_camp_gems_are_not_stolen():
    """Only a canoe's gem can be stolen; a gem in the camp is safe."""
    game = turn_position("green", 2, canoes={"green": [("2", None), ("D", None)],
                                             "blue": [("D", None), ("D", None)]},
                         camps={"blue": ["red"]}, players=("green", "blue", "yellow"))
    assert_illegal(game, turn("green", move("2", "D", steal="blue")), "R-STEAL-1",
                   "blue", "D")


def test_R_LAND_3_a_canoe_may_land_empty():
    game = turn_position("blue", 3, canoes={"blue": [("2", None), ("F", None)]})
    assert_legal(game, turn("blue", move("2", "D")))
    assert canoes_of(game, "blue") == [("D", None), ("F", None)]


def test_R_LAND_3_a_landed_canoe_is_not_launched_again_this_turn():
    game = turn_position("blue", 3, canoes={"blue": [("2", None), ("F", None)]})
    assert_illegal(game, turn("blue", move("2", "D"), move("D", "3")), "R-LAND-3",
                   "blue", "landed", "dock")


def test_R_LAND_3_the_other_docked_canoe_may_launch_after_a_landing():
    game = turn_position("blue", 3, canoes={"blue": [("2", "red"), ("D", None)]})
    assert_legal(game, turn("blue", move("2", "D"), move("D", "3")))
    assert canoes_of(game, "blue") == [("D", None), ("3", None)]
    assert game.snapshot()["camps"]["blue"] == ["red"]


def test_R_LAND_perft_landing_and_loading():
    """Blue: A on 3 with violet, B on 1 empty; card 4; fresh deposits.
    A: down 4 to 7L or 7R (loaded); up 4 lands violet; unload at the start then down 2
    to 5 or up 2 to 1; move 2 and unload at the end: down to 5 (yellow deposit), up to 1
    has no deposit; unload+load needs another colour than violet at violet: none. → 6.
    B: down 4 to 5; up lands empty; 2 steps down to 3 and load violet → 3.
    Nothing one does changes the other's choices: 6 × 3 = 18 distinct ends."""
    game = turn_position("blue", 4, canoes={"blue": [("3", "violet"), ("1", None)]})
    assert count(game, "blue", 4) == 18
