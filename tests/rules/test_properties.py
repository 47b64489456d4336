"""Property tests (hypothesis): random games made only of legal events never break the
invariants of rules.md section 9, always end, and undo gives back the exact snapshot."""

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import CARD_VALUES, GEM_TOTAL, WEATHER_TRACK, Game
from companion.rules.random_play import random_game, random_phase_events, random_setup_game

seeds = st.integers(min_value=0, max_value=2**32 - 1)
slow = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_invariants(game: Game) -> None:
    state = game.state
    gems = sum(n for pile in state.deposits.values() for n in pile.values())
    gems += sum(1 for cs in state.canoes.values() for _, g in cs if g is not None)
    gems += sum(len(c) for c in state.camps.values())
    assert gems == GEM_TOTAL, "gems are conserved"
    assert all(n > 0 for pile in state.deposits.values() for n in pile.values())
    for player in game.players:
        assert len(state.canoes[player]) == 2, "every player has exactly 2 canoes"
        cycle = Counter(state.hands[player]) + Counter(state.played[player])
        assert cycle == Counter(CARD_VALUES), "hand + discard cycle = the 7 cards"
        assert not any(g for at, g in state.canoes[player] if at in ("D", "F")), \
            "canoes on the dock or below the falls carry nothing"
    assert state.weather in WEATHER_TRACK


@slow
@given(seed=seeds, players=st.integers(3, 5))
def test_random_games_keep_the_invariants_and_end(seed, players):
    rng = random.Random(seed)
    game = None
    for game, _ in random_game(rng, players=players, max_rounds=400):
        assert_invariants(game)
    assert game is not None and game.is_over, "a random game ends"
    assert game.winners
    assert game.state.to_move is None


@slow
@given(seed=seeds)
def test_undo_after_any_event_restores_the_snapshot(seed):
    rng = random.Random(seed)
    game = random_setup_game(rng)
    while not game.is_over and game.round <= 12:
        before = game.snapshot()
        events = random_phase_events(game, rng)
        for event in reversed(events):
            assert game.undo() == event
        assert game.snapshot() == before
        for event in events:
            snap = game.snapshot()
            game.apply(event)
            game.undo()
            assert game.snapshot() == snap
            game.apply(event)


@settings(max_examples=40, deadline=None)
@given(seed=seeds)
def test_every_listed_turn_is_legal_and_distinct(seed):
    rng = random.Random(seed)
    game = random_setup_game(rng)
    while not game.is_over and game.round <= rng.randint(1, 10):
        random_phase_events(game, rng)
    if game.is_over:
        return
    player = rng.choice(game.players)
    card = rng.choice(CARD_VALUES)
    outcomes = set()
    for turn in game.legal_turns(player, card):
        probe = Game(game.players, game.state.start, variants=game.state.variants)
        probe.state = game.state.copy()
        probe.state.phase, probe.state.cards = "turns", {player: card}
        probe.state.turn_index = probe.state.turn_order.index(player)
        assert probe.check(turn).ok, (turn, probe.check(turn))
        probe.apply(turn)
        outcomes.add(probe.state.key())
    assert len(outcomes) == len(game.legal_turns(player, card))


@slow
@given(seed=seeds, players=st.integers(3, 5))
def test_generated_turns_reach_the_same_states_as_the_judge(seed, players):
    """Random play applies the generator's turns without judging them again; judged
    one by one through Game.apply, the same game reaches the same states."""
    fast = [(g.snapshot(), e) for g, e in random_game(random.Random(seed), players=players)]
    judged = [(g.snapshot(), e) for g, e in
              random_game(random.Random(seed), players=players, judged=True)]
    assert fast == judged
