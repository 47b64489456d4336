"""The hardware file, calibration/leds.json: the strip, its layout on the board, the
buttons.

```json
{"strip": {"backend": "auto", "count": 150, "pin": 18, "type": "GRB",
           "brightness": 128, "gamma": 2.8, "ma_per_led": 55, "idle_ma": 1, "budget_ma": 2000},
 "places": {"dock": [0, 9], "slots": {"1": [10, 21], …}, "falls": {"L": …, "R": …},
            "weather": {"-1": …, "0": …, "+1": …, "+2": …}},
 "buttons": {"river": 17, "undo": 27, "next": 22}}
```
Every entry may be left out; what is missing takes the default shown above.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import paths

from .layout import LayoutError, LedLayout, default_layout
from .output import Output

BACKENDS = ("auto", "ws281x", "simulated", "off")
# GPIO pins the rpi_ws281x library can drive, and how (its check_hwver_and_gpionum()).
PIN_MODES = {12: "PWM", 18: "PWM", 13: "PWM", 19: "PWM", 21: "PCM", 10: "SPI"}
STRIP_TYPES = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR",
               "RGBW", "RBGW", "GRBW", "GBRW", "BRGW", "BGRW")
DEFAULT_BUTTONS = {"river": 17, "undo": 27, "next": 22}
ENV_PATH = "COMPANION_LEDS"


class ConfigError(ValueError):
    """A hardware file that cannot be used; the message is one line naming the entry."""


@dataclass(frozen=True)
class StripConfig:
    """How the strip is wired and how bright it may be."""

    backend: str = "auto"
    count: int = 150
    pin: int = 18
    strip_type: str = "GRB"
    freq_hz: int = 800_000
    dma: int = 10
    invert: bool = False
    output: Output = field(default_factory=Output)

    @property
    def mode(self) -> str:
        """PWM, PCM or SPI: how rpi_ws281x drives the pin."""
        return PIN_MODES[self.pin]

    @property
    def channel(self) -> int:
        """PWM channel 1 is on GPIO 13 and 19; everything else uses channel 0."""
        return 1 if self.pin in (13, 19) else 0


@dataclass(frozen=True)
class ButtonConfig:
    """GPIO pins (BCM numbers) of the table's buttons, by what they do."""

    pins: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_BUTTONS))
    pull_up: bool = True
    bounce_ms: int = 50


@dataclass(frozen=True)
class HardwareConfig:
    strip: StripConfig
    layout: LedLayout
    buttons: ButtonConfig
    source: str = "built-in defaults"


def find_config() -> Path | None:
    """Where the hardware file is: $COMPANION_LEDS, else the table's own leds.json in
    ~/.config/niagara-companion/, else the packaged one (companion.paths); None if
    there is none."""
    env = os.environ.get(ENV_PATH)
    if env:
        return Path(env)
    candidate = paths.leds_file()
    return candidate if candidate.is_file() else None


def load_config(path: str | Path | None = None) -> HardwareConfig:
    """Read a hardware file (default: :func:`find_config`, else built-in defaults).
    Raises ConfigError with a one-line reason."""
    if path is None:
        path = find_config()
        if path is None:
            return parse_config({})
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"{path}: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"{path}: not valid JSON ({exc})") from None
    return parse_config(data, str(path))


def parse_config(data: Any, source: str = "built-in defaults") -> HardwareConfig:
    if not isinstance(data, Mapping):
        raise ConfigError(f"{source}: the file must hold a JSON object")
    for key in data:
        if key not in ("strip", "places", "buttons") and not key.startswith("_"):
            raise ConfigError(f"{source}: unknown entry {key!r} (entries: strip, places, "
                              "buttons; names starting with _ are comments)")
    try:
        strip = _strip(data.get("strip", {}))
        if "places" in data:
            layout = LedLayout.from_json(data["places"], strip.count)
        else:
            layout = default_layout(strip.count)
        buttons = _buttons(data.get("buttons", {}), strip)
    except (ConfigError, LayoutError, ValueError) as exc:
        raise ConfigError(f"{source}: {exc}") from None
    return HardwareConfig(strip, layout, buttons, source)


def _get(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], default: Any,
         where: str) -> Any:
    value = data.get(key, default)
    if isinstance(value, bool) and kind is not bool and bool not in _tuple(kind):
        raise ConfigError(f"{where}.{key} must be a number, not {value!r}")
    if value is not None and not isinstance(value, kind):
        raise ConfigError(f"{where}.{key} has the wrong type: {value!r}")
    return value


def _tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _strip(data: Any) -> StripConfig:
    if not isinstance(data, Mapping):
        raise ConfigError("strip must be an object")
    known = {"backend", "count", "pin", "type", "freq_hz", "dma", "invert", "brightness",
             "gamma", "ma_per_led", "idle_ma", "budget_ma"}
    for key in data:
        if key not in known and not key.startswith("_"):
            raise ConfigError(f"strip: unknown entry {key!r} (entries: {', '.join(sorted(known))})")
    backend = _get(data, "backend", str, "auto", "strip")
    if backend not in BACKENDS:
        raise ConfigError(f"strip.backend {backend!r} is not one of {', '.join(BACKENDS)}")
    count = _get(data, "count", int, 150, "strip")
    if not 1 <= count <= 2000:
        raise ConfigError(f"strip.count must be 1-2000 LEDs, not {count}")
    pin = _get(data, "pin", int, 18, "strip")
    if pin not in PIN_MODES:
        raise ConfigError(f"strip.pin GPIO{pin} cannot drive an LED strip: use 18 (PWM), "
                          "21 (PCM) or 10 (SPI, no root needed, the one for a Pi 5)")
    strip_type = str(_get(data, "type", str, "GRB", "strip")).upper()
    if strip_type not in STRIP_TYPES:
        raise ConfigError(f"strip.type {strip_type!r} is not one of {', '.join(STRIP_TYPES)}")
    budget = _get(data, "budget_ma", (int, float), 2000, "strip")
    output = Output(
        brightness=_get(data, "brightness", int, 128, "strip"),
        gamma=float(_get(data, "gamma", (int, float), 2.8, "strip")),
        ma_per_led=float(_get(data, "ma_per_led", (int, float), 55, "strip")),
        idle_ma=float(_get(data, "idle_ma", (int, float), 1, "strip")),
        budget_ma=None if budget is None or budget == 0 else float(budget),
    )
    return StripConfig(
        backend=backend, count=count, pin=pin, strip_type=strip_type,
        freq_hz=_get(data, "freq_hz", int, 800_000, "strip"),
        dma=_get(data, "dma", int, 10, "strip"),
        invert=_get(data, "invert", bool, False, "strip"),
        output=output,
    )


def _buttons(data: Any, strip: StripConfig) -> ButtonConfig:
    if not isinstance(data, Mapping):
        raise ConfigError("buttons must be an object")
    pins: dict[str, int] = dict(DEFAULT_BUTTONS)
    pull_up, bounce = True, 50
    for key, value in data.items():
        if key.startswith("_"):
            continue
        if key == "pull_up":
            pull_up = _get(data, key, bool, True, "buttons")
        elif key == "bounce_ms":
            bounce = _get(data, key, int, 50, "buttons")
        elif value is None:
            pins.pop(key, None)  # "undo": null leaves that button out
        elif isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 27:
            pins[key] = value
        else:
            raise ConfigError(f"buttons.{key} must be a GPIO number 0-27 (or null), "
                              f"not {value!r}")
    used: dict[int, str] = {}
    for name, pin in pins.items():
        if pin == strip.pin and strip.backend != "off":
            raise ConfigError(f"buttons.{name}: GPIO{pin} is the LED strip's data pin")
        if pin in used:
            raise ConfigError(f"buttons.{name}: GPIO{pin} is already the {used[pin]} button")
        used[pin] = name
    return ButtonConfig(pins, pull_up, bounce)
