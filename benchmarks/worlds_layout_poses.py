"""Where the calibration finds each canoe of the layout photos, against where it lies:
the layout-canoe stage on its own (``dock_canoes.find_slot_canoe``, its evaluation).

    python benchmarks/worlds_layout_poses.py                 # every world
    python benchmarks/worlds_layout_poses.py --worlds w101,w901

A world's layout photos are rendered from pieces placed by ``tools.worlds.layout``, with
a random generator seeded by the world and the photo: placed again the same way, they
give every layout canoe's true centre and angle on the board. Each photo is located and
straightened as calibration does (``learn._straight``) and each canoe the layout puts
alone on a slot is looked for on its slot.

A hull stands above the board, so the straightened picture shows it shifted away from
the camera (by a few mm, about alike for a world's five slots): the centre's error is
printed after taking off each world's median shift. Printed per world: the median angle
error and the share within 15 degrees; the median centre error and the share within 3
mm; the median share of its inner ellipse (the pixels its colour is learned from) the
finder keeps; how many canoes were not found or kept less than half of it. Each canoe's
line is printed for the tuned worlds only (``worlds_common.withheld``'s rule).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from worlds_common import WorldFixture, withheld, worlds  # noqa: E402

from companion.vision.board import load_board  # noqa: E402
from companion.vision.dock_canoes import HULL_MM, find_slot_canoe, hull_inner  # noqa: E402
from companion.vision.known import KnownBoard  # noqa: E402
from companion.vision.learn import _straight  # noqa: E402
from tools.worlds.generate import calibration_snapshot  # noqa: E402
from tools.worlds.layout import place_pieces  # noqa: E402

PX_PER_MM = 1.0


def inner_px(angle: float, s: float) -> int:
    """How many pixels a layout hull lying `angle` degrees teaches its colour from
    (``dock_canoes.hull_inner``)."""
    side = int(HULL_MM[0] * s) + 3
    return int(np.count_nonzero(hull_inner((side, side), (side // 2, side // 2), angle, s)))


def measure(world: WorldFixture) -> list[dict]:
    """Each layout canoe of the world's photos: truth, and what the finder made of it."""
    meta = world.meta["world"]
    board = load_board(world.board_file)
    lone = KnownBoard.layout().lone_canoes()
    rows = []
    for k in (1, 2):
        photo = world.path / "calibration" / f"layout-{k}.jpg"
        shot = cv2.imread(str(photo))
        if shot is None:
            raise SystemExit(f"{photo}: not a readable image")
        img, _ = _straight(board, shot, PX_PER_MM, None)
        placed = place_pieces(board, calibration_snapshot(),
                              random.Random(f"{meta['seed']}:calibration-{k}"),
                              meta["jitter_mm"], ["7R"])
        truth = {p.colour: p for p in placed if p.kind == "canoe"}
        for slot, (player, _) in lone.items():
            t = truth[player]
            found = find_slot_canoe(img, board, slot, player, PX_PER_MM)
            row: dict[str, Any] = {"photo": k, "slot": slot, "player": player,
                                   "found": found is not None}
            if found is not None:
                row.update(dx=found.centre_mm[0] - t.x, dy=found.centre_mm[1] - t.y,
                           angle=(found.angle_deg - t.angle + 90.0) % 180.0 - 90.0,
                           kept=len(found.hull[0]) / inner_px(found.angle_deg, PX_PER_MM))
            rows.append(row)
    return rows


def summary(rows: list[dict], pooled: bool = False) -> dict[str, float]:
    """The figures of some canoes' rows. One world's: its median shift is taken off each
    found canoe's centre error first (``off``); `pooled` rows of several worlds have
    theirs taken off already."""
    found = [r for r in rows if r["found"]]
    if not found:
        return {"canoes": len(rows), "lost": len(rows)}
    shifts = [(r["dx"], r["dy"]) for r in found]
    sx, sy = (float(v) for v in np.median(np.array(shifts), axis=0))
    if not pooled:
        for r in found:
            r["off"] = math.hypot(r["dx"] - sx, r["dy"] - sy)
    angles = [abs(r["angle"]) for r in found]
    offs = [r["off"] for r in found]
    return {"canoes": len(rows),
            "shift_mm": float(np.median([math.hypot(*d) for d in shifts])) if pooled
            else math.hypot(sx, sy),
            "angle_median": float(np.median(angles)),
            "angle_within_15": sum(a <= 15 for a in angles) / len(found),
            "centre_median": float(np.median(offs)),
            "centre_within_3": sum(o <= 3 for o in offs) / len(found),
            "kept_median": float(np.median([r["kept"] for r in found])),
            "lost": sum(not r["found"] or r["kept"] < 0.5 for r in rows)}


def line(name: str, s: dict[str, float]) -> str:
    if "angle_median" not in s:
        return f"  {name:<16} {s['canoes']:>3} canoes, none found"
    return (f"  {name:<16} {s['canoes']:>3} canoes: angle off median {s['angle_median']:4.1f}"
            f" deg ({100 * s['angle_within_15']:3.0f}% within 15); centre off median"
            f" {s['centre_median']:3.1f} mm ({100 * s['centre_within_3']:3.0f}% within 3;"
            f" shift {s['shift_mm']:3.1f}); inner ellipse kept median"
            f" {100 * s['kept_median']:3.0f}%; not found or under half kept {s['lost']}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worlds", help="only these worlds, NAME,NAME,...")
    args = ap.parse_args()
    chosen = worlds(only=args.worlds.split(",") if args.worlds else None)
    print(f"layout canoe poses: {len(chosen)} worlds, 2 photos x 5 lone canoes each,"
          f" straightened at {PX_PER_MM:g} px/mm")
    groups: dict[str, list[dict]] = {"tuned": [], "NOT-FOR-TUNING": []}
    failing = []
    for world in chosen:
        rows = measure(world)
        s = summary(rows)
        print(line(world.name + ("" if world.tuning else "*"), s))
        groups["tuned" if world.tuning else "NOT-FOR-TUNING"].extend(
            dict(r, world=world.name) for r in rows)
        bad = [r for r in rows if not r["found"] or r["kept"] < 0.5 or abs(r["angle"]) > 15
               or r["off"] > 3]
        if world.tuning:
            failing += [f"  {world.name} layout-{r['photo']} slot {r['slot']} {r['player']}: "
                        + ("not found" if not r["found"] else
                           f"angle off {r['angle']:+.0f} deg, centre off {r['off']:.1f} mm,"
                           f" kept {100 * r['kept']:.0f}%") for r in bad]
        elif bad:
            failing.append(withheld(world.name, len(bad)))
    print("overall (quote NOT-FOR-TUNING; a world's shift taken off before pooling):")
    for name, rows in groups.items():
        if rows:
            print(line(name, summary(rows, pooled=True)))
    print("canoes off (over 15 deg or 3 mm, under half kept, or not found):")
    print("\n".join(failing) if failing else "  none")


if __name__ == "__main__":
    main()
