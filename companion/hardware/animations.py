"""Short animations drawn over the danger zone: the river's push, a flash when a canoe
goes over the falls, a blink where the referee found an illegal move.

An animation is a pure drawing of (layout, seconds since it started); the controller
decides when each one starts and drops it once `duration` has passed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import colours
from .layout import FALLS, LedLayout

PULSE_TAIL = 8  # LEDs of fading light behind the pulse's head


class Animation:
    duration: float = 1.0

    def draw(self, frame: np.ndarray, layout: LedLayout, elapsed: float) -> None:
        raise NotImplementedError


@dataclass
class RiverPulse(Animation):
    """One push of the river: a bright wave from slot 1 down `branch` to the falls."""

    branch: str
    duration: float = 0.9
    _paths: dict[int, np.ndarray] = field(default_factory=dict, repr=False, compare=False)

    def _path(self, layout: LedLayout) -> np.ndarray:
        key = id(layout)
        if key not in self._paths:
            self._paths[key] = np.array(layout.river_path(self.branch), dtype=np.intp)
        return self._paths[key]

    def reach(self, layout: LedLayout) -> float:
        """Seconds after the start when the head reaches the falls."""
        path = self._path(layout)
        length = len(path) + PULSE_TAIL
        falls = FALLS[self.branch]
        first_falls = len(path) - (len(layout[falls]) if falls in layout else 0)
        return self.duration * first_falls / length

    def draw(self, frame: np.ndarray, layout: LedLayout, elapsed: float) -> None:
        path = self._path(layout)
        head = int(elapsed / self.duration * (len(path) + PULSE_TAIL))
        for k in range(PULSE_TAIL):
            i = head - k
            if 0 <= i < len(path):
                glow = np.array(colours.scale(colours.PULSE, 1.0 - k / PULSE_TAIL),
                                dtype=np.uint8)
                frame[path[i]] = np.maximum(frame[path[i]], glow)


@dataclass
class FallFlash(Animation):
    """A canoe went over the falls: three white flashes on that edge (both edges when
    the side is not known)."""

    sides: tuple[str, ...] = ("L", "R")
    duration: float = 0.6

    def draw(self, frame: np.ndarray, layout: LedLayout, elapsed: float) -> None:
        if (elapsed * 5.0) % 1.0 >= 0.5:
            return
        for side in self.sides:
            for name in (FALLS[side], f"7{side}"):
                if name in layout:
                    frame[layout.slice(name)] = colours.FLASH


@dataclass
class IllegalBlink(Animation):
    """The referee refused a move: the places it names blink magenta for two seconds
    (the whole river when it names none)."""

    places: tuple[str, ...]
    duration: float = 2.0

    def draw(self, frame: np.ndarray, layout: LedLayout, elapsed: float) -> None:
        colour = colours.ILLEGAL if (elapsed * 4.0) % 1.0 < 0.5 else colours.BLACK
        names = [p for p in self.places if p in layout] or \
            [p for p in layout if not p.startswith("weather")]
        for name in names:
            frame[layout.slice(name)] = colour
