"""Every docstring example in the companion package runs as written (doctest)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest
from gpiozero import Device

import companion

# Examples that sketch a use with inputs a test does not have (a folder of photos, a
# calibrated board): shown, not run, until their modules mark or complete them.
SKETCHES = {"companion.vision.detect", "companion.vision.light", "companion.vision.locate",
            "companion.vision.observer", "companion.vision.profile",
            "companion.vision.sources", "companion.vision.surface"}

MODULES = sorted(m.name for m in pkgutil.walk_packages(companion.__path__, "companion.")
                 if not m.name.endswith("__main__") and m.name not in SKETCHES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    old = Device.pin_factory  # the buttons example sets the MockFactory itself
    try:
        result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS,
                                 report=False)
    finally:
        if Device.pin_factory is not old and Device.pin_factory is not None:
            Device.pin_factory.close()
        Device.pin_factory = old
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples fail in {name}"


def test_the_package_has_examples_to_run():
    assert sum(doctest.testmod(importlib.import_module(name), report=False).attempted
               for name in ("companion.rules", "companion.table", "companion.rules.cards")) > 10
