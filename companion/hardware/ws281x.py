"""The real strip on a Raspberry Pi, through the rpi_ws281x library's C module.

This talks to `_rpi_ws281x` (the SWIG module under the `rpi_ws281x` package) exactly as
the package's own `PixelStrip` does, so tests can put a fake of that one module in
`sys.modules`. The module is imported only when a real strip is opened.

Before opening, :func:`preflight` looks at the machine and says in one line why a strip
cannot work here (not a Pi, library missing, Pi 5 with PWM, no root for /dev/mem, SPI
switched off, …) and what to do about it.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from types import ModuleType

import numpy as np

from .config import StripConfig
from .strips import Strip, StripError

SPI_DEVICE = "/dev/spidev0.0"
INSTALL_HINT = ("install it into the companion's venv: "
                "sudo apt install python3-dev gcc && .venv/bin/pip install rpi-ws281x")

# ws2811_return_t codes (ws2811.h) and what a user can do about each.
INIT_ERRORS = {
    -3: "this Raspberry Pi model is not supported by the installed rpi_ws281x: upgrade it "
        "(.venv/bin/pip install -U rpi-ws281x) or, on a Pi 5, use SPI on GPIO10",
    -4: "the GPU memory could not be locked (memory lock failed): reboot the Pi",
    -5: "/dev/mem could not be mapped: run the companion as root on the Pi itself "
        "(not in a container), or use SPI on GPIO10",
    -6: "the hardware registers could not be mapped (/dev/mem): run as root, or use SPI "
        "on GPIO10",
    -8: "PWM is busy (the analogue audio uses it): add dtparam=audio=off to "
        "/boot/firmware/config.txt and reboot, or use SPI on GPIO10",
    -9: "the VideoCore mailbox (/dev/vcio) could not be opened: run as root, or use SPI "
        "on GPIO10",
    -10: "DMA error: choose another DMA channel (strip.dma, 10 is the safe one)",
    -11: "this GPIO cannot drive the strip on this Pi model: use 18 (PWM), 21 (PCM) or "
         "10 (SPI)",
    -12: "PCM could not be set up (the I2S audio uses it): disable I2S audio overlays",
    -13: f"SPI could not be set up ({SPI_DEVICE}): enable SPI with "
         "'sudo raspi-config nonint do_spi 0' and add the user to the spi group",
    -14: "the SPI transfer failed: make the SPI buffer big enough "
         "(spidev.bufsiz=32768 in /boot/firmware/cmdline.txt) and reboot",
}


@dataclass(frozen=True)
class Platform:
    """The facts about this machine that decide whether a strip can be driven."""

    model: str | None  # /proc/device-tree/model, e.g. "Raspberry Pi 4 Model B Rev 1.4"
    euid: int
    dev_mem: bool  # /dev/mem exists and can be opened read-write
    spi_device: bool  # /dev/spidev0.0 exists
    spi_access: bool  # … and this user may open it

    @classmethod
    def detect(cls) -> Platform:
        try:
            with open("/proc/device-tree/model", "rb") as f:
                model: str | None = f.read().rstrip(b"\0\n").decode("ascii", "replace")
        except OSError:
            model = None
        return cls(
            model=model,
            euid=os.geteuid(),
            dev_mem=os.path.exists("/dev/mem") and os.access("/dev/mem", os.R_OK | os.W_OK),
            spi_device=os.path.exists(SPI_DEVICE),
            spi_access=os.access(SPI_DEVICE, os.R_OK | os.W_OK),
        )

    @property
    def is_pi(self) -> bool:
        return bool(self.model and self.model.startswith("Raspberry Pi"))

    @property
    def is_pi5(self) -> bool:
        return bool(self.model and self.model.startswith("Raspberry Pi 5"))


def preflight(config: StripConfig, platform: Platform,
              module: ModuleType | None) -> str | None:
    """None when a strip can be tried here, else the one-line reason it cannot."""
    if not platform.is_pi:
        return ("no LED strip can be attached here: this machine is not a Raspberry Pi"
                + (f" ({platform.model})" if platform.model else ""))
    if module is None:
        return f"the rpi_ws281x library is not installed: {INSTALL_HINT}"
    pin = f"GPIO{config.pin}"
    if config.mode == "SPI":
        if not platform.spi_device:
            return (f"SPI is switched off ({SPI_DEVICE} is missing): run "
                    "'sudo raspi-config nonint do_spi 0' and reboot")
        if not platform.spi_access and platform.euid != 0:
            return (f"this user may not open {SPI_DEVICE}: add it to the spi group "
                    "('sudo usermod -aG spi $USER') and log in again")
        return None
    if platform.is_pi5:
        return (f"a Raspberry Pi 5 cannot drive the strip with {config.mode} on {pin} "
                "(rpi_ws281x has no Pi 5 DMA): wire the data line to GPIO10 and set "
                "strip.pin to 10 (SPI)")
    if platform.euid != 0:
        return (f"{config.mode} on {pin} needs root for /dev/mem: run the companion as "
                "root, or wire the data line to GPIO10 and set strip.pin to 10 (SPI, no root)")
    if not platform.dev_mem:
        return (f"{config.mode} on {pin} needs /dev/mem, which cannot be opened here "
                "(a container?): run on the Pi itself, or use SPI on GPIO10")
    return None


def import_driver() -> ModuleType | None:
    """The `_rpi_ws281x` C module, or None when the library is not installed."""
    try:
        return importlib.import_module("_rpi_ws281x")
    except ImportError:
        return None


class Ws281xStrip(Strip):
    """A WS2812/SK6812 strip on a Raspberry Pi: PWM (GPIO18), PCM (GPIO21) or SPI
    (GPIO10, no root). Raises StripError with a one-line reason when it cannot start.

    Brightness, power budget and gamma are applied here in Python (see output.py), so
    the library's own gamma table stays linear and its brightness at 255.
    """

    kind = "ws281x"

    def __init__(self, config: StripConfig, driver: ModuleType | None = None) -> None:
        super().__init__(config.count, config.output)
        ws = driver if driver is not None else import_driver()
        if ws is None:
            raise StripError(f"the rpi_ws281x library is not installed: {INSTALL_HINT}")
        self._ws = ws
        self.config = config
        prefix = "SK6812_STRIP_" if config.strip_type.endswith("W") else "WS2811_STRIP_"
        strip_type = getattr(ws, prefix + config.strip_type)
        self._leds = ws.new_ws2811_t()
        for number in range(2):  # both channels start unused, as PixelStrip does
            chan = ws.ws2811_channel_get(self._leds, number)
            ws.ws2811_channel_t_count_set(chan, 0)
            ws.ws2811_channel_t_gpionum_set(chan, 0)
            ws.ws2811_channel_t_invert_set(chan, 0)
            ws.ws2811_channel_t_brightness_set(chan, 0)
        self._channel = ws.ws2811_channel_get(self._leds, config.channel)
        ws.ws2811_channel_t_gamma_set(self._channel, list(range(256)))
        ws.ws2811_channel_t_count_set(self._channel, config.count)
        ws.ws2811_channel_t_gpionum_set(self._channel, config.pin)
        ws.ws2811_channel_t_invert_set(self._channel, 1 if config.invert else 0)
        ws.ws2811_channel_t_brightness_set(self._channel, 255)
        ws.ws2811_channel_t_strip_type_set(self._channel, strip_type)
        ws.ws2811_t_freq_set(self._leds, config.freq_hz)
        ws.ws2811_t_dmanum_set(self._leds, config.dma)
        code = ws.ws2811_init(self._leds)
        if code != 0:
            self._release()
            raise StripError(self._reason("ws2811_init", code))
        self._render_failed = False

    def _reason(self, call: str, code: int) -> str:
        if code in INIT_ERRORS:
            return INIT_ERRORS[code]
        text = self._ws.ws2811_get_return_t_str(code)
        return f"{call} failed with code {code} ({text}) on GPIO{self.config.pin}"

    def _write(self, wire: np.ndarray) -> None:
        if self._leds is None:
            return
        ws, chan = self._ws, self._channel
        packed = ((wire[:, 0].astype(np.uint32) << 16) | (wire[:, 1].astype(np.uint32) << 8)
                  | wire[:, 2].astype(np.uint32))
        for i, value in enumerate(packed.tolist()):
            ws.ws2811_led_set(chan, i, value)
        code = ws.ws2811_render(self._leds)
        if code != 0:
            # One failed frame (an SPI hiccup) should not stop the game: the next show()
            # tries again; the reason is raised once so the caller can log it.
            if not self._render_failed:
                self._render_failed = True
                raise StripError(self._reason("ws2811_render", code))
        else:
            self._render_failed = False

    def _release(self) -> None:
        if self._leds is not None:
            self._ws.ws2811_fini(self._leds)
            self._ws.delete_ws2811_t(self._leds)
            self._leds = None
            self._channel = None

    def close(self) -> None:
        if self.closed:
            return
        try:
            super().close()
        finally:
            self._release()
