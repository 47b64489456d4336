"""Phase III: the river speed (R-RIVER-1) and the river's steps (R-RIVER-2 … R-RIVER-4),
plus what the table may know of them in advance (for the LEDs' danger zone)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .events import Card
from .geometry import SLOTS, WEATHER_TRACK
from .state import State


def other_branch(branch: str) -> str:
    return "R" if branch == "L" else "L"


def river_speed(cards: Iterable[Card], weather: int) -> int:
    """R-RIVER-1: lowest number played plus the weather; with no number the weather
    counts only when positive; never below 0."""
    numbers = [c for c in cards if isinstance(c, int)]  # all but the cloud
    if not numbers:
        return max(weather, 0)
    return max(min(numbers) + weather, 0)


def branches_for(state: State, steps: int, observed: Sequence[str] | None = None) -> list[str]:
    """The branch each step's disc enters: as observed, else alternating (R-RIVER-3)."""
    if observed is not None:
        return list(observed)
    out, nxt = [], state.branch_next
    for _ in range(steps):
        out.append(nxt)
        nxt = other_branch(nxt)
    return out


def downstream(place: str, branch: str) -> str | None:
    """Where a disc on `place` goes in a step whose new disc enters `branch` (R-RIVER-2);
    None when it does not move (the other branch), 'F' when it falls."""
    if place in ("1", "2", "3", "4"):
        return str(int(place) + 1)
    if place == "5":
        return f"6{branch}"
    if place[-1] != branch:
        return None
    return "7" + branch if place[0] == "6" else "F"


def step_river(state: State, branch: str) -> list[tuple[str, str | None]]:
    """One push of the river (R-RIVER-2) on `state`; returns (player, gem) of every canoe
    that fell (R-RIVER-4: its gem goes back to the deposit of its colour)."""
    fallen = []
    for player in state.players:
        canoes = state.canoes[player]
        moved = []
        for at, gem in canoes:
            to = None if at in ("D", "F") else downstream(at, branch)
            if to is None:
                moved.append((at, gem))
            elif to == "F":
                if gem is not None:
                    state.return_gem(gem)
                fallen.append((player, gem))
                moved.append(("F", None))
            else:
                moved.append((to, gem))
        state.put_canoes(player, moved)
    state.branch_next = other_branch(branch)
    return fallen


@dataclass(frozen=True)
class RiverPreview:
    """What `steps` pushes do to the discs now lying in the river.

    falling_slots: slots whose disc goes over the waterfall this round;
    last_slots: slots whose disc ends on 7L or 7R (the last before the falls);
    falling_canoes: (player, place, gem) of every canoe that will fall;
    canoe_falls: for each push, whether a canoe goes over the falls in it.
    """

    steps: int
    branches: tuple[str, ...]
    falling_slots: tuple[str, ...]
    last_slots: tuple[str, ...]
    falling_canoes: tuple[tuple[str, str, str | None], ...]
    canoe_falls: tuple[bool, ...] = ()


def preview_river(state: State, steps: int,
                  observed: Sequence[str] | None = None) -> RiverPreview:
    """Follow every disc through `steps` pushes without changing `state`."""
    branches = branches_for(state, steps, observed)
    where = {slot: slot for slot in SLOTS}  # disc that started on slot -> where it is now
    carried = {at for p in state.players for at, _ in state.canoes[p]}
    canoe_falls = []
    for branch in branches:
        fell = False
        for start, at in where.items():
            if at != "F":
                to = downstream(at, branch)
                if to is not None:
                    where[start] = to
                    fell = fell or (to == "F" and start in carried)
        canoe_falls.append(fell)
    falling = tuple(s for s in SLOTS if where[s] == "F")
    last = tuple(s for s in SLOTS if where[s] in ("7L", "7R"))
    canoes = tuple((p, at, gem) for p in state.players for at, gem in state.canoes[p]
                   if at in falling)
    return RiverPreview(steps, tuple(branches), falling, last, canoes, tuple(canoe_falls))


def possible_speeds(state: State, hands: Mapping[str, Sequence[Card]] | None = None) -> set[int]:
    """Every river speed this round that is consistent with public information: cards
    already revealed, the weather now, and each unrevealed player's possible cards
    (`hands`, by default what is left of their 7-card cycle, R-CARD-2). Clouds still to
    come may move the weather either way (R-WEATHER-1)."""
    order, revealed = state.turn_order, state.revealed
    if state.phase == "turns":
        acted = set(order[: state.turn_index])
    else:
        acted = set(revealed)  # phase "river"/"over": all acted; "cards": none yet
    if hands is None:
        hands = {p: state.hands[p] + ([state.cards[p]] if p in state.cards else [])
                 for p in state.players}
    # Clouds already played have moved the weather; a player still to act (the one to
    # move included, whose card is face up) may yet move it either way (R-WEATHER-1).
    lo, hi = WEATHER_TRACK[0], WEATHER_TRACK[-1]
    known = [state.cards[p] for p in acted if state.cards.get(p, "cloud") != "cloud"]
    frontier = {(state.weather, min(known) if known else None)}
    for player in order:
        if player in acted:
            continue
        choices = {revealed[player]} if player in revealed else set(hands[player])
        nxt = set()
        for weather, low in frontier:
            for card in choices:
                if card == "cloud":
                    for w in (weather - 1, weather + 1):
                        if lo <= w <= hi:
                            nxt.add((w, low))
                else:
                    nxt.add((weather, card if low is None else min(low, card)))
        frontier = nxt or frontier
    return {river_speed([] if low is None else [low], w) for w, low in frontier}
