"""Tables played to a known position through the Table's own API (tests/app, tests/web)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.app import Table

# Round 2 of a three-player game, blue (card 3) to move with a violet on 4: "4-3u" and
# "4u-3" leave the same picture (deposits' piles aside).
BLUE_UNLOADS_AT_THE_START_OR_AT_THE_END = [
    ({"blue": 5, "green": 1, "yellow": 2}, ["D-3+violet", "D-1", "D-2"]),
    ({"blue": 3, "green": 2, "yellow": 3}, ["2-4", "3-6L"]),
]
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
