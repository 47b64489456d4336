"""How well the pictures tell which deposits' piles a move changed, through the 3-D worlds'
games (the piles' own evaluation, like chesscog's per stage): what the camera path gives
the inference as ``deposits_changed`` and ``deposits_taken``.

    python benchmarks/worlds_piles.py                     # every committed game
    python benchmarks/worlds_piles.py --worlds w101,w102  # the games of some worlds

Each world is calibrated as the README says (its layout photos). Every stable frame of a
game is delivered with the world's sensor noise and read once (``Vision``, settle=1);
from the second on it is judged against the last one as the table judges a view after a
move (``BoardMemory.judge`` with the state before, the truth's), then confirmed with the
state the truth has after it (``BoardMemory.confirm``), so the table's looks of the
piles and of its takes are learned as in play. Per deposit and view, the truth says
whether the moves between the two pictures took gems from its pile (a take: of which
colour), put one on it only (a put), or left it (none); the picture says whether the
pile changed and which gem it saw taken.

Printed for the tuned and the NOT-FOR-TUNING worlds separately (quote the latter): per
colour taken, the takes seen (the pile seen to change) and the gem named right or
wrong; per colour put where none was taken, the puts seen; the coloured gems said not
put on a pile that changed (``deposits_put_unseen``) and how many of them were put there
(each counts against the move made); the piles seen to change that no move changed.
A take not seen is a move the inference must ask about or find elsewhere
(``slips._pile_hid``); a put not seen counts against its move (``slips._put_hid``); a
pile seen to change that did not is evidence against the move that happened.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from worlds_common import FIXTURES, Tally, tally_games, worlds  # noqa: E402

from companion.rules import Game  # noqa: E402
from companion.vision.candidates import scratch_copy  # noqa: E402
from companion.vision.fit_changes import changed_piles, put_gems, taken_gems  # noqa: E402
from companion.vision.memory import BoardMemory  # noqa: E402
from companion.vision.observer import Vision  # noqa: E402
from tools.worlds.sensor import deliver, sensor_of  # noqa: E402


def _games_by_events(log: list[dict[str, Any]]) -> list[Game]:
    """The truth's game after each number of events (index 0: the setup)."""
    game = Game.from_setup(log[0])
    out = [scratch_copy(game)]
    for event in log[1:]:
        game.apply(event)
        out.append(scratch_copy(game))
    return out


def read_game(world: Any, game_dir: Path, profile: Path | None) -> Tally:
    meta = json.loads((game_dir / "game.json").read_text())
    log = [json.loads(x) for x in (game_dir / "log.jsonl").read_text().splitlines()]
    games = _games_by_events(log)
    vision = Vision(world.board_file, profile, settle=1)
    memory = BoardMemory(vision.detector)
    tally: Tally = Counter()
    last: int | None = None
    for i, frame in enumerate(meta["frames"]):
        if frame["kind"] != "stable":
            continue
        image = deliver(cv2.imread(str(game_dir / frame["file"])), sensor_of(world.meta),
                        meta["seed"] * 7919 + 2000 + i)
        obs = vision.observe(image)
        reading, where = vision.last_reading, vision.last_location
        if obs is None or reading is None or where is None or reading.occluded:
            continue
        now = frame["events"]
        if last is not None and now != last:
            before = games[last].state.deposits
            seen = memory.judge(obs, reading.corrected, where, games[last], reading.canoes)
            if seen is not None:
                _score(tally, before, games[now].state.deposits, seen)
        memory.confirm(reading.corrected, where, games[now].state, reading.canoes,
                       moved_on=last is not None and now != last)
        last = now
    return tally


def _score(tally: Tally, before: dict[str, dict[str, int]], after: dict[str, dict[str, int]],
           seen: dict[str, Any]) -> None:
    truly = changed_piles(before, after)
    saw = set(seen.get("deposits_changed") or ())
    taken = seen.get("deposits_taken") or {}
    unseen = seen.get("deposits_put_unseen") or {}
    for name in sorted(set(before) | set(after)):
        put = put_gems(before.get(name, {}), after.get(name, {}))
        for gem in unseen.get(name, ()):
            # (A gem said not put where one was put would count against the move made.)
            tally[("unput", "wrong" if gem in put else "said")] += 1
        tally[("unput", "coloured")] += sum(gem != "clear" for gem in put) * (name in saw)
        gone = taken_gems(before.get(name, {}), after.get(name, {}))
        if gone:
            key = "+".join(sorted(gone))
            tally[(key, "takes")] += 1
            tally[(key, "seen")] += name in saw
            if name in taken:
                tally[(key, "named right" if taken[name] in gone else "named wrong")] += 1
        elif name in truly:
            key = "+".join(sorted(put_gems(before.get(name, {}), after.get(name, {}))))
            tally[(f"put {key}", "puts")] += 1
            tally[(f"put {key}", "seen")] += name in saw
        else:
            tally[("none", "piles")] += 1
            tally[("none", "seen")] += name in saw


def table(title: str, tally: Tally) -> None:
    print(title)
    print(f"  {'taken':14s}{'takes':>7s}{'seen':>9s}{'named right':>13s}{'named wrong':>13s}")
    takes = [g for g, k in tally if k == "takes"]
    for gem in sorted(set(takes)):
        n = tally[(gem, "takes")]
        print(f"  {gem:14s}{n:7d}{100 * tally[(gem, 'seen')] / n:8.1f}%"
              f"{100 * tally[(gem, 'named right')] / n:12.1f}%"
              f"{100 * tally[(gem, 'named wrong')] / n:12.1f}%")
    n = sum(tally[(g, "takes")] for g in set(takes))
    if n:
        seen = sum(tally[(g, "seen")] for g in set(takes))
        print(f"  {'all takes':14s}{n:7d}{100 * seen / n:8.1f}%")
    for put in sorted(g for g, k in tally if k == "puts"):
        n = tally[(put, "puts")]
        seen = 100 * tally[(put, "seen")] / n
        print(f"  {put[4:]} put on a pile (none taken): {n}, seen {seen:.1f}%")
    print(f"  gems said not put on a pile that changed: {tally[('unput', 'said')]}, "
          f"of them put there: {tally[('unput', 'wrong')]} (of "
          f"{tally[('unput', 'coloured')]} coloured gems put on a pile seen to change)")
    n = tally[("none", "piles")]
    if n:
        print(f"  piles no move changed: {n}, seen to change {tally[('none', 'seen')]}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--worlds", help="only the games of these worlds, NAME,NAME,...")
    ap.add_argument("--fixtures", type=Path, default=FIXTURES)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    found = worlds(args.fixtures, only=args.worlds.split(",") if args.worlds else None)
    tally_games(found, read_game, table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
