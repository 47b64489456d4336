"""LED strips: the common interface, the simulated strip and the null strip.

>>> strip = SimulatedStrip(5)
>>> strip.fill((255, 0, 0))
>>> strip.show()
>>> strip.pixels()[0]
(255, 0, 0)

The real driver for a Raspberry Pi is :class:`companion.hardware.ws281x.Ws281xStrip`;
:func:`companion.hardware.setup.make_strip` picks one from the configuration.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np

from .output import RGB, Output

Listener = Callable[[list[RGB]], None]


class StripError(RuntimeError):
    """A strip that cannot be driven; the message is one line: the reason and what to do."""


class Strip:
    """An addressable LED strip: set colours, then `show()` them all at once.

    Colours are what the app means (sRGB, 0-255). `show()` sends them through the
    :class:`Output` settings (brightness cap, power budget, gamma) to the LEDs. Anyone
    may `subscribe()` to the colours shown, e.g. the table page mirroring the strip.
    """

    kind = "strip"

    def __init__(self, count: int, output: Output | None = None) -> None:
        if count < 1:
            raise ValueError(f"a strip has at least one LED, not {count}")
        self.count = count
        self.output = output or Output()
        self._frame = np.zeros((count, 3), dtype=np.uint8)
        self._shown = np.zeros((count, 3), dtype=np.uint8)
        self._wire = np.zeros((count, 3), dtype=np.uint8)
        self.current_ma = 0.0
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()
        self.closed = False

    def __len__(self) -> int:
        return self.count

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.count} LEDs>"

    # -- setting colours ------------------------------------------------------------

    def __setitem__(self, index: int | slice, colour: RGB) -> None:
        self._frame[index] = colour

    def __getitem__(self, index: int) -> RGB:
        r, g, b = (int(v) for v in self._frame[index])
        return r, g, b

    def fill(self, colour: RGB) -> None:
        self._frame[:] = colour

    def clear(self) -> None:
        self._frame[:] = 0

    def set_frame(self, frame: np.ndarray | Sequence[RGB]) -> None:
        """Replace every colour at once (an array of shape (count, 3) or a list of RGB)."""
        arr = np.asarray(frame, dtype=np.uint8)
        if arr.shape != (self.count, 3):
            raise ValueError(f"a frame for this strip has {self.count} RGB colours, "
                             f"not shape {arr.shape}")
        self._frame[:] = arr

    # -- showing --------------------------------------------------------------------

    def show(self) -> None:
        """Send the colours to the LEDs; listeners hear of it when the colours changed."""
        if self.closed:
            raise StripError(f"{self!r} is closed")
        wire, current = self.output.apply(self._frame)
        with self._lock:
            changed = not np.array_equal(self._frame, self._shown)
            self._shown[:] = self._frame
            self._wire = wire
            self.current_ma = current
            listeners = list(self._listeners) if changed else []
        self._write(wire)
        if listeners:
            pixels = self.pixels()
            for listener in listeners:
                listener(pixels)

    def _write(self, wire: np.ndarray) -> None:
        """Put wire values (uint8, shape (count, 3)) on the data line."""

    def pixels(self) -> list[RGB]:
        """The colours last shown, as (r, g, b) per LED (before brightness and gamma: what
        a screen should paint to look like the strip)."""
        with self._lock:
            return [(int(r), int(g), int(b)) for r, g, b in self._shown]

    def wire(self) -> list[RGB]:
        """The values last sent on the data line (after brightness, budget and gamma)."""
        with self._lock:
            return [(int(r), int(g), int(b)) for r, g, b in self._wire]

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call `listener(pixels)` after every show() that changed a colour; returns a
        function that unsubscribes. Listeners run on the showing thread: keep them short."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)
        return unsubscribe

    def close(self) -> None:
        """Turn every LED off and release the hardware."""
        if self.closed:
            return
        self.clear()
        self.show()
        self.closed = True

    def __enter__(self) -> Strip:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def to_png(self, path: str | Path, ranges: Iterable[Sequence[int]] = ()) -> None:
        """Write the colours last shown as a PNG picture of the strip (see png.py)."""
        from .png import write_strip_png
        write_strip_png(path, self.pixels(), ranges)


class SimulatedStrip(Strip):
    """A strip that exists only in memory: tests, the table page and machines without
    LEDs. It does everything a real strip does except light up."""

    kind = "simulated"

    def __init__(self, count: int, output: Output | None = None,
                 reason: str | None = None) -> None:
        super().__init__(count, output)
        self.reason = reason  # why the real strip is not used, for the table page
        self.shows = 0

    def _write(self, wire: np.ndarray) -> None:
        self.shows += 1


class NullStrip(Strip):
    """No LEDs at all (backend "off"): accepts everything, shows nothing."""

    kind = "off"
