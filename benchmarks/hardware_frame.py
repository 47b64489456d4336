"""How long one LED frame takes, for a 150-LED strip (target: under 1 ms median).

    python benchmarks/hardware_frame.py [--frames 2000] [--positions 200]

Three figures, each a median over many frames, on one core:

- new state: what the app pays after an event: the danger zone from the rules engine
  (possible speeds and a river preview per speed), drawing it, brightness, power
  budget and gamma, and showing it on the simulated strip;
- animation frame: what the render thread pays 60 times a second: drawing the zone
  and three river pulses, the output pipeline, showing it;
- ws281x write: packing the wire values and handing them to the rpi_ws281x C module
  (here a Python fake of it, so this is an upper bound of the Python side).

Game states come from random legal games (companion.rules.random_play) in phases
"cards", "turns" and "river".
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.hardware import (  # noqa: E402
    LedController,
    RiverPulse,
    SimulatedStrip,
    StripConfig,
    danger_zone,
    default_layout,
)
from companion.hardware.ws281x import Ws281xStrip  # noqa: E402
from companion.rules.random_play import random_position  # noqa: E402
from tests.hardware.helpers import FakeWs281x  # noqa: E402

TARGET_MS = 1.0


def positions(n: int, seed: int = 1) -> list:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        game = random_position(rng, players=rng.randint(3, 5))
        if game.phase in ("cards", "turns", "river"):
            out.append(game)
    return out


def median_us(samples: list[float]) -> float:
    return statistics.median(samples) * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=2000)
    parser.add_argument("--positions", type=int, default=200)
    args = parser.parse_args()

    layout = default_layout()
    games = positions(args.positions)
    leds = LedController(SimulatedStrip(150), layout, clock=lambda: 0.0)

    # after an event: zone + frame + output + show
    new_state = []
    for _ in range(3):
        for game in games:
            t0 = time.perf_counter()
            leds.show(game)
            leds.render(0.25)
            new_state.append(time.perf_counter() - t0)
    zone_only = []
    for game in games:
        t0 = time.perf_counter()
        danger_zone(game)
        zone_only.append(time.perf_counter() - t0)

    # the render thread: a zone plus three river pulses under way
    leds.show(games[0])
    for k, branch in enumerate("LRL"):
        leds._animations.append((k * 0.3, RiverPulse(branch, duration=1e9)))
    animation = []
    for i in range(args.frames):
        t0 = time.perf_counter()
        leds.strip.set_frame(leds.frame(0.5 + i * 1e-3))  # render() without its
        leds.strip.show()  # skipping of unchanged frames: every frame is paid in full
        animation.append(time.perf_counter() - t0)

    # the rpi_ws281x write, against the fake C module
    strip = Ws281xStrip(StripConfig(count=150), FakeWs281x())
    frame = leds.frame(0.5)
    write = []
    for i in range(args.frames):
        frame[i % 150] = (i % 256, 0, 0)  # a changed frame each time
        strip.set_frame(frame)
        t0 = time.perf_counter()
        strip.show()
        write.append(time.perf_counter() - t0)

    rows = [
        ("new state (zone + frame + output + show)", new_state),
        ("  of which the danger zone", zone_only),
        ("animation frame (render thread)", animation),
        ("ws281x write (fake C module)", write),
    ]
    print(f"150-LED strip, {len(games)} game states, {args.frames} animation frames")
    for name, samples in rows:
        med = median_us(samples)
        p90 = statistics.quantiles(samples, n=10)[-1] * 1e6
        print(f"{name:44} median {med:7.1f} us   p90 {p90:7.1f} us   "
              f"{1e6 / med:8.0f} frames/s")
    worst = max(median_us(new_state), median_us(animation) + median_us(write))
    print(f"slowest path median {worst / 1000:.3f} ms = {worst / 1000 / TARGET_MS:.2f} x "
          f"the {TARGET_MS:g} ms target")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
