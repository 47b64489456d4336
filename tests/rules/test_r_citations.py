"""Each refusal cites the rule whose text describes the situation, with advice that
fits it (issue 12): R-TURN-1 "turn order" only when it is someone else's turn.

The advice is the hint companion.i18n gives for the verdict's message key.
"""

from __future__ import annotations

from companion.i18n import hint
from companion.rules import Game

from .helpers import (
    assert_illegal,
    cloud,
    game_at,
    move,
    river_position,
    turn,
    turn_position,
)


def red_to_move(card: int, canoes: list[tuple[str, str | None]] | None = None) -> Game:
    return turn_position("red", card, players=("red", "blue", "green"),
                         canoes={"red": canoes} if canoes else None)


def advice(game: Game, event: dict) -> str:
    verdict = game.check(event)
    said = hint(verdict.rule or "", verdict.key, "en", verdict.fields)
    assert said, f"no advice for {verdict.rule} {verdict.key}"
    return said


def test_R_WHICH_3_a_canoe_the_player_does_not_have_both_in_the_river():
    game = red_to_move(2, [("3", None), ("4", "clear")])
    event = turn("red", move("5", "3"), move("4", "2"))
    assert_illegal(game, event, "R-WHICH-3", "red", "no canoe on 5", "on 3", "on 4 with clear")
    said = advice(game, event)
    assert "your own canoes" in said and "on 3 and on 4 with clear" in said
    assert "life ring" not in said and "wait" not in said


def test_R_WHICH_1_a_canoe_the_player_does_not_have_both_on_the_dock():
    game = red_to_move(5)
    event = turn("red", move("D", "5"), move("5", "3"))
    assert_illegal(game, event, "R-WHICH-1", "red", "no canoe on 5")


def test_R_WHICH_2_a_canoe_the_player_does_not_have_one_on_the_dock():
    game = red_to_move(5, [("D", None), ("2", None)])
    assert_illegal(game, turn("red", move("5", "3")), "R-WHICH-2", "red", "no canoe on 5")


def test_R_WHICH_4_a_canoe_the_player_does_not_have_one_below_the_falls():
    game = red_to_move(5, [("F", None), ("2", None)])
    assert_illegal(game, turn("red", move("5", "3")), "R-WHICH-4", "red", "no canoe on 5")


def test_R_WHICH_3_a_canoe_with_a_gem_it_does_not_carry():
    game = red_to_move(2, [("3", None), ("5", "red")])
    event = turn("red", move("3", "1"), {"from": "5", "gem": "blue", "to": "3"})
    assert_illegal(game, event, "R-WHICH-3", "red", "no canoe on 5 with blue")


def test_R_WHICH_5_each_canoe_acts_once():
    game = red_to_move(2, [("3", None), ("5", None)])
    event = turn("red", move("3", "1"), move("3", "5"))
    assert_illegal(game, event, "R-WHICH-5", "red", "same canoe twice")
    assert "only once" in advice(game, event)


def test_R_WEATHER_1_a_numbered_card_does_not_move_the_cloud():
    game = turn_position("blue", 5)
    event = cloud("blue", "up")
    assert_illegal(game, event, "R-WEATHER-1", "blue", "5", "not the cloud")
    said = advice(game, event)
    assert "only the cloud card" in said and "With a 5 move your canoes" in said


def test_R_CARD_1_a_turn_before_the_cards_are_down():
    game = game_at()
    event = turn("blue", move("D", "3"))
    assert_illegal(game, event, "R-CARD-1", "blue", "cards")
    assert "lays a card" in advice(game, event)


def test_R_RIVER_1_a_turn_after_phase_II_the_river_moves_next():
    game = river_position({"blue": 2, "green": 3, "yellow": 3},
                          canoes={"blue": [("3", None), ("4", None)]})
    event = turn("blue", move("3", "1"))
    assert_illegal(game, event, "R-RIVER-1", "blue", "river moves next")
    assert "move the river now" in advice(game, event)


def test_R_CARD_1_the_river_moved_so_the_cards_come_next():
    game = river_position({"blue": 1, "green": 3, "yellow": 2})
    game.apply({"event": "river"})
    assert_illegal(game, {"event": "river"}, "R-CARD-1", "already moved")
    assert "lays a card" in advice(game, {"event": "river"})


def test_R_RIVER_1_cards_before_the_river_moved_says_how_far():
    game = river_position({"blue": 1, "green": 3, "yellow": 2})
    event = {"event": "cards", "cards": {"blue": 3, "green": 4, "yellow": 5}}
    assert_illegal(game, event, "R-RIVER-1", "speed 1")
    assert "Move the river first (1 step)" in advice(game, event)


def test_R_TURN_1_out_of_turn_names_whose_turn_it_is():
    game = turn_position("blue", 3)
    event = turn("green", move("D", "3"))
    assert_illegal(game, event, "R-TURN-1", "blue", "green")
    assert "it is blue's turn" in advice(game, event)


def test_R_TURN_1_is_cited_only_out_of_turn():
    """Every refusal of the player to move cites some other rule."""
    game = turn_position("blue", 3, canoes={"blue": [("3", None), ("5", "red")]})
    for event in (turn("blue", move("4", "1"), move("5", "2")), cloud("blue", "down"),
                  turn("blue", move("3", "1"), move("3", "4")), turn("blue")):
        verdict = game.check(event)
        assert not verdict.ok and verdict.rule != "R-TURN-1", verdict
