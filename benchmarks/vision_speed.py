"""How fast one 1280x720 frame becomes an observation, on one core.

    python benchmarks/vision_speed.py            # 20 boards x 15 frames
    python benchmarks/vision_speed.py --quick    # 5 boards x 10 frames

Frames are rendered boards of random legal game states at the issue's nuisance levels.
"Tracking" is the steady state of a still camera that has found the board before: its
frames differ in sensor noise only (markers are checked where they were; a frame is
followed, not read, until the view has been still for `settle` frames, and the still
view is then read once from their mean, so one tracked frame in `settle` carries the
reading); "first frame" finds everything from scratch. (The camera path's own figures,
a tracked frame and a still view decided, are printed by benchmarks/worlds_games.py.)
"Changed places" compares a tracked frame's light-corrected board image with the one
before it (vision.conditioned: what the camera path does for each new stable view).
Printed: medians and 90th percentiles, and the median time of each step.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import defaultdict  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from scoring import quantile, time_film  # noqa: E402
from vision_accuracy import random_game  # noqa: E402

from companion.vision.conditioned import changed_places  # noqa: E402
from companion.vision.observer import Vision  # noqa: E402
from companion.vision.render import Nuisance, Renderer  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    boards, reps = (5, 10) if args.quick else (20, 15)
    cv2.setNumThreads(1)
    vision = Vision(settle=5)
    renderer = Renderer(vision.board)
    # Each board is filmed by a still camera: its frames differ in sensor noise only.
    films = [[renderer.render(state, seed=s, nuisance=Nuisance.issue(), frame=k).image
              for k in range(reps + 1)]
             for s, state in ((s, random_game(s).state) for s in range(1, boards + 1))]
    warm: list[float] = []
    cold: list[float] = []
    changed: list[float] = []
    steps: dict[str, list[float]] = defaultdict(list)
    before = None

    def after_each(i: int) -> None:
        # The steps of each frame; when the frame was the one a still view is read on,
        # the changed-places check against the view read before it (what the camera
        # path does for each new still view).
        nonlocal before
        for name, ms in vision.timings.items():
            steps[name].append(ms)
        if "classify" not in vision.timings or vision.last_reading is None:
            return
        now = vision.last_reading.corrected
        if before is not None:
            t = time.perf_counter()
            changed_places(vision.detector, before, now)
            changed.append((time.perf_counter() - t) * 1000)
        before = now

    for film in films:
        first, tracked = time_film(vision, film, after_each)
        cold.append(first)
        warm += tracked
    h, w = films[0][0].shape[:2]
    print(f"vision speed: {w}x{h} frames, one core (cv2.setNumThreads(1)), "
          f"{boards} boards, {len(warm)} tracked frames")
    print(f"  tracking     median {statistics.median(warm):6.2f} ms   "
          f"p90 {quantile(warm, 0.9):6.2f} ms   max {max(warm):6.2f} ms")
    print(f"  first frame  median {statistics.median(cold):6.2f} ms   "
          f"p90 {quantile(cold, 0.9):6.2f} ms")
    print(f"  changed places median {statistics.median(changed):6.2f} ms   "
          f"p90 {quantile(changed, 0.9):6.2f} ms")
    medians = {k: statistics.median(v) for k, v in steps.items()}
    print("  steps (median ms; reading steps only on the frame a still view is read on):")
    for name, ms in medians.items():
        print(f"    {name:16s} {ms:6.2f}")
    slowest = max(medians, key=medians.get)
    print(f"  slowest step: {slowest} ({medians[slowest]:.2f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
