"""The output pipeline: brightness cap, gamma, power budget (output.py)."""

import numpy as np
import pytest

from companion.hardware import Output


def frame(*colours):
    return np.array(colours, dtype=np.uint8)


def test_full_brightness_and_linear_gamma_pass_colours_through():
    out = Output(brightness=255, gamma=1.0, budget_ma=None)
    wire, _ = out.apply(frame((255, 128, 0), (1, 2, 3)))
    assert wire.tolist() == [[255, 128, 0], [1, 2, 3]]


def test_brightness_caps_every_channel():
    out = Output(brightness=128, gamma=1.0, budget_ma=None)
    wire, _ = out.apply(frame((255, 255, 255)))
    assert wire.tolist() == [[128, 128, 128]]


def test_gamma_darkens_the_middle_and_keeps_the_ends():
    out = Output(brightness=255, gamma=2.8, budget_ma=None)
    wire, _ = out.apply(frame((0, 128, 255)))
    assert wire[0, 0] == 0 and wire[0, 2] == 255
    assert wire[0, 1] == round(255 * (128 / 255) ** 2.8)  # 36: half on screen is dim on LEDs


def test_current_counts_idle_and_lit_leds():
    out = Output(brightness=255, gamma=1.0, ma_per_led=60, idle_ma=1, budget_ma=None)
    _, current = out.apply(frame((255, 255, 255), (0, 0, 0)))
    assert current == pytest.approx(60 + 2 * 1)


def test_power_budget_dims_the_whole_frame_to_fit():
    out = Output(brightness=255, gamma=1.0, ma_per_led=60, idle_ma=1, budget_ma=500)
    white = np.full((10, 3), 255, dtype=np.uint8)  # 610 mA at full
    wire, current = out.apply(white)
    assert current <= 500
    assert current > 490  # dimmed just enough, not to darkness
    assert len(set(map(tuple, wire.tolist()))) == 1  # evenly: the picture keeps its look


def test_power_budget_leaves_frames_under_it_alone():
    out = Output(brightness=255, gamma=1.0, budget_ma=5000)
    wire, _ = out.apply(frame((200, 100, 50)))
    assert wire.tolist() == [[200, 100, 50]]


def test_power_budget_keeps_hues():
    out = Output(brightness=255, gamma=1.0, ma_per_led=60, idle_ma=0, budget_ma=100)
    wire, _ = out.apply(np.tile(frame((200, 100, 0)), (10, 1)))
    r, g, b = wire[0].tolist()
    assert b == 0 and abs(r - 2 * g) <= 1


@pytest.mark.parametrize("kwargs, word", [
    ({"brightness": 300}, "brightness"), ({"gamma": 0}, "gamma"),
    ({"budget_ma": -5}, "budget_ma"), ({"ma_per_led": 0}, "ma_per_led"),
])
def test_bad_settings_are_refused_with_their_name(kwargs, word):
    with pytest.raises(ValueError, match=word):
        Output(**kwargs)
