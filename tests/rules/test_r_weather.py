"""R-WEATHER: the cloud card moves the weather one step and nothing else."""

import pytest

from .helpers import (
    assert_illegal,
    assert_legal,
    canoes_of,
    cloud,
    count,
    move,
    turn,
    turn_position,
)


@pytest.mark.parametrize("before,direction,after", [(0, "up", 1), (0, "down", -1),
                                                    (1, "up", 2), (-1, "up", 0),
                                                    (2, "down", 1)])
def test_R_WEATHER_1_the_cloud_moves_one_step(before, direction, after):
    game = turn_position("blue", "cloud", weather=before)
    assert_legal(game, cloud("blue", direction))
    assert game.snapshot()["weather"] == after


def test_R_WEATHER_1_the_cloud_cannot_go_above_plus_2():
    game = turn_position("blue", "cloud", weather=2)
    assert_illegal(game, cloud("blue", "up"), "R-WEATHER-1", "+2", "up")


def test_R_WEATHER_1_the_cloud_cannot_go_below_minus_1():
    game = turn_position("blue", "cloud", weather=-1)
    assert_illegal(game, cloud("blue", "down"), "R-WEATHER-1", "-1", "down")


def test_R_WEATHER_1_the_cloud_must_move():
    game = turn_position("blue", "cloud")
    assert_illegal(game, turn("blue"), "R-WEATHER-1", "blue", "must move")


def test_R_WEATHER_1_a_cloud_direction_other_than_up_or_down_is_a_log_error():
    game = turn_position("blue", "cloud")
    assert_illegal(game, cloud("blue", "sideways"), "LOG", "cloud direction")


@pytest.mark.parametrize("weather,n", [(0, 2), (1, 2), (2, 1), (-1, 1)])
def test_R_WEATHER_1_cloud_turn_counts(weather, n):
    # Both directions in the middle of the track, one at either end.
    game = turn_position("blue", "cloud", weather=weather)
    assert count(game, "blue", "cloud") == n


def test_R_WEATHER_2_the_cloud_player_moves_no_canoe():
    game = turn_position("blue", "cloud", canoes={"blue": [("3", None), ("D", None)]})
    assert_illegal(game, turn("blue", move("3", "1")), "R-WEATHER-2", "blue", "cloud")


def test_R_WEATHER_2_the_cloud_player_loads_nothing():
    game = turn_position("blue", "cloud", canoes={"blue": [("3", None), ("D", None)]})
    assert_illegal(game, turn("blue", move("3", pre=["load:violet"])), "R-WEATHER-2",
                   "blue")


def test_R_WEATHER_2_the_cloud_players_river_canoe_stays_put():
    """R-WHICH-3 does not apply to a cloud turn: the canoes in the river do not act."""
    game = turn_position("blue", "cloud",
                         canoes={"blue": [("3", "violet"), ("5", None)]})
    assert_legal(game, cloud("blue", "up"))
    assert canoes_of(game, "blue") == [("3", "violet"), ("5", None)]
