"""What the worlds benchmarks share: finding the committed worlds, calibrating a colour
profile exactly as the README tells a user to (per world from the layout photos, or per
game from a photo of its own setup), and reading their frames."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "worlds"


@dataclass
class WorldFixture:
    name: str
    path: Path
    meta: dict[str, Any]

    @property
    def tuning(self) -> bool:
        return bool(self.meta["tuning"])

    @property
    def board_file(self) -> Path:
        return ROOT / self.meta["board_file"]

    def stills(self) -> list[dict[str, Any]]:
        path = self.path / "stills.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]

    def games(self) -> list[Path]:
        return sorted(p for p in (self.path / "games").glob("*") if (p / "game.json").exists())


def withheld(where: str, failures: int) -> str:
    """The line that stands for the failure lines of a world not for tuning: which
    canoe or gem it misread where is exactly what must not be looked at while the
    recognition is adjusted, so the benchmarks print how many there are, not what."""
    return f"  {where}: {failures} failure line(s) withheld (not for tuning)"


def worlds(root: Path = FIXTURES, only: list[str] | None = None) -> list[WorldFixture]:
    found = []
    for meta_file in sorted(root.glob("*/world.json")):
        name = meta_file.parent.name
        if only and name not in only:
            continue
        found.append(WorldFixture(name, meta_file.parent, json.loads(meta_file.read_text())))
    return found


def calibrate(world: WorldFixture, out: Path) -> tuple[Path | None, str]:
    """`companion calibrate profile` on the world's two layout photos, as a user would.
    Returns the profile (None when calibration failed) and what the command said."""
    photos = sorted((world.path / "calibration").glob("layout-*.jpg"))
    return _calibrate_profile([*map(str, photos)], world, out)


def _calibrate_profile(args: list[str], world: WorldFixture, out: Path
                       ) -> tuple[Path | None, str]:
    """Run `companion calibrate profile ARGS` for the world's board, writing `out`: the
    profile (None when it failed) and its error or the line saying what it wrote."""
    run = subprocess.run([sys.executable, "-m", "companion", "calibrate", "profile", *args,
                          "--board", str(world.board_file), "--out", str(out)],
                         capture_output=True, text=True, cwd=ROOT)
    # (The read-back's count, not its lines: those name what a world's calibration
    # misread, which of a world not for tuning is not to be looked at.)
    said = [x for x in run.stderr.strip().splitlines()
            if x.startswith(("companion", "wrote")) or " canoes (and their gems) read" in x]
    if run.returncode != 0 and not world.tuning:
        # (A failed calibration's reason names the canoe it did not find, and where.)
        said = ["its reason withheld (not for tuning)"]
    return (out if run.returncode == 0 else None), f"exit {run.returncode}: {' '.join(said)}"


def calibrate_from_setup(world: WorldFixture, game_dir: Path, out: Path) -> tuple[Path | None, str]:
    """`companion calibrate profile PHOTO --state LOG` on a photo of the game's own setup
    (its first frame, delivered as the camera delivers it: the world's sensor noise and
    JPEG) and the log's setup line, as a table that photographs its setup would."""
    import cv2

    from tools.worlds.sensor import deliver, sensor_of

    meta = json.loads((game_dir / "game.json").read_text())
    first = meta["frames"][0]
    assert first["events"] == 0 and first["kind"] == "stable", "frame 1 is the set-up board"
    photo = out.with_suffix(".setup.jpg")
    image = deliver(cv2.imread(str(game_dir / first["file"])), sensor_of(world.meta),
                    meta["seed"] * 7919 + 1)
    cv2.imwrite(str(photo), image)
    log = out.with_suffix(".setup.jsonl")
    log.write_text((game_dir / "log.jsonl").read_text().splitlines()[0] + "\n")
    return _calibrate_profile([str(photo), "--state", str(log)], world, out)


Tally = Counter[tuple[str, str]]


def tally_games(found: list[WorldFixture], read: Callable[[WorldFixture, Path, Path | None], Tally],
                show: Callable[[str, Tally], None], setup: bool = False) -> None:
    """Each game of the `found` worlds `read` (world, its directory, the colour profile)
    into a tally, calibrated as the README says (the world's layout photos, or with
    `setup` each game from a photo of its own setup); a tuned game's tally is `show`n,
    then the tuned and the NOT-FOR-TUNING totals. (Of a game not for tuning only the
    total: which piece it misread where is not to be looked at.)"""
    tuned: Tally = Counter()
    untuned: Tally = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for world in found:
            layout = None
            if not setup:
                layout, said = calibrate(world, Path(tmp) / f"{world.name}.json")
                print(f"{world.name}: calibrate profile {said}")
            for game_dir in world.games():
                profile = layout
                if setup:
                    profile, said = calibrate_from_setup(
                        world, game_dir, Path(tmp) / f"{game_dir.name}.json")
                    print(f"{game_dir.name}: calibrate profile {said}")
                tally = read(world, game_dir, profile)
                if world.tuning:
                    tuned.update(tally)
                    show(f"{game_dir.name} ({world.name}):", tally)
                else:
                    untuned.update(tally)
    show("tuned:", tuned)
    show("NOT-FOR-TUNING (quote these):", untuned)
