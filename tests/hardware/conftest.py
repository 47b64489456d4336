"""Fixtures for the hardware tests: a fake of the rpi_ws281x C module and gpiozero's
MockFactory. No test here needs a Pi, root, or a strip."""

from __future__ import annotations

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from .helpers import FakeWs281x


@pytest.fixture
def fake_ws() -> FakeWs281x:
    return FakeWs281x()


@pytest.fixture
def mock_pins():
    """gpiozero's MockFactory as the pin factory, restored afterwards."""
    old = Device.pin_factory
    Device.pin_factory = MockFactory()
    yield Device.pin_factory
    Device.pin_factory.reset()
    Device.pin_factory = old
