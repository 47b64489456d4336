"""The truth of a frame: the vision.md observation a perfect camera reports, derived
only from the rules engine's state (a game-log.md snapshot), never from the vision.

>>> from companion.rules import Game
>>> truth = observation(Game(["red", "blue", "green"]).state.snapshot())
>>> truth["dock"][0], truth["slots"]["1"]
({'player': 'red', 'gem': None}, {'disc': True, 'canoes': []})
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.rules import SLOTS

OFF_RIVER = {"D": "dock", "F": "falls"}


def observation(snapshot: Mapping[str, Any], missing_discs: Iterable[str] = (),
                stable: bool = True, markers: int = 4) -> dict[str, Any]:
    """What a perfect camera reports for a board in this state.

    A canoe at the falls never carries a gem (R-RIVER-4) and is listed with gem null;
    canoes are listed in seating order, a player's own by place and gem."""
    missing = set(missing_discs)
    unknown = missing - set(SLOTS)
    if unknown:
        raise ValueError(f"missing_discs: no slot {', '.join(sorted(unknown))}")
    slots: dict[str, dict[str, Any]] = {s: {"disc": s not in missing, "canoes": []}
                                        for s in SLOTS}
    off: dict[str, list[dict[str, Any]]] = {"dock": [], "falls": []}
    for player in snapshot["players"]:
        for canoe in sorted(snapshot["canoes"][player],
                            key=lambda c: (c["at"], c["gem"] or "")):
            place, gem = canoe["at"], canoe["gem"]
            seen = {"player": player, "gem": None if place == "F" else gem}
            if place in OFF_RIVER:
                off[OFF_RIVER[place]].append(seen)
            elif place in slots:
                slots[place]["canoes"].append(seen)
            else:
                raise ValueError(f"{player}'s canoe is at {place!r}, which is no place")
    return {"stable": stable, "markers": markers, "weather": snapshot["weather"],
            "slots": slots, **off}
