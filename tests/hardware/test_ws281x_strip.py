"""The rpi_ws281x backend against a fake of the `_rpi_ws281x` C module, and the choice
of strip with its one-line reasons for falling back to the simulated one."""

import logging
import subprocess
import sys
from dataclasses import replace

import pytest

from companion.hardware import NullStrip, Output, SimulatedStrip, StripConfig, make_strip
from companion.hardware.strips import StripError
from companion.hardware.ws281x import Platform, Ws281xStrip, preflight

from .helpers import PI4_ROOT

LINEAR = Output(brightness=255, gamma=1.0, budget_ma=None)


def config(**kwargs) -> StripConfig:
    base = {"backend": "ws281x", "count": 8, "pin": 18, "output": LINEAR}
    return StripConfig(**(base | kwargs))


def test_opening_sets_up_the_channel_as_pixelstrip_does(fake_ws):
    Ws281xStrip(config(count=8, pin=18, dma=10, freq_hz=800_000), fake_ws)
    leds = fake_ws.structs[0]
    chan = leds["channels"][0]
    assert chan["count"] == 8 and chan["gpionum"] == 18 and chan["invert"] == 0
    assert chan["strip_type"] == fake_ws.WS2811_STRIP_GRB
    assert chan["brightness"] == 255 and chan["gamma"] == list(range(256))
    assert leds["channels"][1]["count"] == 0  # the other channel stays unused
    assert leds["freq"] == 800_000 and leds["dmanum"] == 10
    assert leds["initialised"]


def test_gpio13_uses_pwm_channel_1(fake_ws):
    Ws281xStrip(config(pin=13), fake_ws)
    channels = fake_ws.structs[0]["channels"]
    assert channels[1]["gpionum"] == 13 and channels[0]["count"] == 0


def test_sk6812_rgbw_type_is_passed_on(fake_ws):
    Ws281xStrip(config(strip_type="GRBW"), fake_ws)
    assert fake_ws.structs[0]["channels"][0]["strip_type"] == fake_ws.SK6812_STRIP_GRBW


def test_show_sends_packed_rgb_and_renders(fake_ws):
    strip = Ws281xStrip(config(count=3), fake_ws)
    strip[0] = (255, 0, 0)
    strip[2] = (0x12, 0x34, 0x56)
    strip.show()
    assert fake_ws.renders == [[0xFF0000, 0, 0x123456]]


def test_show_sends_brightness_and_gamma_corrected_values(fake_ws):
    strip = Ws281xStrip(config(count=1, output=Output(brightness=128, gamma=2.8,
                                                      budget_ma=None)), fake_ws)
    strip.fill((255, 255, 255))
    strip.show()
    level = round(255 * (128 / 255) ** 2.8)
    assert fake_ws.renders[-1] == [level << 16 | level << 8 | level]
    assert strip.pixels() == [(255, 255, 255)]


def test_init_failure_is_one_line_with_what_to_do(fake_ws):
    fake_ws.init_result = -5
    with pytest.raises(StripError) as info:
        Ws281xStrip(config(), fake_ws)
    assert "/dev/mem" in str(info.value) and "\n" not in str(info.value)
    assert "ws2811_fini" in fake_ws.calls and not fake_ws.structs[0]["alive"]


def test_unknown_init_code_names_the_library_message(fake_ws):
    fake_ws.init_result = -7
    with pytest.raises(StripError, match="Unable to initialize GPIO"):
        Ws281xStrip(config(), fake_ws)


def test_render_failure_is_reported_once_then_retried(fake_ws):
    strip = Ws281xStrip(config(), fake_ws)
    fake_ws.render_result = -14
    with pytest.raises(StripError, match="SPI transfer"):
        strip.show()
    strip.show()  # the same failure again: not raised twice
    fake_ws.render_result = 0
    strip.show()
    assert fake_ws.calls.count("ws2811_render") == 3


def test_close_turns_the_strip_off_and_frees_the_driver(fake_ws):
    strip = Ws281xStrip(config(count=2), fake_ws)
    strip.fill((200, 200, 200))
    strip.show()
    strip.close()
    assert fake_ws.renders[-1] == [0, 0]
    assert fake_ws.calls[-2:] == ["ws2811_fini", "delete_ws2811_t"]
    strip.close()  # twice is harmless
    assert fake_ws.calls.count("ws2811_fini") == 1


def test_make_strip_opens_the_real_strip_when_all_is_well(fake_ws):
    strip = make_strip(config(), platform=PI4_ROOT, driver=fake_ws)
    assert isinstance(strip, Ws281xStrip)


def test_make_strip_gives_what_the_config_asks_for_without_hardware():
    assert isinstance(make_strip(config(backend="off")), NullStrip)
    strip = make_strip(config(backend="simulated"))
    assert isinstance(strip, SimulatedStrip) and strip.reason is None


PI5 = replace(PI4_ROOT, model="Raspberry Pi 5 Model B Rev 1.0")
LAPTOP = Platform(model=None, euid=1000, dev_mem=False, spi_device=False, spi_access=False)


@pytest.mark.parametrize("platform, pin, driver, words", [
    (LAPTOP, 18, True, "not a Raspberry Pi"),
    (PI4_ROOT, 18, False, "rpi_ws281x library is not installed"),
    (PI5, 18, True, "Pi 5 cannot drive the strip with PWM"),
    (PI5, 21, True, "Pi 5 cannot drive the strip with PCM"),
    (replace(PI4_ROOT, euid=1000), 18, True, "needs root for /dev/mem"),
    (replace(PI4_ROOT, dev_mem=False), 18, True, "/dev/mem, which cannot be opened"),
    (replace(PI4_ROOT, spi_device=False), 10, True, "SPI is switched off"),
    (replace(PI4_ROOT, euid=1000, spi_access=False), 10, True, "spi group"),
], ids=["not-a-pi", "no-library", "pi5-pwm", "pi5-pcm", "not-root", "no-dev-mem",
        "spi-off", "spi-no-permission"])
def test_each_failure_falls_back_to_the_simulated_strip_with_one_line(
        platform, pin, driver, words, fake_ws, caplog):
    with caplog.at_level(logging.INFO, logger="companion.hardware"):
        strip = make_strip(config(pin=pin), platform=platform,
                           driver=fake_ws if driver else None)
    assert isinstance(strip, SimulatedStrip)
    assert words in strip.reason and "\n" not in strip.reason
    assert ":" in strip.reason  # the reason, then what to do
    assert [r.getMessage() for r in caplog.records] == [
        f"LED strip: {strip.reason}; using the simulated strip"]
    assert "ws2811_init" not in fake_ws.calls  # refused before touching the hardware


def test_init_failure_on_a_pi_also_falls_back(fake_ws, caplog):
    fake_ws.init_result = -8
    with caplog.at_level(logging.WARNING, logger="companion.hardware"):
        strip = make_strip(config(), platform=PI4_ROOT, driver=fake_ws)
    assert isinstance(strip, SimulatedStrip) and "audio" in strip.reason
    assert "dtparam=audio=off" in caplog.text


def test_spi_needs_no_root(fake_ws):
    user = replace(PI4_ROOT, euid=1000, dev_mem=False)
    assert preflight(config(pin=10), user, fake_ws) is None
    assert preflight(config(pin=10), replace(user, model="Raspberry Pi 5 Model B"),
                     fake_ws) is None


def test_auto_off_a_pi_is_quiet(caplog):
    with caplog.at_level(logging.WARNING, logger="companion.hardware"):
        strip = make_strip(config(backend="auto"), platform=LAPTOP)
    assert isinstance(strip, SimulatedStrip) and strip.reason
    assert caplog.records == []


def test_explicit_ws281x_off_a_pi_warns(caplog):
    with caplog.at_level(logging.WARNING, logger="companion.hardware"):
        make_strip(config(backend="ws281x"), platform=LAPTOP)
    assert len(caplog.records) == 1


def test_importing_the_hardware_package_never_imports_rpi_ws281x():
    code = ("import sys, companion.hardware, companion.hardware.cli; "
            "from companion.hardware import make_strip, load_config; "
            "make_strip(load_config()); "
            "print('_rpi_ws281x' in sys.modules, 'rpi_ws281x' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["False", "False"]


def test_on_a_pi_the_driver_is_imported_as_the_rpi_ws281x_package_does(fake_ws, monkeypatch):
    monkeypatch.setitem(sys.modules, "_rpi_ws281x", fake_ws)
    strip = make_strip(config(), platform=PI4_ROOT)
    assert isinstance(strip, Ws281xStrip)
    strip.fill((1, 2, 3))
    strip.show()
    assert fake_ws.renders == [[0x010203] * 8]
