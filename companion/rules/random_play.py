"""Random games made only of legal events: for property tests, benchmarks, and the
vision's synthetic boards. Pure: the caller passes the random generator."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from .events import Buyback, Cards, Event, River, Turn
from .game import Game
from .geometry import DEPTH, PLAYER_COLOURS, VARIANTS
from .movegen import Outcome, turn_outcomes


def random_setup_game(rng: random.Random, players: int | Sequence[str] | None = None,
                      variants: Sequence[str] | None = None) -> Game:
    """A new game with random (or given) players, start player, first branch, variants."""
    if players is None:
        players = rng.randint(3, 5)
    if isinstance(players, int):
        names = rng.sample(PLAYER_COLOURS, players)
    else:
        names = list(players)
    if variants is None:
        variants = [v for v in VARIANTS if rng.random() < 0.25]
    return Game(names, start=rng.choice(names), branch=rng.choice("LR"), variants=variants)


def random_phase_events(game: Game, rng: random.Random,
                        observed_branches: float = 0.3) -> list[Event]:
    """The legal events that finish the current phase, chosen at random, applied to
    `game` as they are made."""
    events: list[Event] = []

    def push(event: Event) -> None:
        game.apply(event)
        events.append(event)

    if game.phase == "cards":
        for player in game.players:
            fallen = [c for c in game.state.canoes[player] if c[0] == "F"]
            camp = game.state.camps[player]
            if len(fallen) == 2 and not camp:  # R-BUY-2
                push(Buyback(player))
            elif fallen and camp and (len(fallen) == 2 or rng.random() < 0.5):
                for _ in range(rng.randint(1, min(len(fallen), len(camp)))):
                    push(Buyback(player, rng.choice(game.state.camps[player])))
        push(Cards.of({p: rng.choice(game.state.hands[p]) for p in game.players}))
    elif game.phase == "turns":
        while game.phase == "turns":
            push(choose_turn(game, rng))
    elif game.phase == "river":
        steps = game.speed or 0
        if rng.random() < observed_branches:
            push(River(steps, tuple(rng.choice("LR") for _ in range(steps))))
        else:
            push(River())
    return events


def random_game(rng: random.Random, players: int | Sequence[str] | None = None,
                max_rounds: int = 500, variants: Sequence[str] | None = None
                ) -> Iterator[tuple[Game, Event]]:
    """Play a whole random game; yields (game, event) after each applied event. The
    first event yielded is the setup."""
    game = random_setup_game(rng, players, variants)
    yield game, game.setup
    while not game.is_over and game.round <= max_rounds:
        for event in random_phase_events(game, rng):
            yield game, event


def random_position(rng: random.Random, rounds: int | None = None,
                    players: int | Sequence[str] | None = None) -> Game:
    """A game after `rounds` (default: 0-12 at random) random rounds, stopped in a
    random phase, part-way through phase II when it stops there."""
    target = rng.randint(0, 12) if rounds is None else rounds
    game = random_setup_game(rng, players)
    while not game.is_over and game.round <= target:
        random_phase_events(game, rng)
    for _ in range(rng.randint(0, 1)):
        if not game.is_over:
            random_phase_events(game, rng)  # into phase II
    if game.phase == "turns":
        for _ in range(rng.randint(0, len(game.players) - 1)):
            game.apply(rng.choice(game.legal_turns()))
    return game


def _progress(outcome: Outcome) -> float:
    """How much a turn helps its player: gems home, then gems carried near the dock."""
    score = 10.0 * len(outcome.camp) + 2.0 * len(outcome.robbed)
    for place, gem in outcome.canoes:
        if place == "F":
            score -= 3.0
        elif gem is not None:
            score += 2.0 + (8 - DEPTH[place]) / 2
    return score


def choose_turn(game: Game, rng: random.Random, greed: float = 0.75) -> Turn:
    """A random legal turn of the player to move: with probability `greed` one of the
    turns that help most (so that random games end), otherwise any legal turn."""
    player = game.to_move
    assert player is not None
    options = turn_outcomes(game.state, player, game.state.cards[player])
    if rng.random() < greed:
        best = max(_progress(o) for _, o in options)
        options = [(t, o) for t, o in options if _progress(o) == best]
    return rng.choice(options)[0]
