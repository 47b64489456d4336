"""How fast the rules engine is, on one core.

Prints the median time to list every legal turn of a player whose two canoes are both
in the river (target: under 1 ms), and complete random 5-player games per second
(target: over 200), then the same games with every turn judged. Run it on one core:
taskset -c 0 python3 benchmarks/rules_speed.py [--quick]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from companion.rules.random_play import random_game, random_position


def river_positions(n: int, seed: int = 1) -> list:
    """Positions in phase II where the player to move has both canoes in the river."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        game = random_position(rng, rounds=rng.randint(2, 20))
        if game.phase != "turns":
            continue
        player = game.to_move
        if all(at not in ("D", "F") for at, _ in game.state.canoes[player]):
            out.append(game)
    return out


def bench_listing(positions: list) -> None:
    times, counts = [], []
    per_card: dict[int, list[float]] = {v: [] for v in range(1, 7)}
    for game in positions:
        player = game.to_move
        for value in range(1, 7):
            t = time.perf_counter()
            turns = game.legal_turns(player, value)
            dt = time.perf_counter() - t
            per_card[value].append(dt)
            times.append(dt)
            counts.append(len(turns))
    ms = sorted(t * 1000 for t in times)
    print(f"legal-turn listing, both canoes in the river ({len(positions)} positions x cards 1-6):")
    print(f"  median {statistics.median(ms):.3f} ms   p90 {ms[int(len(ms) * 0.9)]:.3f} ms   "
          f"max {ms[-1]:.3f} ms   (target < 1 ms)")
    print(f"  turns per listing: median {statistics.median(counts)}, max {max(counts)}")
    print("  median by card: " + "  ".join(
        f"{v}: {statistics.median(per_card[v]) * 1000:.3f}" for v in per_card))


def play_games(n: int, judged: bool) -> tuple[float, list[int], list[list[dict]]]:
    """n complete 5-player random games (seeds 0 … n-1): seconds, rounds, event logs."""
    rounds, logs = [], []
    t = time.perf_counter()
    for seed in range(n):
        game = None
        for game, _ in random_game(random.Random(seed), players=5, judged=judged):  # noqa: B007
            pass
        assert game is not None and game.is_over
        rounds.append(game.round)
        logs.append(game.events)
    return time.perf_counter() - t, rounds, logs


def bench_games(n: int) -> None:
    dt, rounds, logs = play_games(n, judged=False)
    events = sum(len(log) + 1 for log in logs)  # + the setup
    print(f"complete random 5-player games: {n / dt:.1f} games/s (target > 200); "
          f"median {statistics.median(rounds)} rounds, {events / n:.0f} events a game, "
          f"{dt / events * 1e6:.0f} us an event")
    # The same games with every turn judged by Game.apply instead of the generator's
    # fast path: what an engine user replaying a log pays, and a check that both agree.
    dt_judged, _, judged_logs = play_games(n, judged=True)
    assert judged_logs == logs, "the fast path and the judge played different games"
    print(f"  the same games, every turn judged: {n / dt_judged:.1f} games/s "
          f"({dt_judged / events * 1e6:.0f} us an event)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    args = parser.parse_args()
    bench_listing(river_positions(30 if args.quick else 200))
    bench_games(5 if args.quick else 40)


if __name__ == "__main__":
    main()
