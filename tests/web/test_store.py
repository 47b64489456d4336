"""The SQLite store: a real file, transactions, restart."""

from __future__ import annotations

import pytest

from companion.store import Store, StoreError, token_hash

SETUP = {"event": "setup", "players": ["blue", "green", "yellow"], "start": "blue",
         "branch": "L", "variants": []}


@pytest.fixture
def store(tmp_path):
    store = Store(tmp_path / "s.sqlite3")
    yield store
    store.close()


def test_a_new_game_becomes_the_current_one_with_its_setup(store):
    first = store.new_game(SETUP)
    second = store.new_game({**SETUP, "start": "green"})
    assert store.current_game() == second != first
    assert store.setup(second)["start"] == "green"
    assert [g["id"] for g in store.games()] == [second, first]
    assert store.games()[1]["ended_at"] is not None


def test_events_are_appended_and_popped_in_order(store):
    game = store.new_game(SETUP)
    assert store.append_event(game, {"event": "river"}) == 1
    assert store.append_event(game, {"event": "buyback", "player": "blue"}) == 2
    assert store.pop_event(game) == {"event": "buyback", "player": "blue"}
    assert store.events(game) == [{"event": "river"}]
    assert store.log_lines(game)[0].startswith('{"event": "setup"')


def test_popping_with_nothing_left_returns_none(store):
    assert store.pop_event(store.new_game(SETUP)) is None


def test_undoing_the_reveal_restores_the_choices_in_the_same_transaction(store):
    game = store.new_game(SETUP)
    store.set_choice(game, "blue", 3)
    store.append_event(game, {"event": "cards", "cards": {"blue": 3}}, clear_choices=True)
    assert store.choices(game) == {}
    store.pop_event(game, restore_choices={"blue": 3, "green": "cloud"})
    assert store.choices(game) == {"blue": 3, "green": "cloud"}


def test_everything_survives_closing_and_reopening_the_file(tmp_path):
    path = tmp_path / "restart.sqlite3"
    store = Store(path)
    game = store.new_game(SETUP)
    store.append_event(game, {"event": "river"})
    store.set_choice(game, "green", "cloud")
    store.set_seat(game, "blue", token_hash=token_hash("secret"), join_token=None, lang="pl")
    store.add_feed(game, {"kind": "join", "player": "blue"})
    store.close()
    again = Store(path)
    assert again.current_game() == game
    assert again.events(game) == [{"event": "river"}]
    assert again.choices(game) == {"green": "cloud"}
    assert again.seats(game)["blue"].lang == "pl"
    assert again.feed(game)[0]["player"] == "blue"
    again.close()


def test_seat_tokens_are_kept_only_as_hashes(store, tmp_path):
    game = store.new_game(SETUP)
    store.set_seat(game, "blue", token_hash=token_hash("tok-123"), join_token=None)
    store.close()
    assert b"tok-123" not in (tmp_path / "s.sqlite3").read_bytes()


def test_the_feed_keeps_only_the_newest_entries(store):
    game = store.new_game(SETUP)
    for n in range(12):
        store.add_feed(game, {"n": n}, keep=5)
    assert [e["n"] for e in store.feed(game, limit=50)] == [7, 8, 9, 10, 11]
    assert [e["n"] for e in store.feed(game, limit=2)] == [10, 11]


def test_a_file_that_is_not_a_database_gives_a_clear_error(tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("shopping list: gems, canoes, more gems\n" * 100)
    with pytest.raises(StoreError, match="cannot use .*notes.txt"):
        Store(bad)
