"""The LED palette. Colours are sRGB as the app means them; output.py makes them right
for LEDs. Danger is red, the last slot before the falls amber, water a dim blue."""

from __future__ import annotations

from .output import RGB

BLACK: RGB = (0, 0, 0)
WATER: RGB = (0, 18, 40)  # a slot with nothing to fear
FALL: RGB = (255, 0, 0)  # falls this round (certain, or known)
FALL_MAYBE: RGB = (90, 0, 0)  # falls for some possible speed: the weaker strength
LAST: RGB = (255, 110, 0)  # ends on 7L/7R, the last slot before the falls
FOAM: RGB = (28, 28, 36)  # a waterfall edge at rest
DOCK: RGB = (20, 16, 10)
CLOUD: RGB = (150, 150, 170)  # the weather track's current value
TRACK: RGB = (6, 6, 10)  # the other weather values
ILLEGAL: RGB = (255, 0, 170)  # magenta: not a danger colour, cannot be mistaken for one
PULSE: RGB = (120, 200, 255)  # the river's push
FLASH: RGB = (255, 255, 255)

# Canoe colours from the vision spec's nominal table, a little brighter for LEDs.
PLAYER: dict[str, RGB] = {
    "brown": (150, 70, 20),
    "yellow": (235, 195, 35),
    "red": (220, 30, 30),
    "blue": (35, 75, 220),
    "green": (40, 180, 65),
}


def scale(colour: RGB, factor: float) -> RGB:
    r, g, b = colour
    return int(r * factor), int(g * factor), int(b * factor)


def hex_colour(colour: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)
