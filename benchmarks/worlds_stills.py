"""How well the vision reads the 3-D worlds' still frames (tests/fixtures/worlds).

    python benchmarks/worlds_stills.py                 # every committed world
    python benchmarks/worlds_stills.py --worlds w101,w901   # some worlds
    python benchmarks/worlds_stills.py --json          # the figures as JSON, too
    python benchmarks/worlds_stills.py --default-profile   # skip the per-world calibration

Each world is calibrated as the README tells a user (`companion calibrate profile` on its
two photos of the calibration layout, with its board file); a world whose calibration
fails is read with the default profile and says so. Each still is then read by the
vision (`companion.vision.observer.Vision`, one frame, as `benchmarks/vision_accuracy.py`
does) and scored against the truth from the rules engine. Printed per world, then for
the tuned and the NOT-FOR-TUNING worlds separately (quote the latter), then every
failing case. Scoring is benchmarks/scoring.py, as for vision_accuracy.py: per-canoe
place and colour, gems of the canoes seen, weather, discs, whole board exact, invented
canoes; on hand frames the share reported unstable and canoes invented.
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

from scoring import failure_lines, figures, print_table, score  # noqa: E402
from worlds_common import FIXTURES, WorldFixture, calibrate, withheld, worlds  # noqa: E402

from companion.vision.observer import Vision  # noqa: E402


def read_world(world: WorldFixture, profile: Path | None) -> list[dict]:
    vision = Vision(world.board_file, profile, settle=1)
    out = []
    for still in world.stills():
        image = cv2.imread(str(world.path / still["file"]), cv2.IMREAD_COLOR)
        vision.reset()
        obs = vision.observe(image)
        truth = still["truth"]
        res = score(obs, truth)
        res.update(file=still["file"], hand=still["hand"],
                   stable=None if obs is None else obs["stable"])
        out.append(res)
    return out


def summary(results: list[dict]) -> dict[str, str]:
    return figures(results, digits=1)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--world", action="append", help="only this world (repeatable)")
    ap.add_argument("--worlds", help="only these worlds, NAME,NAME,...")
    ap.add_argument("--json", action="store_true", help="also print the figures as JSON")
    ap.add_argument("--default-profile", action="store_true",
                    help="read with the default profile instead of calibrating per world")
    ap.add_argument("--fixtures", type=Path, default=FIXTURES,
                    help="another directory of worlds in the same format")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    only = (args.world or []) + (args.worlds.split(",") if args.worlds else [])
    found = worlds(args.fixtures, only=only or None)
    if not found:
        print("no worlds found under tests/fixtures/worlds", file=sys.stderr)
        return 2
    per_world: dict[str, list[dict]] = {}
    notes: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for world in found:
            profile = None
            if not args.default_profile:
                profile, said = calibrate(world, Path(tmp) / f"{world.name}.json")
                notes.append(f"  {world.name}: calibrate profile {said}"
                             + ("" if profile else " -> default profile used"))
            per_world[world.name] = read_world(world, profile)
    print("worlds stills: tests/fixtures/worlds, one frame per still (Vision(settle=1))")
    print("calibration:")
    for n in notes:
        print(n)
    label = {w.name: f"{w.name}{'' if w.tuning else '*'}" for w in found}
    print_table("per world (* = NOT FOR TUNING):",
                {label[n]: summary(r) for n, r in per_world.items()})
    tuned = [r for w in found if w.tuning for r in per_world[w.name]]
    untuned = [r for w in found if not w.tuning for r in per_world[w.name]]
    groups = {"tuned": summary(tuned), "NOT-FOR-TUNING": summary(untuned),
              "all": summary(tuned + untuned)}
    print_table("overall (quote NOT-FOR-TUNING):", groups)
    print("failures:")
    for w in found:
        lines = failure_lines(per_world[w.name], lambda r, n=w.name: f"  {label[n]} {r['file']}")
        if not w.tuning:
            print(withheld(label[w.name], len(lines)))
        elif lines:
            print("\n".join(lines))
    if args.json:
        print(json.dumps({"worlds": {n: summary(r) for n, r in per_world.items()},
                          "overall": groups}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
