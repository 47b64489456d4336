"""R-CARD: the secret paddle card, the 7-card cycle and the discard piles (phase I)."""

import pytest

from .helpers import (
    assert_illegal,
    assert_legal,
    cards,
    cloud,
    game_at,
    move,
    turn,
    turn_position,
)


def test_R_CARD_1_every_player_lays_one_card_and_phase_II_begins():
    game = game_at()
    assert_legal(game, cards(blue=6, green="cloud", yellow=1))
    snap = game.snapshot()
    assert snap["phase"] == "turns"
    assert snap["hands"]["blue"] == [1, 2, 3, 4, 5, "cloud"]
    assert snap["hands"]["green"] == [1, 2, 3, 4, 5, 6]


def test_R_CARD_1_a_player_without_a_card_is_named():
    game = game_at()
    assert_illegal(game, cards(blue=6, yellow=1), "R-CARD-1", "green")


@pytest.mark.parametrize("card", [0, 7, "sun", True, 2.5, None])
def test_R_CARD_1_a_card_that_does_not_exist_is_a_log_error(card):
    game = game_at()
    assert_illegal(game, cards(blue=card, green=1, yellow=1), "LOG", "card")


def test_R_CARD_1_cards_stay_secret_until_their_players_turn():
    game = turn_position("blue", 4, others=2)
    table = game.view(None)
    assert table["cards"] == {"blue": 4}  # blue is to move: revealed
    assert table["chosen"] == ["blue", "green", "yellow"]
    assert "hands" not in table or table["hands"] == {}
    assert game.view("yellow")["cards"] == {"blue": 4, "yellow": 2}
    assert game.view("yellow")["hands"] == {"yellow": [1, 3, 4, 5, 6, "cloud"]}
    game.apply(turn("blue", move("D", "4")))
    assert game.view(None)["cards"] == {"blue": 4, "green": 2}


def test_R_CARD_2_a_played_card_stays_out_of_the_hand():
    game = game_at(played={"blue": [6]})
    assert_illegal(game, cards(blue=6, green=1, yellow=1), "R-CARD-2", "blue", "6",
                   "already played")


def test_R_CARD_2_after_all_seven_cards_the_hand_is_full_again():
    every_number = [1, 2, 3, 4, 5, 6]
    game = game_at(played={p: every_number for p in ("blue", "green", "yellow")})
    assert_legal(game, cards(blue="cloud", green="cloud", yellow="cloud"))
    for player in ("blue", "green", "yellow"):
        assert_legal(game, cloud(player, "up" if player != "yellow" else "down"))
    assert_legal(game, {"event": "river"})
    snap = game.snapshot()
    assert snap["hands"]["blue"] == [1, 2, 3, 4, 5, 6, "cloud"]
    assert snap["played"]["blue"] == []
    assert_legal(game, cards(blue=6, green=6, yellow=6))


def test_R_CARD_2_the_cloud_cannot_be_played_twice_in_one_cycle():
    game = game_at(played={"green": ["cloud", 3]})
    assert_illegal(game, cards(blue=1, green="cloud", yellow=1), "R-CARD-2", "green",
                   "cloud")


def test_R_CARD_2_hand_and_discard_cycle_together_are_the_seven_cards():
    game = game_at(played={"blue": [2, "cloud", 5]})
    snap = game.snapshot()
    assert sorted(map(str, snap["hands"]["blue"] + snap["played"]["blue"])) == \
        sorted(map(str, [1, 2, 3, 4, 5, 6, "cloud"]))


def test_R_CARD_3_only_the_newest_card_of_a_discard_pile_is_seen():
    game = game_at(played={"green": [6, 5]})
    assert game.view(None)["played"]["green"] == [5]
    assert game.view("blue")["played"]["green"] == [5]
    assert game.view("green")["played"]["green"] == [6, 5]  # a player knows their own


def test_R_CARD_3_a_face_down_card_does_not_cover_the_pile_until_revealed():
    game = game_at(played={"green": [6, 5]})
    game.apply(cards(blue=3, green=2, yellow=4))
    assert game.view(None)["played"]["green"] == [5]
    game.apply(turn("blue", move("D", "3")))
    assert game.view(None)["played"]["green"] == [2]
