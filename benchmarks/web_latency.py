"""Latency of the live updates: 5 phones and 2 table pages connected to a real
`companion serve` on 127.0.0.1 (its own process), a phone submits a card, and we time
until every one of the 7 pages has received the update.

    python3 benchmarks/web_latency.py [--rounds 200]

Prints the median and p95 (target: p95 under 50 ms) and the same for the submission's
own HTTP reply.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from companion.web.sse import SSEClient

PLAYERS = ["brown", "yellow", "red", "blue", "green"]


def post(url: str, body: dict, headers: dict | None = None) -> tuple[dict, str]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json",
                                              **(headers or {})})
    with urllib.request.urlopen(request, timeout=10) as reply:
        return json.load(reply), reply.headers.get("Set-Cookie", "")


def get(url: str, headers: dict | None = None) -> dict:
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}),
                                timeout=10) as reply:
        return json.load(reply)


class Follower(threading.Thread):
    """One page's live stream; records when each state version arrived."""

    def __init__(self, url: str, headers: dict | None = None) -> None:
        super().__init__(daemon=True)
        self.client = SSEClient(url, headers=headers, timeout=60)
        self.arrived: dict[int, float] = {}
        self.cond = threading.Condition()

    def run(self) -> None:
        try:
            for event, data in self.client:
                if event == "state":
                    with self.cond:
                        self.arrived[data["version"]] = time.perf_counter()
                        self.cond.notify_all()
        except OSError:
            pass

    def wait_for(self, version: int, timeout: float = 10.0) -> float:
        with self.cond:
            self.cond.wait_for(lambda: max(self.arrived, default=-1) >= version, timeout)
            return min(t for v, t in self.arrived.items() if v >= version)


def start_server(db: Path) -> tuple[subprocess.Popen, str, str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", "0",
         "--database", str(db), "--no-hardware", "--players", *PLAYERS],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    for line in proc.stdout:
        match = re.search(r"(http://127\.0\.0\.1:\d+)/table\?key=(\S+)", line)
        if match:
            return proc, match.group(1), match.group(2)
    raise SystemExit("companion serve did not start")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=200, help="card submissions to time")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc, base, key = start_server(Path(tmp) / "bench.sqlite3")
        try:
            table_headers = {"X-Table-Key": key}
            joins = get(base + "/api/table", table_headers)["join"]
            phones = {}
            for player in PLAYERS:
                token = joins[player]["url"].rsplit("/", 1)[1]
                _, cookie = post(base + "/api/join", {"token": token})
                phones[player] = {"Cookie": cookie.split(";")[0]}
            pages = [Follower(base + "/stream/phone", phones[p]) for p in PLAYERS]
            pages += [Follower(base + "/stream/table"),
                      Follower(base + "/stream/table", table_headers)]
            for page in pages:
                page.start()
            version = get(base + "/api/table")["version"]
            for page in pages:
                page.wait_for(version)
            everyone, replies = [], []
            for n in range(args.rounds):
                player = PLAYERS[n % len(PLAYERS)]
                card = 1 + (n // len(PLAYERS)) % 6  # a different card each time: a change
                t0 = time.perf_counter()
                reply, _ = post(base + "/api/phone/card", {"card": card}, phones[player])
                replies.append(time.perf_counter() - t0)
                version = reply["state"]["version"]
                last = max(page.wait_for(version) for page in pages)
                everyone.append(last - t0)
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    ms = [1000 * x for x in everyone]
    rs = [1000 * x for x in replies]
    print(f"web latency: {args.rounds} card submissions, 5 phones + 2 table pages on "
          f"127.0.0.1 (server in its own process)")
    print(f"  submission -> all 7 pages updated: median {statistics.median(ms):.1f} ms, "
          f"p95 {percentile(ms, 0.95):.1f} ms, max {max(ms):.1f} ms (target p95 < 50 ms)")
    print(f"  submission's own reply:            median {statistics.median(rs):.1f} ms, "
          f"p95 {percentile(rs, 0.95):.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
