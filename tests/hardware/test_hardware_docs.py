"""The examples in the hardware modules' docstrings run as written."""

import doctest
import importlib

import pytest
from gpiozero import Device

MODULES = ["companion.hardware", "companion.hardware.output", "companion.hardware.strips",
           "companion.hardware.layout", "companion.rules.danger",
           "companion.hardware.scene", "companion.hardware.buttons"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    old = Device.pin_factory  # the buttons example sets the MockFactory itself
    try:
        result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    finally:
        if Device.pin_factory is not old and Device.pin_factory is not None:
            Device.pin_factory.close()
        Device.pin_factory = old
    assert result.attempted > 0
    assert result.failed == 0
