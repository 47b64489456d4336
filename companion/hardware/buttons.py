"""Push buttons at the table, with gpiozero: "river" (the river was pushed), "undo",
"next", or any names the hardware file gives.

>>> from gpiozero import Device
>>> from gpiozero.pins.mock import MockFactory
>>> Device.pin_factory = MockFactory()
>>> pressed = []
>>> panel = ButtonPanel({"river": 17, "undo": 27}, when_pressed=pressed.append)
>>> Device.pin_factory.pin(17).drive_low()    # somebody presses the river button
>>> pressed
['river']
>>> panel.close()

Each button is wired from its GPIO to ground (the Pi's internal pull-up holds it high);
set `pull_up=False` for buttons wired to 3.3 V with a pull-down.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from .config import DEFAULT_BUTTONS, ButtonConfig

log = logging.getLogger("companion.hardware")

Handler = Callable[[str], None]


class ButtonPanel:
    """The table's buttons by name. `when_pressed(name)` is called on gpiozero's thread
    for every press; handlers should be quick (apply an event, wake the page)."""

    def __init__(self, pins: Mapping[str, int] | None = None, *,
                 when_pressed: Handler | None = None, pull_up: bool = True,
                 bounce_ms: int = 50, pin_factory: Any = None) -> None:
        from gpiozero import Button  # gpiozero picks a pin library on first use

        self.when_pressed = when_pressed
        self.buttons: dict[str, Button] = {}
        try:
            for name, pin in (pins if pins is not None else DEFAULT_BUTTONS).items():
                button = Button(pin, pull_up=pull_up,
                                bounce_time=bounce_ms / 1000 if bounce_ms else None,
                                pin_factory=pin_factory)
                button.when_pressed = self._handler(name)
                self.buttons[name] = button
        except Exception:
            self.close()
            raise

    @classmethod
    def from_config(cls, config: ButtonConfig, *, when_pressed: Handler | None = None,
                    pin_factory: Any = None) -> ButtonPanel:
        return cls(config.pins, when_pressed=when_pressed, pull_up=config.pull_up,
                   bounce_ms=config.bounce_ms, pin_factory=pin_factory)

    def _handler(self, name: str) -> Callable[[], None]:
        def pressed() -> None:
            handler = self.when_pressed
            if handler is None:
                return
            try:
                handler(name)
            except Exception:  # a failing handler must not silence the button for good
                log.exception("handling the %s button failed", name)
        return pressed

    def __getitem__(self, name: str) -> Any:
        return self.buttons[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.buttons)

    def __len__(self) -> int:
        return len(self.buttons)

    def is_pressed(self, name: str) -> bool:
        return bool(self.buttons[name].is_pressed)

    def close(self) -> None:
        """Release the pins."""
        for button in self.buttons.values():
            button.close()
        self.buttons.clear()

    def __enter__(self) -> ButtonPanel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_buttons(config: ButtonConfig, when_pressed: Handler | None = None) -> ButtonPanel | None:
    """The panel, or None (with one logged line why) on a machine with no GPIO."""
    from gpiozero.exc import BadPinFactory, PinFactoryFallback

    try:
        with warnings.catch_warnings():
            # gpiozero warns once per pin library it cannot load; one line says it all.
            warnings.simplefilter("ignore", PinFactoryFallback)
            return ButtonPanel.from_config(config, when_pressed=when_pressed)
    except BadPinFactory:
        log.warning("buttons: no GPIO pins on this machine; running without buttons")
    except Exception as exc:  # GPIOPinInUse, PinInvalidPin, PermissionError, …
        log.warning("buttons: %s: %s; running without buttons", type(exc).__name__, exc)
    return None
