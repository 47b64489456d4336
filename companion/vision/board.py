"""The board file: where everything the camera looks at lies, in board millimetres.

>>> board = load_board("calibration/board.json")
>>> board.slots["5"]
(240.0, 380.0)
>>> board.place_at((241, 266))
'3'

Schema and meaning: shared/spec/vision.md. Every geometric fact of the vision comes
from a Board; nothing else in companion/vision knows where a slot is.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import paths
from companion.rules.geometry import DEPOSIT_AT, GEMS, SLOTS, WEATHER_TRACK

Point = tuple[float, float]
Polygon = tuple[Point, ...]

MARKER_IDS = (0, 1, 2, 3)  # top-left, top-right, bottom-right, bottom-left
# How far from a slot's centre (in disc radii) a canoe lying on that slot may be: many
# canoes on one slot lie side by side, beyond the disc.
CANOE_REACH = 1.6
DICTIONARIES = ("DICT_4X4_50",)
# Which slot a slot's disc comes from when the river moves (R-RIVER-2); it gives each
# slot its flow direction, along which canoes are laid.
UPSTREAM = {"1": None, "2": "1", "3": "2", "4": "3", "5": "4",
            "6L": "5", "6R": "5", "7L": "6L", "7R": "6R"}

PROJECT_ROOT = Path(__file__).resolve().parents[2]
# The packaged default; load_board() reads the table's own calibrated one first.
DEFAULT_BOARD = paths.packaged(paths.BOARD)


class BoardError(ValueError):
    """A board file that cannot be used; the message is one line naming the problem."""


def weather_key(value: int) -> str:
    """The board file's key for a weather value: "-1", "0", "+1", "+2"."""
    return f"+{value}" if value > 0 else str(value)


@dataclass(frozen=True)
class Markers:
    dictionary: str
    size_mm: float
    centres_mm: dict[int, Point]

    def corners_mm(self, marker_id: int) -> list[Point]:
        """The four corners of a marker in ArUco order (clockwise from top-left)."""
        cx, cy = self.centres_mm[marker_id]
        h = self.size_mm / 2
        return [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]


@dataclass(frozen=True)
class Board:
    """One physical board, as its board file describes it."""

    name: str
    size_mm: tuple[float, float]
    markers: Markers
    disc_radius_mm: float
    slots: dict[str, Point]
    dock: Polygon
    falls: Polygon
    weather_mm: dict[int, Point]
    deposits: dict[str, Polygon]

    # -- derived geometry ------------------------------------------------------------

    def flow(self, slot: str) -> Point:
        """Unit vector of the river's flow at a slot (from the disc upstream of it)."""
        up = UPSTREAM[slot]
        here = self.slots[slot]
        if up is None:
            there, here = here, self.slots["2"]
        else:
            there = self.slots[up]
        dx, dy = here[0] - there[0], here[1] - there[1]
        n = math.hypot(dx, dy) or 1.0
        return dx / n, dy / n

    def place_at(self, point: Point, reach: float | None = None) -> str | None:
        """The place a canoe lying at `point` is on: a slot (within `reach` mm of its
        centre, default CANOE_REACH disc radii), "D" (dock), "F" (falls), or None."""
        if inside(point, self.dock):
            return "D"
        if inside(point, self.falls):
            return "F"
        reach = CANOE_REACH * self.disc_radius_mm if reach is None else reach
        slot, dist = min(((s, math.dist(point, c)) for s, c in self.slots.items()),
                         key=lambda sd: sd[1])
        return slot if dist <= reach else None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "size_mm": list(self.size_mm),
            "markers": {"dictionary": self.markers.dictionary,
                        "size_mm": self.markers.size_mm,
                        "centres_mm": {str(i): list(p)
                                       for i, p in self.markers.centres_mm.items()}},
            "disc_radius_mm": self.disc_radius_mm,
            "slots": {s: list(p) for s, p in self.slots.items()},
            "dock": [list(p) for p in self.dock],
            "falls": [list(p) for p in self.falls],
            "weather_mm": {weather_key(w): list(p) for w, p in self.weather_mm.items()},
            "deposits": {g: [list(p) for p in poly] for g, poly in self.deposits.items()},
        }

    def save(self, path: str | Path) -> None:
        """Write the board file (validated on the way, so what is saved loads back)."""
        parse_board(self.to_json(), str(path))
        text = json.dumps(self.to_json(), indent=2)
        Path(path).write_text(text + "\n", encoding="utf-8")


def inside(point: Point, polygon: Polygon) -> bool:
    """Point in polygon (even-odd rule)."""
    x, y = point
    hit = False
    n = len(polygon)
    for i in range(n):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


# -- loading and checking ----------------------------------------------------------------


def load_board(path: str | Path | None = None) -> Board:
    """Read and check a board file (default: the table's own, else the packaged one;
    see companion.paths).
    Raises BoardError with a one-line reason."""
    path = Path(path) if path is not None else paths.board_file()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BoardError(f"board file {path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BoardError(f"board file {path}: cannot read it ({exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BoardError(f"board file {path}: not valid JSON (line {exc.lineno}: "
                         f"{exc.msg})") from None
    return parse_board(data, str(path))


def parse_board(data: Any, where: str = "board") -> Board:
    """A Board from the parsed JSON of a board file; BoardError names what is wrong."""

    def fail(msg: str) -> BoardError:
        return BoardError(f"board file {where}: {msg}")

    def number(value: Any, name: str, positive: bool = False) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float) \
                or not math.isfinite(value):
            raise fail(f"{name} must be a number, not {value!r}")
        if positive and value <= 0:
            raise fail(f"{name} must be positive, not {value!r}")
        return float(value)

    def point(value: Any, name: str) -> Point:
        if not isinstance(value, list | tuple) or len(value) != 2:
            raise fail(f"{name} must be a point [x, y] in mm, not {value!r}")
        x, y = number(value[0], f"{name} x"), number(value[1], f"{name} y")
        if not (0 <= x <= width and 0 <= y <= height):
            raise fail(f"{name} {[x, y]} lies off the board ({width:g} x {height:g} mm)")
        return x, y

    def polygon(value: Any, name: str) -> Polygon:
        if not isinstance(value, list) or len(value) < 3:
            raise fail(f"{name} must be a polygon: a list of at least 3 points [x, y]")
        poly = tuple(point(p, f"{name} point {i + 1}") for i, p in enumerate(value))
        area = 0.5 * abs(sum(x1 * y2 - x2 * y1
                             for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1],
                                                           strict=True)))
        if area < 1.0:
            raise fail(f"{name} encloses no area")
        return poly

    def table(value: Any, name: str, keys: tuple[str, ...]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise fail(f"{name} must be an object with keys {', '.join(keys)}")
        missing = [k for k in keys if k not in value]
        if missing:
            raise fail(f"{name}: missing {', '.join(missing)}")
        extra = [k for k in value if k not in keys]
        if extra:
            raise fail(f"{name}: unknown {', '.join(map(str, extra))} "
                       f"(expected {', '.join(keys)})")
        return value

    if not isinstance(data, dict):
        raise fail("must be a JSON object")
    required = ("size_mm", "markers", "disc_radius_mm", "slots", "dock", "falls",
                "weather_mm", "deposits")
    missing = [k for k in required if k not in data]
    if missing:
        raise fail(f"missing {', '.join(missing)}")
    name = data.get("name", "unnamed")
    if not isinstance(name, str):
        raise fail(f"name must be a string, not {name!r}")
    size = data["size_mm"]
    if not isinstance(size, list | tuple) or len(size) != 2:
        raise fail(f"size_mm must be [width, height] in mm, not {size!r}")
    width = number(size[0], "size_mm width", positive=True)
    height = number(size[1], "size_mm height", positive=True)

    m = data["markers"]
    if not isinstance(m, dict):
        raise fail("markers must be an object with dictionary, size_mm, centres_mm")
    dictionary = m.get("dictionary", "DICT_4X4_50")
    if dictionary not in DICTIONARIES:
        raise fail(f"markers.dictionary must be one of {', '.join(DICTIONARIES)}, "
                   f"not {dictionary!r}")
    msize = number(m.get("size_mm"), "markers.size_mm", positive=True)
    centres = table(m.get("centres_mm"), "markers.centres_mm",
                    tuple(str(i) for i in MARKER_IDS))
    marker_centres = {int(k): point(v, f"marker {k} centre") for k, v in centres.items()}
    for i, (cx, cy) in marker_centres.items():
        if not (msize / 2 <= cx <= width - msize / 2 and msize / 2 <= cy <= height - msize / 2):
            raise fail(f"marker {i} does not fit on the board at {[cx, cy]}")

    radius = number(data["disc_radius_mm"], "disc_radius_mm", positive=True)
    slots = {s: point(p, f"slot {s}")
             for s, p in table(data["slots"], "slots", SLOTS).items()}
    weather = {int(k): point(p, f"weather {k}")
               for k, p in table(data["weather_mm"], "weather_mm",
                                 tuple(weather_key(w) for w in WEATHER_TRACK)).items()}
    deposit_names = tuple(g for g in GEMS if g in set(DEPOSIT_AT.values()))
    deposits = {g: polygon(p, f"deposit {g}")
                for g, p in table(data["deposits"], "deposits", deposit_names).items()}
    board = Board(
        name=name, size_mm=(width, height),
        markers=Markers(dictionary, msize, dict(sorted(marker_centres.items()))),
        disc_radius_mm=radius,
        slots={s: slots[s] for s in SLOTS},
        dock=polygon(data["dock"], "dock"), falls=polygon(data["falls"], "falls"),
        weather_mm=dict(sorted(weather.items())),
        deposits={g: deposits[g] for g in deposit_names},
    )
    for a in SLOTS:
        for b in SLOTS:
            if a < b and math.dist(board.slots[a], board.slots[b]) < radius:
                raise fail(f"slots {a} and {b} lie closer than one disc radius")
    return board


__all__ = ["Board", "BoardError", "CANOE_REACH", "Markers", "DEFAULT_BOARD", "MARKER_IDS", "inside",
           "load_board", "parse_board", "weather_key"]
