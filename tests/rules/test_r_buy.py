"""R-BUY: buying back canoes that went over the falls (rules.md section 4, phase I)."""

from .helpers import (
    assert_illegal,
    assert_legal,
    canoes_of,
    cards,
    gem_total,
    move,
    turn,
    turn_position,
)
from .helpers import game_at as at


def _fallen(camp=(), canoes=(("F", None), ("3", None))):
    return at(canoes={"blue": list(canoes)}, camps={"blue": list(camp)})


def test_R_BUY_1_a_camp_gem_buys_a_canoe_back_to_the_dock():
    game = _fallen(camp=["red", "violet"])
    assert_legal(game, {"event": "buyback", "player": "blue", "gem": "red"})
    snap = game.snapshot()
    assert canoes_of(game, "blue") == [("D", None), ("3", None)]
    assert snap["camps"]["blue"] == ["violet"]
    assert snap["deposits"]["red"] == {"red": 7}  # the price goes back to its deposit
    assert gem_total(game) == 35


def test_R_BUY_1_both_canoes_can_be_bought_back_with_two_gems():
    game = _fallen(camp=["clear", "red"], canoes=[("F", None), ("F", None)])
    assert_legal(game, {"event": "buyback", "player": "blue", "gem": "red"})
    assert_legal(game, {"event": "buyback", "player": "blue", "gem": "clear"})
    assert canoes_of(game, "blue") == [("D", None), ("D", None)]
    assert game.snapshot()["camps"]["blue"] == []


def test_R_BUY_1_paying_with_a_gem_not_in_the_camp_is_illegal():
    game = _fallen(camp=["violet"])
    assert_illegal(game, {"event": "buyback", "player": "blue", "gem": "red"}, "R-BUY-1",
                   "blue", "red", "camp")


def test_R_BUY_1_a_canoe_not_below_the_falls_cannot_be_bought_back():
    game = _fallen(camp=["violet"], canoes=[("D", None), ("3", None)])
    assert_illegal(game, {"event": "buyback", "player": "blue", "gem": "violet"},
                   "R-BUY-1", "blue", "no canoe below the falls")


def test_R_BUY_1_a_third_buyback_after_both_canoes_are_back_is_illegal():
    game = _fallen(camp=["clear", "red", "violet"], canoes=[("F", None), ("F", None)])
    assert_legal(game, {"event": "buyback", "player": "blue", "gem": "red"})
    assert_legal(game, {"event": "buyback", "player": "blue", "gem": "clear"})
    assert_illegal(game, {"event": "buyback", "player": "blue", "gem": "violet"},
                   "R-BUY-1", "blue", "no canoe below the falls")


def test_R_BUY_1_buying_back_after_the_cards_is_too_late():
    game = turn_position("green", 3, canoes={"blue": [("F", None), ("3", None)]},
                         camps={"blue": ["red"]})
    assert_illegal(game, {"event": "buyback", "player": "blue", "gem": "red"}, "R-BUY-1",
                   "blue", "phase I")


def test_R_BUY_1_a_bought_back_canoe_can_be_launched_this_round():
    game = _fallen(camp=["red"], canoes=[("F", None), ("F", None)])
    assert_legal(game, {"event": "buyback", "player": "blue", "gem": "red"})
    assert_legal(game, cards(blue=2, green=6, yellow=6))
    assert_legal(game, turn("blue", move("D", "2")))


def test_R_BUY_2_no_canoe_and_no_gem_takes_one_canoe_back_free():
    game = _fallen(canoes=[("F", None), ("F", None)])
    assert_legal(game, {"event": "buyback", "player": "blue"})
    assert canoes_of(game, "blue") == [("D", None), ("F", None)]
    assert gem_total(game) == 35


def test_R_BUY_2_only_one_canoe_comes_back_free():
    game = _fallen(canoes=[("F", None), ("F", None)])
    assert_legal(game, {"event": "buyback", "player": "blue"})
    assert_illegal(game, {"event": "buyback", "player": "blue"}, "R-BUY-2", "blue",
                   "still has a canoe")


def test_R_BUY_2_a_player_with_a_canoe_left_gets_no_free_canoe():
    game = _fallen(canoes=[("F", None), ("5", None)])
    assert_illegal(game, {"event": "buyback", "player": "blue"}, "R-BUY-2", "blue",
                   "still has a canoe")


def test_R_BUY_2_the_cards_wait_until_the_free_canoe_is_taken():
    game = _fallen(canoes=[("F", None), ("F", None)])
    assert_illegal(game, cards(blue=2, green=6, yellow=6), "R-BUY-2", "blue",
                   "no canoe left")


def test_R_BUY_3_no_canoe_and_camp_gems_must_buy_one_back():
    """The Polish rule book: 'Jeśli jednak posiada kamienie, musi wykupić co najmniej
    jedno kanu' — with camp gems the free canoe does not apply."""
    game = _fallen(camp=["violet"], canoes=[("F", None), ("F", None)])
    assert_illegal(game, {"event": "buyback", "player": "blue"}, "R-BUY-3", "blue",
                   "camp gems")
    assert_illegal(game, cards(blue=2, green=6, yellow=6), "R-BUY-3", "blue",
                   "buy one back")


def test_R_BUY_3_buying_one_back_is_enough_to_play_the_cards():
    game = _fallen(camp=["violet", "clear"], canoes=[("F", None), ("F", None)])
    assert_legal(game, {"event": "buyback", "player": "blue", "gem": "violet"})
    assert_legal(game, cards(blue=2, green=6, yellow=6))
    assert canoes_of(game, "blue") == [("D", None), ("F", None)]
