"""The layout file calibration/leds.json and its checks (layout.py, config.py)."""

import json
import re

import pytest

from companion.hardware import ConfigError, LedLayout, default_layout, load_config
from companion.hardware.config import parse_config
from companion.hardware.layout import PLACE_NAMES, LayoutError, label
from companion.rules import SLOTS

from .helpers import ROOT

SLOTS_ONLY = {"1": [0, 2], "2": [3, 5], "3": [6, 8], "4": [9, 11], "5": [12, 14],
              "6L": [15, 17], "7L": [18, 20], "6R": [26, 24], "7R": [23, 21]}


def test_shipped_leds_json_is_valid_and_lights_every_place():
    config = load_config(ROOT / "calibration" / "leds.json")
    assert set(config.layout) == set(PLACE_NAMES)
    assert config.strip.count == 150 and config.layout.count == 150
    used = [i for name in config.layout for i in config.layout[name].indices]
    assert sorted(used) == list(range(150))  # every LED has a place, none two


def test_shipped_leds_json_is_the_default_layout():
    config = load_config(ROOT / "calibration" / "leds.json")
    assert config.layout.to_json() == default_layout().to_json()


def test_a_backwards_range_runs_in_flow_order():
    layout = LedLayout.from_json({"slots": SLOTS_ONLY}, count=27)
    assert layout["6R"].indices == (26, 25, 24)
    assert layout["6R"].low == 24 and len(layout["6R"]) == 3


def test_river_path_follows_the_branch_down_to_the_falls():
    layout = default_layout()
    path = layout.river_path("R")
    assert path[:12] == tuple(range(10, 22))  # slot 1 first
    assert path[-8:] == tuple(range(109, 101, -1))  # right edge of the falls last
    assert 121 in path and path.index(121) < path.index(110)  # 7R from upstream down


def test_only_the_slots_are_required():
    layout = LedLayout.from_json({"slots": SLOTS_ONLY}, count=27)
    assert set(layout) == set(SLOTS)


@pytest.mark.parametrize("places, count, words", [
    ({"slots": {k: v for k, v in SLOTS_ONLY.items() if k != "7R"}}, 27, "no LEDs for slot 7R"),
    ({"slots": SLOTS_ONLY | {"5": [12, 15]}}, 27, "LED 15 is already used"),
    ({"slots": SLOTS_ONLY}, 20, "outside the strip (0-19)"),
    ({"slots": SLOTS_ONLY | {"8": [30, 31]}}, 40, "places.slots: unknown entry '8'"),
    ({"slots": SLOTS_ONLY | {"1": [0]}}, 27, "places.slots.1: expected [first, last]"),
    ({"slots": SLOTS_ONLY | {"1": ["0", "2"]}}, 27, "expected [first, last]"),
    ({"slots": SLOTS_ONLY, "river": {}}, 27, "unknown entry 'river'"),
    ({"slots": SLOTS_ONLY, "weather": {"+3": [30, 31]}}, 40, "unknown entry '+3'"),
])
def test_bad_layouts_name_what_is_wrong(places, count, words):
    with pytest.raises(LayoutError, match=re.escape(words)):
        LedLayout.from_json(places, count)


def test_layout_round_trips_through_json():
    layout = default_layout()
    again = LedLayout.from_json(json.loads(json.dumps(layout.to_json())), 150)
    assert again.ranges == layout.ranges


def test_labels_read_well():
    assert label("6L") == "slot 6L"
    assert label("falls-R") == "waterfall, right edge"
    assert label("weather+1") == "weather +1"
    assert label("weather0") == "weather 0"


def test_missing_entries_take_the_defaults():
    config = parse_config({})
    assert config.strip.pin == 18 and config.strip.backend == "auto"
    assert config.buttons.pins == {"river": 17, "undo": 27, "next": 22}
    assert config.layout.to_json() == default_layout().to_json()


@pytest.mark.parametrize("data, words", [
    ({"strip": {"pin": 17}}, "GPIO17 cannot drive an LED strip"),
    ({"strip": {"backend": "neopixel"}}, "strip.backend 'neopixel' is not one of"),
    ({"strip": {"count": 0}}, "strip.count must be 1-2000"),
    ({"strip": {"count": True}}, "strip.count must be a number"),
    ({"strip": {"brightness": 999}}, "brightness must be 0-255"),
    ({"strip": {"type": "XYZ"}}, "strip.type 'XYZ'"),
    ({"strip": {"colour": "red"}}, "strip: unknown entry 'colour'"),
    ({"strip": {"count": 20}}, "default layout is for a 150-LED strip"),
    ({"buttons": {"river": 18}}, "GPIO18 is the LED strip's data pin"),
    ({"buttons": {"river": 22}}, "GPIO22 is already the"),
    ({"buttons": {"river": "17"}}, "buttons.river must be a GPIO number"),
    ({"lights": {}}, "unknown entry 'lights'"),
    ([], "must hold a JSON object"),
])
def test_bad_hardware_files_name_what_is_wrong(data, words):
    with pytest.raises(ConfigError) as info:
        parse_config(data, "leds.json")
    assert words in str(info.value) and str(info.value).startswith("leds.json: ")


def test_a_button_can_be_left_out():
    assert parse_config({"buttons": {"undo": None}}).buttons.pins == {"river": 17, "next": 22}


def test_budget_zero_or_null_means_no_limit():
    assert parse_config({"strip": {"budget_ma": None}}).strip.output.budget_ma is None
    assert parse_config({"strip": {"budget_ma": 0}}).strip.output.budget_ma is None


def test_unreadable_files_give_one_line(tmp_path):
    with pytest.raises(ConfigError, match="No such file"):
        load_config(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ConfigError, match="not valid JSON"):
        load_config(bad)


def test_config_path_comes_from_the_environment(tmp_path, monkeypatch):
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"strip": {"pin": 10}}))
    monkeypatch.setenv("COMPANION_LEDS", str(path))
    config = load_config()
    assert config.strip.mode == "SPI" and config.source == str(path)
