"""Drawing the danger zone on the strip: one frame for a moment `t` (seconds), so that
blinking canoes and the winner's glow are a pure function of the zone and the time.

>>> from companion.rules import Game
>>> from companion.hardware.layout import default_layout
>>> from companion.rules import danger_zone
>>> frame = np.zeros((150, 3), dtype=np.uint8)
>>> draw_zone(frame, default_layout(), danger_zone(Game(["blue", "red", "green"])), t=0.0)
>>> frame[10].tolist()   # slot 1: calm water
[0, 18, 40]
"""

from __future__ import annotations

import math

import numpy as np

from companion.rules import SLOTS
from companion.rules.danger import DangerZone

from . import colours
from .layout import DOCK, FALLS, WEATHER, LedLayout

BLINK_HZ = 2.0  # falling canoes
GLOW_PERIOD = 2.5  # seconds per breath of the winner's colour
WINNER_BLOCK = 6  # LEDs per colour block when several players win


def blink_on(t: float, hz: float = BLINK_HZ) -> bool:
    return (t * hz) % 1.0 < 0.5


def draw_zone(frame: np.ndarray, layout: LedLayout, zone: DangerZone, t: float) -> None:
    """Paint `zone` into `frame` (uint8, shape (count, 3)) as it looks at time `t`."""
    frame[:] = 0
    if zone.phase == "over":
        _draw_winners(frame, zone.winners, t)
        return
    for slot in SLOTS:
        if slot in zone.certain:
            colour = colours.FALL
        elif slot in zone.possible:
            colour = colours.FALL_MAYBE
        elif slot in zone.last:
            colour = colours.LAST
        else:
            colour = colours.WATER
        frame[layout.slice(slot)] = colour
    if zone.canoes:
        _draw_falling_canoes(frame, layout, zone, t)
    for side, name in FALLS.items():
        if name in layout:
            colour = (colours.FALL if side in zone.edges
                      else colours.FALL_MAYBE if side in zone.maybe_edges else colours.FOAM)
            frame[layout.slice(name)] = colour
    if DOCK in layout:
        frame[layout.slice(DOCK)] = (colours.scale(colours.PLAYER[zone.to_move], 0.5)
                                     if zone.to_move else colours.DOCK)
    for value, name in WEATHER.items():
        if name in layout:
            frame[layout.slice(name)] = colours.CLOUD if value == zone.weather else colours.TRACK


def _draw_falling_canoes(frame: np.ndarray, layout: LedLayout, zone: DangerZone,
                         t: float) -> None:
    """Each canoe that will fall is a short mark in its player's colour on its slot,
    blinking against the red of the falling disc."""
    on = blink_on(t)
    by_slot: dict[str, list[str]] = {}
    for player, place, _gem in zone.canoes:
        by_slot.setdefault(place, []).append(player)
    for slot, players in by_slot.items():
        indices = layout[slot].indices
        n, k = len(indices), len(players)
        width = max(1, min(3, n // (2 * k + 1)))
        for j, player in enumerate(sorted(players)):
            centre = round((j + 1) * n / (k + 1)) - width // 2
            mark = indices[max(0, min(centre, n - width)):][:width]
            frame[list(mark)] = colours.PLAYER[player] if on else colours.FALL


def _draw_winners(frame: np.ndarray, winners: tuple[str, ...], t: float) -> None:
    """The winner's colour along the whole strip, breathing; several winners share it
    in blocks."""
    if not winners:
        return
    level = 0.35 + 0.65 * (0.5 - 0.5 * math.cos(2 * math.pi * t / GLOW_PERIOD))
    palette = np.array([colours.scale(colours.PLAYER[w], level) for w in winners],
                       dtype=np.uint8)
    blocks = (np.arange(len(frame)) // WINNER_BLOCK) % len(winners)
    frame[:] = palette[blocks]
