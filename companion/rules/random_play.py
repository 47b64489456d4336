"""Random games made only of legal events: for property tests, benchmarks, and the
vision's synthetic boards. Pure: the caller passes the random generator."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from .events import Buyback, CanoeAction, Cards, Event, River, Turn
from .game import Game
from .geometry import DEPTH, PLAYER_COLOURS, VARIANTS
from .movegen import Option, apply_to_deposits, canoe_options, robbed_state


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


def _canoe_value(place: str, gem: str | None) -> float:
    """How good a canoe's place is for its owner: gems near the dock, not the falls."""
    if place == "F":
        return -4.0
    if gem is None:
        return -1.0 * max(0, DEPTH[place] - 5)  # empty and near the falls: risky
    return 3.0 + (8 - DEPTH[place])


def _progress(option: Option) -> float:
    return (10.0 * (option.camp is not None) + 3.0 * (option.robbed is not None)
            + _canoe_value(*option.end))


def greedy_turn(game: Game, rng: random.Random) -> Turn:
    """A legal turn built canoe by canoe, each taking one of its most helpful moves
    (ties broken at random). Much cheaper than listing every turn."""
    player = game.to_move
    assert player is not None
    state = game.state
    card = state.cards[player]
    if card == "cloud":
        return rng.choice(game.legal_turns())
    canoes = list(state.canoes[player])
    river = [i for i, c in enumerate(canoes) if c[0] not in ("D", "F")]
    docked = [i for i, c in enumerate(canoes) if c[0] == "D"]
    if not river:
        acting = docked[:1]  # R-WHICH-1, R-WHICH-4
    else:
        acting = river + ([docked[0]] if docked and rng.random() < 0.5 else [])  # R-WHICH-2
    rng.shuffle(acting)  # R-WHICH-5: either order
    twins = canoes[0][0] == canoes[1][0] and canoes[0][1] != canoes[1][1]
    seen, deposits, actions = state, state.deposits, []
    for i in acting:
        options = canoe_options(seen, deposits, player, canoes[i], int(card))
        best = max(_progress(o) for o in options)
        pick = rng.choice([o for o in options if _progress(o) == best])
        action = pick.action
        if twins:
            action = CanoeAction(action.origin, action.to, action.pre, action.post,
                                 action.steal, canoes[i][1])
        actions.append(action)
        deposits = apply_to_deposits(deposits, pick)
        if pick.robbed:
            seen = robbed_state(seen, pick.robbed)
    return Turn(player, tuple(actions))


def choose_turn(game: Game, rng: random.Random, greed: float = 0.9) -> Turn:
    """A random legal turn of the player to move: with probability `greed` a greedy one
    (so that random games end), otherwise any of the distinct legal turns."""
    if rng.random() < greed:
        return greedy_turn(game, rng)
    return rng.choice(game.legal_turns())
