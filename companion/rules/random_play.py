"""Random games made only of legal events: for property tests, benchmarks, and the
vision's synthetic boards. Pure: the caller passes the random generator."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator, Sequence
from functools import lru_cache

from .events import Buyback, Cards, Event, River, Turn
from .game import Game
from .geometry import DEPOSIT_AT, DEPTH, GEMS, PLAYER_COLOURS, SLOTS, VARIANTS, WEATHER_TRACK
from .movegen import Option, apply_to_deposits, canoe_options, robbed_state
from .river import branches_for, downstream, other_branch, step_river
from .state import Canoe, State


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


def random_phase_events(game: Game, rng: random.Random, observed_branches: float = 0.3,
                        *, judged: bool = False, seen_only: bool = False) -> list[Event]:
    """The legal events that finish the current phase, chosen at random, applied to
    `game` as they are made.

    Every event goes through :meth:`Game.apply` (judged), except numbered-card turns:
    the move generator already knows where they lead, so they take the engine's fast
    path (:meth:`Game._play_generated`) unless `judged` is true. Both ways give the
    same events and the same states.

    A river is observed (its branches drawn at random) `observed_branches` of the time.
    `seen_only`: a disc then enters the branch the alternation would not (R-RIVER-3)
    only where that moves a canoe differently, so the events are what a perfect camera
    at the table could log (the same draws either way).
    """
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
            turn, moves = _choose(game, rng)
            if moves is None or judged:
                push(turn)
            else:
                game._play_generated(turn, moves)
                events.append(turn)
    elif game.phase == "river":
        steps = game.speed or 0
        if rng.random() < observed_branches:
            branches = tuple(rng.choice("LR") for _ in range(steps))
            push(_seen_river(game.state, branches) if seen_only else River(steps, branches))
        else:
            push(River())
    return events


def _seen_river(before: State, wanted: Sequence[str]) -> River:
    """The river of `wanted` branches, each off the alternation kept only where it moves
    a canoe differently; ``River()`` when that leaves the alternation itself."""
    state = copy.deepcopy(before)
    taken = []
    for branch in wanted:
        usual = state.branch_next
        if branch != usual:
            other, alternate = copy.deepcopy(state), copy.deepcopy(state)
            step_river(other, branch)
            step_river(alternate, usual)
            if other.canoes == alternate.canoes:
                branch = usual
        step_river(state, branch)
        taken.append(branch)
    if taken == branches_for(before, len(taken)):
        return River()
    return River(len(taken), tuple(taken))


def random_game(rng: random.Random, players: int | Sequence[str] | None = None,
                max_rounds: int = 500, variants: Sequence[str] | None = None,
                *, judged: bool = False) -> Iterator[tuple[Game, Event]]:
    """Play a whole random game; yields (game, event) after each phase, once for each
    event of the phase. The first event yielded is the setup. `judged`: every event
    through :meth:`Game.apply` (see :func:`random_phase_events`)."""
    game = random_setup_game(rng, players, variants)
    yield game, game.setup
    while not game.is_over and game.round <= max_rounds:
        for event in random_phase_events(game, rng, judged=judged):
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


# What landing a gem of each colour costs, roughly: the trip down to its deposit and back.
_TRIP = {g: DEPTH[place] / 3 for place, g in reversed(DEPOSIT_AT.items())}


def random_positions(rng: random.Random, count: int, phase: str = "turns") -> list[Game]:
    """`count` random positions (``random_position``) that stopped in `phase`."""
    out: list[Game] = []
    while len(out) < count:
        game = random_position(rng)
        if game.phase == phase:
            out.append(game)
    return out


def _still_to_win(camp: Sequence[str]) -> float:
    """R-WIN-1 by its cheapest way from `camp`: four of one colour, all five colours,
    or seven gems, each missing gem weighed by the trip it takes."""
    have = {g: camp.count(g) for g in GEMS}
    four = min((4 - n) * _TRIP[g] for g, n in have.items() if n < 4) if \
        max(have.values()) < 4 else 0.0
    five = sum(_TRIP[g] for g, n in have.items() if not n)
    seven = max(0, 7 - len(camp)) * _TRIP["violet"]
    return min(four, five, seven)


@lru_cache(maxsize=4096)
def _progress(camp: tuple[str, ...]) -> dict[str, float]:
    """How much nearer to winning a gem of each colour brings the camp when it lands."""
    now = _still_to_win(camp)
    return {g: now - _still_to_win([*camp, g]) for g in GEMS}


def _steps_to_fall(slot: str, branch: str) -> int:
    """How many river steps take the disc on `slot` over the falls, the discs entering
    the branches alternately from `branch` (R-RIVER-2, R-RIVER-3)."""
    steps = 0
    while slot != "F":
        slot = downstream(slot, branch) or slot
        branch = other_branch(branch)
        steps += 1
    return steps


_FALL_STEPS = {(slot, b): _steps_to_fall(slot, b) for slot in SLOTS for b in "LR"}


@lru_cache(maxsize=1024)
def _fall_risk(branch: str, weather: int, known: int, unknown: int) -> dict[str, float]:
    """The chance that each slot's disc goes over the falls this round, as a player sees
    it: the lowest card known so far (`known`, 7 for none), `unknown` players whose
    cards are still hidden, each taken as any of the 7 cards (the cloud lowers nothing)."""
    risk = {}
    for slot in SLOTS:
        lowest = _FALL_STEPS[slot, branch] - weather  # the lowest card that drops it
        if lowest > known:
            risk[slot] = 0.0
        elif lowest <= 1:
            risk[slot] = 1.0
        else:
            risk[slot] = ((8 - lowest) / 7) ** unknown
    return risk


def _risk_now(state: State, player: str, value: int) -> dict[str, float]:
    """The fall risk of each slot for `player`, who plays `value` in this phase II."""
    known, cards, acted = value, state.cards, state.turn_index
    for p in state.turn_order[:acted]:
        card = cards[p]
        if isinstance(card, int) and card < known:
            known = card
    return _fall_risk(state.branch_next, state.weather, known, len(state.players) - acted - 1)


def _canoe_value(place: str, gem: str | None, progress: dict[str, float],
                 risk: dict[str, float]) -> float:
    """How good a canoe's place is for its owner, with the river still to push it
    downstream: a gem near the dock, an empty canoe near a deposit, not the falls."""
    if place == "F":
        return _FALLEN
    if place == "D":
        return _EMPTY_VALUE[0]
    depth = DEPTH[place]
    if gem is None:
        alive = _EMPTY_VALUE[depth]
    else:
        alive = 8.0 + (7 - depth) + 3.0 * progress[gem]
    fall = risk[place]
    return alive if not fall else (1 - fall) * alive + fall * _FALLEN


# An empty canoe: on the dock it waits; by the deposits it loads next turn.
_EMPTY_VALUE = (0.0, 1.0, 1.5, 2.0, 2.0, 2.0, 1.0, 0.5)
_FALLEN = -10.0


def _cloud_turn(game: Game, rng: random.Random) -> Turn:
    """The cloud mostly moves down: a slower river drops fewer canoes over the falls
    (R-RIVER-1); always on the track (R-WEATHER-1)."""
    state = game.state
    player = game.to_move
    assert player is not None
    if state.weather == WEATHER_TRACK[0]:
        return Turn(player, cloud="up")
    if state.weather == WEATHER_TRACK[-1] or rng.random() < 0.9:
        return Turn(player, cloud="down")
    return Turn(player, cloud="up")


def greedy_turn(game: Game, rng: random.Random, slack: float = 0.0) -> Turn:
    """A legal turn built canoe by canoe, each taking one of its most helpful moves
    (ties broken at random): gems landed, gems loaded near the dock, canoes kept away
    from the falls this round may reach, thefts when they pay. Much cheaper than
    listing every turn."""
    return _greedy(game, rng, slack)[0]


def _greedy(game: Game, rng: random.Random, slack: float
            ) -> tuple[Turn, list[tuple[int, Option]] | None]:
    """:func:`greedy_turn`, with the canoe moves it is made of (None for the cloud)."""
    state = game.state
    player = state.to_move
    assert player is not None
    card = state.cards[player]
    if card == "cloud":
        return _cloud_turn(game, rng), None
    value = int(card)
    # How good a canoe's move is: where it ends (worth), a gem landed, a theft.
    progress = _progress(tuple(state.camps[player]))
    risk = _risk_now(state, player, value)
    worth: dict[Canoe, float] = {}
    canoes = state.canoes[player]
    (at0, gem0), (at1, gem1) = canoes
    river0, river1 = at0 not in ("D", "F"), at1 not in ("D", "F")
    if river0 and river1:  # R-WHICH-3 (in either order, R-WHICH-5)
        acting = [0, 1] if rng.random() < 0.5 else [1, 0]
    elif river0 or river1:  # R-WHICH-2: the docked one may also go (see below)
        river, other = (0, 1) if river0 else (1, 0)
        docked = canoes[other][0] == "D"
        acting = [river] if not docked else [river, other] if rng.random() < 0.5 else \
            [other, river]
    else:  # R-WHICH-1, R-WHICH-4: launch one canoe from the dock
        acting = [0] if at0 == "D" else [1] if at1 == "D" else []
    twins = at0 == at1 and gem0 != gem1
    seen, deposits, actions, moves = state, state.deposits, [], []
    for i in acting:
        canoe = canoes[i]
        options = canoe_options(seen, deposits, player, canoe, value)
        scores = []
        for o in options:
            v = worth.get(o.end)
            if v is None:
                v = worth[o.end] = _canoe_value(*o.end, progress, risk)
            if o.camp is not None:
                v += 20.0 + 6.0 * progress[o.camp]
            if o.robbed is not None:
                v += 1.0  # the gem is worth as much to the victim
            scores.append(v)
        best = max(scores)
        if canoe[0] == "D" and len(acting) == 2 and best <= _EMPTY_VALUE[0]:
            continue  # launching is optional and would not help
        if not slack and scores.count(best) == 1:
            pick = options[scores.index(best)]
        else:
            good = [o for o, s in zip(options, scores, strict=True) if s >= best - slack]
            pick = good[0] if len(good) == 1 else rng.choice(good)
        actions.append(pick.act(canoe[1]) if twins else pick.act())
        moves.append((i, pick))
        if pick.deltas:
            deposits = apply_to_deposits(deposits, pick)
        if pick.robbed:
            seen = robbed_state(seen, pick.robbed)
    return Turn(player, tuple(actions)), moves


def choose_turn(game: Game, rng: random.Random, greed: float = 0.85,
                slack: float = 4.0) -> Turn:
    """A random legal turn of the player to move, built by :func:`greedy_turn`: with
    probability `greed` each canoe takes one of its best moves, otherwise any move not
    more than `slack` worse than its best (so games vary, and still end)."""
    return _choose(game, rng, greed, slack)[0]


def _choose(game: Game, rng: random.Random, greed: float = 0.85, slack: float = 4.0
            ) -> tuple[Turn, list[tuple[int, Option]] | None]:
    """:func:`choose_turn`, with the canoe moves it is made of (None for the cloud)."""
    return _greedy(game, rng, 0.0 if rng.random() < greed else slack)
