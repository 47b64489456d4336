"""The observation a perfect camera would report for a game state.

The vision reports what it sees in the form of ``shared/spec/vision.md``; the rules engine
knows what *should* be on the table. This module turns the second into the first, so the
two can be compared (move inference), rendered (the synthetic renderer) or shown.

>>> from companion.rules import Game
>>> game = Game(["blue", "green", "yellow"])
>>> obs = expected_observation(game)
>>> obs["dock"][:2]
[{'player': 'blue', 'gem': None}, {'player': 'blue', 'gem': None}]
>>> obs["slots"]["4"]
{'disc': True, 'canoes': []}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules import GEMS, PLACES, SLOTS, Game, State
from companion.rules.state import canoe_key

Canoe = tuple[str, str | None]  # (place, gem), as in the engine's State

# Where the observation lists canoes that are off the river (vision.md).
OFF_RIVER = {"D": "dock", "F": "falls"}


def canoes_of(source: State | Game | Mapping[str, Any]) -> dict[str, list[Canoe]]:
    """Every player's canoes as (place, gem), from a State, a Game or a snapshot dict."""
    if isinstance(source, Game):
        source = source.state
    if isinstance(source, State):
        return {p: sorted(source.canoes[p], key=canoe_key) for p in source.players}
    try:
        out = {p: [(c["at"], c["gem"]) for c in canoes]
               for p, canoes in source["canoes"].items()}
    except (KeyError, TypeError, AttributeError):
        raise ValueError("not a game state: a snapshot needs 'canoes' as "
                         "{player: [{\"at\": place, \"gem\": gem}, ...]}") from None
    for player, canoes in out.items():
        for place, gem in canoes:
            if place not in PLACES:
                raise ValueError(f"{player}'s canoe is at {place!r}, which is no place on "
                                 f"the board (expected one of {', '.join(PLACES)})")
            if gem is not None and gem not in GEMS:
                raise ValueError(f"{player}'s canoe on {place} carries {gem!r}, which is no "
                                 f"gem (expected one of {', '.join(GEMS)} or null)")
    return {p: sorted(c, key=canoe_key) for p, c in out.items()}


def weather_of(source: State | Game | Mapping[str, Any]) -> int:
    if isinstance(source, Game):
        return source.state.weather
    if isinstance(source, State):
        return source.weather
    weather = source.get("weather")
    if isinstance(weather, bool) or not isinstance(weather, int):
        raise ValueError(f"not a game state: 'weather' must be a number, not {weather!r}")
    return weather


def observation_from_canoes(canoes: Mapping[str, list[Canoe]], weather: int) -> dict[str, Any]:
    """The vision.md observation of canoes placed as given: every disc in its slot,
    the view stable, all four markers found."""
    slots: dict[str, dict[str, Any]] = {s: {"disc": True, "canoes": []} for s in SLOTS}
    off: dict[str, list[dict[str, Any]]] = {place: [] for place in OFF_RIVER}
    for player, own in canoes.items():
        bad = [place for place, _ in own if place not in PLACES]
        if bad:
            raise ValueError(f"{player}'s canoe is at {bad[0]!r}, which is no place on "
                             f"the board (expected one of {', '.join(PLACES)})")
        for place, gem in sorted(own, key=canoe_key):
            seen = {"player": player, "gem": gem}
            if place in off:
                off[place].append(seen)
            else:
                slots[place]["canoes"].append(seen)
    return {"stable": True, "markers": 4, "weather": weather, "slots": slots,
            **{OFF_RIVER[place]: listed for place, listed in off.items()}}


def expected_observation(source: State | Game | Mapping[str, Any]) -> dict[str, Any]:
    """What a perfect camera sees on a table in this state (a State, Game or snapshot).

    Canoes are listed in seating order, a player's two by place then gem; a fallen
    canoe never carries a gem (R-RIVER-4)."""
    return observation_from_canoes(canoes_of(source), weather_of(source))


__all__ = ["Canoe", "OFF_RIVER", "canoes_of", "weather_of", "observation_from_canoes",
           "expected_observation"]
