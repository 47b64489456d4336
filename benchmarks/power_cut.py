"""Power cuts: `companion serve` killed with SIGKILL at random moments of games played
over HTTP, restarted on the same SQLite file, and checked after every kill (see
tests/appliance/crashing.py). Also the price of durability: how long a store commit
takes with synchronous = FULL (what the store uses) and NORMAL (which may lose the last
commits when the power goes).

    python benchmarks/power_cut.py [--kills 300] [--seed 1]

Prints kills / acknowledged / lost / duplicated (lost and duplicated must be 0) and
the median commit times.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.appliance.crashing import PowerCuts  # noqa: E402


def commit_ms(folder: Path, synchronous: str, n: int = 300) -> float:
    """Median time of one event-sized INSERT transaction in WAL mode."""
    db = sqlite3.connect(folder / f"sync-{synchronous}.sqlite3", isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute(f"PRAGMA synchronous = {synchronous}")
    db.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, event TEXT)")
    times = []
    for i in range(n):
        started = time.perf_counter()
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO events (seq, event) VALUES (?, ?)",
                   (i, '{"event": "turn", "player": "red", "canoes": []}'))
        db.execute("COMMIT")
        times.append(time.perf_counter() - started)
    db.close()
    return statistics.median(times) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        started = time.monotonic()
        tally = PowerCuts(Path(tmp), kills=args.kills, seed=args.seed).run()
        took = time.monotonic() - started
        full, normal = commit_ms(Path(tmp), "FULL"), commit_ms(Path(tmp), "NORMAL")
    print(f"kills:        {tally.kills} ({tally.kills_mid_request} in the middle of a request)")
    print(f"acknowledged: {tally.acknowledged} actions ({tally.acknowledged_events} events, "
          f"the rest card choices) in {tally.games} games")
    print(f"lost:         {tally.lost}")
    print(f"duplicated:   {tally.duplicated}")
    print(f"in flight at the kill and durable anyway: {tally.in_flight_landed}")
    print(f"took {took:.0f} s")
    print(f"commit, median: synchronous=FULL {full:.2f} ms, NORMAL {normal:.2f} ms")
    for problem in tally.problems[:10]:
        print("problem:", problem[:300])
    return 0 if tally.lost == 0 and tally.duplicated == 0 and not tally.problems else 1


if __name__ == "__main__":
    raise SystemExit(main())
