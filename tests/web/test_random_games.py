"""Whole random games played through the Table (phones' cards, table moves, river,
buy-backs), checked against the rules engine after every phase, with every seat's
view checked for secrets, and a restart from the file halfway."""

from __future__ import annotations

import random

import pytest

from companion.app import Table
from companion.rules import Buyback, Cards, Game, River, Turn
from companion.rules.random_play import random_phase_events
from companion.store import Store

from .test_secrecy import assert_no_secret


def feed(table: Table, event) -> None:
    if isinstance(event, Buyback):
        table.buyback(event.player, event.gem)
    elif isinstance(event, Cards):
        for player, card in event.cards:
            table.choose(player, card)
        for player in table.players:  # every screen before the reveal
            assert_no_secret(table.view(player), player, set())
        assert_no_secret(table.view(None), None, set())
        table.reveal()
    elif isinstance(event, Turn):
        revealed = set(table.game.state.revealed)
        for player in table.players:
            assert_no_secret(table.view(player), player, revealed)
        assert table.play_turn(event).ok
    else:
        assert isinstance(event, River)
        assert table.move_river(event.steps, event.branches).ok


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_random_game_through_the_table_matches_the_engine(tmp_path, seed):
    rng = random.Random(seed)
    players = rng.sample(["brown", "yellow", "red", "blue", "green"], rng.randint(3, 5))
    path = tmp_path / "random.sqlite3"
    table = Table(Store(path))
    table.new_game(players, start=players[-1])
    shadow = Game(players, start=players[-1])
    restarted = False
    while not shadow.is_over and shadow.round <= 60:
        for event in random_phase_events(shadow, rng):  # a phase, applied to the shadow
            feed(table, event)
        if shadow.phase == "river" and shadow.speed == 0:
            shadow.apply(River(0, ()))  # the table plays it with the last turn (R-RIVER-1)
        assert table.game.snapshot() == shadow.snapshot()
        if shadow.round == 4 and not restarted:
            table.store.close()
            table = Table(Store(path))
            restarted = True
            assert table.game.snapshot() == shadow.snapshot()
    assert table.store.log_lines(table.game_id)[1:] == \
        [__import__("json").dumps(e.to_json()) for e in shadow.events]
    table.store.close()
