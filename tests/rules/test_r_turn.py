"""R-TURN: phase II, each player in turn from the life-ring holder (rules.md section 4)."""

from .helpers import (
    assert_illegal,
    assert_legal,
    cards,
    game_at,
    move,
    turn,
    turn_position,
)


def test_R_TURN_1_players_act_from_the_ring_holder_clockwise():
    game = game_at(("blue", "green", "yellow", "red"), start="yellow")
    game.apply(cards(blue=3, green=4, yellow=5, red=6))
    for player, to in (("yellow", "5"), ("red", "6L"), ("blue", "3"), ("green", "4")):
        assert game.to_move == player
        assert_legal(game, turn(player, move("D", to)))
    assert game.phase == "river"


def test_R_TURN_1_a_player_out_of_turn_is_told_whose_turn_it_is():
    game = turn_position("blue", 3)
    assert_illegal(game, turn("green", move("D", "6L")), "R-TURN-1", "blue", "green")


def test_R_TURN_1_a_player_acts_once_per_round():
    game = turn_position("blue", 3)
    assert_legal(game, turn("blue", move("D", "3")))
    assert_illegal(game, turn("blue", move("D", "3")), "R-TURN-1", "green", "blue")


def test_R_TURN_1_a_player_who_is_not_seated_is_a_log_error():
    game = turn_position("blue", 3)
    assert_illegal(game, turn("red", move("D", "3")), "LOG", "red", "not playing")


def _about_to_win():
    """Blue holds four colours in camp and carries the fifth (red) on 1."""
    return turn_position("blue", 2, others=3,
                         canoes={"blue": [("1", "red"), ("D", None)]},
                         camps={"blue": ["blue", "clear", "violet", "yellow"]})


def test_R_TURN_2_phase_II_goes_on_after_someone_has_won():
    game = _about_to_win()
    assert_legal(game, turn("blue", move("1", "D")))
    assert game.phase == "turns" and game.to_move == "green"
    assert_legal(game, turn("green", move("D", "3")))
    assert_legal(game, turn("yellow", move("D", "3")))
    assert game.is_over and game.winners == ["blue"]


def test_R_TURN_2_the_river_waits_for_the_last_turn():
    game = _about_to_win()
    game.apply(turn("blue", move("1", "D")))
    assert_illegal(game, {"event": "river"}, "R-TURN-2", "green")


def test_R_TURN_2_the_next_cards_wait_for_the_last_turn():
    game = turn_position("blue", 3)
    game.apply(turn("blue", move("D", "3")))
    assert_illegal(game, cards(blue=1, green=1, yellow=1), "R-TURN-2", "green")
