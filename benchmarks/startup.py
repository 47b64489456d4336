"""Start-up and memory of `companion serve` (its own process, camera on: the simulated
one, which runs the real vision on rendered frames; LEDs simulated).

    python benchmarks/startup.py [--runs 5] [--moves 100]

Prints the median time from starting the process to its first HTTP answer (target
under 3 s), its RSS once serving with the camera running, and its RSS after a game of
--moves events played over HTTP (target under 300 MB).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
import urllib.request
from copy import deepcopy
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.rules.random_play import random_phase_events  # noqa: E402
from companion.rules.referee import replay  # noqa: E402
from companion.store import Store  # noqa: E402
from tests.appliance.crashing import Phones, PowerCuts  # noqa: E402
from tests.appliance.helpers import Served  # noqa: E402

PLAYERS = ["red", "blue", "green", "yellow"]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def start(db: Path) -> tuple[Served, float]:
    """The server and the seconds from launch to its first answered request."""
    started = time.perf_counter()
    served = Served(["--database", str(db), "--camera", "sim", "--no-hardware",
                     "--players", *PLAYERS])
    while True:
        try:
            with urllib.request.urlopen(served.url + "/api/table", timeout=5):
                return served, time.perf_counter() - started
        except OSError:
            time.sleep(0.01)


def play(served: Served, db: Path, moves: int, seed: int) -> int:
    """Play `moves` events over HTTP (phones' cards and buy-backs, the table's moves
    and river); a finished game is followed by a new one. Returns events played."""
    phones = Phones(served)
    phones.join_all()
    store = Store(db)
    shadow = replay(store.log_lines(store.current_game()))
    store.close()
    rng, chosen, played = random.Random(seed), {}, 0
    while played < moves and not shadow.is_over:
        for event in random_phase_events(deepcopy(shadow), rng):
            for action in PowerCuts.actions(event, chosen):
                status, reply = PowerCuts.send(served, phones, action)
                if status != 200:
                    raise RuntimeError(f"{action}: {status} {reply}")
                if action[0] == "choose":
                    chosen[action[1][0]] = action[1][1]
                    continue
                shadow.apply(action[1])
                if action[0] == "reveal":
                    chosen.clear()
                played += 1
    return played


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--moves", type=int, default=100)
    args = parser.parse_args()
    starts, rss_start, rss_game, played = [], [], [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(args.runs):
            db = Path(tmp) / f"run{run}.sqlite3"
            served, seconds = start(db)
            try:
                starts.append(seconds)
                time.sleep(2.0)  # the camera loop has loaded the vision and seen frames
                rss_start.append(rss_mb(served.proc.pid))
                played = 0
                while played < args.moves:  # a game may end sooner: then another one
                    played += play(served, db, args.moves - played, seed=run)
                    if played < args.moves:
                        served.post("/api/table/new", {"players": PLAYERS})
                time.sleep(1.0)
                rss_game.append(rss_mb(served.proc.pid))
            finally:
                served.stop()
    print(f"start to serving: median {statistics.median(starts):.2f} s "
          f"(min {min(starts):.2f}, max {max(starts):.2f}; {args.runs} runs; target < 3 s)")
    print(f"RSS after start (camera running): median {statistics.median(rss_start):.0f} MB")
    print(f"RSS after a {args.moves}-event game over HTTP: median "
          f"{statistics.median(rss_game):.0f} MB (max {max(rss_game):.0f}; target < 300 MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
