"""The face-down card phase (companion.rules.CardPhase): cards laid one by one and
changed until the reveal, which becomes one `cards` event judged by the engine."""

import pytest

from companion.rules import CardPhase, Game, IllegalEvent, LogError

from .helpers import game_at as at


def _all_down(phase: CardPhase, cards: dict) -> None:
    for player, card in cards.items():
        phase.choose(player, card)


def test_R_CARD_1_a_card_can_be_changed_until_the_reveal():
    phase = CardPhase(Game(["blue", "green", "yellow"]))
    phase.choose("blue", 3)
    phase.choose("blue", "cloud")
    assert phase.choices == {"blue": "cloud"} and phase.chosen() == ["blue"]


def test_R_CARD_1_the_reveal_waits_for_every_player():
    phase = CardPhase(Game(["blue", "green", "yellow"]))
    phase.choose("green", 2)
    blocker = phase.blocker()
    assert blocker.rule == "R-CARD-1"
    assert blocker.message == "waiting for blue, yellow to choose a card"
    with pytest.raises(IllegalEvent, match="waiting for blue, yellow"):
        phase.reveal()


def test_R_CARD_1_the_reveal_is_one_cards_event_that_changes_nothing_by_itself():
    game = Game(["blue", "green", "yellow"])
    phase = CardPhase(game)
    _all_down(phase, {"blue": 6, "green": "cloud", "yellow": 5})
    event = phase.reveal()
    assert event.as_dict() == {"blue": 6, "green": "cloud", "yellow": 5}
    assert game.phase == "cards" and not game.events
    game.apply(event)
    assert game.phase == "turns"


def test_R_CARD_1_after_the_reveal_a_card_is_locked():
    game = Game(["blue", "green", "yellow"])
    phase = CardPhase(game)
    _all_down(phase, {"blue": 6, "green": 2, "yellow": 5})
    game.apply(phase.reveal())
    with pytest.raises(IllegalEvent) as err:
        phase.choose("green", 4)
    assert err.value.rule == "R-CARD-1"
    with pytest.raises(IllegalEvent) as err:
        phase.withdraw("green")
    assert err.value.rule == "R-CARD-1"
    assert phase.blocker().message == "the cards of this round are already revealed"
    assert phase.chosen() == ["blue", "green", "yellow"]  # the revealed cards


def test_R_CARD_2_a_card_played_this_cycle_cannot_be_laid():
    phase = CardPhase(at(played={"blue": [6]}))
    with pytest.raises(IllegalEvent) as err:
        phase.choose("blue", 6)
    assert err.value.rule == "R-CARD-2" and "returns after all 7" in err.value.message
    assert phase.choices == {}


def test_what_is_not_a_card_is_a_log_error():
    with pytest.raises(LogError):
        CardPhase(Game(["blue", "green", "yellow"])).choose("blue", 9)
    with pytest.raises(LogError, match="red is not playing"):
        CardPhase(Game(["blue", "green", "yellow"])).choose("red", 3)


def test_a_withdrawn_card_goes_back_to_the_hand():
    phase = CardPhase(Game(["blue", "green", "yellow"]), {"blue": 4})
    assert phase.withdraw("blue") is True
    assert phase.withdraw("blue") is False and phase.choices == {}


def test_R_BUY_2_a_player_with_no_canoe_left_blocks_the_reveal():
    game = at(canoes={"blue": [("F", None), ("F", None)]})
    phase = CardPhase(game)
    _all_down(phase, {"blue": 6, "green": 2, "yellow": 5})
    assert phase.must_buy_back() == ["blue"]
    assert phase.blocker().message == "blue must first buy back a canoe (R-BUY-2, R-BUY-3)"
    assert phase.buyback_options("blue") == {"fallen": 2, "gems": [], "free": True,
                                             "must": True}
    game.apply({"event": "buyback", "player": "blue", "gem": None})
    assert phase.must_buy_back() == [] and phase.blocker() is None


def test_R_BUY_3_a_player_with_camp_gems_pays_and_gets_no_free_canoe():
    phase = CardPhase(at(canoes={"blue": [("F", None), ("F", None)]},
                         camps={"blue": ["red", "clear", "red"]}))
    assert phase.buyback_options("blue") == {"fallen": 2, "gems": ["clear", "red"],
                                             "free": False, "must": True}


def test_R_BUY_1_one_fallen_canoe_may_be_bought_back_but_need_not_be():
    phase = CardPhase(at(canoes={"blue": [("F", None), ("3", None)]}, camps={"blue": ["violet"]}))
    assert phase.buyback_options("blue") == {"fallen": 1, "gems": ["violet"], "free": False,
                                             "must": False}
    assert phase.buyback_options("green") == {"fallen": 0, "gems": [], "free": False,
                                              "must": False}


def test_the_reveal_is_refused_when_the_engine_refuses_the_cards():
    game = Game(["blue", "green", "yellow"])
    phase = CardPhase(game)
    _all_down(phase, {"blue": 6, "green": 2, "yellow": 5})
    game.state.hands["blue"] = [1, 2]  # the hand changed under the choice (an undo)
    with pytest.raises(IllegalEvent) as err:
        phase.reveal()
    assert err.value.rule == "R-CARD-2"
