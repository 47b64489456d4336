"""R-GEM: loading and unloading at the deposits (rules.md section 5)."""

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

NO_SAME = ("no-same-colour-unload",)


def test_R_GEM_1_an_empty_canoe_loads_one_gem():
    game = turn_position("blue", 3, canoes={"blue": [("3", None), ("D", None)]})
    assert_legal(game, turn("blue", move("3", "4", pre=["load:violet"])))
    assert canoes_of(game, "blue") == [("D", None), ("4", "violet")]
    assert gem_total(game) == 35


def test_R_GEM_1_a_loaded_canoe_cannot_load():
    game = turn_position("blue", 3, canoes={"blue": [("3", "red"), ("D", None)]})
    assert_illegal(game, turn("blue", move("3", "4", pre=["load:violet"])), "R-GEM-1",
                   "blue", "already carries red")


def test_R_GEM_1_two_loads_in_a_row_is_illegal():
    game = turn_position("blue", 4, canoes={"blue": [("3", None), ("D", None)]})
    assert_illegal(game, turn("blue", move("3", pre=["load:violet", "load:violet"])),
                   "R-GEM-1", "blue", "already carries violet")


def test_R_GEM_2_load_at_the_end_of_the_move():
    game = turn_position("blue", 4, canoes={"blue": [("7R", None), ("D", None)]})
    assert_legal(game, turn("blue", move("7R", "5", post=["load:yellow"])))
    assert canoes_of(game, "blue") == [("D", None), ("5", "yellow")]


def test_R_GEM_2_unload_at_the_start_of_the_move():
    game = turn_position("blue", 4, canoes={"blue": [("6R", "clear"), ("D", None)]})
    assert_legal(game, turn("blue", move("6R", "4", pre=["unload"])))
    assert game.snapshot()["deposits"]["blue"] == {"blue": 7, "clear": 1}


def test_R_GEM_2_no_ops_where_no_deposit_is_reached():
    game = turn_position("blue", 4, canoes={"blue": [("2", None), ("D", None)]})
    assert_illegal(game, turn("blue", move("2", "4", pre=["load:violet"])), "R-GEM-2",
                   "blue", "on 2", "no deposit")


def test_R_GEM_2_no_ops_at_the_end_of_a_landing():
    game = turn_position("blue", 4, canoes={"blue": [("2", "red"), ("D", None)]})
    assert_illegal(game, turn("blue", move("2", "D", post=["unload"])), "R-GEM-2",
                   "blue", "on D")


def test_R_GEM_2_a_passed_deposit_cannot_be_loaded_from():
    """From 2 with four points, violet cannot be picked up at 3 on the way to 4: ops
    happen only where the move starts (2, no deposit) or ends (4, the clear deposit,
    which holds no violet)."""
    game = turn_position("blue", 4, canoes={"blue": [("2", None), ("D", None)]})
    assert_illegal(game, turn("blue", move("2", "4", post=["load:violet"])), "R-GEM-3",
                   "clear deposit", "violet")
    assert_legal(game, turn("blue", move("2", "4", post=["load:clear"])))


def test_R_GEM_3_load_a_gem_of_another_colour_left_in_a_deposit():
    game = turn_position("blue", 2, canoes={"blue": [("4", None), ("D", None)]},
                         deposits={"violet": {"violet": 7}, "clear": {"clear": 7, "red": 1},
                                   "yellow": {"yellow": 7}, "blue": {"blue": 7},
                                   "red": {"red": 6}, })
    assert gem_total(game) == 35
    assert_legal(game, turn("blue", move("4", pre=["load:red"])))
    assert game.snapshot()["deposits"]["clear"] == {"clear": 7}


def test_R_GEM_3_unload_any_colour_into_any_deposit():
    game = turn_position("blue", 2, canoes={"blue": [("7L", "violet"), ("D", None)]})
    assert_legal(game, turn("blue", move("7L", pre=["unload"])))
    assert game.snapshot()["deposits"]["red"] == {"red": 7, "violet": 1}


def test_R_GEM_3_a_gem_not_in_the_deposit_cannot_be_loaded():
    game = turn_position("blue", 2, canoes={"blue": [("7L", None), ("D", None)]})
    assert_illegal(game, turn("blue", move("7L", pre=["load:blue"])), "R-GEM-3",
                   "red deposit", "blue")


def test_R_GEM_3_an_empty_deposit_cannot_be_loaded_from():
    game = turn_position("blue", 2, canoes={"blue": [("4", None), ("D", None)]},
                         deposits={"violet": {"violet": 7}, "clear": {},
                                   "yellow": {"yellow": 7}, "blue": {"blue": 7},
                                   "red": {"red": 7}},
                         camps={"green": ["clear"] * 4, "yellow": ["clear"] * 3})
    assert gem_total(game) == 35
    assert_illegal(game, turn("blue", move("4", pre=["load:clear"])), "R-GEM-3",
                   "clear deposit", "no clear gem")


def test_R_GEM_3_an_empty_canoe_has_nothing_to_unload():
    game = turn_position("blue", 2, canoes={"blue": [("7L", None), ("D", None)]})
    assert_illegal(game, turn("blue", move("7L", pre=["unload"])), "R-GEM-3", "blue",
                   "no gem to unload")


def test_R_GEM_3_variant_no_same_colour_unload_allows_other_colours():
    """Variant from the Chinese rule book ("loading", rule 8)."""
    game = turn_position("blue", 2, canoes={"blue": [("7L", "violet"), ("D", None)]},
                         variants=NO_SAME)
    assert_legal(game, turn("blue", move("7L", pre=["unload"])))


def test_R_GEM_3_variant_no_same_colour_unload_forbids_its_own_deposit():
    game = turn_position("blue", 2, canoes={"blue": [("7L", "red"), ("D", None)]},
                         variants=NO_SAME)
    assert_illegal(game, turn("blue", move("7L", pre=["unload"])), "R-GEM-3", "blue",
                   "red gem", "red deposit", "no-same-colour-unload")


def test_R_GEM_3_without_the_variant_a_gem_goes_back_into_its_own_deposit():
    game = turn_position("blue", 2, canoes={"blue": [("7L", "red"), ("D", None)]})
    assert_legal(game, turn("blue", move("7L", pre=["unload"])))
    assert game.snapshot()["deposits"]["red"] == {"red": 7}


def test_R_GEM_4_unload_then_load_another_colour_costs_four():
    """Polish figure 8b: unload violet at the clear deposit, load yellow there."""
    game = turn_position("red", 4, canoes={"red": [("4", "violet"), ("D", None)]},
                         players=("red", "blue", "green"),
                         deposits={"violet": {"violet": 6}, "clear": {"clear": 7,
                                                                      "yellow": 1},
                                   "yellow": {"yellow": 6}, "blue": {"blue": 7},
                                   "red": {"red": 7}})
    assert_legal(game, turn("red", move("4", pre=["unload", "load:yellow"])))
    assert canoes_of(game, "red") == [("D", None), ("4", "yellow")]
    assert game.snapshot()["deposits"]["clear"] == {"clear": 7, "violet": 1}


def test_R_GEM_4_unload_then_load_at_the_end_of_the_move():
    game = turn_position("blue", 5, canoes={"blue": [("5", "violet"), ("D", None)]})
    assert_legal(game, turn("blue", move("5", "6R", post=["unload", "load:blue"])))
    assert canoes_of(game, "blue") == [("D", None), ("6R", "blue")]


def test_R_GEM_4_unload_then_load_the_same_colour_is_illegal():
    game = turn_position("blue", 4, canoes={"blue": [("4", "clear"), ("D", None)]})
    assert_illegal(game, turn("blue", move("4", pre=["unload", "load:clear"])),
                   "R-GEM-4", "blue", "clear", "same colour")


def test_R_GEM_4_unload_at_the_start_and_load_at_the_end_is_illegal():
    game = turn_position("blue", 5, canoes={"blue": [("3", "clear"), ("D", None)]})
    assert_illegal(game, turn("blue", move("3", "4", pre=["unload"], post=["load:clear"])),
                   "R-GEM-4", "blue", "one end")


def test_R_GEM_4_unload_and_load_cost_four_not_two():
    game = turn_position("blue", 3, canoes={"blue": [("4", "violet"), ("D", None)]})
    assert_illegal(game, turn("blue", move("4", pre=["unload", "load:clear"])), "R-PTS-1",
                   "blue", "needs 4 points", "gives 3")


def test_R_GEM_5_a_loaded_gem_travels_to_the_dock_in_the_same_turn():
    game = turn_position("blue", 5, canoes={"blue": [("3", None), ("D", None)]})
    assert_legal(game, turn("blue", move("3", "D", pre=["load:violet"])))


def test_R_GEM_5_load_at_the_start_and_unload_at_the_end_is_illegal():
    game = turn_position("blue", 5, canoes={"blue": [("3", None), ("D", None)]})
    assert_illegal(game, turn("blue", move("3", "4", pre=["load:violet"],
                                           post=["unload"])),
                   "R-GEM-5", "blue", "loaded this turn")


def test_R_GEM_5_load_then_unload_at_one_end_is_illegal():
    """Four points spent loading clear and putting it straight back: the canoe would end
    exactly as it began, which R-GEM-5 forbids ("a gem loaded this turn cannot be
    unloaded in the same turn")."""
    game = turn_position("blue", 4, canoes={"blue": [("4", None), ("D", None)]})
    assert_illegal(game, turn("blue", move("4", pre=["load:clear", "unload"])), "R-GEM-5",
                   "blue", "loaded this turn")


def test_R_GEM_5_unload_load_unload_at_one_end_is_illegal():
    game = turn_position("blue", 6, canoes={"blue": [("4", "violet"), ("D", None)]})
    assert_illegal(game, turn("blue", move("4", pre=["unload", "load:clear", "unload"])),
                   "R-GEM-5", "blue", "loaded this turn")


def test_R_GEM_6_a_canoe_loads_from_the_deposit_not_from_another_canoe():
    game = turn_position("blue", 2, canoes={"blue": [("5", None), ("D", None)],
                                            "green": [("5", "red"), ("D", None)]})
    assert_illegal(game, turn("blue", move("5", pre=["load:red"])), "R-GEM-6", "blue",
                   "never pass gems", "yellow deposit")


def test_R_GEM_6_own_canoes_do_not_pass_gems_either():
    game = turn_position("blue", 2, canoes={"blue": [("4", "red"), ("4", None)]})
    assert_illegal(game, turn("blue", move("4", "2", gem="red"),
                              move("4", pre=["load:red"], gem=None)),
                   "R-GEM-6", "blue", "never pass gems")


def test_R_GEM_6_a_gem_put_into_the_deposit_can_be_loaded_from_there():
    game = turn_position("blue", 2, canoes={"blue": [("5", None), ("D", None)],
                                            "green": [("5", "red"), ("D", None)]},
                         deposits={"violet": {"violet": 7}, "clear": {"clear": 7},
                                   "yellow": {"yellow": 7, "red": 1}, "blue": {"blue": 7},
                                   "red": {"red": 5}})
    assert gem_total(game) == 35
    assert_legal(game, turn("blue", move("5", pre=["load:red"])))


def test_R_GEM_perft_unload_then_load():
    """Blue: A on 5 with yellow, B on D; card 4; yellow deposit 6 yellow + 1 violet.
    A: down 4 over the falls (yellow home); up 4 to 1 loaded; unload at the start then
    down 2 to 7L/7R or up 2 to 3; unload + load violet and stay; move 2 and unload at
    the end: 7L, 7R (red deposit) or 3 (violet deposit). → 1+1+3+1+3 = 9.
    B: launched to 4 (2 steps + an op would end on 2, no deposit) → 1, or stays.
    9 alone + 9 with B = 18."""
    deposits = {"violet": {"violet": 6}, "clear": {"clear": 7},
                "yellow": {"yellow": 6, "violet": 1}, "blue": {"blue": 7},
                "red": {"red": 7}}
    game = turn_position("blue", 4, canoes={"blue": [("5", "yellow"), ("D", None)]},
                         deposits=deposits)
    assert gem_total(game) == 35
    assert count(game, "blue", 4) == 18


def test_R_GEM_perft_unload_then_load_with_no_same_colour_unload():
    """As above, but yellow may not go into the yellow deposit: the three unloads at the
    start and the unload + load are gone; 9 - 4 = 5 for A, so 5 + 5 = 10."""
    deposits = {"violet": {"violet": 6}, "clear": {"clear": 7},
                "yellow": {"yellow": 6, "violet": 1}, "blue": {"blue": 7},
                "red": {"red": 7}}
    game = turn_position("blue", 4, canoes={"blue": [("5", "yellow"), ("D", None)]},
                         deposits=deposits, variants=NO_SAME)
    assert count(game, "blue", 4) == 10
