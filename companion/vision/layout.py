"""The calibration layout (README): which piece lies where on the photos a profile is
learned from without --state."""

from __future__ import annotations

from typing import Any

# slot -> (canoe colour, gem it carries)
LAYOUT_CANOES: dict[str, tuple[str, str]] = {
    "1": ("brown", "red"), "2": ("yellow", "blue"), "3": ("red", "clear"),
    "4": ("blue", "yellow"), "5": ("green", "violet"),
}
LAYOUT_EMPTY_DISCS = ("6L", "6R", "7L")
LAYOUT_NO_DISC = "7R"
LAYOUT_WEATHER = 0


def layout_state() -> dict[str, Any]:
    """The calibration layout as a snapshot-like dict (what the renderer paints)."""
    return {"canoes": {c: [{"at": slot, "gem": g}] for slot, (c, g) in LAYOUT_CANOES.items()},
            "weather": LAYOUT_WEATHER, "deposits": {}}


__all__ = ["LAYOUT_CANOES", "LAYOUT_EMPTY_DISCS", "LAYOUT_NO_DISC", "LAYOUT_WEATHER",
           "layout_state"]
