"""Where the camera left off, kept on disk: the last picture of the game as it stood and
everything the camera learned of this table's pieces, so that a restarted companion (a
power cut, the watchdog restarting a hung service) goes on where it was.

>>> from tempfile import mkdtemp
>>> folder = Path(mkdtemp())
>>> point = ResumePoint("game 3, board 9f2c", np.zeros((4, 6, 3), np.uint8),
...                     np.eye(3), [SeenCanoe("red", "4", 5.0)], {}, None, "a profile")
>>> point.save(folder)
>>> ResumePoint.load(folder).canoes
[SeenCanoe(player='red', place='4', texture=5.0, core=None, gem=None, look=None)]

Without it, the first still view after a restart is judged from one picture alone (no
picture before to compare it with). Restarted before every fifth move
(``benchmarks/worlds_games.py --restart-every 5``, ``--cold`` for a camera that kept
nothing), with nobody moving, that view was flagged as an illegal move or played a move
nobody made after 23 of 32 restarts in four tuned games, 14 of 41 in the six games not
for tuning; resuming, it is compared with the picture of the game as it stood, like any
other: 0 of 32, 1 of 41. The picture is taken up only for the game and state it shows (``key``); the
looks only in that game (a new one starts afresh: another day's light is not this
one's), and both only when seen through the same board file and colour profile
(``profile``). The empty slots' and the board's learned looks (``memory.BoardMemory``)
are not kept: the next confirmed picture teaches them again.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import os
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from companion.rules import State

from .disc_looks import DiscLooks
from .locate import Location
from .looks import PieceLooks
from .seen_canoes import SeenCanoe

if TYPE_CHECKING:
    from .memory import BoardMemory
    from .observer import Vision

log = logging.getLogger(__name__)

PICTURE = "picture.png"
SLOTS = "slots.npz"
POINT = "resume.json"
VERSION = 1


@dataclass
class ResumePoint:
    """The camera's state worth keeping across a restart."""

    key: str                  # the game and the state the picture shows
    picture: np.ndarray       # that picture: the light-corrected board image
    homography: np.ndarray    # where the board was in it (image px -> board mm)
    canoes: list[SeenCanoe]   # the canoes read in it (``cargo_looks`` compares the next)
    looks: dict[str, Any]     # ``PieceLooks.to_json``
    discs: dict[str, Any] | None  # ``DiscLooks.to_json``, None when the profile has none
    profile: str              # the fingerprint of the board file and profile seen with
    # Each slot's look with nothing on it (``transport.EmptySlots``: the river's pushes
    # are read against them), by slot.
    slots: dict[str, np.ndarray] = field(default_factory=dict)

    def save(self, folder: Path) -> None:
        """Write it to `folder`, each file whole (a power cut leaves the old point or
        the new): the picture first, then the point that names it by its size and sum."""
        folder.mkdir(parents=True, exist_ok=True)
        ok, png = cv2.imencode(".png", self.picture)
        if not ok:
            raise ValueError("the picture cannot be written as PNG")
        _write(folder / PICTURE, png.tobytes())
        if self.slots:
            kept = io.BytesIO()
            np.savez_compressed(kept, **self.slots)  # type: ignore[arg-type]  # (stubs: allow_pickle)
            _write(folder / SLOTS, kept.getvalue())
        data = {"version": VERSION, "key": self.key, "profile": self.profile,
                "picture": {"shape": list(self.picture.shape), "sum": _sum(self.picture)},
                "homography": self.homography.tolist(),
                "canoes": [_canoe_json(c) for c in self.canoes],
                "looks": self.looks, "discs": self.discs,
                "slots": {"names": sorted(self.slots),
                          "sum": sum(_sum(look) for look in self.slots.values())}}
        _write(folder / POINT, json.dumps(data).encode())

    @classmethod
    def load(cls, folder: Path) -> ResumePoint | None:
        """The point saved in `folder`; None when there is none, or it is damaged or
        half written (said in the log: the camera then starts afresh)."""
        try:
            data = json.loads((folder / POINT).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            log.warning("camera resume point %s unreadable (%s): starting afresh",
                        folder / POINT, exc)
            return None
        try:
            if data["version"] != VERSION:
                raise ValueError(f"version {data['version']}")
            picture = cv2.imread(str(folder / PICTURE), cv2.IMREAD_UNCHANGED)
            if picture is None or list(picture.shape) != data["picture"]["shape"] \
                    or _sum(picture) != data["picture"]["sum"]:
                raise ValueError("its picture is missing or not the one it names")
            slots = _slots(folder, data["slots"])
            homography = np.array(data["homography"], np.float64)
            if homography.shape != (3, 3) or not np.isfinite(homography).all() \
                    or abs(float(np.linalg.det(homography))) < 1e-12:
                raise ValueError("the board's place is not an invertible 3x3 homography")
            return cls(str(data["key"]), picture, homography,
                       [_canoe(c) for c in data["canoes"]], dict(data["looks"]),
                       None if data["discs"] is None else dict(data["discs"]),
                       str(data["profile"]), slots)
        except (KeyError, TypeError, ValueError, AttributeError, OSError, EOFError,
                zipfile.BadZipFile) as exc:
            log.warning("camera resume point %s damaged (%s): starting afresh",
                        folder / POINT, exc)
            return None


def keep(folder: Path, key: str, vision: Vision, memory: BoardMemory, picture: np.ndarray,
         location: Location, canoes: Sequence[SeenCanoe]) -> None:
    """Save where the camera is: `picture` shows the game in the state `key` names
    (``state_key``), and `vision` has learned what it has. A folder that cannot be
    written is said in the log; the game goes on."""
    det = vision.detector
    point = ResumePoint(key, picture, location.homography, list(canoes), det.looks.to_json(),
                        None if det.disc_looks is None else det.disc_looks.to_json(),
                        vision.profile_print, dict(memory.slots.looks))
    try:
        point.save(folder)
    except (OSError, ValueError) as exc:
        log.warning("camera resume point not saved in %s: %s", folder, exc)


def resume(folder: Path, key: str, vision: Vision, memory: BoardMemory, state: State) -> bool:
    """Go on where the camera left off: the looks learned, if in the game `key` names
    and seen through `vision`'s board file and profile; and the picture of the game as
    it stands, if saved for the state `key` names (then True: the next view is compared
    with it)."""
    point = ResumePoint.load(folder)
    if point is None or point.profile != vision.profile_print \
            or _game(point.key) != _game(key):
        return False
    det = vision.detector
    try:
        looks = PieceLooks.from_json(point.looks)
        discs = None if point.discs is None else DiscLooks.from_json(point.discs)
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        log.warning("camera resume point %s: looks damaged (%s): learning afresh",
                    folder / POINT, exc)
        return False
    det.looks = looks
    if discs is not None and det.disc_looks is not None:
        det.disc_looks = discs
    if point.key != key or point.picture.shape[:2] != det.shape:
        return False
    where = Location(point.homography, 0, True, {})
    memory.confirm(point.picture, where, state, point.canoes, learn=False)
    memory.slots.take_up(point.slots)
    vision.reference = (point.picture, where)
    # A still camera keeps the board where it was (``BoardLocator.locate``: markers
    # found where they were keep the last homography), so the next view is straightened
    # as the picture was, not by a fresh fit a pixel off.
    vision.locator.last = where
    return True


def state_key(game_id: int | None, state: State) -> str:
    """What a resume point's picture shows: a game's board in a state (its canoes, the
    cloud and the deposits' gems; cards played change nothing a camera sees)."""
    shown = [sorted(state.canoes.items()), state.weather,
             sorted((name, sorted(gems.items())) for name, gems in state.deposits.items())]
    return f"game {game_id}, board {_digest(json.dumps(shown))}"


def _game(key: str) -> str:
    """The game a ``state_key`` names."""
    return key.split(", board ")[0]


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _slots(folder: Path, named: Any) -> dict[str, np.ndarray]:
    """The slots' looks a point names (by their names and sum); {} when it names none."""
    if not named["names"]:
        return {}
    with np.load(folder / SLOTS, allow_pickle=False) as kept:
        slots = {str(name): kept[name] for name in kept.files}
    if sorted(slots) != named["names"] or \
            sum(_sum(look) for look in slots.values()) != named["sum"]:
        raise ValueError("its slots' looks are missing or not the ones it names")
    return slots


def _write(path: Path, payload: bytes) -> None:
    part = path.with_name(path.name + ".part")
    with open(part, "wb") as f:
        f.write(payload)
        f.flush()
        os.fsync(f.fileno())
    os.replace(part, path)


def _sum(picture: np.ndarray) -> int:
    return int(picture.sum(dtype=np.int64))


def _canoe_json(canoe: SeenCanoe) -> dict[str, Any]:
    return {"player": canoe.player, "place": canoe.place, "texture": canoe.texture,
            "core": canoe.core, "gem": canoe.gem, "look": canoe.look}


def _canoe(data: dict[str, Any]) -> SeenCanoe:
    def floats(values: Any, size: int) -> Any:
        if values is None:
            return None
        if len(values) != size:
            raise ValueError(f"{len(values)} values where a canoe's look has {size}")
        return tuple(float(v) for v in values)

    texture = data["texture"]
    return SeenCanoe(str(data["player"]), str(data["place"]),
                     None if texture is None else float(texture), floats(data["core"], 3),
                     None if data["gem"] is None else str(data["gem"]),
                     floats(data["look"], 4))


__all__ = ["PICTURE", "POINT", "SLOTS", "ResumePoint", "keep", "resume", "state_key"]
