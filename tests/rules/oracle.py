"""A brute-force oracle for the move generator: try every turn that could be written
for a player and keep those the judge accepts. Slow, simple, independent of movegen."""

from __future__ import annotations

from itertools import product

from companion.rules import GEMS, PLACES, CanoeAction, Game, IllegalEvent, Phase, Turn
from companion.rules.canoes import apply_action

OPS = [()] + [("unload",)] + [(f"load:{g}",) for g in GEMS] + \
    [("unload", f"load:{g}") for g in GEMS] + [(f"load:{g}", "unload") for g in GEMS[:1]]


def candidate_actions(game: Game, player: str, canoe: tuple[str, str | None]) -> list[CanoeAction]:
    state = game.state
    steals = [None]
    for p in game.players:
        for _, gem in state.canoes[p]:
            if gem is not None:
                steals += [p, f"{p}:{gem}"]
    steals = list(dict.fromkeys(steals))
    out = []
    for to, pre, post, steal in product([None, *PLACES], OPS, OPS, steals):
        if pre and post and len(pre) + len(post) > 2:
            continue
        out.append(CanoeAction(canoe[0], to, pre, post, steal, canoe[1]))
    return out


def brute_force_outcomes(game: Game, player: str, card: int) -> set[tuple]:
    """State keys of every legal turn, found by judging every candidate turn."""
    state = game.state
    canoes = list(state.canoes[player])
    cands = {i: candidate_actions(game, player, c) for i, c in enumerate(canoes)
             if c[0] != "F"}
    firsts: dict[int, list[tuple[CanoeAction, object]]] = {}
    for i, actions in cands.items():
        firsts[i] = []
        for action in actions:
            trial = state.copy()
            try:
                apply_action(trial, player, canoes[i], card, action)
            except IllegalEvent:
                continue
            firsts[i].append((action, trial))
    turns: list[Turn] = [Turn(player, ())]
    for i, ok in firsts.items():
        turns += [Turn(player, (a,)) for a, _ in ok]
        for j in cands:
            if j == i:
                continue
            for a, trial in ok:
                for b in cands[j]:
                    again = trial.copy()
                    try:
                        apply_action(again, player, canoes[j], card, b)
                    except IllegalEvent:
                        continue
                    turns.append(Turn(player, (a, b)))
    keys = set()
    for turn in turns:
        probe = _as_turn(game, player, card)
        try:
            probe.apply(turn)
        except IllegalEvent:
            continue
        keys.add(probe.state.key())
    return keys


def _as_turn(game: Game, player: str, card: int) -> Game:
    """A copy of the game in which it is `player`'s turn with `card` (as `moves` does)."""
    probe = Game(game.players, game.state.start, variants=game.state.variants)
    state = game.state.copy()
    state.phase = Phase.TURNS
    state.cards = dict(state.cards)
    state.cards[player] = card
    state.turn_index = state.turn_order.index(player)
    probe.state = state
    return probe


def generator_outcomes(game: Game, player: str, card: int) -> tuple[set[tuple], int]:
    keys = set()
    turns = game.legal_turns(player, card)
    for turn in turns:
        probe = _as_turn(game, player, card)
        probe.apply(turn)
        keys.add(probe.state.key())
    return keys, len(turns)
