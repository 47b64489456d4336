"""What learning the canoes' colours at the table (``companion.vision.hull_looks``) does
to the reading of the worlds' stills: the hull-colour stage's own evaluation.

    python benchmarks/worlds_hulls.py                  # every world with a game
    python benchmarks/worlds_hulls.py --worlds w101,w901 --pictures 20

Per world, calibrated as the README says (`companion calibrate profile` on its layout
photos), the first `--pictures` confirmed pictures of its first game (one stable frame
per state, each with the sensor noise the camera adds, and the state the game's truth
log gives) are confirmed one by one into a camera's memory (``BoardMemory.confirm``,
as the table's camera does, but with no canoes read: the pieces' other looks are not
learned), which learns the hulls' colours from them. Then every still of
the world is read (``Vision(settle=1)``, as ``worlds_stills.py`` does) twice: with the
calibrated profile and with the colours learned. Printed per world and for the tuned
and NOT-FOR-TUNING worlds (quote the latter): the stills' figures both ways, and how
many classes the pictures changed. Failure lines are not printed: ``worlds_stills.py``
prints them for one profile.

The stills are of the same table as the game (the same world: board, lamp, camera), not
of the same moment: what this measures is whether what a table's game taught holds for
other pictures of that table.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from scoring import figures, print_table, score  # noqa: E402
from worlds_common import FIXTURES, WorldFixture, calibrate, worlds  # noqa: E402

from companion.rules import Game  # noqa: E402
from companion.vision.memory import BoardMemory  # noqa: E402
from companion.vision.observer import Vision  # noqa: E402
from tools.worlds.sensor import deliver, sensor_of  # noqa: E402

SHOWN = ("canoe place and colour", "canoes invented", "canoe with gem (of seen)",
         "whole board exact", "calm boards unstable", "hand frames unstable")


def teach(world: WorldFixture, vision: Vision, pictures: int) -> int:
    """Confirm the first `pictures` states of the world's first game into a memory of
    `vision`'s detector; the number of canoe classes replaced."""
    game_dir = world.games()[0]
    meta = json.loads((game_dir / "game.json").read_text())
    events = [json.loads(line) for line in (game_dir / "log.jsonl").read_text().splitlines()
              if line.strip()]
    sensor = sensor_of(world.meta)
    memory = BoardMemory(vision.detector)
    before = vision.detector.profile
    replaced = set()
    seen: set[int] = set()
    for i, frame in enumerate(meta["frames"]):
        if frame["kind"] != "stable" or frame["events"] in seen:
            continue
        seen.add(frame["events"])
        if len(seen) > pictures:
            break
        image = deliver(cv2.imread(str(game_dir / frame["file"])), sensor, seed=i)
        vision.reset()
        if vision.observe(image) is None or vision.last_reading is None:
            continue
        # (A frame's "events" counts the log's lines, the setup's first; 0 at the setup.)
        game = Game.from_events(events[:max(1, frame["events"])])
        profile = vision.detector.profile
        # (No canoes read: the gems' and hulls' other looks, learned from them, would
        # change the stills' reading too; this measures the hull colours alone.)
        memory.confirm(vision.last_reading.corrected, vision.last_location, game.state)
        if vision.detector.profile is not profile:
            replaced |= {n for n, c in vision.detector.profile.classes.items()
                         if c is not before.classes[n]}
    return len(replaced)


def read_stills(world: WorldFixture, vision: Vision) -> list[dict]:
    out = []
    for still in world.stills():
        image = cv2.imread(str(world.path / still["file"]), cv2.IMREAD_COLOR)
        vision.reset()
        obs = vision.observe(image)
        res = score(obs, still["truth"])
        res.update(hand=still["hand"], stable=None if obs is None else obs["stable"])
        out.append(res)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--worlds", help="only these worlds, NAME,NAME,...")
    ap.add_argument("--pictures", type=int, default=20,
                    help="confirmed pictures of the game learned from (default 20)")
    ap.add_argument("--fixtures", type=Path, default=FIXTURES)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    found = [w for w in worlds(args.fixtures, only=args.worlds.split(",") if args.worlds
                               else None) if w.games() and w.stills()]
    if not found:
        print("no worlds with a game and stills found", file=sys.stderr)
        return 2
    rows: dict[str, dict[str, str]] = {}
    results: dict[str, tuple[list[dict], list[dict]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for world in found:
            profile, said = calibrate(world, Path(tmp) / f"{world.name}.json")
            if profile is None:
                print(f"  {world.name}: calibrate profile {said}: skipped")
                continue
            calibrated = read_stills(world, Vision(world.board_file, profile, settle=1))
            vision = Vision(world.board_file, profile, settle=1)
            replaced = teach(world, vision, args.pictures)
            learned = read_stills(world, vision)
            results[world.name] = (calibrated, learned)
            a, b = figures(calibrated), figures(learned)
            row = {k: f"{a[k]} -> {b[k]}" for k in SHOWN}
            row["classes learned"] = str(replaced)
            rows[f"{world.name}{'' if world.tuning else '*'}"] = row
    print(f"worlds hulls: stills read as calibrated -> after {args.pictures} confirmed "
          "pictures of the world's first game (* = NOT FOR TUNING)")
    for name, row in rows.items():
        print_table(f"{name}:", {"": row}, label=27, cell=40)
    for group, tuning in (("tuned", True), ("NOT-FOR-TUNING", False)):
        mine = [results[w.name] for w in found if w.tuning == tuning and w.name in results]
        if mine:
            a = figures([r for c, _ in mine for r in c])
            b = figures([r for _, lr in mine for r in lr])
            print_table(f"{group} ({len(mine)} worlds):",
                        {"": {k: f"{a[k]} -> {b[k]}" for k in SHOWN}}, label=27, cell=40)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
