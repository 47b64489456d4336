"""Names and the shape of the river (rules.md sections 1 and 2, R-GEO)."""

from __future__ import annotations

from enum import StrEnum

PLAYER_COLOURS: tuple[str, ...] = ("brown", "yellow", "red", "blue", "green")
GEMS: tuple[str, ...] = ("red", "blue", "clear", "yellow", "violet")
CARD_VALUES: tuple[int | str, ...] = (1, 2, 3, 4, 5, 6, "cloud")
WEATHER_TRACK: tuple[int, ...] = (-1, 0, 1, 2)
VARIANTS: tuple[str, ...] = ("no-same-colour-unload", "mandatory-steal")

GEMS_PER_COLOUR = 7
GEM_TOTAL = GEMS_PER_COLOUR * len(GEMS)



class Phase(StrEnum):
    """The part of the round the game is in (R-TURN); the value is game-log.md's word,
    so a phase is written to JSON as that string and equals it."""

    CARDS = "cards"  # phase I: buy-backs, cards face down
    TURNS = "turns"  # phase II: each player moves in turn
    RIVER = "river"  # phase III: the river moves
    OVER = "over"  # someone won (R-WIN-2)

    # Printed as the plain word too, so messages and examples read as before.
    __repr__ = str.__repr__


class Place(StrEnum):
    """A place of the river (R-GEO-1); the value is the log's and vision.md's name."""

    DOCK = "D"
    S1 = "1"
    S2 = "2"
    S3 = "3"
    S4 = "4"
    S5 = "5"
    S6L = "6L"
    S6R = "6R"
    S7L = "7L"
    S7R = "7R"
    FALLS = "F"

    __repr__ = str.__repr__


# R-GEO-1: the nine slots at rest, plus the dock and the foot of the falls.
SLOTS: tuple[str, ...] = tuple(p for p in Place if p not in (Place.DOCK, Place.FALLS))
PLACES: tuple[str, ...] = tuple(Place)
PLACE_ORDER: dict[str, int] = {p: i for i, p in enumerate(PLACES)}
BRANCHES: tuple[str, str] = ("L", "R")

# R-GEO-2: how many slot steps a place lies below the dock.
DEPTH: dict[str, int] = {
    "D": 0, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5,
    "6L": 6, "6R": 6, "7L": 7, "7R": 7, "F": 8,
}
FALLS_DEPTH = DEPTH["F"]

# R-GEO-3: which deposit a slot reaches.
DEPOSIT_AT: dict[str, str] = {
    "3": "violet", "4": "clear", "5": "yellow",
    "6L": "blue", "6R": "blue", "7L": "red", "7R": "red",
}


def branch_of(place: str) -> str | None:
    """The branch a place lies in below the fork, or None above it."""
    return place[-1] if place[-1] in BRANCHES else None


def place_at(depth: int, branch: str) -> str:
    """The place at a depth; below the fork the branch picks the side."""
    if depth <= 0:
        return Place.DOCK
    if depth >= FALLS_DEPTH:
        return Place.FALLS
    if depth <= 5:
        return Place(str(depth))
    return Place(f"{depth}{branch}")


def path_steps(start: str, end: str) -> int | None:
    """Slot steps from start to end along one direction, or None when no single move
    joins them (R-GEO-2: 6L and 6R only meet through 5, which needs a turn)."""
    if start == end:
        return 0
    b1, b2 = branch_of(start), branch_of(end)
    if b1 and b2 and b1 != b2:
        return None
    return abs(DEPTH[end] - DEPTH[start])


def downstream_targets(start: str, steps: int) -> list[str]:
    """Where a canoe going downstream `steps` steps from start can end, one per branch
    choice (R-MOVE-2); F when the waterfall is reached with points to spare."""
    depth = DEPTH[start] + steps
    if depth >= FALLS_DEPTH:
        return ["F"]
    own = branch_of(start)
    if depth <= 5:
        return [str(depth)]
    if own:
        return [place_at(depth, own)]
    return [place_at(depth, "L"), place_at(depth, "R")]


def upstream_target(start: str, steps: int) -> str:
    """Where a canoe going upstream `steps` steps ends; D once the rope is reached."""
    depth = DEPTH[start] - steps
    if depth <= 0:
        return "D"
    return place_at(depth, branch_of(start) or "L")
