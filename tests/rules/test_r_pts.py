"""R-PTS: paddle points — a step costs 1, a load or unload 2, the card is spent."""

import pytest

from .helpers import assert_illegal, assert_legal, canoes_of, count, move, turn, turn_position


def test_R_PTS_1_steps_and_ops_add_up_to_the_card():
    # Unload at the start (2 points), then 4 steps down: 3 → 7L; 2 + 4 = 6.
    game = turn_position("blue", 6, canoes={"blue": [("3", "clear"), ("D", None)]})
    assert_legal(game, turn("blue", move("3", "7L", pre=["unload"])))
    assert canoes_of(game, "blue") == [("D", None), ("7L", None)]
    assert game.snapshot()["deposits"]["violet"] == {"clear": 1, "violet": 7}


def test_R_PTS_1_more_steps_than_the_card_gives_is_illegal():
    """The message of issue 2: the points needed and the points given."""
    game = turn_position("red", 4, canoes={"red": [("6L", "blue"), ("D", None)]},
                         players=("red", "blue", "green"))
    message = assert_illegal(game, turn("red", move("6L", "D")), "R-PTS-1", "red",
                             "6L", "dock")
    assert "needs 6 points" in message and "gives 4" in message


def test_R_PTS_1_an_op_costs_two_points():
    game = turn_position("blue", 4, canoes={"blue": [("3", None), ("D", None)]})
    assert_illegal(game, turn("blue", move("3", "6L", post=["load:blue"])), "R-PTS-1",
                   "blue", "needs 5 points", "gives 4")


def test_R_PTS_2_a_canoe_in_the_river_spends_every_point():
    game = turn_position("blue", 5, canoes={"blue": [("2", None), ("D", None)]})
    assert_illegal(game, turn("blue", move("2", "5")), "R-PTS-2", "blue", "2 of 5",
                   "unspent")


def test_R_PTS_2_a_landing_canoe_may_waste_points():
    game = turn_position("blue", 6, canoes={"blue": [("2", None), ("D", None)]})
    assert_legal(game, turn("blue", move("2", "D")))
    assert canoes_of(game, "blue") == [("D", None), ("D", None)]


def test_R_PTS_2_a_canoe_going_over_the_falls_may_waste_points():
    game = turn_position("blue", 6, canoes={"blue": [("6R", None), ("D", None)]})
    assert_legal(game, turn("blue", move("6R", "F")))
    assert canoes_of(game, "blue") == [("D", None), ("F", None)]


def test_R_PTS_2_a_launch_spends_every_point():
    game = turn_position("blue", 5)
    assert_illegal(game, turn("blue", move("D", "4")), "R-PTS-2", "blue", "1 of 5")


def test_R_PTS_2_stopping_short_of_the_falls_is_not_allowed():
    """The Chinese rule book: all points are spent 'even if it means going over the
    waterfall' (即使会摔落瀑布也是一样)."""
    game = turn_position("blue", 3, canoes={"blue": [("6R", "blue"), ("D", None)]})
    assert_illegal(game, turn("blue", move("6R", "7R")), "R-PTS-2", "blue", "2 of 3")


def test_R_PTS_3_a_card_1_moves_one_step():
    game = turn_position("blue", 1, canoes={"blue": [("3", None), ("D", None)]})
    assert_legal(game, turn("blue", move("3", "4")))


@pytest.mark.parametrize("action", [
    move("4", pre=["load:clear"]),
    move("3", "4", post=["load:clear"]),
    move("4", pre=["unload"]),
])
def test_R_PTS_3_a_card_1_never_loads_or_unloads(action):
    game = turn_position("blue", 1, canoes={"blue": [(action["from"], None), ("D", None)]})
    assert_illegal(game, turn("blue", action), "R-PTS-3", "blue", "card 1")


def test_R_PTS_3_card_1_perft():
    """Blue on 4 (empty) and D, card 1: the river canoe goes to 5 or 3 (no ops with a
    1), alone or with the other launched to 1: 2 + 2 = 4."""
    game = turn_position("blue", 1, canoes={"blue": [("4", None), ("D", None)]})
    assert count(game, "blue", 1) == 4
