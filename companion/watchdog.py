"""Telling systemd the companion is up and not hung (sd_notify, without libsystemd).

>>> notify("READY=1")        # False: not run by systemd (no $NOTIFY_SOCKET)
False

Under ``Type=notify`` with ``WatchdogSec=`` (systemd/companion.service), systemd
restarts the service when no ``WATCHDOG=1`` arrives in time. :class:`Watchdog` sends
one only while every loop it watches shows it is alive (the web server answers a
request, the camera loop read a frame lately), so a hung loop gets the service
restarted, and the game resumes from the store.

The protocol is one datagram on a Unix socket; writing it here (a dozen lines) beats
Debian's python3-systemd, which a venv without system site packages cannot see.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)

# A check returns None when its loop is alive, else a few words on what is wrong.
Check = Callable[[], str | None]


def notify(message: str) -> bool:
    """Send `message` (e.g. "READY=1", "WATCHDOG=1") to systemd; False when not run by
    systemd or the socket is gone."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):  # an abstract socket
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message.encode())
    except OSError as exc:
        log.warning("cannot notify systemd at %s: %s", address, exc)
        return False
    return True


def watchdog_seconds() -> float | None:
    """systemd's WatchdogSec for this process (None: no watchdog)."""
    usec = os.environ.get("WATCHDOG_USEC", "")
    pid = os.environ.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0 or (pid.isdigit() and int(pid) != os.getpid()):
        return None
    return int(usec) / 1e6


class Watchdog:
    """Sends WATCHDOG=1 every `period` seconds while all `checks` pass.

    ``Watchdog({"web": ..., "camera": ...}, period=10).start()``; ``stop()`` ends it."""

    def __init__(self, checks: Mapping[str, Check], period: float) -> None:
        self.checks = dict(checks)
        self.period = period
        self.failing: dict[str, str] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="watchdog", daemon=True)

    def start(self) -> Watchdog:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def beat(self) -> bool:
        """Run the checks once; ping systemd if all pass. True if it pinged."""
        failing = {}
        for name, check in self.checks.items():
            try:
                problem = check()
            except Exception as exc:  # a check that breaks counts as a hung loop
                problem = f"check failed: {exc}"
            if problem:
                failing[name] = problem
        for name, problem in failing.items():
            if self.failing.get(name) != problem:
                log.warning("watchdog: %s loop not alive (%s); systemd will restart the "
                            "companion if it stays so", name, problem)
        self.failing = failing
        return not failing and notify("WATCHDOG=1")

    def _run(self) -> None:
        while not self._stop.wait(self.period):
            self.beat()


class Heartbeat:
    """When a loop last went round: ``beat()`` in the loop, ``check`` for the Watchdog."""

    def __init__(self, name: str, stale_after: float,
                 alive: Callable[[], bool] = lambda: True) -> None:
        self.name = name
        self.stale_after = stale_after
        self.alive = alive  # False: the loop ended on purpose (not hung)
        self.last = time.monotonic()

    def beat(self) -> None:
        self.last = time.monotonic()

    def check(self) -> str | None:
        age = time.monotonic() - self.last
        if age > self.stale_after and self.alive():
            return f"no {self.name} round for {age:.0f} s"
        return None


__all__ = ["notify", "watchdog_seconds", "Watchdog", "Heartbeat"]
