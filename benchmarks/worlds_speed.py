"""How fast one 3-D world frame (1280x720) becomes an observation, on one core.

    python benchmarks/worlds_speed.py              # every world, 10 tracked frames a still
    python benchmarks/worlds_speed.py --render 2   # and POV-Ray's time for 2 frames (needs povray)

As benchmarks/vision_speed.py, on the committed 3-D worlds: "first frame" finds the board
from scratch (after `Vision.reset`), "tracking" is a still camera that found it before,
its frames differing in sensor noise only (followed, and the still view read once from
their mean). Each world is calibrated as a user would.
Printed per world and overall: medians and 90th percentiles. With --render, the time
POV-Ray (niced, 2 threads) takes to render a world frame, for the record.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from scoring import quantile, time_film  # noqa: E402
from worlds_common import calibrate, worlds  # noqa: E402

from companion.vision.observer import Vision  # noqa: E402
from tools.worlds.sensor import deliver, sensor_of  # noqa: E402


def _render_times(n: int) -> list[float]:
    import random

    from companion.rules.random_play import random_position
    from companion.vision.board import load_board
    from tools.worlds.generate import WORLDS, WorldRenderer
    from tools.worlds.world import draw_world

    root = Path(__file__).resolve().parents[1]
    seed, board_file, tuning = WORLDS["w101"]
    world = draw_world("w101", seed, board_file, load_board(root / board_file), tuning)
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        wr = WorldRenderer(world, Path(tmp))
        for k in range(n):
            snap = random_position(random.Random(k)).state.snapshot()
            t = time.perf_counter()
            wr.frame(snap, f"speed-{k}")
            times.append(time.perf_counter() - t)
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--render", type=int, default=0, help="also time POV-Ray on N frames")
    ap.add_argument("--worlds", help="only these worlds, NAME,NAME,...")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    all_warm: list[float] = []
    all_cold: list[float] = []
    print(f"worlds speed: 1280x720 3-D frames, one core (cv2.setNumThreads(1)), "
          f"{args.reps} tracked frames a still")
    with tempfile.TemporaryDirectory() as tmp:
        for world in worlds(only=args.worlds.split(",") if args.worlds else None):
            profile, _ = calibrate(world, Path(tmp) / f"{world.name}.json")
            vision = Vision(world.board_file, profile, settle=5)
            warm: list[float] = []
            cold: list[float] = []
            for still in world.stills():
                if still["hand"]:
                    continue
                # A still camera's film: the still again and again, each with fresh
                # sensor noise and the camera's JPEG on top of what the still has.
                image = cv2.imread(str(world.path / still["file"]))
                sensor = sensor_of(world.meta)
                film = [deliver(image, sensor, seed=k, noise_scale=0.7)
                        for k in range(args.reps + 1)]
                first, tracked = time_film(vision, film)
                cold.append(first)
                warm += tracked
            star = "" if world.tuning else "*"
            print(f"  {world.name + star:6s} tracking median {statistics.median(warm):7.2f} ms "
                  f"p90 {quantile(warm, 0.9):7.2f} ms   first frame median "
                  f"{statistics.median(cold):7.2f} ms")
            all_warm += warm
            all_cold += cold
    print(f"  all    tracking median {statistics.median(all_warm):7.2f} ms "
          f"p90 {quantile(all_warm, 0.9):7.2f} ms   first frame median "
          f"{statistics.median(all_cold):7.2f} ms p90 {quantile(all_cold, 0.9):7.2f} ms")
    if args.render:
        times = _render_times(args.render)
        print(f"  POV-Ray render + camera effects, one world frame: median "
              f"{statistics.median(times):.1f} s over {len(times)} (nice 10, 2 threads, "
              f"machine shared)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
