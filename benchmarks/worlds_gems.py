"""How well the gems stage reads the gems in canoes through the 3-D worlds' games, as
the table learns its look (the gems stage's own evaluation, like chesscog's per stage).

    python benchmarks/worlds_gems.py                     # every committed game
    python benchmarks/worlds_gems.py --worlds w901,w902  # the games of some worlds
    python benchmarks/worlds_gems.py --calibrate setup   # each game from its setup photo

Each world is calibrated as the README says (its layout photos, or with `--calibrate
setup` each game from a photo of its own setup). Every stable frame of a game is
delivered with the world's sensor noise and read once (``Vision``, settle=1), and every
canoe read on the river whose player's canoes there all carry the same gem (the truth
says which) is scored: its gem read right, read "unknown" (no claim), or misread. Then
the picture teaches the table's look as a confirmed picture does at the table
(``PieceLooks.learn`` with the truth's canoes), so later frames are read with what the
game has shown so far. Printed per gem (None: empty canoes) for the tuned and the
NOT-FOR-TUNING worlds separately (quote the latter): a gem misread in an empty canoe is
one invented. Much quicker than `worlds_games.py`, and it says nothing of inference.

Then, for the discs two players' canoes share with one of them carrying a gem (where a
thief ends, R-STEAL, and what a theft changes): which of the two canoes the gems stage
says holds it: the carrier only (told), the neighbour only (swapped, when it names the
carrier's gem: the picture then says the other event; else a misread), both, or
neither (a colour named counts; "unknown" does not).
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

from worlds_common import FIXTURES, tally_games, worlds  # noqa: E402

from companion.vision.observer import Vision  # noqa: E402
from companion.vision.sighting import UNKNOWN  # noqa: E402
from tools.worlds.sensor import deliver, sensor_of  # noqa: E402


def truth_canoes(truth: dict[str, Any]) -> dict[str, list[tuple[str, str | None]]]:
    """The canoes of an observation by player, as (place, gem): a state's ``canoes``."""
    out: dict[str, list[tuple[str, str | None]]] = {}
    places = [("D", truth["dock"]), ("F", truth["falls"])] + [
        (slot, v["canoes"]) for slot, v in truth["slots"].items()]
    for place, canoes in places:
        for c in canoes:
            out.setdefault(c["player"], []).append((place, c["gem"]))
    return out


SHARED = "shared disc"  # the tally's key for the discs two players' canoes share


def _shared(canoes: dict[str, list[tuple[str, str | None]]], seen: list[Any]
            ) -> list[str]:
    """For each disc two players' canoes share, one of them carrying a gem: which
    canoe the reading names a gem colour in ("told": the carrier only; the neighbour
    only: "swapped" when it names the carrier's gem, else "neighbour misread"; "both",
    "neither"); a disc where either canoe was not read is left out."""
    on: dict[str, list[tuple[str, str | None]]] = {}
    for player, held in canoes.items():
        for place, gem in held:
            on.setdefault(place, []).append((player, gem))
    out = []
    for place, here in on.items():
        if place in ("D", "F") or len(here) != 2 or here[0][0] == here[1][0] \
                or sum(gem is not None for _, gem in here) != 1:
            continue
        carrier = next(p for p, gem in here if gem is not None)
        other = next(p for p, gem in here if gem is None)
        read = {c.player: c.gem for c in seen if c.place == place}
        if carrier not in read or other not in read:
            continue
        names = {p: read[p] not in (None, UNKNOWN) for p in (carrier, other)}
        gem = next(gem for _, gem in here if gem is not None)
        out.append("both" if all(names.values()) else "told" if names[carrier]
                   else ("swapped" if read[other] == gem else "neighbour misread")
                   if names[other] else "neither")
    return out


def read_game(world: Any, game_dir: Path, profile: Path | None) -> Counter[tuple[str, str]]:
    meta = json.loads((game_dir / "game.json").read_text())
    vision = Vision(world.board_file, profile, settle=1)
    tally: Counter[tuple[str, str]] = Counter()
    for i, frame in enumerate(meta["frames"]):
        if frame["kind"] != "stable":
            continue
        image = deliver(cv2.imread(str(game_dir / frame["file"])), sensor_of(world.meta),
                        meta["seed"] * 7919 + 1000 + i)
        vision.observe(image)
        reading = vision.last_reading
        if reading is None:
            continue
        canoes = truth_canoes(frame["truth"])
        for seen in reading.canoes:
            there = {gem for place, gem in canoes.get(seen.player, ()) if place == seen.place}
            if seen.place in ("D", "F") or len(there) != 1:
                continue
            gem = there.pop()
            verdict = ("right" if seen.gem == gem else "unknown" if seen.gem == UNKNOWN
                       else "wrong")
            tally[(str(gem), verdict)] += 1
            if verdict == "wrong":
                tally[(str(gem), f"as {seen.gem}")] += 1
        for said in _shared(canoes, reading.canoes):
            tally[(SHARED, said)] += 1
        if not reading.occluded:
            vision.detector.looks.learn(reading.canoes, canoes)
    return tally


def table(title: str, tally: Counter[tuple[str, str]]) -> None:
    print(title)
    print(f"  {'gem':8s}{'canoes':>8s}{'right':>9s}{'unknown':>9s}{'misread':>9s}   misread as")
    for gem in sorted({g for g, _ in tally if g != SHARED}):
        n = sum(tally[(gem, k)] for k in ("right", "unknown", "wrong"))
        cells = "".join(f"{100 * tally[(gem, k)] / n:8.1f}%" for k in ("right", "unknown", "wrong"))
        slips = ", ".join(f"{k} {v}" for (g, k), v in sorted(tally.items())
                          if g == gem and k.startswith("as "))
        print(f"  {gem:8s}{n:8d}{cells}   {slips}")
    n = sum(v for (_, k), v in tally.items() if k in ("right", "unknown", "wrong"))
    if n:
        right = sum(v for (_, k), v in tally.items() if k == "right")
        print(f"  {'all':8s}{n:8d}{100 * right / n:8.1f}%")
    shared = {k: v for (g, k), v in tally.items() if g == SHARED}
    if shared:
        total = sum(shared.values())
        print(f"  a disc two players share, one canoe carrying a gem ({total}): the gem named "
              + ", ".join(f"{k} {100 * shared.get(k, 0) / total:.1f}%"
                          for k in ("told", "swapped", "neighbour misread", "both", "neither")))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--worlds", help="only the games of these worlds, NAME,NAME,...")
    ap.add_argument("--calibrate", choices=("layout", "setup"), default="layout")
    ap.add_argument("--fixtures", type=Path, default=FIXTURES)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    found = worlds(args.fixtures, only=args.worlds.split(",") if args.worlds else None)
    tally_games(found, read_game, table, setup=args.calibrate == "setup")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
