"""The strip interface, the simulated strip, the null strip and the PNG picture."""

import zlib

import numpy as np
import pytest

from companion.hardware import NullStrip, Output, SimulatedStrip, StripError
from companion.hardware.png import png_bytes, strip_image

LINEAR = Output(brightness=255, gamma=1.0, budget_ma=None)


def test_simulated_strip_keeps_the_colours_shown():
    strip = SimulatedStrip(4, LINEAR)
    strip[1] = (10, 20, 30)
    strip.show()
    assert strip.pixels() == [(0, 0, 0), (10, 20, 30), (0, 0, 0), (0, 0, 0)]


def test_colours_set_but_not_shown_are_not_visible():
    strip = SimulatedStrip(2, LINEAR)
    strip.fill((255, 0, 0))
    assert strip.pixels() == [(0, 0, 0), (0, 0, 0)]
    assert strip[0] == (255, 0, 0)


def test_pixels_are_the_meant_colours_and_wire_the_corrected_ones():
    strip = SimulatedStrip(1, Output(brightness=128, gamma=2.8, budget_ma=None))
    strip.fill((255, 255, 255))
    strip.show()
    assert strip.pixels() == [(255, 255, 255)]
    assert strip.wire()[0][0] == round(255 * (128 / 255) ** 2.8)


def test_current_is_measured_on_show():
    strip = SimulatedStrip(10, Output(brightness=255, gamma=1.0, ma_per_led=60, idle_ma=1,
                                      budget_ma=None))
    strip.fill((255, 255, 255))
    strip.show()
    assert strip.current_ma == pytest.approx(10 * 61)


def test_subscribers_hear_each_changed_frame_once():
    strip = SimulatedStrip(3, LINEAR)
    heard = []
    strip.subscribe(heard.append)
    strip[0] = (1, 2, 3)
    strip.show()
    strip.show()  # nothing changed: no news
    assert heard == [[(1, 2, 3), (0, 0, 0), (0, 0, 0)]]


def test_unsubscribe_stops_the_news():
    strip = SimulatedStrip(1, LINEAR)
    heard = []
    stop = strip.subscribe(heard.append)
    stop()
    strip.fill((5, 5, 5))
    strip.show()
    assert heard == []


def test_set_frame_takes_a_list_or_array_of_the_right_size():
    strip = SimulatedStrip(2, LINEAR)
    strip.set_frame([(1, 1, 1), (2, 2, 2)])
    strip.set_frame(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="2 RGB colours"):
        strip.set_frame([(1, 1, 1)])


def test_close_turns_the_leds_off_and_refuses_more():
    strip = SimulatedStrip(2, LINEAR)
    strip.fill((9, 9, 9))
    strip.show()
    strip.close()
    assert strip.pixels() == [(0, 0, 0), (0, 0, 0)]
    with pytest.raises(StripError, match="closed"):
        strip.show()


def test_a_strip_has_at_least_one_led():
    with pytest.raises(ValueError, match="at least one LED"):
        SimulatedStrip(0)


def test_null_strip_accepts_everything_and_shows_nothing_anywhere():
    strip = NullStrip(5)
    strip.fill((255, 0, 0))
    strip.show()
    assert strip.kind == "off" and len(strip) == 5


def _decode_png(data: bytes) -> np.ndarray:
    """A minimal reader for the unfiltered 8-bit RGB PNGs png.py writes."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        length = int.from_bytes(data[pos:pos + 4], "big")
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        crc = int.from_bytes(data[pos + 8 + length:pos + 12 + length], "big")
        assert zlib.crc32(kind + body) == crc
        if kind == b"IHDR":
            width, height = int.from_bytes(body[:4], "big"), int.from_bytes(body[4:8], "big")
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(height, width * 3 + 1)
    assert not raw[:, 0].any()
    return raw[:, 1:].reshape(height, width, 3)


def test_png_holds_each_led_colour(tmp_path):
    strip = SimulatedStrip(60, LINEAR)
    strip[0] = (255, 0, 0)
    strip[59] = (0, 0, 255)
    strip.show()
    strip.to_png(tmp_path / "strip.png", [range(0, 10)])
    image = _decode_png((tmp_path / "strip.png").read_bytes())
    assert image.shape == strip_image(strip.pixels()).shape
    assert (image == (255, 0, 0)).all(axis=2).sum() == 100  # one 10x10 square
    assert (image == (0, 0, 255)).all(axis=2).sum() == 100  # on the second row


def test_png_is_readable_by_opencv():
    cv2 = pytest.importorskip("cv2")
    image = np.zeros((3, 4, 3), dtype=np.uint8)
    image[1, 2] = (10, 200, 30)
    decoded = cv2.imdecode(np.frombuffer(png_bytes(image), np.uint8), cv2.IMREAD_COLOR)
    assert decoded[1, 2].tolist() == [30, 200, 10]  # OpenCV reads BGR
