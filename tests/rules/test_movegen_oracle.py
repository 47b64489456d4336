"""The move generator against brute force: every turn it lists is legal, every legal
turn is listed, and no two listed turns end in the same state (game-log.md: the
count is a property of the rules alone)."""

import random

import pytest

from companion.rules.random_play import random_position

from .oracle import brute_force_outcomes, generator_outcomes


def _positions(n: int, seed: int):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        game = random_position(rng, rounds=rng.randint(1, 15))
        if game.is_over:
            continue
        player = rng.choice(game.players)
        canoes = game.state.canoes[player]
        if all(at == "F" for at, _ in canoes):
            continue
        out.append((game, player, rng.randint(1, 6)))
    return out


@pytest.mark.parametrize("game,player,card", _positions(12, seed=7))
def test_generator_matches_brute_force(game, player, card):
    listed, count = generator_outcomes(game, player, card)
    assert count == len(listed), "two listed turns end in the same state"
    assert listed == brute_force_outcomes(game, player, card)
