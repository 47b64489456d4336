"""Tables played to a known position through the Table's own API (tests/app, tests/web)."""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence

from companion.app import Table
from companion.rules import Buyback, Cards, Game, River, Turn
from companion.rules.random_play import random_phase_events

# Round 2 of a three-player game, blue (card 3) to move with a violet on 4: "4-3u" and
# "4u-3" leave the same picture (deposits' piles aside).
BLUE_UNLOADS_AT_THE_START_OR_AT_THE_END = [
    ({"blue": 5, "green": 1, "yellow": 2}, ["D-3+violet", "D-1", "D-2"]),
    ({"blue": 3, "green": 2, "yellow": 3}, ["2-4", "3-6L"]),
]
# Round 1 played, the river to move 2 (R-RIVER-1: the lowest card).
AT_THE_RIVER = [({"blue": 2, "green": 4, "yellow": 3}, ["D-2", "D-4", "D-3"])]
# Round 2, green (card 2) to move with a canoe on 2 and one on the dock: "2-D, D-2"
# leaves the same pieces where they were.
GREEN_CAN_TRADE_PLACES = [
    ({"blue": 2, "green": 1, "yellow": 3}, ["D-2", "D-1", "D-3"]),
    ({"blue": 6, "green": 2, "yellow": 4}, []),
]


def play_rounds(table: Table, rounds: Sequence[tuple[Mapping[str, int], Sequence[str]]],
                players: Sequence[str] = ("blue", "green", "yellow")) -> Table:
    """A new game on `table`: each round's cards chosen and revealed, then its turns
    (notation) played; the river moved by its speed between rounds."""
    table.new_game(list(players))
    for k, (cards, turns) in enumerate(rounds):
        if k:
            assert table.game is not None
            table.move_river(table.game.speed, None)
        for player, card in cards.items():
            table.choose(player, card)
        table.reveal()
        for san in turns:
            assert table.play_turn(san).ok, san
    return table


def play_to_the_end(table: Table, seed: int = 1,
                    players: Sequence[str] = ("blue", "green", "yellow")) -> Table:
    """A new game on `table`, played by random legal events to its end."""
    table.new_game(list(players), start=players[0], branch="L")
    mirror = Game(tuple(players), start=players[0], branch="L")
    rng = random.Random(seed)
    while not mirror.is_over:
        for event in random_phase_events(copy.deepcopy(mirror), rng, judged=True):
            if isinstance(event, Buyback):
                table.buyback(event.player, event.gem)
            elif isinstance(event, Cards):
                for player, card in event.cards:
                    table.choose(player, card)
                table.reveal()
            elif isinstance(event, Turn):
                assert table.play_turn(event).ok
            elif isinstance(event, River):
                table.move_river(event.steps, event.branches)
            mirror.apply(event)
    return table
