"""systemd's notify protocol and watchdog (companion.watchdog, companion serve): READY
once listening, WATCHDOG=1 only while the web and camera loops are alive."""

import socket
import time

import pytest

from companion.watchdog import Heartbeat, Watchdog, notify, watchdog_seconds

from .helpers import Served


@pytest.fixture
def systemd(tmp_path, monkeypatch):
    """A notify socket, as systemd gives a Type=notify service."""
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(0.2)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield sock
    sock.close()


def received(sock: socket.socket, seconds: float) -> list[str]:
    out, deadline = [], time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            out.append(sock.recv(256).decode())
        except TimeoutError:
            pass
    return out


def test_notify_sends_one_datagram_to_the_socket(systemd):
    assert notify("READY=1")
    assert received(systemd, 0.3) == ["READY=1"]


def test_without_systemd_notify_does_nothing(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert notify("READY=1") is False


def test_the_watchdog_period_is_systemds_for_this_process_only(monkeypatch):
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    assert watchdog_seconds() == 30.0
    monkeypatch.setenv("WATCHDOG_PID", "1")  # meant for another process
    assert watchdog_seconds() is None
    monkeypatch.delenv("WATCHDOG_USEC")
    assert watchdog_seconds() is None


def test_a_hung_loop_stops_the_pings_and_a_live_one_resumes_them(systemd):
    camera = Heartbeat("camera", stale_after=0.2)
    dog = Watchdog({"camera": camera.check, "web": lambda: None}, period=1)
    assert dog.beat() is True
    time.sleep(0.3)  # the camera loop did not go round
    assert dog.beat() is False and "camera" in dog.failing
    camera.beat()
    assert dog.beat() is True
    assert received(systemd, 0.3) == ["WATCHDOG=1", "WATCHDOG=1"]


def test_a_loop_that_ended_on_purpose_is_not_hung():
    camera = Heartbeat("camera", stale_after=0.0, alive=lambda: False)
    time.sleep(0.01)
    assert camera.check() is None


def test_a_check_that_raises_counts_as_hung(systemd):
    def broken():
        raise RuntimeError("boom")
    dog = Watchdog({"web": broken}, period=1)
    assert dog.beat() is False and "boom" in dog.failing["web"]


def test_serve_says_ready_and_feeds_the_watchdog_while_its_loops_run(systemd, tmp_path):
    served = Served(["--camera", "sim", "--no-hardware", "--database",
                     str(tmp_path / "games.sqlite3"), "--players", "red", "blue", "green"],
                    env={"WATCHDOG_USEC": "1500000"})
    try:
        messages = received(systemd, 3.0)
    finally:
        assert served.stop() == 0
    assert messages[0] == "READY=1"
    assert messages.count("WATCHDOG=1") >= 3
    assert received(systemd, 0.5) == ["STOPPING=1"]
