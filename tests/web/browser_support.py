"""What the browser tests share: Debian's chromium driven by Playwright, the phones
and screens they emulate, a companion server in its own process (so that a restart is
a real one: the process ends, its connections drop), and axe-core from npm."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
# .ci/run installs axe-core here from the npm registry (npm install --prefix .cache/node).
AXE = ROOT / ".cache" / "node" / "node_modules" / "axe-core" / "axe.min.js"
IN_CI = os.environ.get("CI") == "true"

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
# In CI the browser tests must run: .ci/run installs chromium, so a missing one fails.
needs_chromium = pytest.mark.skipif(
    not os.path.exists(CHROMIUM) and not IN_CI,
    reason=f"Debian's chromium is not installed at {CHROMIUM} (apt-get install chromium; "
           ".ci/run does it in CI)")

# The screens of the issue: a landscape tablet, a TV, and three phones (Playwright's
# own descriptions of the Pixel 7, iPhone 13 and Galaxy S9+, driven in chromium).
TABLET = {"viewport": {"width": 1280, "height": 800}}
TV = {"viewport": {"width": 1920, "height": 1080}}
PORTRAIT = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
            "is_mobile": True, "has_touch": True}
PHONES = ("Pixel 7", "iPhone 13", "Galaxy S9+")


def phone_context(playwright: Any, browser: Any, device: str) -> Any:
    spec = dict(playwright.devices[device])
    spec.pop("default_browser_type", None)
    return browser.new_context(**spec)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


T = TypeVar("T")


def eventually(probe: Callable[[], T], timeout: float, what: str) -> T:
    """Poll `probe` until it returns something true; fail naming `what` after `timeout`."""
    deadline = time.monotonic() + timeout
    last: Any = None
    while True:
        try:
            last = probe()
        except Exception as exc:  # a page mid-navigation, a server still starting
            last = exc
        if last and not isinstance(last, Exception):
            return last
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s (last: {last!r})")
        time.sleep(0.05)


class ServerProcess:
    """`companion serve` in a child process on a fixed port and database, which a test
    can kill (SIGKILL, like a pulled plug) or stop (SIGTERM) and start again."""

    def __init__(self, tmp: Path, table_key: str = "table-key-for-tests") -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.table_key = table_key
        self.database = tmp / "companion.sqlite3"
        self.config = tmp / "settings.toml"
        self.config.write_text(f'TABLE_KEY = "{table_key}"\nHEARTBEAT_SECONDS = 1\n')
        self.log = tmp / "serve.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> float:
        """Start and wait until it answers; returns the time it began to answer."""
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1",
                 "--port", str(self.port), "--database", str(self.database),
                 "--config", str(self.config), "--no-hardware", "--camera", "none"],
                stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
        eventually(lambda: self.get("/api/table") is not None, 30,
                   f"companion serve answering on {self.url} (log: {self.log})")
        return time.monotonic()

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(timeout=10)
        self.proc = None

    def get(self, path: str) -> dict[str, Any] | None:
        import json
        request = urllib.request.Request(self.url + path, headers={"X-Table-Key": self.table_key})
        with urllib.request.urlopen(request, timeout=5) as reply:
            return json.loads(reply.read())


def launch(playwright: Any) -> Any:
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)


@contextmanager
def watched_table(tmp_path: Path, source: Callable[[Any], Any]
                  ) -> Iterator[tuple[Any, Any, Any]]:
    """(server, table, camera): a table of blue, green and yellow at its setup, served on
    127.0.0.1 in this process, its camera watching `source(table)` (a FrameSource)."""
    from companion.camera import TableCamera
    from companion.web import create_app
    from companion.web.server import BackgroundServer

    app = create_app({"DATABASE": str(tmp_path / "browser.sqlite3"), "HEARTBEAT_SECONDS": 1})
    table = app.extensions["companion.table"]
    table.new_game(["blue", "green", "yellow"])
    camera = TableCamera(table, source(table), settle_s=0.2)
    camera.profile_path = tmp_path / "profile.json"
    app.extensions["companion.camera"] = camera.start()
    try:
        with BackgroundServer(app) as server:
            yield server, table, camera
    finally:
        camera.stop()
