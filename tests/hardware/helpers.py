"""Shared pieces of the hardware tests: a fake of the rpi_ws281x C module, platforms,
and small game builders."""

from __future__ import annotations

import types
from pathlib import Path

from companion.hardware.ws281x import Platform
from companion.rules import Game

ROOT = Path(__file__).resolve().parents[2]


class FakeWs281x(types.ModuleType):
    """The surface of `_rpi_ws281x` (the SWIG module of rpi-ws281x 5.0) that PixelStrip
    uses, keeping the channel structs as dicts, as the library's own tests do.
    `init_result` and `render_result` play the C library's return codes."""

    # ws2811.h strip types
    WS2811_STRIP_RGB = 0x00100800
    WS2811_STRIP_RBG = 0x00100008
    WS2811_STRIP_GRB = 0x00081000
    WS2811_STRIP_GBR = 0x00080010
    WS2811_STRIP_BRG = 0x00001008
    WS2811_STRIP_BGR = 0x00000810
    SK6812_STRIP_RGBW = 0x18100800
    SK6812_STRIP_RBGW = 0x18100008
    SK6812_STRIP_GRBW = 0x18081000
    SK6812_STRIP_GBRW = 0x18080010
    SK6812_STRIP_BRGW = 0x18001008
    SK6812_STRIP_BGRW = 0x18000810

    def __init__(self) -> None:
        super().__init__("_rpi_ws281x")
        self.init_result = 0
        self.render_result = 0
        self.calls: list[str] = []
        self.structs: list[dict] = []
        self.renders: list[list[int]] = []  # the LED buffer at each ws2811_render

    # ws2811_t
    def new_ws2811_t(self) -> dict:
        self.calls.append("new_ws2811_t")
        leds = {"channels": [{"count": 0, "leds": []} for _ in range(2)], "freq": None,
                "dmanum": None, "alive": True, "initialised": False}
        self.structs.append(leds)
        return leds

    def delete_ws2811_t(self, leds: dict) -> None:
        self.calls.append("delete_ws2811_t")
        leds["alive"] = False

    def ws2811_channel_get(self, leds: dict, number: int) -> dict:
        return leds["channels"][number]

    def ws2811_t_freq_set(self, leds: dict, freq: int) -> None:
        leds["freq"] = freq

    def ws2811_t_dmanum_set(self, leds: dict, dma: int) -> None:
        leds["dmanum"] = dma

    # ws2811_channel_t
    def ws2811_channel_t_count_set(self, chan: dict, count: int) -> None:
        chan["count"] = count
        chan["leds"] = [0] * count

    def ws2811_channel_t_count_get(self, chan: dict) -> int:
        return chan["count"]

    def ws2811_channel_t_gpionum_set(self, chan: dict, pin: int) -> None:
        chan["gpionum"] = pin

    def ws2811_channel_t_invert_set(self, chan: dict, invert: int) -> None:
        chan["invert"] = invert

    def ws2811_channel_t_brightness_set(self, chan: dict, brightness: int) -> None:
        chan["brightness"] = brightness

    def ws2811_channel_t_brightness_get(self, chan: dict) -> int:
        return chan["brightness"]

    def ws2811_channel_t_strip_type_set(self, chan: dict, strip_type: int) -> None:
        chan["strip_type"] = strip_type

    def ws2811_channel_t_gamma_set(self, chan: dict, gamma: list[int]) -> None:
        chan["gamma"] = list(gamma)

    def ws2811_led_set(self, chan: dict, n: int, colour: int) -> int:
        chan["leds"][n] = colour  # IndexError past the end, as the C module refuses
        return 0

    def ws2811_led_get(self, chan: dict, n: int) -> int:
        return chan["leds"][n]

    # the driver
    def ws2811_init(self, leds: dict) -> int:
        self.calls.append("ws2811_init")
        leds["initialised"] = self.init_result == 0
        return self.init_result

    def ws2811_render(self, leds: dict) -> int:
        self.calls.append("ws2811_render")
        active = [c for c in leds["channels"] if c["count"]][0]
        self.renders.append(list(active["leds"]))
        return self.render_result

    def ws2811_fini(self, leds: dict) -> None:
        self.calls.append("ws2811_fini")

    def ws2811_get_return_t_str(self, code: int) -> str:
        return {-1: "Generic failure", -7: "Unable to initialize GPIO"}.get(code, "Unknown")


PI4_ROOT = Platform(model="Raspberry Pi 4 Model B Rev 1.4", euid=0, dev_mem=True,
                    spi_device=True, spi_access=True)


def game_after(setup: dict, *events: dict | str) -> Game:
    """A game from a setup and events; strings are turns in the text notation."""
    game = Game.from_setup(setup)
    for event in events:
        if isinstance(event, str):
            game.push_san(event)
        else:
            game.apply(event)
    return game


THREE = {"event": "setup", "players": ["blue", "green", "yellow"], "start": "blue",
         "branch": "L", "variants": []}


def river_with_blue_falling() -> Game:
    """Phase "river", speed 3 (lowest card 3, weather 0): steps L, R, L. The discs on 7L,
    7R and 6L fall; blue's canoe rides the one on 6L; the discs on 5 and 6R end on the
    last slots."""
    return game_after(THREE, {"event": "cards", "cards": {"blue": 6, "green": 6, "yellow": 3}},
                      "D-6L", "D-6R", "D-3")


def worked_example_lines() -> list[str]:
    return (ROOT / "examples" / "worked-example.jsonl").read_text().splitlines()
