"""The object the app drives: give it the game after every event, it keeps the strip
showing the danger zone and plays the animations, in a render thread.

    strip = make_strip(config)
    leds = LedController(strip, config.layout)
    leds.start()                       # renders at 60 frames a second until stop()
    leds.show(game)                    # after every applied event
    leds.show(game, verdict, event)    # after a refused one: the named slot blinks
    leds.stop()

`show()` animates the event just applied (given, or found by comparing with the game
it was shown last): a pulse per push of the river, a flash when a canoe falls. Only
public information reaches the LEDs (see companion.rules.danger); the frame for a moment is
`frame(now)`, which tests call directly.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from companion.rules import (
    Game,
    River,
    RiverPreview,
    State,
    Turn,
    parse_event,
    preview_river,
    river_speed,
)
from companion.rules.danger import DangerZone, danger_zone

from .animations import Animation, FallFlash, IllegalBlink, RiverPulse
from .layout import DOCK, FALLS, LedLayout
from .scene import draw_zone
from .strips import Strip, StripError

log = logging.getLogger("companion.hardware")

PUSH_GAP = 0.6  # seconds between the pulses of two pushes of the river
RESEND = 1.0  # seconds after which an unchanged frame is sent to the strip again


def places_named(verdict: Any, event: Any = None) -> tuple[str, ...]:
    """The LED places a refused move is about: those the referee's verdict names
    (``Verdict.places``), else where the event's canoes started."""
    named: list[str] = []
    for place in getattr(verdict, "places", ()) or ():
        if place == "D":
            named.append(DOCK)
        elif place == "F":
            named.extend(FALLS.values())  # the verdict does not say which side
        else:
            named.append(place)
    if named:
        return tuple(dict.fromkeys(named))
    if isinstance(event, Mapping):
        try:
            event = parse_event(event)
        except ValueError:
            return ()
    if isinstance(event, Turn):
        return tuple(dict.fromkeys(
            DOCK if a.origin == "D" else a.origin for a in event.canoes if a.origin != "F"))
    return ()


class LedController:
    """Keeps a strip showing a game. Thread-safe: show() may come from any thread."""

    def __init__(self, strip: Strip, layout: LedLayout, *, fps: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if layout.count > strip.count:
            raise ValueError(f"the layout needs {layout.count} LEDs, the strip has "
                             f"{strip.count}")
        self.strip = strip
        self.layout = layout
        self.fps = fps
        self.clock = clock
        self.zone: DangerZone | None = None
        self._frame = np.zeros((strip.count, 3), dtype=np.uint8)
        self._animations: list[tuple[float, Animation]] = []
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._seen: tuple[int, int] | None = None  # (id(game), number of events)
        self._before: State | None = None  # the state before the newest event
        self._strip_failed = False
        self._last_sent: np.ndarray | None = None
        self._last_sent_at = 0.0
        self.frames = 0  # frames computed by render()

    # -- what to show ---------------------------------------------------------------

    def show(self, game: Game, verdict: Any = None, event: Any = None,
             river: RiverPreview | None = None, zone: DangerZone | None = None) -> None:
        """Show `game` now. With a refused move, pass the referee's verdict (and the
        event) to make the places it names blink. With the event just applied (and,
        for the river, the engine's preview of it), that event is animated; without
        it, show() finds it by comparing `game` with the one it was shown last. `zone`
        is the game's danger zone when the caller has it already (the live table
        carries it with every change)."""
        zone = zone or danger_zone(game)
        now = self.clock()
        with self._lock:
            self.zone = zone
            refused = verdict is not None and not getattr(verdict, "ok", True)
            seen = (id(game), len(game.events))
            if event is None and self._before is not None and self._seen is not None \
                    and self._seen[0] == seen[0] and seen[1] == self._seen[1] + 1:
                event = game.events[-1]
                if isinstance(event, River):
                    steps = event.steps
                    if steps is None:
                        steps = river_speed(self._before.cards.values(), self._before.weather)
                    river = preview_river(self._before, steps, event.branches)
            if event is not None and not refused:
                self._animate(event, river, now)
            self._seen = seen
            self._before = game.state.copy()
            if refused:
                self._animations.append((now, IllegalBlink(places_named(verdict, event))))

    def play(self, animation: Animation, delay: float = 0.0) -> None:
        """Start an animation now (or `delay` seconds from now)."""
        with self._lock:
            self._animations.append((self.clock() + delay, animation))

    def _animate(self, event: Any, river: RiverPreview | None, now: float) -> None:
        if isinstance(event, River) and river is not None:
            for k, branch in enumerate(river.branches):
                pulse = RiverPulse(branch)
                start = now + k * PUSH_GAP
                self._animations.append((start, pulse))
                if k < len(river.canoe_falls) and river.canoe_falls[k]:
                    self._animations.append((start + pulse.reach(self.layout),
                                             FallFlash((branch,))))
        elif isinstance(event, Turn):
            fell = [a for a in event.canoes if a.to == "F"]
            if fell:
                sides = {a.origin[-1] for a in fell if a.origin[-1] in "LR"}
                self._animations.append((now, FallFlash(tuple(sorted(sides)) or ("L", "R"))))

    # -- frames ---------------------------------------------------------------------

    def frame(self, now: float | None = None) -> np.ndarray:
        """The frame for moment `now` (default: the clock): the zone, then animations."""
        if now is None:
            now = self.clock()
        with self._lock:
            frame = self._frame
            if self.zone is None:
                frame[:] = 0
            else:
                draw_zone(frame, self.layout, self.zone, now)
            alive = []
            for start, animation in self._animations:
                elapsed = now - start
                if elapsed >= animation.duration:
                    continue
                alive.append((start, animation))
                if elapsed >= 0:
                    animation.draw(frame, self.layout, elapsed)
            self._animations = alive
            return frame.copy()

    @property
    def animating(self) -> bool:
        with self._lock:
            return bool(self._animations)

    def render(self, now: float | None = None) -> None:
        """Compute the frame for `now` and show it on the strip. An unchanged frame is
        sent again only once a second (LEDs keep their colour; the resend heals a strip
        that lost power)."""
        frame = self.frame(now)
        self.frames += 1
        wall = time.monotonic()
        if self._last_sent is not None and np.array_equal(frame, self._last_sent) \
                and wall - self._last_sent_at < RESEND:
            return
        self._last_sent, self._last_sent_at = frame, wall
        self.strip.set_frame(frame)
        try:
            self.strip.show()
        except StripError as exc:
            if not self._strip_failed:
                log.warning("LED strip: %s", exc)
            self._strip_failed = True
        else:
            self._strip_failed = False

    # -- the render thread ----------------------------------------------------------

    def start(self) -> LedController:
        """Render in a background thread at `fps` frames a second until stop()."""
        if self._thread is not None:
            return self
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="led-render", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        period = 1.0 / self.fps
        next_tick = time.monotonic()
        while not self._stop.is_set():
            try:
                self.render()
            except Exception:  # a bad frame must not kill the LEDs for the whole game
                log.exception("LED render failed")
            next_tick += period
            delay = next_tick - time.monotonic()
            if delay < 0:  # fell behind (a busy Pi): skip frames rather than queue them
                next_tick = time.monotonic()
                delay = 0
            self._stop.wait(delay)

    def stop(self) -> None:
        """Stop the render thread (the strip keeps its last frame)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
            self._thread = None

    @property
    def running(self) -> bool:
        return self._thread is not None

    def __enter__(self) -> LedController:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
