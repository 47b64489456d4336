"""Generate the committed fixture sets of tests/fixtures/worlds (format: its README.md).

    python -m tools.worlds.generate                       # every world, stills and games
    python -m tools.worlds.generate --worlds w101 w901 --no-games
    python -m tools.worlds.generate --games-only

Deterministic by seed: the same command writes the same truth and, with the same
POV-Ray build, the same pictures. Rendering runs POV-Ray under `nice -n 10`.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from companion.rules import SLOTS, Game  # noqa: E402
from companion.rules.random_play import random_phase_events, random_position  # noqa: E402
from companion.vision.board import Board, load_board  # noqa: E402
from companion.vision.markers import marker_image  # noqa: E402
from tools.worlds import scene  # noqa: E402
from tools.worlds.camera import Pose, fit_pose, pov  # noqa: E402
from tools.worlds.layout import Piece, Placement, centroid, place_groups, place_pieces  # noqa: E402
from tools.worlds.photo import jpeg_bytes, photograph  # noqa: E402
from tools.worlds.printart import board_print  # noqa: E402
from tools.worlds.sensor import OPTICS_JPEG  # noqa: E402
from tools.worlds.truth import observation  # noqa: E402
from tools.worlds.world import World, draw_world  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures" / "worlds"

# The worlds: name -> (seed, board file, for tuning?). The 9xx seed family and the
# curved board are NOT for tuning: the recognition must never be adjusted on them, and
# their figures are the ones the project quotes.
WORLDS: dict[str, tuple[int, str, bool]] = {
    "w101": (101, "calibration/board.json", True),
    "w102": (102, "tools/worlds/boards/compact.json", True),
    "w103": (103, "tools/worlds/boards/wide.json", True),
    "w104": (104, "calibration/board.json", True),
    # A wide lens steeply tilted (as w903): a tuned world to study what such a camera
    # sees without looking at the untuned one. Stills only (the budget).
    "w105": (135, "calibration/board.json", True),
    # More tuned tables (2026-11-26): the untuned worlds' gem figures showed misreads
    # (empty hulls read clear or yellow, violet read clear) that no tuned world showed,
    # so the tuned looks did not span what the draw makes. Fresh draws of the same looks
    # on each tuned board, each with a game.
    "w106": (106, "calibration/board.json", True),
    "w107": (107, "tools/worlds/boards/compact.json", True),
    "w108": (108, "tools/worlds/boards/wide.json", True),
    # A fourth tuned board (2026-11-27): a river that leaves a tall dock on the left and
    # bends down to the falls, so that most slots' canoes lie aslant, as no tuned
    # board had them but the wide one's; a fresh draw of the looks, with two games.
    "w109": (109, "tools/worlds/boards/bent.json", True),
    # A fifth (2026-11-27): the river runs the other way, from a dock on the right, and
    # hooks down to the falls on the left; larger discs further apart.
    "w110": (110, "tools/worlds/boards/hooked.json", True),
    # A sixth (2026-12-03): the river rises aslant from a dock at the bottom left, then
    # turns up to the falls, its branches far apart about an island holding the blue and
    # red piles; a fresh draw of the looks, read once before anything was changed for
    # it, as a table this code had never seen.
    "w111": (111, "tools/worlds/boards/rising.json", True),
    # A seventh (2026-12-07): a fresh draw of the looks on the compact board (a pale
    # table, a bright lamp), read once before anything was changed for it; its game
    # missed a move whose only trace was a pile, which no tuned game had shown.
    "w112": (112, "tools/worlds/boards/compact.json", True),
    "w901": (901, "tools/worlds/boards/curved.json", False),
    "w902": (902, "tools/worlds/boards/curved.json", False),
    "w903": (903, "tools/worlds/boards/curved.json", False),
    # Not for tuning, stills only (2026-11-26): failure lines of w902's and w903's stills
    # were once shown while work went on, so three fresh draws whose pictures and
    # failures no one has looked at keep a yardstick clean.
    "w904": (904, "tools/worlds/boards/curved.json", False),
    "w905": (905, "tools/worlds/boards/curved.json", False),
    "w906": (906, "tools/worlds/boards/curved.json", False),
}
STILLS_PER_WORLD = 12
HAND_STILLS = (3, 6, 9, 12)          # a hand over the board
MISSING_DISC_STILLS = (2, 7, 11)     # one disc out of the river
# Whole games: name -> (world, game seed, players). The untuned games are spread over
# the untuned worlds. A complete random game has ~190 frames (median of 1500 seeds), so
# the repository's ~60 MB holds only a few; these seeds are among the shortest complete
# games (55-79 frames): 8 games of ~65 frames instead of 3 typical ones.
GAMES: dict[str, tuple[str, int, int]] = {
    "g101": ("w101", 284, 3),
    "g102": ("w102", 2524, 4),
    # Four players' eight canoes on the dock at the start, seen by w105's wide lens
    # steeply tilted (as w903's): a tuned game to study such a camera in play.
    "g103": ("w105", 3187, 4),
    # Two more tuned four-player games, among the shortest of seeds 5000-5600 (47
    # events): on w105's camera and on w103's wide board, where more canoes crowd a disc.
    "g104": ("w105", 5157, 4),
    "g105": ("w103", 5286, 4),
    # The shortest complete four-player games of seeds 6000-6400 (35 and 47 events).
    "g106": ("w106", 6065, 4),
    "g107": ("w107", 6219, 4),
    "g108": ("w108", 6220, 4),
    # Three-player games as the untuned ones are, one on each tuned board (2026-11-27):
    # the shortest complete games of seeds 7000-7600 (34, 39 and 39 events).
    "g109": ("w101", 7012, 3),
    "g110": ("w102", 7105, 3),
    "g111": ("w103", 7263, 3),
    # On the bent board (2026-11-27): the two shortest complete three-player games of
    # seeds 8000-8400 (39 and 40 events).
    "g112": ("w109", 8352, 3),
    "g113": ("w109", 8387, 3),
    # On the hooked board: four players (as g906), the shortest complete game of seeds
    # 8400-8800 (53 events).
    "g114": ("w110", 8455, 4),
    # Two more on the hooked board (2026-11-27), the shortest complete games of seeds
    # 8800-9200: three players (31 turns and rivers) and four (39).
    "g115": ("w110", 8819, 3),
    "g116": ("w110", 9052, 4),
    # On the rising board (2026-12-03): the shortest complete three-player game of seeds
    # 10000-10400 (34 events).
    "g117": ("w111", 10117, 3),
    # On w112 (2026-12-07): the shortest complete three-player game of seeds
    # 11000-11300 (31 turns and rivers).
    "g118": ("w112", 11106, 3),
    "g901": ("w901", 1082, 3),
    "g902": ("w902", 2274, 3),
    "g903": ("w903", 2247, 3),
    "g904": ("w901", 2922, 3),
    "g905": ("w902", 3087, 3),
    "g906": ("w903", 2869, 4),
    # Four more untuned games (2026-12-07), so that the games quoted are ten, as the
    # issue's "final log equals the truth in at least 9 games of 10" needs, and so that
    # they are played on six untuned tables, not three: one on each of w904-w906 (until
    # then stills only), the shortest complete three-player games of seeds 14000-14400
    # (31 and 35 events), and a four-player one on w904, the shortest of seeds
    # 14400-14800 (39 events).
    "g907": ("w904", 14052, 3),
    "g908": ("w905", 14298, 3),
    "g909": ("w906", 14379, 3),
    "g910": ("w904", 14607, 4),
}

# The calibration layout of the README ("The camera").
CALIBRATION_LAYOUT = {"1": ("brown", "red"), "2": ("yellow", "blue"), "3": ("red", "clear"),
                      "4": ("blue", "yellow"), "5": ("green", "violet")}


def calibration_snapshot() -> dict[str, Any]:
    players = [p for p, _ in CALIBRATION_LAYOUT.values()]
    return {"players": players, "weather": 0, "deposits": {},
            "canoes": {p: [{"at": slot, "gem": gem}]
                       for slot, (p, gem) in CALIBRATION_LAYOUT.items()}}


class WorldRenderer:
    """Renders frames of one world: its print, markers and camera are made once."""

    def __init__(self, world: World, workdir: Path) -> None:
        self.world = world
        self.board: Board = load_board(ROOT / world.board_file)
        self.pose: Pose = fit_pose(self.board, world)
        self.work = workdir
        self.print_png = workdir / f"{world.name}-print.png"
        cv2.imwrite(str(self.print_png), board_print(self.board, world.print_style))
        self.marker_pngs: dict[int, Path] = {}
        for mid in self.board.markers.centres_mm:
            side = 240
            pad = int(side * scene.MARKER_MARGIN)
            img = cv2.copyMakeBorder(marker_image(mid, side), pad, pad, pad, pad,
                                     cv2.BORDER_CONSTANT, value=255)
            path = workdir / f"{world.name}-marker{mid}.png"
            cv2.imwrite(str(path), img)
            self.marker_pngs[mid] = path

    def frame(self, snapshot: dict[str, Any], key: str, hand: scene.HandPose | None = None,
              missing: list[str] | None = None, antialias: float = 0.3) -> np.ndarray:
        rnd = random.Random(f"{self.world.seed}:{key}")
        pieces = place_pieces(self.board, snapshot, rnd, self.world.jitter_mm, missing or [])
        return self.shoot(pieces, key, hand, antialias, rnd)

    def shoot(self, pieces: list[Piece], key: str, hand: scene.HandPose | None = None,
              antialias: float = 0.3, rnd: random.Random | None = None,
              sensor: bool = True) -> np.ndarray:
        """Photograph pieces already placed (a game keeps them where they lie);
        `sensor=False`: the optics' picture, without noise and camera JPEG."""
        rnd = rnd or random.Random(f"{self.world.seed}:{key}")
        scene.set_colours(self.world)
        sdl = scene.scene_sdl(self.world, self.board, self.pose, pieces, self.print_png,
                              self.marker_pngs, hand, rnd)
        raw = scene.render(sdl, self.work, antialias=antialias)
        return photograph(raw, self.world.lens,
                          np.random.default_rng([self.world.seed, _stable_hash(key)]), sensor)

    def hand_towards(self, target: tuple[float, float], rnd: random.Random,
                     holding: str | None = None, gem: str | None = None) -> scene.HandPose:
        """A player's hand reaching from the nearest table edge to `target`."""
        w, h = self.board.size_mm
        x, y = target
        edges = {"left": x, "right": w - x, "top": y, "bottom": h - y}
        edge = min(edges, key=lambda e: edges[e] + rnd.uniform(0, 120))
        along = rnd.uniform(-80, 80)
        start = {"left": (-160, y + along), "right": (w + 160, y + along),
                 "top": (x + along, -160), "bottom": (x + along, h + 160)}[edge]
        reach = (x + rnd.gauss(0, 6), y + rnd.gauss(0, 6))
        return scene.HandPose(start, reach, rnd.uniform(12, 45), holding, gem)

    def markers_visible(self, hand: scene.HandPose) -> int:
        """How many markers the hand and sleeve leave in view (projected, approximate:
        the arm as a chain of 50 mm-wide sections through scene.hand_axis_mm)."""
        axis = np.array(scene.hand_axis_mm(hand))
        pts = np.concatenate([a + (b - a) * t[:, None] for a, b in zip(axis[:-1], axis[1:],
                                                                        strict=True)
                              for t in [np.linspace(0, 1, 12)]])
        arm = self.pose.project(np.array([pov(*q) for q in pts]))
        k = (self.pose.size[0] / 2) / math.tan(math.radians(self.pose.fov_deg) / 2)
        dist = np.linalg.norm(np.array([pov(*q) for q in pts]) - self.pose.location, axis=1)
        radius_px = 50 * k / dist
        seen = 0
        for mid in self.board.markers.centres_mm:
            corners = self.pose.project(np.array([pov(x, y) for x, y in
                                                  self.board.markers.corners_mm(mid)]))
            covered = any((np.linalg.norm(arm - c, axis=1) < radius_px).any() for c in corners)
            seen += not covered
        return seen


def _stable_hash(text: str) -> int:
    """A hash that is the same in every process (str hash is salted)."""
    h = 0
    for ch in text.encode():
        h = (h * 131 + ch) % (2**31)
    return h


def _write_jpeg(path: Path, image: np.ndarray, quality: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(jpeg_bytes(image, quality))


def world_meta(wr: WorldRenderer) -> dict[str, Any]:
    pose = wr.pose
    return {"world": wr.world.to_json(), "board_file": wr.world.board_file,
            "tuning": wr.world.tuning,
            "camera": {"lens": pose.lens, "fov_deg": round(pose.fov_deg, 3),
                       "height_mm": round(pose.height_mm(), 1),
                       "tilt_deg": round(wr.world.camera["tilt_deg"], 2),
                       "homography_board_to_image":
                           np.round(pose.homography(wr.board), 6).tolist()},
            "sensor": {"noise": round(float(wr.world.lens["noise"]), 3),
                       "jpeg": int(wr.world.lens["jpeg"])}}


def _mine(index: int, shard: tuple[int, int]) -> bool:
    """Whether this process renders picture `index` (1-based) of a sequence: shard K/N
    takes the pictures whose index is K modulo N (so 1/2 and 2/2 share the work)."""
    return index % shard[1] == shard[0] % shard[1]


def make_world(name: str, workdir: Path, stills: bool = True,
               shard: tuple[int, int] = (0, 1)) -> WorldRenderer:
    seed, board_file, tuning = WORLDS[name]
    board = load_board(ROOT / board_file)
    world = draw_world(name, seed, board_file, board, tuning)
    wr = WorldRenderer(world, workdir)
    out = FIXTURES / name
    out.mkdir(parents=True, exist_ok=True)
    (out / "world.json").write_text(json.dumps(world_meta(wr), indent=1) + "\n")
    if not stills:
        return wr
    q = int(world.lens["jpeg"])
    calib = calibration_snapshot()
    for k in (1, 2):
        if _mine(k, shard):
            img = wr.frame(calib, f"calibration-{k}", missing=["7R"])
            _write_jpeg(out / "calibration" / f"layout-{k}.jpg", img, q)
    lines = []
    for k in range(1, STILLS_PER_WORLD + 1):
        rnd = random.Random(f"{seed}:still:{k}")
        game = random_position(rnd)
        snap = game.state.snapshot()
        missing = [rnd.choice(SLOTS)] if k in MISSING_DISC_STILLS else []
        hand = None
        if k in HAND_STILLS:
            places = list(board.slots.values()) + [centroid(board.dock), centroid(board.falls)]
            target = places[rnd.randrange(len(places))]
            hand = wr.hand_towards(target, rnd, rnd.choice(list(snap["players"]))
                                   if rnd.random() < 0.6 else None)
        file = f"stills/{k:03d}.jpg"
        if _mine(2 + k, shard):
            img = wr.frame(snap, f"still-{k}", hand, missing)
            _write_jpeg(out / file, img, q)
        truth = observation(snap, missing, stable=hand is None,
                            markers=4 if hand is None else wr.markers_visible(hand))
        lines.append({"file": file, "hand": hand is not None, "missing_discs": missing,
                      "truth": truth, "state": snap})
    (out / "stills.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    return wr


def _target_of(event: dict[str, Any], board: Board, before: dict[str, Any]) -> tuple[float, float]:
    """Where a person's hand goes to make this event."""
    kind = event["event"]
    if kind == "buyback":
        return centroid(board.dock)
    if kind == "river":
        return board.slots["1"]
    if "cloud" in event:
        return board.weather_mm[before["weather"]]
    action = event["canoes"][-1]
    place = action.get("to", action["from"])
    if place == "D":
        return centroid(board.dock)
    if place == "F":
        return centroid(board.falls)
    return board.slots[place]


def make_game(name: str, wr: WorldRenderer, shard: tuple[int, int] = (0, 1)) -> None:
    """Render a whole game. Frames already on disk are kept (they are the same by seed);
    `shard` (k, n) renders only the frames whose number is k modulo n, so that several
    processes can share one game."""
    world_name, game_seed, players = GAMES[name]
    rng = random.Random(game_seed)
    from companion.rules.random_play import random_setup_game

    game: Game = random_setup_game(rng, players, [])
    out = FIXTURES / world_name / "games" / name
    out.mkdir(parents=True, exist_ok=True)
    frames: list[dict[str, Any]] = []
    n = 0

    placed: Placement = {}

    def shoot(kind: str, snap: dict[str, Any], event_index: int,
              hand: scene.HandPose | None, pieces: list[Piece]) -> None:
        nonlocal n
        n += 1
        file = f"frames/{n:04d}.jpg"
        if _mine(n, shard) and not (out / file).exists():
            # Not antialiased: a third less time, and the lens blur hides it. Stored as
            # the optics deliver it; sensor.deliver adds noise and JPEG per delivered frame.
            img = wr.shoot(pieces, f"{name}-{n}", hand, antialias=0.0, sensor=False)
            _write_jpeg(out / file, img, OPTICS_JPEG)
        markers = 4 if hand is None else wr.markers_visible(hand)
        frames.append({"file": file, "kind": kind, "events": event_index,
                       "truth": observation(snap, stable=hand is None, markers=markers)})

    def place(snap: dict[str, Any], key: str) -> list[Piece]:
        nonlocal placed
        rnd = random.Random(f"{wr.world.seed}:{name}:{key}")
        placed = place_groups(wr.board, snap, rnd, wr.world.jitter_mm, previous=placed)
        return [p for _, group in placed.values() for p in group]

    shoot("stable", game.state.snapshot(), 0, None, place(game.state.snapshot(), "setup"))
    while not game.is_over:
        count = len(game.events)
        random_phase_events(game, rng, seen_only=True)
        # Replay the phase event by event to photograph each change of the board.
        replay = Game.from_setup(game.setup.to_json())
        for ev in game.events[:count]:
            replay.apply(ev)
        for ev in game.events[count:]:
            snap_before = replay.state.snapshot()
            replay.apply(ev)
            data = ev.to_json()
            if data["event"] == "cards":
                continue
            after = replay.state.snapshot()
            erng = random.Random(f"{name}:{len(replay.events)}")
            held = None
            if data["event"] == "turn" and "canoes" in data:
                held = data["player"] if erng.random() < 0.5 else None
            hand = wr.hand_towards(_target_of(data, wr.board, snap_before), erng, held)
            # Pieces that did not move stay where they lay; the hand frame shows the
            # board as it is left, the canoe in the hand not yet put down.
            pieces = place(after, str(len(replay.events)))
            under_hand = list(pieces)
            if held:
                action = data["canoes"][-1]
                dest = action.get("to", action["from"])
                group = placed.get(f"at:{dest}", (None, []))[1]
                mine = [p for p in group if p.colour == held]
                if mine:
                    under_hand.remove(mine[0])
                    hand = scene.HandPose(hand.from_mm, hand.reach_mm, hand.lift_mm, held,
                                          mine[0].gem)
                else:
                    hand = scene.HandPose(hand.from_mm, hand.reach_mm, hand.lift_mm)
            shoot("hand", after, len(replay.events), hand, under_hand)
            shoot("stable", after, len(replay.events), None, pieces)
    log = [json.dumps(game.setup.to_json())] + [json.dumps(e.to_json()) for e in game.events]
    (out / "log.jsonl").write_text("\n".join(log) + "\n")
    (out / "game.json").write_text(json.dumps({"world": world_name, "seed": game_seed,
                                               "events": len(game.events), "frames": frames},
                                              indent=0) + "\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--worlds", nargs="*", default=list(WORLDS))
    ap.add_argument("--games", nargs="*", default=None,
                    help="game names (default: all of the worlds')")
    ap.add_argument("--no-games", action="store_true")
    ap.add_argument("--games-only", action="store_true")
    ap.add_argument("--shard", default="1/1",
                    help="K/N: render only the pictures whose number is K modulo N")
    args = ap.parse_args()
    k, n = (int(v) for v in args.shard.split("/"))
    with tempfile.TemporaryDirectory(prefix="worlds-") as tmp:
        for name in args.worlds:
            t = time.time()
            wr = make_world(name, Path(tmp), stills=not args.games_only, shard=(k, n))
            print(f"{name}: stills in {time.time() - t:.0f} s", flush=True)
            if args.no_games:
                continue
            for game in (args.games or list(GAMES)):
                if GAMES[game][0] == name:
                    t = time.time()
                    make_game(game, wr, (k, n))
                    print(f"{game}: game in {time.time() - t:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
