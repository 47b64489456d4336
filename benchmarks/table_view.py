"""What a page pays for the table's state: the median time of ``Table.view()`` (the
table page) and ``Table.view(seat)`` (a phone) between two changes, on random legal
positions replayed into a Table on an in-memory store.

    python benchmarks/table_view.py [--positions 60] [--repeat 50]

Pages ask for the view after every change (every phone and the table page, several
times while a stream reconnects); the danger zone is computed once per change and
carried with it, so a view only reads it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.app import Table  # noqa: E402
from companion.rules.random_play import random_position  # noqa: E402
from companion.store import Store  # noqa: E402


def table_at(seed: int) -> Table:
    game = random_position(random.Random(seed))
    table = Table(Store(":memory:"))
    setup = game.setup
    table.new_game(list(setup.players), setup.start, setup.branch, list(setup.variants))
    assert table.game is not None
    for event in game.events:
        table.game.apply(event)
        table.store.append_event(table.game_id or 0, event.to_json())
    table.resume()  # as after a restart: replayed, announced once
    return table


def median_ms(action, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    table_page, phone = [], []
    for seed in range(args.positions):
        table = table_at(seed)
        assert table.game is not None
        seat = table.game.players[0]
        table_page.append(median_ms(table.view, args.repeat))
        phone.append(median_ms(partial(table.view, seat), args.repeat))
        table.store.close()
    print(f"positions {args.positions}, {args.repeat} views each")
    print(f"table page view: median {statistics.median(table_page):.3f} ms")
    print(f"phone view:      median {statistics.median(phone):.3f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
