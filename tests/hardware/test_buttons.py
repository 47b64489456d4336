"""The table's buttons against gpiozero's MockFactory."""

import logging

import pytest
from gpiozero.pins.mock import MockFactory

from companion.hardware import ButtonPanel, open_buttons
from companion.hardware.config import parse_config


def press(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()  # wired to ground: pressed pulls the pin low
    factory.pin(pin).drive_high()


def test_a_press_calls_the_handler_with_the_buttons_name(mock_pins):
    heard = []
    with ButtonPanel({"river": 17, "undo": 27, "next": 22}, when_pressed=heard.append,
                     bounce_ms=0):
        press(mock_pins, 27)
        press(mock_pins, 17)
    assert heard == ["undo", "river"]


def test_default_pins_are_river_17_undo_27_next_22(mock_pins):
    with ButtonPanel(bounce_ms=0) as panel:
        assert {name: panel[name].pin.info.name for name in panel} == \
            {"river": "GPIO17", "undo": "GPIO27", "next": "GPIO22"}


def test_pins_come_from_the_hardware_file(mock_pins):
    config = parse_config({"buttons": {"river": 5, "undo": 6, "next": None, "done": 13}})
    heard = []
    with ButtonPanel.from_config(config.buttons, when_pressed=heard.append) as panel:
        assert set(panel) == {"river", "undo", "done"}
        press(mock_pins, 13)
    assert heard == ["done"]


def test_pull_down_buttons_press_when_driven_high(mock_pins):
    heard = []
    with ButtonPanel({"river": 17}, when_pressed=heard.append, pull_up=False, bounce_ms=0):
        mock_pins.pin(17).drive_high()
        mock_pins.pin(17).drive_low()
    assert heard == ["river"]


def test_is_pressed_reads_the_pin(mock_pins):
    with ButtonPanel({"next": 22}, bounce_ms=0) as panel:
        assert not panel.is_pressed("next")
        mock_pins.pin(22).drive_low()
        assert panel.is_pressed("next")


def test_a_failing_handler_is_logged_and_the_button_keeps_working(mock_pins, caplog):
    calls = []

    def handler(name):
        calls.append(name)
        raise RuntimeError("boom")

    with ButtonPanel({"undo": 27}, when_pressed=handler, bounce_ms=0):
        with caplog.at_level(logging.ERROR, logger="companion.hardware"):
            press(mock_pins, 27)
            press(mock_pins, 27)
    assert calls == ["undo", "undo"]
    assert "handling the undo button failed" in caplog.text


def test_the_handler_can_be_set_later(mock_pins):
    heard = []
    panel = ButtonPanel({"river": 17}, bounce_ms=0)
    press(mock_pins, 17)  # no handler yet: nothing happens
    panel.when_pressed = heard.append
    press(mock_pins, 17)
    panel.close()
    assert heard == ["river"]


def test_close_releases_the_pins_for_others(mock_pins):
    ButtonPanel({"river": 17}, bounce_ms=0).close()
    with ButtonPanel({"river": 17}, bounce_ms=0) as again:
        assert len(again) == 1


def test_a_pin_in_use_fails_and_releases_the_rest(mock_pins):
    from gpiozero import Button
    taken = Button(22, pin_factory=mock_pins)
    with pytest.raises(Exception, match="22"):
        ButtonPanel({"river": 17, "next": 22}, bounce_ms=0)
    ButtonPanel({"river": 17}, bounce_ms=0).close()  # 17 was released
    taken.close()


def test_open_buttons_without_gpio_logs_one_line_and_gives_none(mock_pins, caplog):
    from gpiozero import Button
    taken = Button(17, pin_factory=mock_pins)
    config = parse_config({"buttons": {"river": 17}}).buttons
    with caplog.at_level(logging.WARNING, logger="companion.hardware"):
        assert open_buttons(config) is None
    assert "running without buttons" in caplog.text
    taken.close()


def test_buttons_drive_a_game(mock_pins):
    """The wiring the app does: river applies the river event, undo takes one back."""
    from .helpers import river_with_blue_falling
    game = river_with_blue_falling()

    def act(name):
        if name == "river" and game.phase == "river":
            game.apply({"event": "river"})
        elif name == "undo":
            game.undo()

    with ButtonPanel({"river": 17, "undo": 27}, when_pressed=act, bounce_ms=0):
        press(mock_pins, 17)
        assert game.phase == "cards" and game.round == 2
        press(mock_pins, 27)
        assert game.phase == "river"


def test_open_buttons_on_a_machine_without_gpio_says_so_in_one_line(monkeypatch, caplog):
    from gpiozero import Device
    from gpiozero.exc import BadPinFactory

    def no_factory(*args, **kwargs):
        raise BadPinFactory("Unable to load any default pin factory!")
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_factory))
    with caplog.at_level(logging.WARNING, logger="companion.hardware"):
        assert open_buttons(parse_config({}).buttons) is None
    assert [r.getMessage() for r in caplog.records] == [
        "buttons: no GPIO pins on this machine; running without buttons"]
