"""LED strips that show the danger at the waterfall, and buttons at the table.

>>> from companion.rules import Game
>>> from companion.hardware import LedController, SimulatedStrip, default_layout
>>> game = Game(["blue", "green", "yellow"])
>>> game.apply({"event": "cards", "cards": {"blue": 1, "green": 2, "yellow": 3}})
>>> leds = LedController(SimulatedStrip(150), default_layout())
>>> leds.show(game)          # after every event; leds.start() renders in a thread
>>> leds.render()            # one frame by hand
>>> leds.strip.pixels()[10]  # slot 1: calm water, nothing falls this round
(0, 18, 40)

On the Pi, `make_strip(load_config())` opens the real strip from
calibration/leds.json, or falls back to the simulated one with a one-line reason.
Nothing here imports rpi_ws281x until a real strip is opened.
"""

from companion.rules.danger import DangerZone, danger_zone

from .animations import Animation, FallFlash, IllegalBlink, RiverPulse
from .backends import make_strip
from .buttons import ButtonPanel, open_buttons
from .config import ButtonConfig, ConfigError, HardwareConfig, StripConfig, load_config
from .controller import LedController, places_named
from .layout import LayoutError, LedLayout, LedRange, default_layout
from .output import Output
from .strips import NullStrip, SimulatedStrip, Strip, StripError

__all__ = [
    "Animation", "FallFlash", "IllegalBlink", "RiverPulse", "make_strip", "ButtonPanel",
    "open_buttons", "ButtonConfig", "ConfigError", "HardwareConfig", "StripConfig",
    "load_config", "LedController", "places_named", "DangerZone", "danger_zone",
    "LayoutError", "LedLayout", "LedRange", "default_layout", "Output", "NullStrip",
    "SimulatedStrip", "Strip", "StripError",
]
