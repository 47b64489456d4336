"""The danger zone from rules-engine states (danger.py) and how it is drawn (scene.py)."""

import random

import numpy as np
import pytest

from companion.hardware import colours, danger_zone, default_layout
from companion.hardware.scene import draw_zone
from companion.rules import Game, parse_line
from companion.rules.random_play import random_game, random_phase_events, random_position

from .helpers import THREE, game_after, river_with_blue_falling, worked_example_lines

LAYOUT = default_layout()


def draw(game: Game, t: float = 0.0) -> np.ndarray:
    frame = np.zeros((150, 3), dtype=np.uint8)
    draw_zone(frame, LAYOUT, danger_zone(game), t)
    return frame


def colour_of(frame: np.ndarray, place: str) -> tuple[int, int, int]:
    """The colour of a place's range when it is one colour throughout."""
    values = {tuple(frame[i].tolist()) for i in LAYOUT[place].indices}
    assert len(values) == 1, f"{place} is not one colour: {values}"
    return values.pop()


def worked_example_after(line: int) -> Game:
    lines = worked_example_lines()
    game = Game.from_setup(parse_line(lines[0]))
    for text in lines[1:line]:
        try:
            game.apply(parse_line(text))
        except ValueError:
            pass
    return game


# -- once the speed is known (phase "river") -----------------------------------------------

def test_known_speed_marks_the_falling_discs_and_the_last_slots():
    zone = danger_zone(river_with_blue_falling())
    assert zone.known and zone.speeds == {3}
    assert zone.falling == {"6L", "7L", "7R"}
    assert zone.last == {"5", "6R"}
    assert zone.possible == set()


def test_known_speed_names_the_canoes_that_fall():
    assert danger_zone(river_with_blue_falling()).canoes == (("blue", "6L", None),)


def test_falling_discs_are_red_and_last_slots_amber():
    frame = draw(river_with_blue_falling(), t=0.3)  # blink off: the canoe mark is red too
    for slot in ("6L", "7L", "7R"):
        assert colour_of(frame, slot) == colours.FALL
    for slot in ("5", "6R"):
        assert colour_of(frame, slot) == colours.LAST
    for slot in ("1", "2", "3", "4"):
        assert colour_of(frame, slot) == colours.WATER


def test_a_falling_canoe_blinks_in_its_colour():
    on, off = draw(river_with_blue_falling(), t=0.0), draw(river_with_blue_falling(), t=0.3)
    marks = [i for i in LAYOUT["6L"].indices if tuple(on[i]) == colours.PLAYER["blue"]]
    assert 1 <= len(marks) <= 3
    assert all(tuple(off[i]) == colours.FALL for i in marks)


def test_canoes_that_stay_are_not_marked():
    frame = draw(river_with_blue_falling(), t=0.0)
    for slot in ("6R", "3"):  # green on 6R, yellow on 3: both safe this round
        assert colour_of(frame, slot) != colours.PLAYER["green"]
    assert colour_of(frame, "6R") == colours.LAST


def test_both_falls_edges_glow_when_discs_go_over_both():
    frame = draw(river_with_blue_falling())
    assert colour_of(frame, "falls-L") == colours.FALL
    assert colour_of(frame, "falls-R") == colours.FALL


def test_speed_zero_shows_calm_water_and_the_discs_left_on_the_last_slots():
    game = game_after(THREE, {"event": "cards", "cards": {"blue": "cloud", "green": "cloud",
                                                          "yellow": "cloud"}},
                      {"event": "turn", "player": "blue", "cloud": "down"},
                      {"event": "turn", "player": "green", "cloud": "up"},
                      {"event": "turn", "player": "yellow", "cloud": "down"})
    assert game.speed == 0
    frame = draw(game)
    assert all(colour_of(frame, s) == colours.WATER for s in ("1", "5", "6L", "6R"))
    assert colour_of(frame, "7L") == colour_of(frame, "7R") == colours.LAST
    assert colour_of(frame, "falls-L") == colours.FOAM


# -- before (phases "cards" and "turns") -------------------------------------------------

def test_before_the_reveal_only_possible_speeds_count():
    game = worked_example_after(5)  # red to move with a face-up 1; brown still hidden
    zone = danger_zone(game)
    assert not zone.known
    assert zone.speeds == game.possible_speeds() == {1, 2, 3}
    assert zone.certain == {"7L"}  # one step (to the left) happens whatever brown holds
    assert zone.possible == {"6L", "7R"}
    assert zone.canoes == () and zone.last == set()


def test_the_speed_is_known_once_the_last_card_turned_up_leaves_one():
    game = worked_example_after(6)  # brown, last to move, shows a 4: speed 1 + 1 = 2
    zone = danger_zone(game)
    assert game.phase == "turns" and zone.known and zone.speeds == {2}
    assert zone.falling == {"7L", "7R"} and zone.last == {"6L", "6R"}


def test_certain_and_possible_falls_show_in_two_strengths():
    frame = draw(worked_example_after(5))
    assert colour_of(frame, "7L") == colours.FALL
    assert colour_of(frame, "6L") == colours.FALL_MAYBE
    assert colour_of(frame, "7R") == colours.FALL_MAYBE
    assert colour_of(frame, "falls-L") == colours.FALL
    assert colour_of(frame, "falls-R") == colours.FALL_MAYBE
    assert colours.FALL_MAYBE[0] < colours.FALL[0] / 2  # clearly weaker


def test_weather_and_player_to_move_are_shown():
    game = worked_example_after(5)  # green moved the cloud to +1; red to move
    frame = draw(game)
    assert colour_of(frame, "weather+1") == colours.CLOUD
    assert colour_of(frame, "weather0") == colours.TRACK
    assert colour_of(frame, "dock") == colours.scale(colours.PLAYER["red"], 0.5)


@pytest.mark.parametrize("seed", range(30))
def test_the_real_river_never_contradicts_the_zone(seed):
    """Play the round out: the speed that comes is one the zone allowed, and the discs
    that then fall include every 'certain' slot and lie within certain + possible."""
    rng = random.Random(seed)
    game = random_position(rng, players=rng.randint(3, 5))
    if game.phase not in ("cards", "turns"):
        return
    zone = danger_zone(game)
    while game.phase in ("cards", "turns"):
        random_phase_events(game, rng)
    if game.is_over:
        return
    assert game.speed in zone.speeds
    falls = set(game.preview_river().falling_slots)
    assert zone.certain <= falls <= zone.certain | zone.possible


# -- the end -------------------------------------------------------------------------------

def finished_game(seed: int) -> Game:
    *_, (game, _event) = random_game(random.Random(seed), players=3)
    assert game.is_over
    return game


def test_the_winner_colour_fills_the_strip():
    game = finished_game(1)
    assert len(game.winners) == 1
    frame = draw(game, t=1.25)  # the breath at its brightest
    assert {tuple(c) for c in frame.tolist()} == {colours.PLAYER[game.winners[0]]}


def test_the_winner_colour_breathes():
    game = finished_game(1)
    assert draw(game, t=0.0).sum() < draw(game, t=1.25).sum()


def test_several_winners_share_the_strip():
    game = finished_game(1)
    game.state.winners = ["blue", "yellow"]  # a shared win (R-WIN-2)
    frame = draw(game, t=1.25)
    assert {tuple(c) for c in frame.tolist()} == {colours.PLAYER["blue"],
                                                   colours.PLAYER["yellow"]}
