"""Choosing the strip: the real one when it can work, else the simulated one with a
one-line reason (the companion never dies for want of LEDs)."""

from __future__ import annotations

import logging
from types import ModuleType

from .config import HardwareConfig, StripConfig
from .strips import NullStrip, SimulatedStrip, Strip, StripError
from .ws281x import Platform, Ws281xStrip, import_driver, preflight

log = logging.getLogger("companion.hardware")


def make_strip(config: StripConfig | HardwareConfig, *, platform: Platform | None = None,
               driver: ModuleType | None = None) -> Strip:
    """The strip the configuration asks for.

    backend "off" gives a :class:`NullStrip`, "simulated" a :class:`SimulatedStrip`;
    "ws281x" and "auto" try the real strip and, when it cannot work here, log one
    warning with the reason and what to do, and return a SimulatedStrip whose `.reason`
    holds it (the table page can show it). `platform` and `driver` are for tests.
    """
    if isinstance(config, HardwareConfig):
        config = config.strip
    if config.backend == "off":
        return NullStrip(config.count, config.output)
    if config.backend == "simulated":
        return SimulatedStrip(config.count, config.output)
    platform = platform or Platform.detect()
    if driver is None and platform.is_pi:
        driver = import_driver()
    reason = preflight(config, platform, driver)
    if reason is None:
        try:
            return Ws281xStrip(config, driver)
        except StripError as exc:
            reason = str(exc)
    # "auto" off a Pi is the normal case on a laptop: say it, but not as a warning.
    quiet = config.backend == "auto" and not platform.is_pi
    (log.info if quiet else log.warning)("LED strip: %s; using the simulated strip", reason)
    return SimulatedStrip(config.count, config.output, reason=reason)
