"""Fit the gem model (``companion.vision.gem_model``) on the tuned 3-D worlds.

    python tools/train_gem_model.py               # fit on every tuned world, write the model
    python tools/train_gem_model.py --evaluate    # each world read by a model fitted without it
    python tools/train_gem_model.py --cache /tmp/gems.npz   # keep the canoes read for next time

Also read: the project's own 2-D renderer (``companion.vision.render``), boards of random
legal states at the nuisances of ``benchmarks/vision_accuracy.py`` with the packaged
profile, from seeds (RENDER_SEEDS) that benchmark never uses.

Every canoe on the river of the tuned worlds' stills and of their games' still views
(each delivered with the world's sensor noise, as the camera delivers it) is read by the
real vision, one frame at a time as ``vision detect`` reads it, with the world's profile
calibrated as the README says: from its layout photos, and, for a game, also from a
photo of its own set-up (the profile's gem colours then come from the piles alone; the
model must hold for both). A canoe whose place holds canoes of its colour with different
gems is left out (which is which is not known). The truth comes from the rules engine.

A world marked ``"tuning": false`` is never read here: its figures are the ones quoted.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from worlds_common import (  # noqa: E402
    WorldFixture,
    calibrate,
    calibrate_from_setup,
    worlds,
)

from companion.vision.gem_model import (  # noqa: E402
    CLASSES,
    FEATURES,
    PACKAGED,
    SURE,
    GemModel,
    gem_features,
    table_gem_colours,
    weigh,
)
from companion.vision.observer import Vision  # noqa: E402
from tools.worlds.sensor import deliver, sensor_of  # noqa: E402

RENDER_SEEDS = range(100_001, 100_601)
RENDERED = "render2d"
L2 = 1e-3        # the weights' penalty (per sample), against fitting one world's quirks
NEWTON_STEPS = 50


def truth_gems(truth: dict) -> dict[tuple[str, str], set[str | None]]:
    """Per (place, player) on the river, the gems its canoes carry."""
    out: dict[tuple[str, str], set[str | None]] = {}
    for slot, held in truth["slots"].items():
        for canoe in held["canoes"]:
            out.setdefault((slot, canoe["player"]), set()).add(canoe["gem"])
    return out


Row = tuple[np.ndarray, str, str, str]  # features, class, world, the hand rules' read


def read_canoes(vision: Vision, image: np.ndarray, truth: dict
                ) -> list[tuple[np.ndarray, str, str]]:
    """(features, class, the hand rules' read) of each canoe on the river whose gem the
    truth tells (read with the hand rules: the features do not depend on the judge).
    The features take the gem colours of the `vision`'s profile."""
    colours = table_gem_colours(vision.profile)
    vision.reset()
    obs = vision.observe(image)
    if obs is None or vision.last_reading is None:
        return []
    told = truth_gems(truth)
    out = []
    for player, place, evidence in vision.last_reading.middles:
        gems = told.get((place, player)) if place not in (None, "D", "F") else None
        if evidence is None or not gems or len(gems) != 1:
            continue
        gem = next(iter(gems))
        said = {c["gem"] for c in obs["slots"][place]["canoes"] if c["player"] == player}
        rule = str(next(iter(said))) if len(said) == 1 else "?"
        out.append((gem_features(evidence, player, colours), gem or "none", rule))
    return out


def read_world(world: WorldFixture) -> list[Row]:
    """Every usable canoe of one tuned world: its stills, and its games' still views
    read with both of a table's calibrations (its layout photos, the game's set-up)."""
    assert world.tuning, f"{world.name} is not for tuning"
    cv2.setNumThreads(1)
    with tempfile.TemporaryDirectory() as tmp:
        profile, said = calibrate(world, Path(tmp) / f"{world.name}.json")
        print(f"  {world.name}: calibrate profile {said}", file=sys.stderr)
        if profile is None:
            return []
        layout = Vision(world.board_file, profile, settle=1, gem_model=None)
        rows = [(x, y, world.name, r)
                for still in world.stills() if not still["hand"]
                for x, y, r in read_canoes(layout, cv2.imread(str(world.path / still["file"])),
                                           still["truth"])]
        sensor = sensor_of(world.meta)
        for game_dir in world.games():
            meta = json.loads((game_dir / "game.json").read_text())
            visions = [layout]
            setup, _ = calibrate_from_setup(world, game_dir, Path(tmp) / f"{game_dir.name}.json")
            if setup is not None:
                visions.append(Vision(world.board_file, setup, settle=1, gem_model=None))
            for i, frame in enumerate(meta["frames"]):
                if frame["kind"] != "stable" or frame["events"] == 0:
                    continue
                image = deliver(cv2.imread(str(game_dir / frame["file"])), sensor,
                                meta["seed"] * 104729 + i)
                rows += [(x, y, world.name, r) for vision in visions
                         for x, y, r in read_canoes(vision, image, frame["truth"])]
    return rows


def read_rendered(seeds: range) -> list[Row]:
    """The canoes of the 2-D renderer's boards (world RENDERED), made as
    ``benchmarks/vision_accuracy.py`` makes its own."""
    from vision_accuracy import board_shot

    from companion.vision.render import Renderer

    cv2.setNumThreads(1)
    vision = Vision(settle=1, gem_model=None)
    renderer = Renderer(vision.board)
    rows: list[Row] = []
    for seed in seeds:
        shot = board_shot(renderer, seed)
        rows += [(x, y, RENDERED, r)
                 for x, y, r in read_canoes(vision, shot.image, shot.truth)]
    return rows


def _loss(z: np.ndarray, target: np.ndarray, weight: np.ndarray, penalty: np.ndarray,
          theta: np.ndarray) -> tuple[float, np.ndarray]:
    """The weighted cross-entropy plus the `penalty` per row of parameters `theta`
    ((features + 1, classes), biases last), and the class probabilities."""
    logits = z @ theta
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    loss = -float(weight @ np.log(np.maximum((p * target).sum(axis=1), 1e-300)))
    return loss + 0.5 * float(penalty @ np.square(theta).sum(axis=1)), p


def fit(x: np.ndarray, y: np.ndarray, about: str) -> GemModel:
    """Multinomial logistic regression on standardised features, each class weighted by
    the inverse square root of its count (a table's mix of gems is not the worlds'; a
    rare class weighted fully would be claimed everywhere), with an L2 penalty on the
    weights: a strictly convex loss, minimised by Newton's method to its one minimum, so
    that the same canoes always give the same model."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-6] = 1.0
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    n, d = z.shape
    k = len(CLASSES)
    target = np.zeros((n, k))
    target[np.arange(n), y] = 1.0
    counts = np.bincount(y, minlength=k).astype(np.float64)
    weight = np.sqrt(n / (k * np.maximum(counts, 1.0)))[y]
    weight /= weight.sum()
    penalty = np.full(d, L2)
    penalty[-1] = 1e-9  # (the biases: only what pins the softmax's free constant)
    theta = np.zeros((d, k))
    loss, p = _loss(z, target, weight, penalty, theta)
    for _ in range(NEWTON_STEPS):
        grad = z.T @ ((p - target) * weight[:, None]) + penalty[:, None] * theta
        hess = np.zeros((d, k, d, k))
        for a in range(k):
            for b in range(k):
                s = weight * p[:, a] * ((a == b) - p[:, b])
                hess[:, a, :, b] = (z * s[:, None]).T @ z
        hess = hess.reshape(d * k, d * k) + np.diag(np.repeat(penalty, k))
        step = np.linalg.solve(hess, grad.reshape(-1)).reshape(d, k)
        shrink = 1.0
        while True:  # halve the step until the loss goes down (it nearly always does at 1)
            tried = theta - shrink * step
            new_loss, new_p = _loss(z, target, weight, penalty, tried)
            if new_loss <= loss or shrink < 1e-6:
                break
            shrink /= 2
        if new_loss > loss:
            break  # (no step lowers it: the minimum, to rounding)
        done = loss - new_loss < 1e-12
        theta, loss, p = tried, new_loss, new_p
        if done:
            break
    else:
        print(f"warning: the fit did not settle in {NEWTON_STEPS} Newton steps",
              file=sys.stderr)
    return GemModel(FEATURES, CLASSES, mean, scale, theta[:-1].copy(), theta[-1].copy(), about)


def _ruled(rule: np.ndarray) -> list[str | None]:
    return [None if r == "None" else ("?" if r not in CLASSES + ("unknown",) else str(r))
            for r in rule]


def _code(gem: str | None) -> int:
    """A gem read as a class index (0 none), -2 for "unknown" (or not told)."""
    return 0 if gem is None else CLASSES.index(gem) if gem in CLASSES else -2


def _figures(said: np.ndarray, y: np.ndarray) -> str:
    gem, named, empty = y >= 1, said >= 1, said == 0
    return (f"gems named {named.sum()} ({(said[named] == y[named]).mean():.1%} right, "
            f"{((said == y) & named).sum()} of {gem.sum()} found); none said {empty.sum()} "
            f"({(y[empty] == 0).mean():.1%} right); unknown {(said == -2).mean():.1%}; "
            f"right {(said == y).mean():.1%}")


def evaluate(x: np.ndarray, y: np.ndarray, where: np.ndarray, rule: np.ndarray) -> None:
    """Each 3-D world read by a model fitted on the other worlds and the 2-D renderer
    (the 2-D renderer by the model fitted on all): the hand rules alone, and weighed by
    the model (``gem_model.weigh``), on the same canoes."""
    ruled = _ruled(rule)
    alone = np.array([_code(r) for r in ruled])
    weighed = np.zeros(len(y), int)
    for world in sorted(set(where)):
        held = where == world
        model = fit(x if world == RENDERED else x[~held], y if world == RENDERED else y[~held],
                    "")
        for i in np.nonzero(held)[0]:
            weighed[i] = _code(weigh(ruled[i], model.shares(x[i])))
        print(f"  {world}:\n    rules   {_figures(alone[held], y[held])}\n"
              f"    weighed {_figures(weighed[held], y[held])}")
    worlds_3d = where != RENDERED
    print(f"3-D worlds, each read by a model fitted without it (sure {SURE}):\n"
          f"  rules   {_figures(alone[worlds_3d], y[worlds_3d])}\n"
          f"  weighed {_figures(weighed[worlds_3d], y[worlds_3d])}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--evaluate", action="store_true",
                    help="leave one tuned world out at a time and print the figures")
    ap.add_argument("--cache", type=Path, help="keep (and reuse) the canoes read in this .npz")
    ap.add_argument("--out", type=Path, default=PACKAGED, help="where to write the model")
    ap.add_argument("--jobs", type=int, default=2, help="processes reading the worlds")
    args = ap.parse_args()
    if args.cache is not None and args.cache.exists():
        data = np.load(args.cache)
        if "features" not in data or tuple(data["features"]) != FEATURES:
            print(f"{args.cache}: canoes read for other features; read them again "
                  "(remove the file)", file=sys.stderr)
            return 2
        keep = np.isin(data["where"], [w.name for w in worlds() if w.tuning] + [RENDERED])
        x, y, where, rule = (data[k][keep] for k in ("x", "y", "where", "rule"))
    else:
        from multiprocessing import Pool

        tuned = [w for w in worlds() if w.tuning]
        half = len(RENDER_SEEDS) // 2
        rendered = [RENDER_SEEDS[:half], RENDER_SEEDS[half:]]
        with Pool(args.jobs) as pool:
            parts = pool.map(read_world, tuned, chunksize=1) + pool.map(read_rendered, rendered)
        rows = [row for part in parts for row in part]
        x = np.array([r[0] for r in rows])
        y = np.array([CLASSES.index(r[1]) for r in rows])
        where = np.array([r[2] for r in rows])
        rule = np.array([r[3] for r in rows])
        if args.cache is not None:
            np.savez(args.cache, x=x, y=y, where=where, rule=rule,
                     features=np.array(FEATURES))
    counts = {c: int((y == i).sum()) for i, c in enumerate(CLASSES)}
    print(f"{len(y)} canoes from the tuned worlds and the 2-D renderer: {counts}")
    if args.evaluate:
        evaluate(x, y, where, rule)
        return 0
    about = (f"fitted by tools/train_gem_model.py on {len(y)} river canoes of "
             f"{', '.join(sorted(set(where)))}")
    args.out.write_text(json.dumps(fit(x, y, about).to_json(), indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
