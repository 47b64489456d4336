"""Running `companion serve` as a real process on 127.0.0.1, as the appliance tests and
benchmarks need it (start, find its port, stop)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

LINK = re.compile(r"http://127\.0\.0\.1:(\d+)/table\?key=(\S+)")


class Served:
    """One `companion serve` process; `url`, `key` once it listens."""

    def __init__(self, args: list[str], env: dict[str, str] | None = None,
                 command: list[str] | None = None, cwd: str | Path | None = None,
                 timeout: float = 60.0) -> None:
        cmd = (command or [sys.executable, "-m", "companion"]) + \
            ["serve", "--host", "127.0.0.1", "--port", "0", *args]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, env={**os.environ, **(env or {})}, cwd=cwd)
        self.output: list[str] = []
        self.errors: list[str] = []  # its stderr, read all along (a full pipe would block it)
        self._reader = threading.Thread(target=self._read_errors, daemon=True)
        self._reader.start()
        deadline = time.monotonic() + timeout
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                self.proc.wait(timeout=10)
                self._reader.join(timeout=5)
                raise RuntimeError("companion serve ended before listening: "
                                   + "".join(self.errors))
            self.output.append(line)
            found = LINK.search(line)
            if found:
                self.url = f"http://127.0.0.1:{found.group(1)}"
                self.key = found.group(2)
                break
            if time.monotonic() > deadline:
                self.kill()
                raise RuntimeError("companion serve did not print its table link in time")

    def get(self, path: str, timeout: float = 10.0) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=timeout) as response:
            return json.loads(response.read())

    def get_with_key(self, path: str, timeout: float = 10.0) -> Any:
        """GET as the table (its key)."""
        request = urllib.request.Request(self.url + path, headers={"X-Table-Key": self.key})
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.loads(response.read())

    def post(self, path: str, body: dict[str, Any], timeout: float = 10.0,
             bearer: str | None = None) -> tuple[int, Any]:
        """POST as the table, or as the phone holding seat token `bearer`."""
        who = {"Authorization": f"Bearer {bearer}"} if bearer else {"X-Table-Key": self.key}
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json", **who},
                                         method="POST")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"null")

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        self._close()

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
        self._close()
        return code

    def _read_errors(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.errors.append(line)

    def _close(self) -> None:
        self._reader.join(timeout=5)
        for stream in (self.proc.stdout, self.proc.stderr):  # stderr: after its reader
            if stream:
                stream.close()
