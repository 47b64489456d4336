"""How safe move inference is when the picture after a turn has one slip in it.

    python benchmarks/inference_slips.py [--positions 300] [--seed 7]

A camera misreads a little: a gem not seen (a clear one on a pale hull), a gem read
"unknown", a gem read as a neighbouring colour (violet as blue), an empty hull's
shading read as a gem of its own colour, a gem read in the neighbouring canoe of a
shared disc ("swap"), or in both ("double": an empty canoe beside it read with its
gem, as a thief and its victim are), a canoe hidden among others, a canoe read where
none lies ("phantom": a shadow or a print read as a hull). For legal turns of random positions
(companion.rules.random_play) this takes the perfect camera's picture after the turn
(companion.vision.expected), puts one such slip on a place the turn touched, and infers
the turn from it. The picture says which deposits' piles changed, as the table's camera
does from the picture before (``--no-piles``: it does not, as one picture alone cannot).
Prints, per kind of slip ("none": the perfect picture): read right, asked with the truth among the
choices, asked without it, flagged as illegal, and **another turn applied** (the one
figure that must stay near 0: a wrong event the players did not make).

``--twin-loads`` tries only turns whose two canoes both load a gem of one colour (on
one slot or two), where one pile change may stand for either load. (A tuned world's
game, g113, played such a turn for one that loads violet and blue, read violet and
clear with the blue take not seen: two slips at once, which this benchmark, putting
one, does not make.)

Everything runs in this one process; the figures are deterministic by seed.
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.rules import Game, Turn  # noqa: E402
from companion.rules.random_play import random_positions  # noqa: E402
from companion.vision.expected import expected_observation  # noqa: E402
from companion.vision.fit_changes import changed_piles  # noqa: E402
from companion.vision.inference import infer_turn  # noqa: E402
from companion.vision.turn_gems import load_sources  # noqa: E402

# Gem colours a camera confuses (hues next to each other; clear in glare or not seen).
NEAR: dict[str, list[str | None]] = {"violet": ["blue", "red"], "blue": ["violet"],
                                     "red": ["violet"], "yellow": ["clear"],
                                     "clear": ["yellow", None]}
HULL_GEMS = ("red", "blue", "yellow")  # canoe colours that are gem colours too
KINDS = ("none", "unseen", "unknown", "near", "own", "swap", "double", "hidden", "phantom")


def slip(picture: dict[str, Any], places: set[str], kind: str, rng: random.Random) -> bool:
    """Put one slip of `kind` on a canoe of `places` in `picture`; False when none fits.
    ("none": the perfect picture, to compare with.)"""
    if kind == "none":
        return True
    if kind == "phantom" and not places:
        return False
    if kind == "phantom":
        # A canoe read where none lies (a shadow, a print, a neighbour's rim) in a
        # playing colour: on a place the turn touched, the mover's own colour half the time.
        players = sorted({c["player"] for p in picture["slots"].values() for c in p["canoes"]}
                         | {c["player"] for c in picture["dock"] + picture["falls"]})
        mover = picture.get("_mover")
        who = mover if mover and rng.random() < 0.5 else rng.choice(players)
        place = rng.choice(sorted(places))
        where = (picture["dock"] if place == "D" else picture["falls"] if place == "F"
                 else picture["slots"][place]["canoes"])
        where.append({"player": who, "gem": None})
        return True
    canoes = [(p, c) for p in sorted(places) if p in picture["slots"]
              for c in picture["slots"][p]["canoes"]]
    rng.shuffle(canoes)
    for place, canoe in canoes:
        gem, on_slot = canoe["gem"], picture["slots"][place]["canoes"]
        beside = [o["gem"] for o in on_slot if o is not canoe and o["gem"] not in (None, "unknown")]
        if kind == "unseen" and gem:
            canoe["gem"] = None
        elif kind == "unknown":
            canoe["gem"] = "unknown"
        elif kind == "near" and gem in NEAR:
            canoe["gem"] = rng.choice(NEAR[gem])
        elif kind == "own" and gem is None and canoe["player"] in HULL_GEMS:
            canoe["gem"] = canoe["player"]
        elif kind == "swap" and any(o["gem"] != gem for o in on_slot):
            other = rng.choice([o for o in on_slot if o["gem"] != gem])
            canoe["gem"], other["gem"] = other["gem"], gem
        elif kind == "double" and gem is None and beside:
            canoe["gem"] = rng.choice(beside)
        elif kind == "hidden":
            on_slot.remove(canoe)
        else:
            continue
        return True
    return False


def twin_loads(turn: Turn) -> bool:
    """Whether both canoes of the turn load a gem of one colour."""
    gems = [gem for _, gem, _ in load_sources(turn)]
    return len(gems) == 2 and gems[0] == gems[1]


def judge(game: Game, turn: Turn, picture: dict[str, Any]) -> str:
    result = infer_turn(game, picture)
    if result.status == "exact":
        return "right" if result.turn == turn else "WRONG"
    if result.status == "ambiguous":
        return "asked" if turn in result.turns else "asked, truth not among"
    return "flagged"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--turns", type=int, default=8, help="turns tried per position")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--no-piles", action="store_true",
                    help="pictures without deposits_changed (one picture alone)")
    ap.add_argument("--twin-loads", action="store_true",
                    help="only turns whose two canoes load a gem of one colour")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    counts: dict[str, Counter] = {kind: Counter() for kind in KINDS}
    for game in random_positions(rng, args.positions):
        turns = game.legal_turns()
        if args.twin_loads:
            turns = [t for t in turns if twin_loads(t)]
        for turn in rng.sample(turns, min(args.turns, len(turns))):
            piles = {d: dict(p) for d, p in game.state.deposits.items()}
            game.apply(turn)
            perfect = expected_observation(game)
            if not args.no_piles:
                perfect["deposits_changed"] = sorted(changed_piles(piles, game.state.deposits))
            game.undo()
            touched = {a.origin for a in turn.canoes} | {a.destination for a in turn.canoes}
            for kind in KINDS:
                picture = copy.deepcopy(perfect)
                picture["_mover"] = turn.player
                if slip(picture, touched, kind, rng):
                    del picture["_mover"]
                    counts[kind][judge(game, turn, picture)] += 1
    outcomes = ("right", "asked", "asked, truth not among", "flagged", "WRONG")
    print(f"inference with one slip in the picture: {args.positions} random positions, "
          f"up to {args.turns} turns each{' (twin loads only)' if args.twin_loads else ''}, "
          f"seed {args.seed}")
    total: Counter = Counter()
    for kind in KINDS:
        c = counts[kind]
        total.update(c)
        n = sum(c.values())
        print(f"  {kind:8s} {n:5d} tried: " + ", ".join(
            f"{o} {100 * c[o] / n:.1f}%" for o in outcomes) if n else f"  {kind}: none")
    n = sum(total.values())
    print(f"  all      {n:5d} tried: " + ", ".join(
        f"{o} {100 * total[o] / n:.2f}% ({total[o]})" for o in outcomes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
