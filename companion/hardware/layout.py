"""Which LEDs of the strip lie beside which place on the board.

The strip usually runs down one bank from the dock to the waterfall, across the falls
and back up the other branch, so a range may run backwards: `[121, 110]` means LED 121
is the upstream end. Everything that moves (the river's pulse) follows that order.

>>> layout = LedLayout.from_json({"slots": {"1": [0, 2], "2": [3, 5], "3": [6, 8],
...     "4": [9, 11], "5": [12, 14], "6L": [15, 17], "7L": [18, 20], "6R": [26, 24],
...     "7R": [23, 21]}}, count=27)
>>> layout["6R"].indices
(26, 25, 24)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from companion.rules import SLOTS, WEATHER_TRACK

DOCK = "dock"
FALLS = {"L": "falls-L", "R": "falls-R"}
WEATHER = {w: f"weather{w:+d}" if w else "weather0" for w in WEATHER_TRACK}
PLACE_NAMES: tuple[str, ...] = (DOCK, *SLOTS, *FALLS.values(), *WEATHER.values())


class LayoutError(ValueError):
    """A layout that cannot be used; the message names the entry that is wrong."""


def label(name: str) -> str:
    """How a place is called on screen: 'slot 6L', 'waterfall, left edge', …"""
    if name in SLOTS:
        return f"slot {name}"
    if name == DOCK:
        return "dock"
    if name in FALLS.values():
        return "waterfall, " + ("left" if name.endswith("L") else "right") + " edge"
    return "weather " + name.removeprefix("weather")


@dataclass(frozen=True)
class LedRange:
    """LEDs `first` to `last` inclusive, in the order the river flows past them."""

    first: int
    last: int

    @property
    def indices(self) -> tuple[int, ...]:
        step = 1 if self.last >= self.first else -1
        return tuple(range(self.first, self.last + step, step))

    @property
    def low(self) -> int:
        return min(self.first, self.last)

    @property
    def high(self) -> int:
        return max(self.first, self.last)

    def __len__(self) -> int:
        return self.high - self.low + 1

    def __str__(self) -> str:
        return f"{self.first}-{self.last}" if self.first != self.last else str(self.first)


class LedLayout:
    """The places of the board (see PLACE_NAMES) and the LED range beside each.

    The nine slots are required; the dock, the two waterfall edges and the four weather
    positions are optional (a table may have LEDs along the river only).
    """

    def __init__(self, count: int, ranges: Mapping[str, LedRange]) -> None:
        self.count = count
        self.ranges = {name: ranges[name] for name in PLACE_NAMES if name in ranges}
        self._check(ranges)
        # Cached per place: slices and index arrays make drawing a frame cheap.
        self._slices = {n: slice(r.low, r.high + 1) for n, r in self.ranges.items()}

    def _check(self, ranges: Mapping[str, LedRange]) -> None:
        unknown = [n for n in ranges if n not in PLACE_NAMES]
        if unknown:
            raise LayoutError(f"unknown place {unknown[0]!r} (places: {', '.join(PLACE_NAMES)})")
        missing = [s for s in SLOTS if s not in ranges]
        if missing:
            raise LayoutError(f"no LEDs for slot {missing[0]}: every slot needs a range")
        owner: dict[int, str] = {}
        for name, rng in self.ranges.items():
            if rng.low < 0 or rng.high >= self.count:
                raise LayoutError(f"{name}: LEDs {rng} lie outside the strip "
                                  f"(0-{self.count - 1})")
            for i in range(rng.low, rng.high + 1):
                if i in owner:
                    raise LayoutError(f"{name}: LED {i} is already used by {owner[i]}")
                owner[i] = name

    @classmethod
    def from_json(cls, data: Mapping[str, Any], count: int) -> LedLayout:
        """Read the "places" object of leds.json:
        {"dock": [a, b], "slots": {"1": [a, b], …}, "falls": {"L": …, "R": …},
         "weather": {"-1": …, "0": …, "+1": …, "+2": …}}."""
        if not isinstance(data, Mapping):
            raise LayoutError("places must be an object")
        known = {"dock", "slots", "falls", "weather"}
        for key in data:
            if key not in known:
                raise LayoutError(f"places: unknown entry {key!r} "
                                  f"(entries: dock, slots, falls, weather)")
        ranges: dict[str, LedRange] = {}
        if "dock" in data:
            ranges[DOCK] = _range("places.dock", data["dock"])
        for group, names in (("slots", {s: s for s in SLOTS}), ("falls", FALLS),
                             ("weather", {f"{w:+d}" if w else "0": n
                                          for w, n in WEATHER.items()})):
            entries = data.get(group, {})
            if not isinstance(entries, Mapping):
                raise LayoutError(f"places.{group} must be an object")
            for key, value in entries.items():
                if key not in names:
                    raise LayoutError(f"places.{group}: unknown entry {key!r} "
                                      f"(entries: {', '.join(names)})")
                ranges[names[key]] = _range(f"places.{group}.{key}", value)
        return cls(count, ranges)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if DOCK in self.ranges:
            out["dock"] = self._pair(DOCK)
        out["slots"] = {s: self._pair(s) for s in SLOTS}
        falls = {side: self._pair(name) for side, name in FALLS.items() if name in self.ranges}
        if falls:
            out["falls"] = falls
        weather = {(f"{w:+d}" if w else "0"): self._pair(name)
                   for w, name in WEATHER.items() if name in self.ranges}
        if weather:
            out["weather"] = weather
        return out

    def _pair(self, name: str) -> list[int]:
        rng = self.ranges[name]
        return [rng.first, rng.last]

    def __getitem__(self, name: str) -> LedRange:
        return self.ranges[name]

    def __contains__(self, name: object) -> bool:
        return name in self.ranges

    def __iter__(self) -> Iterator[str]:
        return iter(self.ranges)

    def slice(self, name: str) -> slice:
        return self._slices[name]

    def river_path(self, branch: str) -> tuple[int, ...]:
        """The LEDs from slot 1 down `branch` to its edge of the falls, in flow order."""
        names = ["1", "2", "3", "4", "5", f"6{branch}", f"7{branch}", FALLS[branch]]
        return tuple(i for n in names if n in self.ranges for i in self.ranges[n].indices)


def _range(where: str, value: Any) -> LedRange:
    if (not isinstance(value, list | tuple) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise LayoutError(f"{where}: expected [first, last] LED numbers, got {value!r}")
    return LedRange(value[0], value[1])


def default_layout(count: int = 150) -> LedLayout:
    """The layout of calibration/leds.json: a 150-LED strip down the left bank, across
    the falls and up the right branch, then four groups for the weather track."""
    if count != 150:
        raise ValueError("the default layout is for a 150-LED strip")
    data = {
        "dock": [0, 9],
        "slots": {"1": [10, 21], "2": [22, 33], "3": [34, 45], "4": [46, 57],
                  "5": [58, 69], "6L": [70, 81], "7L": [82, 93],
                  "7R": [121, 110], "6R": [133, 122]},
        "falls": {"L": [94, 101], "R": [109, 102]},
        "weather": {"-1": [134, 137], "0": [138, 141], "+1": [142, 145], "+2": [146, 149]},
    }
    return LedLayout.from_json(data, count)
