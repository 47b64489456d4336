"""A move typed when no turn can be played cites the rule of that moment (not R-TURN-1,
which is about whose turn it is), and an engine refusal reaches a page in its language."""

from __future__ import annotations

from .conftest import choose_all


def test_r_card_1_a_move_before_the_cards_are_revealed(new_game, table_client):
    new_game()
    reply = table_client.post("/api/table/turn", json={"move": "D-4"})
    assert reply.status_code == 409
    assert reply.json["rule"] == "R-CARD-1"


def test_r_river_1_a_move_after_every_player_has_moved(phones, table, table_client):
    choose_all(phones, {"blue": 1, "green": 1, "yellow": 1})
    table.reveal()
    for move in ("D-1", "D-1", "D-1"):
        assert table_client.post("/api/table/turn", json={"move": move}).status_code == 200
    reply = table_client.post("/api/table/turn", json={"move": "D-2"})
    assert reply.status_code == 409
    assert reply.json["rule"] == "R-RIVER-1"


def test_an_illegal_turn_is_said_in_the_pages_language(phones, table, table_client):
    choose_all(phones, {"blue": 1, "green": 1, "yellow": 1})
    table.reveal()
    english = table_client.post("/api/table/turn", json={"move": "D-3"})
    russian = table_client.post("/api/table/turn?lang=ru", json={"move": "D-3"})
    assert english.status_code == russian.status_code == 422
    assert english.json["rule"] == russian.json["rule"] == "R-PTS-1"
    assert russian.json["error"] != english.json["error"]
    assert any("\u0400" <= ch <= "\u04ff" for ch in russian.json["error"])
