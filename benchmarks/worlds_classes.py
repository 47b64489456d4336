"""How well the colour classes tell the canoes from the board, on the worlds' stills: the
colour-classification stage on its own (its evaluation, apart from the stages after it).

    python benchmarks/worlds_classes.py                 # every world
    python benchmarks/worlds_classes.py --worlds w101,w901

Per world, calibrated as the README says (`companion calibrate profile` on its layout
photos), each still without a hand is straightened and classed as the detector does
(``Detector.prepare``), and every canoe its state puts alone on a slot is found by its
shape alone (the calibration's own finder, ``dock_canoes.find_slot_canoe``: the
canoe-shaped patch unlike its disc, whatever its colour class). Of such a hull's inner
pixels (its rim and its middle, where a gem may lie, left out) it prints the share the
detector classes as the canoe's colour, and the share of hulls of which at least half
are (a hull mostly of another class is one the canoe stage must find in spite of its
colours). Of the print where no piece lies, the share of pixels classed as some canoe
colour (what the canoe stage must then tell from hulls); the same inside the rims of the
discs of the slots the state leaves empty (a disc out of the river is left out). And how
many stills were read (one whose markers a fresh locator does not find is left out
whole) and how many lone canoes the shape finder found.

Where the missed hull pixels went (the print's classes, the water and discs, another
canoe's colour, no class) is printed for the tuned worlds only; of a world NOT FOR
TUNING only its figures are printed (``worlds_common.withheld``'s rule).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from scoring import pct, print_table  # noqa: E402
from worlds_common import FIXTURES, WorldFixture, calibrate, worlds  # noqa: E402

from companion.rules import SLOTS  # noqa: E402
from companion.vision.board import load_board  # noqa: E402
from companion.vision.detect import Detector  # noqa: E402
from companion.vision.dock_canoes import find_slot_canoe  # noqa: E402
from companion.vision.known import KnownBoard  # noqa: E402
from companion.vision.learn import sample_known  # noqa: E402
from companion.vision.locate import BoardLocator  # noqa: E402
from companion.vision.masks import ring_pixels  # noqa: E402
from companion.vision.profile import NONE, ProfileError  # noqa: E402
from companion.vision.profile_file import load_profile  # noqa: E402


def _kind(name: str | None, own: str) -> str:
    """What a class is, as seen from a hull of class `own`."""
    if name is None:
        return "no class"
    if name == own:
        return "its colour"
    if name.startswith("canoe:"):
        return "another canoe"
    if name in ("water", "disc"):
        return "water, disc"
    if name.startswith("board:"):
        return "print"
    return name.split(":")[0]


def read_world(world: WorldFixture, profile_path: Path) -> dict:
    board = load_board(world.board_file)
    profile = load_profile(profile_path)
    detector = Detector(board, profile)
    names = profile.names
    canoe_classes = [i for i, n in enumerate(names) if n.startswith("canoe:")]
    hulls: list[tuple[str, int, int]] = []      # (colour, pixels, of its colour)
    went: Counter[str] = Counter()
    print_px = print_canoe = disc_px = disc_canoe = 0
    calm = read = lone_canoes = 0
    for still in world.stills():
        if still["hand"]:
            continue
        calm += 1
        image = cv2.imread(str(world.path / still["file"]), cv2.IMREAD_COLOR)
        # (A fresh locator, as ``sample_known``'s: a still whose markers it does not
        # find is left out whole, and counted.)
        where = BoardLocator(board).locate(image)
        if where is None:
            continue
        known = dataclasses.replace(KnownBoard.of_snapshot(still["state"]),
                                    no_disc=tuple(still["missing_discs"]))
        try:
            ground = sample_known(board, image, known, detector.scale, detector,
                                  unseen=[])["ground"]
        except ProfileError:
            continue
        read += 1
        labels = profile.classify(ground)
        print_px += len(labels)
        print_canoe += int(np.count_nonzero(np.isin(labels, canoe_classes)))
        img, classes = detector.prepare(image, where)
        for slot, (player, _) in known.lone_canoes().items():
            lone_canoes += 1
            lone = find_slot_canoe(img, board, slot, player, detector.scale)
            if lone is None:
                continue
            labels = classes[lone.hull]
            own = names.index(f"canoe:{player}")
            hulls.append((player, len(labels), int(np.count_nonzero(labels == own))))
            for label, n in zip(*np.unique(labels, return_counts=True), strict=True):
                went[_kind(None if label == NONE else names[label], f"canoe:{player}")] += int(n)
        for slot in SLOTS:
            if slot not in known.river and slot not in known.no_disc:
                labels = classes[ring_pixels(classes.shape, detector.scale, board.slots[slot],
                                             0, 0.88 * board.disc_radius_mm)]
                disc_px += len(labels)
                disc_canoe += int(np.count_nonzero(np.isin(labels, canoe_classes)))
    return {"hulls": hulls, "went": went, "print": (print_canoe, print_px),
            "discs": (disc_canoe, disc_px), "stills": (read, calm),
            "lone": (len(hulls), lone_canoes)}


def figures(results: list[dict]) -> dict[str, str]:
    hulls = [h for r in results for h in r["hulls"]]
    px = sum(n for _, n, _ in hulls)
    own = sum(k for _, _, k in hulls)
    mostly = sum(n > 0 and 2 * k >= n for _, n, k in hulls)
    out = {"stills read": pct(sum(r["stills"][0] for r in results),
                              sum(r["stills"][1] for r in results)),
           "lone canoes found by shape": pct(sum(r["lone"][0] for r in results),
                                             sum(r["lone"][1] for r in results)),
           "hull pixels of its colour": pct(own, px),
           "hulls mostly of its colour": pct(mostly, len(hulls)),
           "print pixels of a canoe colour": pct(sum(r["print"][0] for r in results),
                                                 sum(r["print"][1] for r in results), 2),
           "empty discs' pixels of a canoe colour": pct(sum(r["discs"][0] for r in results),
                                                         sum(r["discs"][1] for r in results), 2)}
    for colour in sorted({c for c, _, _ in hulls}):
        mine = [h for h in hulls if h[0] == colour]
        out[f"  {colour} hull pixels"] = pct(sum(k for _, _, k in mine),
                                             sum(n for _, n, _ in mine))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--worlds", help="only these worlds, NAME,NAME,...")
    ap.add_argument("--fixtures", type=Path, default=FIXTURES,
                    help="another directory of worlds in the same format")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    found = worlds(args.fixtures, only=args.worlds.split(",") if args.worlds else None)
    if not found:
        print("no worlds found", file=sys.stderr)
        return 2
    per_world: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for world in found:
            profile, said = calibrate(world, Path(tmp) / f"{world.name}.json")
            if profile is None:
                print(f"  {world.name}: calibrate profile {said}: skipped")
                continue
            per_world[world.name] = read_world(world, profile)
    tuning = {w.name: w.tuning for w in found}
    label = {n: f"{n}{'' if tuning[n] else '*'}" for n in per_world}
    print("worlds classes: the colour classes on the stills' hulls and print "
          "(* = NOT FOR TUNING)")
    rows = {}
    for n, r in per_world.items():
        row = figures([r])
        rows[label[n]] = row if tuning[n] else {k: v for k, v in row.items()
                                                 if not k.startswith("  ")}
    print_table("per world:", rows, label=38, cell=24)
    groups = {"tuned": [r for n, r in per_world.items() if tuning[n]],
              "NOT-FOR-TUNING": [r for n, r in per_world.items() if not tuning[n]]}
    overall = {}
    for g, rs in groups.items():
        if rs:
            row = figures(rs)
            overall[g] = row if g == "tuned" else {k: v for k, v in row.items()
                                                   if not k.startswith("  ")}
    print_table("overall (quote NOT-FOR-TUNING):", overall, label=38, cell=24)
    if not groups["tuned"]:
        return 0
    print("where the tuned worlds' hull pixels not of their colour went:")
    went: Counter[str] = Counter()
    for r in groups["tuned"]:
        went.update(r["went"])
    missed = sum(n for k, n in went.items() if k != "its colour")
    for kind, n in went.most_common():
        if kind != "its colour":
            print(f"  {kind:16s} {pct(n, missed)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
