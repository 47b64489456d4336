"""`companion vision infer LOG AFTER [--before BEFORE]`: which legal event explains the
picture AFTER in the state at the end of LOG (vision.md).

AFTER and BEFORE are each an image (PNG or JPEG) or an observation (JSON file, or "-"
for stdin). With BEFORE, the places that did not change between the two keep what the
state says (``vision.conditioned``): compared pixel by pixel when both are images of
the same camera position, else reading against reading.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from .conditioned import Changes
    from .locate import Location
    from .observer import Vision
    from .seen_canoes import SeenCanoe

COMMAND = "companion vision infer"
IMAGE_MAGIC = (b"\x89PNG", b"\xff\xd8")


class ViewError(ValueError):
    """A picture or observation that cannot be used; ``code`` is the exit status."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class View:
    """One side of a move: what was read, and for a picture, its light-corrected board
    image and where the board was in it."""

    observation: dict[str, Any]
    corrected: np.ndarray | None = None
    location: Location | None = None
    canoes: tuple[SeenCanoe, ...] = ()


def is_image(path: str) -> bool:
    if path == "-":
        return False
    try:
        with open(path, "rb") as fh:
            return fh.read(4).startswith(IMAGE_MAGIC)
    except OSError:
        return False


def read_view(path: str, vision: Vision | None) -> View:
    """The view in a file: an image read by the vision, or an observation as it is."""
    from companion.cli import _reason

    from .sources import SourceError, read_image

    if is_image(path):
        assert vision is not None
        try:
            image = read_image(path)
        except SourceError as exc:
            raise ViewError(str(exc)) from None
        vision.reset()
        obs = vision.observe(image)
        if obs is None:
            raise ViewError(f"{path}: board not found (fewer than 3 markers visible)", 3)
        assert vision.last_reading is not None
        return View(obs, vision.last_reading.corrected, vision.last_location,
                    tuple(vision.last_reading.canoes))
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ViewError(f"cannot read {path}: {_reason(exc)}") from None
    except UnicodeDecodeError:
        raise ViewError(f"{path} is neither a PNG or JPEG image nor JSON") from None
    try:
        return View(json.loads(text))
    except ValueError as exc:
        raise ViewError(f"{path} is not JSON: {exc}") from None


def _one_camera(before: View, after: View) -> None:
    """Two pictures must come from one camera position; else one clear line."""
    from .views import same_view

    assert before.location and after.location
    if not same_view(before.location, after.location):
        raise ViewError("BEFORE was taken from another camera position than AFTER "
                        "(the markers moved): take both from where the camera stands")


def changed_between(before: View, after: View, vision: Vision | None
                    ) -> Changes | set[str]:
    """The places that changed between two views (``Changes`` when pixels were
    compared)."""
    from .conditioned import changed_places, changed_readings

    if before.corrected is not None and after.corrected is not None:
        assert vision is not None
        _one_camera(before, after)
        return changed_places(vision.detector, before.corrected, after.corrected)
    return changed_readings(before.observation, after.observation)


def _judged(before: View, after: View, game: Any, vision: Vision | None
            ) -> dict[str, Any] | None:
    """Two pictures: the one after judged against the one before as the table's camera
    judges it (``vision.memory``); None for observations."""
    from .memory import BoardMemory
    from .seen_canoes import agreeing

    if before.corrected is None or after.corrected is None:
        return None
    assert vision is not None and before.location and after.location
    _one_camera(before, after)
    memory = BoardMemory(vision.detector)
    # The picture before shows the state at the end of the log: where it read the same
    # players' canoes as the state has, they teach as the table's first view does.
    memory.confirm(before.corrected, before.location, game.state,
                   agreeing(before.canoes, game.state.canoes))
    return memory.judge(after.observation, after.corrected, after.location, game,
                        after.canoes)


def cmd_infer(args: argparse.Namespace) -> int:
    """Which legal event explains a picture or an observation, in the state at the end
    of a log."""
    from companion.cli import _reason, game_at_end
    from companion.rules.referee import NoSetup

    from .conditioned import condition
    from .inference import InferenceError, ObservationError, infer, read_observation

    try:
        game = game_at_end(args.log)
    except (OSError, NoSetup) as exc:
        print(f"{COMMAND}: cannot read {args.log}: {_reason(exc)}", file=sys.stderr)
        return 2
    vision = None
    if any(is_image(p) for p in (args.observation, args.before) if p):
        from .cli import _load
        from .observer import Vision

        loaded = _load(args, "vision infer")
        if isinstance(loaded, int):
            return loaded
        vision = Vision(*loaded, settle=1)
    try:
        after = read_view(args.observation, vision)
        seen = after.observation
        read_observation(seen)  # malformed: one line saying what, before anything else
        if args.before:
            before = read_view(args.before, vision)
            read_observation(before.observation)
            seen = _judged(before, after, game, vision) or \
                condition(seen, game, changed_between(before, after, vision))
        result = infer(game, seen)
    except ViewError as exc:
        print(f"{COMMAND}: {exc}", file=sys.stderr)
        return exc.code
    except (ObservationError, InferenceError) as exc:
        print(f"{COMMAND}: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result.to_json(), ensure_ascii=False))
    return 0 if result.status == "exact" else 1


__all__ = ["View", "ViewError", "changed_between", "cmd_infer", "read_view"]
