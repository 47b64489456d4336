"""R-RIVER: phase III, the river moves (speed, steps, the fork, falling canoes)."""

import pytest

from companion.rules import river_speed

from .helpers import (
    FIVE,
    assert_illegal,
    assert_legal,
    canoes_of,
    cards,
    cloud,
    game_at,
    gem_total,
    move,
    river_position,
    turn,
)


def test_R_RIVER_1_russian_and_italian_figure_11_speed_is_four():
    """Cards 3, 3, 5, 2 and a cloud that moved the weather from +1 to +2: 2 + 2 = 4."""
    game = game_at(FIVE, weather=1)
    game.apply(cards(blue=3, green=3, yellow=5, red=2, brown="cloud"))
    game.apply(turn("blue", move("D", "3")))
    game.apply(turn("green", move("D", "3")))
    game.apply(turn("yellow", move("D", "5")))
    game.apply(turn("red", move("D", "2")))
    game.apply(cloud("brown", "up"))
    assert game.speed == 4
    assert_legal(game, {"event": "river", "steps": 4})


def _figure_11_before_the_cloud():
    game = game_at(FIVE, weather=1)
    game.apply(cards(blue=3, green=3, yellow=5, red=2, brown="cloud"))
    for player, to in (("blue", "3"), ("green", "3"), ("yellow", "5"), ("red", "2")):
        game.apply(turn(player, move("D", to)))
    return game


def test_R_RIVER_1_speeds_still_possible_before_the_last_card_is_revealed():
    """Red (to move) shows 2; brown's card is hidden and may be any of 7. Brown's 1
    gives 1 + 1 = 2; a 2 to 6 gives 2 + 1 = 3; the cloud up 2 + 2 = 4, down 2 + 0 = 2."""
    game = _figure_11_before_the_cloud()
    game.undo()
    assert game.to_move == "red"
    assert game.possible_speeds() == {2, 3, 4}


def test_R_RIVER_1_a_revealed_cloud_not_yet_moved_can_still_go_either_way():
    """Brown is to move with the cloud face up; the weather is still +1. Brown must move
    it (R-WEATHER-1): up gives 2 + 2 = 4, down gives 2 + 0 = 2; 3 is impossible."""
    game = _figure_11_before_the_cloud()
    assert game.to_move == "brown"
    assert game.possible_speeds() == {2, 4}


@pytest.mark.parametrize("played,weather,speed", [
    ([1, 6, 4], 0, 1),
    ([5, 5, "cloud"], 2, 7),
    ([1, 3, 2], -1, 0),  # below zero counts as zero
    ([2, 3, 2], -1, 1),
    (["cloud"] * 3, 2, 2),  # no number: a positive weather alone
    (["cloud"] * 3, 1, 1),
    (["cloud"] * 3, 0, 0),  # no number and weather 0 or -1: the river stands still
    (["cloud"] * 3, -1, 0),
])
def test_R_RIVER_1_speed_is_lowest_number_plus_weather(played, weather, speed):
    assert river_speed(played, weather) == speed
    game = river_position(dict(zip(("blue", "green", "yellow"), played, strict=True)),
                          weather=weather)
    assert game.speed == speed


def test_R_RIVER_1_no_number_and_weather_zero_leaves_the_river_still():
    game = river_position({"blue": "cloud", "green": "cloud", "yellow": "cloud"},
                          canoes={"blue": [("7L", "red"), ("D", None)]})
    assert_legal(game, {"event": "river"})
    assert canoes_of(game, "blue") == [("D", None), ("7L", "red")]
    assert game.snapshot()["branch_next"] == "L"


def test_R_RIVER_1_steps_other_than_the_speed_are_illegal():
    game = river_position({"blue": 2, "green": 4, "yellow": 3}, weather=1)
    message = assert_illegal(game, {"event": "river", "steps": 2}, "R-RIVER-1", "3", "2")
    assert "3 steps" in message


def _river_canoes():
    return {"blue": [("4", None), ("5", "yellow")], "green": [("6L", None), ("6R", None)],
            "yellow": [("7L", "red"), ("7R", None)]}


def test_R_RIVER_2_one_step_pushes_one_branch_and_drops_its_last_disc():
    game = river_position({"blue": 1, "green": 3, "yellow": 2}, canoes=_river_canoes())
    assert_legal(game, {"event": "river", "branches": ["L"]})
    assert canoes_of(game, "blue") == [("5", None), ("6L", "yellow")]
    assert canoes_of(game, "green") == [("6R", None), ("7L", None)]  # 6R did not move
    assert canoes_of(game, "yellow") == [("7R", None), ("F", None)]


def test_R_RIVER_2_two_steps_alternate_and_each_branch_moves_once():
    game = river_position({"blue": 2, "green": 3, "yellow": 2}, canoes=_river_canoes())
    assert_legal(game, {"event": "river"})
    # L: 4→5, 5→6L, 6L→7L, 7L→F; then R: 5→6R, 6R→7R, 7R→F.
    assert canoes_of(game, "blue") == [("6L", "yellow"), ("6R", None)]
    assert canoes_of(game, "green") == [("7L", None), ("7R", None)]
    assert canoes_of(game, "yellow") == [("F", None), ("F", None)]


def test_R_RIVER_2_the_preview_names_the_canoes_that_will_fall():
    game = river_position({"blue": 2, "green": 3, "yellow": 2}, canoes=_river_canoes())
    preview = game.preview_river()
    assert preview.branches == ("L", "R")
    assert set(preview.falling_slots) == {"7L", "7R"}  # the 6R disc only reaches 7R
    assert sorted(preview.falling_canoes) == [("yellow", "7L", "red"),
                                              ("yellow", "7R", None)]


def test_R_RIVER_2_the_river_moves_only_once_a_round():
    game = river_position({"blue": 1, "green": 3, "yellow": 2})
    assert_legal(game, {"event": "river"})
    assert_illegal(game, {"event": "river"}, "R-CARD-1", "already moved")


def test_R_RIVER_3_without_observation_discs_alternate_from_the_setup_branch():
    game = river_position({"blue": 3, "green": 3, "yellow": 3}, branch="R",
                          canoes={"blue": [("5", None), ("4", None)],
                                  "green": [("3", None), ("D", None)]})
    assert_legal(game, {"event": "river"})
    # Steps R, L, R: blue 5→6R→6R→7R and 4→5→6L→6L; green 3→4→5→6R.
    assert canoes_of(game, "blue") == [("6L", None), ("7R", None)]
    assert canoes_of(game, "green") == [("D", None), ("6R", None)]
    assert game.snapshot()["branch_next"] == "L"


def test_R_RIVER_3_observed_branches_replace_the_alternation():
    game = river_position({"blue": 2, "green": 3, "yellow": 3},
                          canoes={"blue": [("4", None), ("5", None)]})
    assert_legal(game, {"event": "river", "branches": ["L", "L"]})
    assert canoes_of(game, "blue") == [("6L", None), ("7L", None)]
    assert game.snapshot()["branch_next"] == "R"  # the opposite of the last one taken


def test_R_RIVER_3_one_observed_branch_per_step_or_it_is_illegal():
    game = river_position({"blue": 2, "green": 3, "yellow": 3})
    assert_illegal(game, {"event": "river", "branches": ["L"]}, "R-RIVER-3", "1", "2")


def test_R_RIVER_3_an_unknown_branch_is_a_log_error():
    game = river_position({"blue": 1, "green": 3, "yellow": 3})
    assert_illegal(game, {"event": "river", "branches": ["M"]}, "LOG", "branch")


def test_R_RIVER_4_a_falling_canoe_goes_to_F_and_its_gem_to_its_own_deposit():
    game = river_position({"blue": 1, "green": 3, "yellow": 3},
                          canoes={"blue": [("7L", "violet"), ("D", None)]})
    assert_legal(game, {"event": "river", "branches": ["L"]})
    snap = game.snapshot()
    assert canoes_of(game, "blue") == [("D", None), ("F", None)]
    assert snap["deposits"]["violet"] == {"violet": 7}
    assert snap["deposits"]["red"] == {"red": 7}
    assert gem_total(game) == 35


def test_R_RIVER_4_the_fallen_gem_is_not_left_at_the_falls_deposit():
    game = river_position({"blue": 1, "green": 3, "yellow": 3},
                          canoes={"blue": [("7L", "violet"), ("D", None)],
                                  "green": [("7R", None), ("D", None)]})
    game.apply({"event": "river", "branches": ["L"]})
    game.apply(cards(blue=2, green=2, yellow=2))
    assert game.to_move == "green"  # the ring has passed
    assert_illegal(game, turn("green", move("7R", pre=["load:violet"])), "R-GEM-3",
                   "red deposit", "violet")


def test_R_RIVER_4_a_fallen_canoe_cannot_act():
    game = river_position({"blue": 1, "green": 3, "yellow": 3},
                          canoes={"green": [("7L", None), ("3", None)]})
    game.apply({"event": "river", "branches": ["L"]})
    game.apply(cards(blue=2, green=2, yellow=2))
    assert canoes_of(game, "green") == [("4", None), ("F", None)]
    assert_illegal(game, turn("green", move("F", "7L")), "R-WHICH-4", "green",
                   "below the falls")


def test_R_RIVER_5_the_river_moves_gems_only_with_their_canoes():
    game = river_position({"blue": 2, "green": 3, "yellow": 3},
                          canoes={"blue": [("3", "clear"), ("4", None)]})
    before = game.snapshot()
    assert_legal(game, {"event": "river"})
    after = game.snapshot()
    assert after["deposits"] == before["deposits"] and after["camps"] == before["camps"]
    assert canoes_of(game, "blue") == [("5", "clear"), ("6R", None)]


def test_R_RIVER_5_no_loading_once_phase_II_is_over():
    game = river_position({"blue": 2, "green": 3, "yellow": 3},
                          canoes={"blue": [("3", None), ("4", None)]})
    assert_illegal(game, turn("blue", move("3", pre=["load:violet"])), "R-RIVER-1", "blue",
                   "river moves next")
