"""Where every piece lies (board mm, degrees), placed as people place them.

Canoes on one disc lie side by side across the flow, pushed a little off centre and
turned, sometimes touching; canoes on the dock and at the falls lie in loose rows;
gems lie in piles in their deposits. Pure: positions from a board, a snapshot and a
random generator.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.vision.board import Board, inside

CANOE_GAP = 17.0   # centre to centre of canoes side by side (16 mm wide: they may touch)
CANOE_WIDTH = 16.0


@dataclass(frozen=True)
class Piece:
    kind: str                 # "canoe", "gem", "disc", "cloud"
    x: float
    y: float
    angle: float = 0.0        # degrees, 0 = along board x
    colour: str = ""          # player colour (canoe) or gem colour
    gem: str | None = None    # the gem a canoe carries


def centroid(poly: Iterable[tuple[float, float]]) -> tuple[float, float]:
    pts = list(poly)
    return sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)


def _bbox(poly: Iterable[tuple[float, float]]) -> tuple[float, float, float, float]:
    pts = list(poly)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def _rows(poly: tuple[tuple[float, float], ...], n: int, rnd: random.Random,
          jitter: float) -> list[tuple[float, float, float]]:
    """n canoe spots in a polygon: columns of canoes lying along y, loosely."""
    x0, y0, x1, y1 = _bbox(poly)
    w, h = x1 - x0, y1 - y0
    along_x = w < h   # canoes lie along the longer side of their rows
    cols = max(1, int((w if not along_x else h) // 19))
    spots = []
    for k in range(n):
        row, col = divmod(k, cols)
        if not along_x:
            cx = x0 + (col + 0.5) * w / cols
            cy = y0 + h / 2 + (row - 0.5 * (n // cols > 0)) * 26
            ang = 90.0
        else:
            cy = y0 + (col + 0.5) * h / cols
            cx = x0 + w / 2 + (row - 0.5 * (n // cols > 0)) * 26
            ang = 0.0
        cx += rnd.gauss(0, jitter)
        cy += rnd.gauss(0, jitter)
        spots.append((cx, cy, ang + rnd.gauss(0, 8)))
    return spots


Placement = dict[str, tuple[Any, list[Piece]]]   # group -> (what it holds, its pieces)


def _staying(before: list[Piece], here: list[tuple[str, str | None]]
             ) -> tuple[list[Piece], list[tuple[str, str | None]]]:
    """The canoes of a place that stay where they lay (the same player's with the same
    gem, then the same player's that lost its gem: a theft's victim), and the (player,
    gem) of those to be put down."""
    pool = list(before)
    staying: list[Piece] = []
    rest = []
    for player, gem in here:
        same = next((p for p in pool if p.colour == player and p.gem == gem), None)
        if same is None:
            rest.append((player, gem))
            continue
        pool.remove(same)
        staying.append(same)
    new = []
    for player, gem in rest:
        # (Only a theft empties a canoe that stays; a canoe that loads moves on.)
        robbed = None if gem is not None else next(
            (p for p in pool if p.colour == player and p.gem is not None), None)
        if robbed is None:
            new.append((player, gem))
            continue
        pool.remove(robbed)
        staying.append(replace(robbed, gem=gem))
    return staying, new


def _beside(offs: list[float], gap: float, draw: Callable[[], float] = lambda: 0.0) -> float:
    """Where a canoe goes beside those lying at `offs` (across the flow, from the
    disc's centre): on the side nearer the middle; `draw` breaks a tie."""
    return min((max(offs) + gap, min(offs) - gap), key=lambda o: (abs(o), draw()))


def _room_beside(offs: list[float], new: int, gap: float, radius: float) -> bool:
    """Whether `new` canoes put down one by one beside those lying at `offs` (across
    the flow, from the disc's centre), each on the side nearer the middle, still reach
    the disc: each one's inner edge no further out than its rim (its centre within a
    radius and half a canoe's width; half its width over the disc would be within the
    radius)."""
    offs = list(offs)
    for _ in range(new):
        off = _beside(offs, gap)
        if abs(off) > radius + CANOE_WIDTH / 2:
            return False
        offs.append(off)
    return True


def place_pieces(board: Board, snapshot: Mapping[str, Any], rnd: random.Random,
                 jitter: float = 2.0, missing_discs: Iterable[str] = ()) -> list[Piece]:
    """Every piece of the state, placed on the board."""
    return [p for _, pieces in place_groups(board, snapshot, rnd, jitter, missing_discs).values()
            for p in pieces]


def place_groups(board: Board, snapshot: Mapping[str, Any], rnd: random.Random,
                 jitter: float = 2.0, missing_discs: Iterable[str] = (),
                 previous: Placement | None = None) -> Placement:
    """Every piece of the state, placed, by group (a disc, the cloud, the canoes of one
    place, the gems of one deposit). A group that holds the same as in `previous` keeps
    its pieces where they were: in a game nobody touches what did not move."""
    previous = previous or {}
    missing = set(missing_discs)
    out: Placement = {}

    def kept(key: str, holds: Any) -> bool:
        if key in previous and previous[key][0] == holds:
            out[key] = previous[key]
            return True
        return False

    for slot, (x, y) in board.slots.items():
        if slot not in missing and not kept(f"disc:{slot}", True):
            out[f"disc:{slot}"] = (True, [Piece("disc", x + rnd.gauss(0, jitter * 0.4),
                                                y + rnd.gauss(0, jitter * 0.4),
                                                rnd.uniform(0, 360))])
    if not kept("cloud", snapshot["weather"]):
        wx, wy = board.weather_mm[snapshot["weather"]]
        out["cloud"] = (snapshot["weather"],
                        [Piece("cloud", wx + rnd.gauss(0, jitter * 0.5),
                               wy + rnd.gauss(0, jitter * 0.5), rnd.uniform(-30, 30))])
    by_place: dict[str, list[tuple[str, str | None]]] = {}
    for player in snapshot["players"]:
        for canoe in snapshot["canoes"][player]:
            gem = None if canoe["at"] == "F" else canoe["gem"]
            by_place.setdefault(canoe["at"], []).append((player, gem))
    for place, here in sorted(by_place.items()):
        holds = sorted(here, key=lambda c: (c[0], c[1] or ""))
        if kept(f"at:{place}", holds):
            continue
        # A canoe coming or going leaves the others where they lay (a thief's victim
        # too, its gem gone).
        pieces, here = _staying(previous.get(f"at:{place}", (None, []))[1], here)
        rnd.shuffle(here)
        if place in ("D", "F"):
            poly = board.dock if place == "D" else board.falls
            spots = _rows(poly, len(pieces) + len(here), rnd, jitter)
            for player, gem in here:
                x, y, ang = max(spots, key=lambda q: min(
                    (math.dist(q[:2], (p.x, p.y)) for p in pieces), default=0.0))
                spots.remove((x, y, ang))
                pieces.append(Piece("canoe", x, y, ang, player, gem))
            out[f"at:{place}"] = (holds, pieces)
            continue
        cx, cy = board.slots[place]
        fx, fy = board.flow(place)
        along = math.degrees(math.atan2(fy, fx))
        n = len(pieces) + len(here)
        gap = CANOE_GAP + rnd.uniform(-0.8, 2.5)
        # Side by side across the flow: offsets from the disc's centre.
        offs = [(p.x - cx) * -fy + (p.y - cy) * fx for p in pieces]
        if pieces and not _room_beside(offs, len(here), gap, board.disc_radius_mm):
            # No room beside them with the new canoe resting on the disc: the hand that
            # puts it down makes room, nudging the others (laid again, centred).
            here = [(q.colour, q.gem) for q in pieces] + here
            pieces, offs = [], []
        for k, (player, gem) in enumerate(here):
            if not pieces:
                off = (k - (n - 1) / 2) * gap
            else:
                off = _beside(offs, gap, rnd.random)
            offs.append(off)
            x = cx - fy * off + rnd.gauss(0, jitter * 0.6) * (1 if n == 1 else 0.5)
            y = cy + fx * off + rnd.gauss(0, jitter * 0.6) * (1 if n == 1 else 0.5)
            pieces.append(Piece("canoe", x, y, along + rnd.gauss(0, 6 if n > 1 else 12),
                                player, gem))
        out[f"at:{place}"] = (holds, pieces)
    for dep, poly in board.deposits.items():
        gems = snapshot["deposits"].get(dep, {})
        if kept(f"deposit:{dep}", sorted(gems.items())):
            continue
        # A gem taken from a pile or put on it leaves the others where they lay.
        left = list(previous[f"deposit:{dep}"][1]) if f"deposit:{dep}" in previous else []
        pieces = []
        for gem in sorted({p.colour for p in left} | set(gems)):
            mine = [p for p in left if p.colour == gem]
            rnd.shuffle(mine)
            pieces += mine[:int(gems.get(gem, 0))]
        x0, y0, x1, y1 = _bbox(poly)
        taken: list[tuple[float, float]] = [(p.x, p.y) for p in pieces]
        heap = centroid(taken) if taken else (rnd.uniform(x0 + 8, x1 - 8),
                                              rnd.uniform(y0 + 8, y1 - 8))
        for gem in sorted(gems):
            for _ in range(int(gems[gem]) - sum(p.colour == gem for p in pieces)):
                p = centroid(poly)
                for attempt in range(80):
                    # A heap first; when it is full, anywhere in the deposit.
                    spread = (x1 - x0) / 5 if attempt < 40 else (x1 - x0)
                    q = (heap[0] + rnd.gauss(0, spread), heap[1] + rnd.gauss(0, spread))
                    if inside(q, poly):
                        p = q
                        if all(math.dist(q, t) > 7.0 for t in taken):
                            break
                taken.append(p)
                pieces.append(Piece("gem", p[0], p[1], rnd.uniform(0, 360), gem))
        out[f"deposit:{dep}"] = (sorted(gems.items()), pieces)
    return out
