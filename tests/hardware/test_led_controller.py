"""The LED controller: the danger zone on the strip, the animations of applied events,
the illegal-move blink, the render thread."""

import logging
import threading
import time

import numpy as np
import pytest

from companion.hardware import (
    FallFlash,
    IllegalBlink,
    LedController,
    Output,
    RiverPulse,
    SimulatedStrip,
    colours,
    default_layout,
    places_named,
)
from companion.hardware.controller import PUSH_GAP
from companion.hardware.strips import StripError
from companion.rules import Game, River, Verdict

from .helpers import THREE, game_after, river_with_blue_falling

LAYOUT = default_layout()
LINEAR = Output(brightness=255, gamma=1.0, budget_ma=None)


class Clock:
    def __init__(self) -> None:
        self.now = 10.0

    def __call__(self) -> float:
        return self.now


def controller() -> tuple[LedController, Clock]:
    clock = Clock()
    return LedController(SimulatedStrip(150, LINEAR), LAYOUT, clock=clock), clock


def lit(frame: np.ndarray, place: str, colour) -> int:
    """How many LEDs of a place show exactly `colour`."""
    return sum(tuple(frame[i].tolist()) == tuple(colour) for i in LAYOUT[place].indices)


def pulse_lit(frame: np.ndarray, place: str) -> bool:
    """The river's pulse is on this place (its blue-white is brighter than any zone)."""
    return any(int(frame[i][2]) >= 150 and int(frame[i][1]) >= 100
               for i in LAYOUT[place].indices)


def test_render_puts_the_zone_on_the_strip():
    leds, clock = controller()
    leds.show(river_with_blue_falling())
    leds.render(clock.now + 0.3)
    pixels = leds.strip.pixels()
    assert pixels[LAYOUT["7L"].indices[0]] == colours.FALL
    assert pixels[LAYOUT["5"].indices[0]] == colours.LAST


def test_nothing_shown_yet_is_dark():
    leds, _ = controller()
    assert not leds.frame().any()


def test_the_river_plays_one_pulse_per_push():
    game = river_with_blue_falling()  # speed 3: pushes to L, R, L
    leds, clock = controller()
    leds.show(game)
    game.apply({"event": "river"})
    leds.show(game)
    starts, was = [], False
    for k in range(400):
        now = clock.now + k * 0.01
        on = pulse_lit(leds.frame(now), "1")
        if on and not was:
            starts.append(now - clock.now)
        was = on
    assert len(starts) == 3
    assert starts[1] - starts[0] == pytest.approx(PUSH_GAP, abs=0.02)


def test_each_pulse_runs_down_the_branch_the_disc_took():
    game = river_with_blue_falling()
    leds, clock = controller()
    leds.show(game)
    game.apply({"event": "river", "steps": 3, "branches": ["R", "R", "L"]})
    leds.show(game)
    first = [leds.frame(clock.now + k * 0.01) for k in range(int(PUSH_GAP * 100))]
    assert any(pulse_lit(f, "6R") for f in first)
    assert not any(pulse_lit(f, "6L") for f in first)


def test_a_canoe_falling_in_the_river_flashes_its_edge():
    game = river_with_blue_falling()  # blue's canoe rides the disc on 6L over the left edge
    leds, clock = controller()
    leds.show(game)
    game.apply({"event": "river"})
    leds.show(game)
    frames = [leds.frame(clock.now + k * 0.01) for k in range(300)]
    assert any(lit(f, "falls-L", colours.FLASH) for f in frames)
    assert not any(lit(f, "falls-R", colours.FLASH) for f in frames)


def test_the_event_given_is_animated_even_when_the_game_has_moved_on():
    """The table's follower may deliver a change after more events landed: the applied
    river (and the engine's preview of it) travels with the change, so it still plays."""
    game = river_with_blue_falling()
    leds, clock = controller()
    leds.show(game)
    preview = game.preview_river()
    game.apply({"event": "river"})
    hands = game.state.hands
    game.apply({"event": "cards", "cards": {p: hands[p][0] for p in game.players}})
    leds.show(game, None, River(preview.steps, preview.branches), preview)
    frames = [leds.frame(clock.now + k * 0.01) for k in range(300)]
    assert any(pulse_lit(f, "1") for f in frames)
    assert any(lit(f, "falls-L", colours.FLASH) for f in frames)


def test_no_flash_when_no_canoe_falls():
    game = game_after(THREE, {"event": "cards", "cards": {"blue": 1, "green": 2, "yellow": 3}},
                      "D-1", "D-2", "D-3")
    leds, clock = controller()
    leds.show(game)
    game.apply({"event": "river"})
    leds.show(game)
    frames = [leds.frame(clock.now + k * 0.01) for k in range(200)]
    assert not any(lit(f, "falls-L", colours.FLASH) or lit(f, "falls-R", colours.FLASH)
                   for f in frames)
    assert any(pulse_lit(f, "3") for f in frames)


def test_a_canoe_paddled_over_the_falls_flashes_its_edge():
    game = game_after(THREE, {"event": "cards", "cards": {"blue": 6, "green": 1, "yellow": 1}},
                      "D-6L", "D-1", "D-1", {"event": "river"},
                      {"event": "cards", "cards": {"blue": 5, "green": 2, "yellow": 2}},
                      "2-4", "2-4")
    leds, clock = controller()
    leds.show(game)
    game.push_san("7L-F")  # R-MOVE-6: legal, just disastrous
    leds.show(game)
    assert lit(leds.frame(clock.now + 0.01), "falls-L", colours.FLASH)
    assert not lit(leds.frame(clock.now + 0.01), "falls-R", colours.FLASH)


def test_animations_end_and_the_zone_returns():
    game = river_with_blue_falling()
    leds, clock = controller()
    leds.show(game)
    game.apply({"event": "river"})
    leds.show(game)
    assert leds.animating
    calm = leds.frame(clock.now + 30.0)
    assert not leds.animating
    assert lit(calm, "1", colours.WATER) == len(LAYOUT["1"])


def test_undo_shows_the_earlier_state_without_animating():
    game = river_with_blue_falling()
    leds, clock = controller()
    game.apply({"event": "river"})
    leds.show(game)
    game.undo()
    leds.show(game)
    assert not leds.animating
    assert lit(leds.frame(clock.now + 0.3), "7L", colours.FALL) == len(LAYOUT["7L"])


def test_a_different_game_starts_fresh():
    leds, _ = controller()
    leds.show(Game(["red", "blue", "green"]))
    other = river_with_blue_falling()
    other.apply({"event": "river"})
    leds.show(other)  # not the game seen before: no river animation from nowhere
    assert not leds.animating


def test_an_illegal_move_blinks_the_slot_the_referee_names():
    game = river_with_blue_falling()
    game.undo()  # yellow to move again, with a 3
    leds, clock = controller()
    leds.show(game)
    event = {"event": "turn", "player": "yellow", "canoes": [{"from": "D", "to": "4"}]}
    verdict = game.check(event)
    assert not verdict.ok
    leds.show(game, verdict, event)
    on, off = leds.frame(clock.now + 0.05), leds.frame(clock.now + 0.2)
    assert lit(on, "4", colours.ILLEGAL) == len(LAYOUT["4"])
    assert lit(off, "4", colours.BLACK) == len(LAYOUT["4"])
    assert lit(on, "2", colours.ILLEGAL) == 0
    assert not lit(leds.frame(clock.now + 2.5), "4", colours.ILLEGAL)  # over after 2 s


def test_a_legal_verdict_blinks_nothing():
    leds, clock = controller()
    game = river_with_blue_falling()
    leds.show(game, Verdict(True))
    assert not leds.animating


@pytest.mark.parametrize("named, event, places", [
    (("4", "6R"), None, ("4", "6R")),
    (("D",), None, ("dock",)),
    (("F",), None, ("falls-L", "falls-R")),
    ((), None, ()),
    ((), {"event": "turn", "player": "blue", "canoes": [{"from": "3", "to": "1"}]}, ("3",)),
    ((), {"event": "nonsense"}, ()),
])
def test_places_named_are_the_verdicts_then_the_events(named, event, places):
    assert places_named(Verdict(False, "R-X", "any words", named), event) == places


def test_an_illegal_move_naming_no_place_blinks_the_river():
    leds, clock = controller()
    leds.show(river_with_blue_falling())
    leds.play(IllegalBlink(()))
    frame = leds.frame(clock.now + 0.05)
    assert lit(frame, "1", colours.ILLEGAL) and lit(frame, "7R", colours.ILLEGAL)
    assert not lit(frame, "weather0", colours.ILLEGAL)


def test_play_can_start_an_animation_later():
    leds, clock = controller()
    leds.show(river_with_blue_falling())
    leds.play(FallFlash(("R",)), delay=1.0)
    assert not lit(leds.frame(clock.now + 0.05), "falls-R", colours.FLASH)
    assert lit(leds.frame(clock.now + 1.05), "falls-R", colours.FLASH)


def test_pulse_reaches_the_falls_before_it_ends():
    pulse = RiverPulse("L")
    assert 0 < pulse.reach(LAYOUT) < pulse.duration


def test_a_layout_longer_than_the_strip_is_refused():
    with pytest.raises(ValueError, match="needs 150 LEDs"):
        LedController(SimulatedStrip(100), LAYOUT)


# -- the render thread ----------------------------------------------------------------------

def wait_for(condition, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


def test_the_render_thread_keeps_the_strip_current():
    strip = SimulatedStrip(150, LINEAR)
    changes = []
    strip.subscribe(changes.append)
    with LedController(strip, LAYOUT) as leds:
        assert leds.running
        leds.show(river_with_blue_falling())  # returns at once; the thread draws it
        assert wait_for(lambda: strip.pixels()[LAYOUT["7L"].indices[0]] == colours.FALL)
        frames = leds.frames
        assert wait_for(lambda: leds.frames > frames + 5)  # it keeps rendering
    assert not leds.running
    after = leds.frames
    time.sleep(0.05)
    assert leds.frames == after  # stopped means stopped
    assert changes  # the page hears of the new frames


def test_an_unchanged_frame_is_not_sent_again_at_once():
    leds, clock = controller()
    leds.show(river_with_blue_falling())
    leds.render(clock.now + 0.3)
    leds.render(clock.now + 0.31)  # the same picture
    assert leds.strip.shows == 1
    leds.render(clock.now + 0.6)  # the canoe blinks on: a new picture
    assert leds.strip.shows == 2


def test_show_from_many_threads_is_safe():
    leds = LedController(SimulatedStrip(150), LAYOUT).start()
    try:
        games = [river_with_blue_falling() for _ in range(4)]
        threads = [threading.Thread(target=lambda g=g: [leds.show(g) for _ in range(20)])
                   for g in games]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        leds.stop()
    assert leds.zone is not None and leds.zone.known


class FlakyStrip(SimulatedStrip):
    def _write(self, wire):
        raise StripError("the SPI transfer failed")


def test_a_failing_strip_is_logged_once_and_does_not_stop_rendering(caplog):
    leds = LedController(FlakyStrip(150), LAYOUT)
    leds.show(river_with_blue_falling())
    with caplog.at_level(logging.WARNING, logger="companion.hardware"):
        for k in range(6):
            leds.render(k * 0.3)  # the canoe blinks: a new frame each time
    assert [r.getMessage() for r in caplog.records] == ["LED strip: the SPI transfer failed"]
    assert leds.frames == 6
