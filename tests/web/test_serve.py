"""`companion serve` as a user runs it: a real process, a real port, a real file."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
import urllib.request

import pytest


def start(tmp_path, *args):
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", "0",
         "--database", str(tmp_path / "serve.sqlite3"), "--no-hardware", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    lines = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        match = re.search(r"(http://127\.0\.0\.1:\d+)/table\?key=(\S+)", line)
        if match:
            return proc, match.group(1), match.group(2), "".join(lines)
    proc.kill()
    pytest.fail("serve did not print its table link:\n" + "".join(lines) + proc.stderr.read())


def stop(proc) -> tuple[int, str]:
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=20)
    return proc.returncode, out


def get_json(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as reply:
        return json.load(reply)


def test_serve_starts_a_game_serves_the_pages_and_resumes_after_a_restart(tmp_path):
    proc, base, key, printed = start(tmp_path, "--players", "red", "blue", "green")
    try:
        assert "game 1: red, blue, green" in printed
        state = get_json(base + "/api/table")
        assert state["players"] == ["red", "blue", "green"] and state["phase"] == "cards"
        with urllib.request.urlopen(base + "/", timeout=10) as reply:
            assert b"Niagara Companion" in reply.read()
    finally:
        code, out = stop(proc)
    assert code == 0 and "stopped; the game is saved" in out

    proc, base2, key2, printed = start(tmp_path, "--players", "red", "blue", "green")
    try:
        assert "game 1: red, blue, green" in printed and key2 == key
    finally:
        stop(proc)


def test_serve_without_players_and_no_game_says_so(tmp_path):
    proc, base, _, printed = start(tmp_path)
    try:
        assert "no game yet: set one up on the table page" in printed
        assert get_json(base + "/api/table")["game"] is None
    finally:
        stop(proc)


def run(tmp_path, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", "serve", *args],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60)


def test_a_bad_config_file_is_one_line_and_exit_2(tmp_path):
    (tmp_path / "bad.toml").write_text("DATABSE = 'x.sqlite3'\n")
    done = run(tmp_path, "--config", "bad.toml")
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0
    assert "unknown setting DATABSE" in done.stderr


def test_a_missing_config_file_is_one_line_and_exit_2(tmp_path):
    done = run(tmp_path, "--config", "nowhere.toml")
    assert done.returncode == 2 and "cannot read config nowhere.toml" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_database_that_is_not_one_is_one_line_and_exit_2(tmp_path):
    (tmp_path / "notes.sqlite3").write_text("not a database\n" * 200)
    done = run(tmp_path, "--database", "notes.sqlite3", "--no-hardware")
    assert done.returncode == 2 and "cannot use notes.sqlite3" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_port_in_use_is_one_line_and_exit_2(tmp_path):
    import socket
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = run(tmp_path, "--host", "127.0.0.1", "--port", str(port), "--no-hardware",
                   "--database", "x.sqlite3")
    assert done.returncode == 2 and "the port is in use" in done.stderr
