"""`companion leds test|show|check` and `companion buttons test`."""

import json

import pytest

from companion.cli import main
from companion.hardware import ws281x

from .helpers import ROOT
from .test_ws281x_strip import LAPTOP

LEDS_JSON = str(ROOT / "calibration" / "leds.json")
LOG = str(ROOT / "examples" / "worked-example.jsonl")


@pytest.fixture(autouse=True)
def not_a_pi(monkeypatch):
    monkeypatch.setattr(ws281x.Platform, "detect", classmethod(lambda cls: LAPTOP))


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_leds_show_prints_each_place_with_colour_and_meaning(capsys):
    code, out, err = run(capsys, "leds", "show", LOG, "--line", "5", "--config", LEDS_JSON)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "round 1, phase turns, red to move: possible river speeds 1, 2, 3"
    assert len(lines) == 1 + 16
    assert any("slot 7L" in line and "#ff0000" in line and "every possible speed" in line
               for line in lines)
    assert any("weather +1" in line and "the cloud is here" in line for line in lines)


def test_leds_show_of_the_whole_log_is_the_next_rounds_cards_phase(capsys):
    code, out, _ = run(capsys, "leds", "show", LOG, "--config", LEDS_JSON)
    assert code == 0 and out.startswith("round 2, phase cards")


def test_leds_show_at_the_river_names_the_falling_canoes(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    log.write_text("\n".join(json.dumps(e) for e in [
        {"event": "setup", "players": ["blue", "green", "yellow"]},
        {"event": "cards", "cards": {"blue": 6, "green": 6, "yellow": 3}},
        {"event": "turn", "player": "blue", "canoes": [{"from": "D", "to": "6L"}]},
        {"event": "turn", "player": "green", "canoes": [{"from": "D", "to": "6R"}]},
        {"event": "turn", "player": "yellow", "canoes": [{"from": "D", "to": "3"}]},
    ]) + "\n")
    code, out, _ = run(capsys, "leds", "show", str(log), "--config", LEDS_JSON)
    assert code == 0
    assert "river speed 3" in out.splitlines()[0]
    assert "falls this round - blue's canoe falls (blinking)" in out


def test_leds_show_writes_a_png(capsys, tmp_path):
    png = tmp_path / "strip.png"
    code, out, _ = run(capsys, "leds", "show", LOG, "--png", str(png), "--config", LEDS_JSON)
    assert code == 0 and png.read_bytes()[:4] == b"\x89PNG"
    assert f"wrote {png}" in out


@pytest.mark.parametrize("argv, words", [
    (["leds", "show", "/no/such/log.jsonl"], "cannot read /no/such/log.jsonl"),
    (["leds", "show", LOG, "--config", "/no/such.json"], "/no/such.json: No such file"),
])
def test_leds_show_errors_are_one_line(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert words in err and err.count("\n") == 1


def test_leds_show_of_a_log_without_setup_is_refused(capsys, tmp_path):
    log = tmp_path / "bad.jsonl"
    log.write_text('{"event": "river"}\n')
    code, _, err = run(capsys, "leds", "show", str(log))
    assert code == 2 and "no valid setup line" in err


def test_leds_test_lights_each_place_in_turn(capsys, tmp_path):
    code, out, err = run(capsys, "leds", "test", "--seconds", "0", "--config", LEDS_JSON,
                         "--png", str(tmp_path))
    assert code == 0
    assert "not a Raspberry Pi; using the simulated strip" in err
    lines = out.splitlines()
    assert lines[0].startswith("16 places on a 150-LED strip (simulated)")
    assert lines[1].split() == ["1/16", "dock", "LEDs", "0-9", "(10", "LEDs)"]
    assert len(sorted(tmp_path.glob("*.png"))) == 16


def test_leds_test_of_one_place(capsys):
    code, out, _ = run(capsys, "leds", "test", "--seconds", "0", "--place", "7R",
                       "--backend", "simulated", "--config", LEDS_JSON)
    assert code == 0
    assert out.splitlines()[1].split()[:5] == ["1/1", "slot", "7R", "LEDs", "121-110"]


def test_leds_test_of_an_unknown_place_names_the_places(capsys):
    code, _, err = run(capsys, "leds", "test", "--place", "8", "--config", LEDS_JSON)
    assert code == 2 and "8 is not in the layout (places: dock, 1, 2" in err


def test_light_range_marks_the_upstream_end_green_and_the_downstream_end_red():
    from companion.hardware import SimulatedStrip, default_layout
    from companion.hardware.cli import TEST_FIRST, TEST_LAST, TEST_WHITE, light_range
    strip = SimulatedStrip(150)
    light_range(strip, default_layout(), "7R")  # runs backwards: 121 down to 110
    pixels = strip.pixels()
    assert pixels[121] == TEST_FIRST and pixels[110] == TEST_LAST
    assert pixels[115] == TEST_WHITE and pixels[109] == (0, 0, 0)


def test_leds_check_says_why_the_real_strip_is_not_used(capsys):
    code, out, _ = run(capsys, "leds", "check", "--config", LEDS_JSON)
    assert code == 1
    assert "data on GPIO18 (PWM)" in out
    assert out.splitlines()[-1].startswith("uses: the simulated strip, because no LED strip "
                                           "can be attached here: this machine is not a "
                                           "Raspberry Pi")


def test_leds_check_of_a_simulated_config_is_fine(capsys, tmp_path):
    config = tmp_path / "leds.json"
    config.write_text(json.dumps({"strip": {"backend": "simulated"}}))
    code, out, _ = run(capsys, "leds", "check", "--config", str(config))
    assert code == 0 and "uses: the simulated strip (as configured)" in out


def test_leds_check_reports_a_bad_file_in_one_line(capsys, tmp_path):
    config = tmp_path / "leds.json"
    config.write_text(json.dumps({"strip": {"pin": 4}}))
    code, _, err = run(capsys, "leds", "check", "--config", str(config))
    assert code == 2 and "strip.pin GPIO4 cannot drive an LED strip" in err


def test_leds_without_an_action_prints_help(capsys):
    code, out, _ = run(capsys, "leds")
    assert code == 0 and "test" in out and "show" in out and "check" in out


def test_buttons_test_prints_presses(capsys, mock_pins, monkeypatch):
    import time as time_module

    def sleep(seconds):  # a press arrives while the command waits
        mock_pins.pin(27).drive_low()
        mock_pins.pin(27).drive_high()
    monkeypatch.setattr(time_module, "sleep", sleep)
    code, out, _ = run(capsys, "buttons", "test", "--seconds", "0.01", "--config", LEDS_JSON)
    assert code == 0
    assert "river on GPIO17, undo on GPIO27, next on GPIO22" in out
    assert "undo (GPIO27)" in out


def test_buttons_test_without_gpio_says_so(capsys, monkeypatch):
    from gpiozero import Device
    from gpiozero.exc import BadPinFactory

    def no_factory(*args, **kwargs):
        raise BadPinFactory("Unable to load any default pin factory!")
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_factory))
    code, _, err = run(capsys, "buttons", "test", "--seconds", "0", "--config", LEDS_JSON)
    assert code == 2 and "no GPIO pins on this machine" in err and err.count("\n") == 1
