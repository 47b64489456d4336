"""Legal turns in the order players usually want them (the move picker's order).

First the turns that keep every canoe out of the falls, now and when the river moves
this round at the fastest speed still possible; among those, the turns that land
gems in camp, then those that bring gems aboard (loading, stealing), then the ones
that leave the canoes furthest from the falls. Trips over the falls come last.
"""

from __future__ import annotations

from collections.abc import Sequence

from .canoes import apply_number_turn
from .events import Turn
from .geometry import DEPTH
from .river import possible_speeds, preview_river
from .state import State


def _aboard(state: State, player: str) -> int:
    return sum(1 for _, gem in state.canoes[player] if gem is not None)


def _fallen(state: State, player: str) -> int:
    return sum(1 for at, _ in state.canoes[player] if at == "F")


def rank_turns(state: State, turns: Sequence[Turn]) -> list[Turn]:
    """`turns` (legal turns of the player to move, e.g. ``Game.legal_turns()``) from
    the most to the least wanted; equal ones keep their order. Changes nothing."""
    player = state.to_move
    card = state.cards.get(player) if player else None
    if player is None or card is None or card == "cloud":
        return list(turns)
    speeds = possible_speeds(state)
    fastest = max(speeds) if speeds else 0
    fallen, aboard, camp = _fallen(state, player), _aboard(state, player), \
        len(state.camps[player])

    def wanted(item: tuple[int, Turn]) -> tuple[int, ...]:
        n, turn = item
        after = state.evolve()
        apply_number_turn(after, player, int(card), turn)
        over_now = _fallen(after, player) - fallen
        doomed = sum(1 for p, *_ in preview_river(after, fastest).falling_canoes
                     if p == player)
        landed = len(after.camps[player]) - camp
        gained = _aboard(after, player) - aboard + landed
        nearness = sum(DEPTH[at] for at, _ in after.canoes[player] if at != "F")
        return (over_now, doomed, -landed, -gained, nearness, n)

    return [turn for _, turn in sorted(enumerate(turns), key=wanted)]
