"""The LEDs never tell a secret.

For game states in phase "cards" and "turns", every assignment of the unrevealed cards
that is consistent with public information (each unrevealed player's card is any card
left in their 7-card cycle; revealed cards and every public event stay as they were) is
built with the rules engine, driven through the LED controller exactly as the app
drives it (show() after every event), and the frames are compared: they must be
identical, at several moments of the blinking.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import numpy as np
import pytest

from companion.hardware import LedController, SimulatedStrip, danger_zone, default_layout
from companion.hardware.scene import draw_zone
from companion.rules import Cards, Game, Turn, card_key, river_speed
from companion.rules.random_play import greedy_turn, random_phase_events, random_setup_game

LAYOUT = default_layout()
MOMENTS = (0.0, 0.1, 0.3, 0.45, 0.8)  # blink on and off, animations under way


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def at_round(seed: int, players: int, rounds: int) -> Game:
    """A random game in phase "cards" of round `rounds` + 1 (buybacks done)."""
    rng = random.Random(seed)
    game = random_setup_game(rng, players, variants=())
    while game.round <= rounds and not game.is_over:
        random_phase_events(game, rng)
    assert game.phase == "cards", "the seed must give a game still running"
    return game


def round_turns(game: Game, seed: int, acted: int) -> tuple[dict, list[Turn]]:
    """This round's real cards and the first `acted` turns, chosen at random; `game` is
    left as it was."""
    rng = random.Random(seed)
    cards = {p: rng.choice(game.state.hands[p]) for p in game.players}
    game.apply(Cards.of(cards))
    turns = []
    for _ in range(acted):
        turn = greedy_turn(game, rng)
        game.apply(turn)
        turns.append(turn)
    for _ in range(acted + 1):
        game.undo()
    return cards, turns


def consistent_cards(game: Game, cards: dict, acted: int) -> Iterator[dict]:
    """Every cards event the table cannot tell from the real one once `acted` players
    have had their turn: the revealed cards (those who acted and the player to move) are
    fixed; each other player may hold any card left in their cycle."""
    order = game.state.turn_order
    revealed = {p: cards[p] for p in order[: acted + 1]}
    hidden = [p for p in order if p not in revealed]
    options = [sorted(set(game.state.hands[p]), key=card_key) for p in hidden]
    for combo in itertools.product(*options):
        yield revealed | dict(zip(hidden, combo, strict=True))


def frames_as_the_app_shows(game: Game, cards: dict, turns: list[Turn]) -> list[bytes]:
    """Apply the cards and turns, showing the game after each event as the app does; the
    frames at a few moments after the last. The game is left as it was."""
    clock = Clock()
    leds = LedController(SimulatedStrip(150), LAYOUT, clock=clock)
    leds.show(game)
    frames = [leds.frame(clock.now).tobytes()]  # phase "cards": the choices lie face down
    events = [Cards.of(cards), *turns]
    for event in events:
        game.apply(event)
        clock.now += 1.0
        leds.show(game)
    frames += [leds.frame(clock.now + dt).tobytes() for dt in MOMENTS]
    for _ in events:
        game.undo()
    return frames


CASES = [  # (seed, players, rounds already played, turns already taken this round)
    (1, 3, 0, 0), (1, 3, 0, 1), (1, 3, 0, 2),
    (2, 3, 3, 0), (2, 3, 3, 1), (3, 4, 5, 1), (3, 4, 5, 2),
    (4, 5, 0, 1), (4, 5, 2, 2), (5, 5, 4, 0), (5, 5, 4, 3), (6, 5, 5, 1), (7, 4, 9, 0),
    (8, 5, 0, 0),
]


@pytest.mark.parametrize("seed, players, rounds, acted", CASES)
def test_led_frames_are_identical_for_every_consistent_assignment(seed, players, rounds,
                                                                   acted):
    game = at_round(seed, players, rounds)
    cards, turns = round_turns(game, seed, acted)
    assignments = list(consistent_cards(game, cards, acted))
    assert len(assignments) > 1 or acted == players - 1
    expected = frames_as_the_app_shows(game, cards, turns)
    for assignment in assignments:
        assert frames_as_the_app_shows(game, assignment, turns) == expected, \
            f"the LEDs differ when the hidden cards are {assignment}"


def leaky_frame(game: Game) -> bytes:
    """What a careless implementation would show: the true speed from the secret cards."""
    frame = np.zeros((150, 3), dtype=np.uint8)
    zone = danger_zone(game)
    true = river_speed(game.state.cards.values(), game.state.weather)
    preview = game.preview_river(true)
    leaky = zone.__class__(**{**zone.__dict__, "certain": frozenset(preview.falling_slots),
                              "possible": frozenset()})
    draw_zone(frame, LAYOUT, leaky, 0.0)
    return frame.tobytes()


@pytest.mark.parametrize("seed, players, rounds, acted", [(1, 3, 0, 0), (5, 5, 4, 3)])
def test_the_secrecy_check_catches_a_leak(seed, players, rounds, acted):
    """The enumeration has teeth: frames drawn from the true (secret) speed differ
    between consistent assignments, so the test above would catch such a leak."""
    game = at_round(seed, players, rounds)
    cards, turns = round_turns(game, seed, acted)
    seen = set()
    for assignment in consistent_cards(game, cards, acted):
        for event in (Cards.of(assignment), *turns):
            game.apply(event)
        seen.add(leaky_frame(game))
        for _ in range(len(turns) + 1):
            game.undo()
    assert len(seen) > 1
