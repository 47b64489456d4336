"""The vision's commands: `companion vision detect|watch|render|markers` and
`companion calibrate board|profile`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion import paths

from .board import Board, BoardError, load_board
from .infer_cli import cmd_infer
from .profile import ProfileError
from .profile_file import load_profile
from .sources import SourceError


def _board(args: argparse.Namespace) -> Board:
    """The board file the command was given (default: the table's own, else the
    packaged one; see companion.paths); BoardError if unusable."""
    return load_board(args.board)


def _fail(command: str, message: str, code: int) -> int:
    print(f"companion {command}: {message}", file=sys.stderr)
    return code


def _load(args: argparse.Namespace, command: str) -> tuple[Any, Any] | int:
    try:
        board = _board(args)
        profile = load_profile(args.profile)
    except (BoardError, ProfileError) as exc:
        return _fail(command, str(exc), 2)
    return board, profile


def cmd_detect(args: argparse.Namespace) -> int:
    from .observer import Vision
    from .sources import read_image

    loaded = _load(args, "vision detect")
    if isinstance(loaded, int):
        return loaded
    try:
        image = read_image(args.image)
    except SourceError as exc:
        return _fail("vision detect", str(exc), 2)
    vision = Vision(*loaded, settle=1)
    obs = vision.observe(image)
    if obs is None:
        seen = len(vision.locator.finder.find(image))
        return _fail("vision detect", f"{args.image}: board not found ({seen} of 4 markers "
                     "visible, no earlier homography)", 3)
    if args.timings:
        obs["timings_ms"] = {k: round(v, 2) for k, v in vision.timings.items()}
    print(json.dumps(obs))
    return 0


def cmd_watch(args: argparse.Namespace) -> int:
    from .observer import Vision
    from .sources import open_source

    loaded = _load(args, "vision watch")
    if isinstance(loaded, int):
        return loaded
    vision = Vision(*loaded, settle=args.settle)
    try:
        with open_source(args.source) as frames:
            for obs in vision.watch(frames, every=args.every):
                print(json.dumps(obs), flush=True)
    except SourceError as exc:
        return _fail("vision watch", str(exc), 2)
    return 0


class StateError(ValueError):
    """A --state file that cannot be read; one line naming the file."""


def read_state(path: str) -> dict[str, Any]:
    """The snapshot a --state names: a snapshot JSON file (game-log.md, or an object
    with it under "state"), or a game log, taken at its end."""
    from companion.cli import game_at_end
    from companion.rules.referee import NoSetup

    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        snap = data.get("state", data) if isinstance(data, dict) else None
        if isinstance(snap, dict) and "canoes" in snap:
            return snap
    except OSError as exc:
        raise StateError(f"cannot read {path}: {exc.strerror}") from None
    except ValueError:
        pass  # not one JSON object: a log of JSON lines
    try:
        return game_at_end(path).state.snapshot()
    except (OSError, NoSetup) as exc:
        raise StateError(f"cannot read {path}: {exc}") from None


def cmd_render(args: argparse.Namespace) -> int:
    import cv2

    from .render import Nuisance, Renderer

    try:
        board = _board(args)
    except BoardError as exc:
        return _fail("vision render", str(exc), 2)
    try:
        source = read_state(args.state)
    except StateError as exc:
        return _fail("vision render", str(exc), 2)
    nuisance = getattr(Nuisance, args.nuisance)()
    try:
        shot = Renderer(board).render(source, seed=args.seed, nuisance=nuisance,
                                      hand=args.hand, missing_discs=args.missing_disc or ())
    except ValueError as exc:
        return _fail("vision render", str(exc), 2)
    if not cv2.imwrite(args.out, shot.image):
        return _fail("vision render", f"cannot write {args.out}", 2)
    print(json.dumps(shot.truth))
    return 0


def cmd_markers(args: argparse.Namespace) -> int:
    from .markers import marker_sheet_svg

    try:
        board = _board(args)
        svg = marker_sheet_svg(board)
    except (BoardError, ValueError) as exc:
        return _fail("vision markers", str(exc), 2)
    if args.out == "-":
        sys.stdout.write(svg)
    else:
        Path(args.out).write_text(svg, encoding="utf-8")
        print(f"wrote {args.out}: print it at 100% scale on A4", file=sys.stderr)
    return 0


def cmd_calibrate_profile(args: argparse.Namespace) -> int:
    from .known import BoardUnseen, KnownBoard, PlaceError
    from .learn import learn_profile, not_shown, synthetic_profile
    from .sources import read_image

    try:
        board = _board(args)
    except BoardError as exc:
        return _fail("calibrate profile", str(exc), 2)
    known, base = None, None
    if args.state is not None:
        try:
            known = KnownBoard.of_snapshot(read_state(args.state))
            base = load_profile()
        except (StateError, ProfileError) as exc:
            return _fail("calibrate profile", str(exc), 2)
    try:
        if args.synthetic:
            profile = synthetic_profile(board)
        else:
            if not args.photos:
                return _fail("calibrate profile", "give photos of the calibration layout, "
                             "or of a known state with --state (or --synthetic)", 2)
            images = [read_image(p) for p in args.photos]
            source = ", ".join(args.photos) + (f" (state: {args.state})" if known else "")
            profile = learn_profile(board, images, source=source, known=known, base=base)
    except SourceError as exc:
        return _fail("calibrate profile", str(exc), 2)
    except BoardUnseen as exc:
        return _fail("calibrate profile", str(exc), 3)
    except PlaceError as exc:
        return _fail("calibrate profile", str(exc), 4)
    except ProfileError as exc:
        return _fail("calibrate profile", str(exc), 1)
    out = Path(args.out) if args.out else paths.config_dir() / paths.PROFILE
    out.parent.mkdir(parents=True, exist_ok=True)
    profile.save(out)
    print(f"wrote {out}: {len(profile.classes)} colour classes", file=sys.stderr)
    for note in profile.notes:
        print(f"note: {note}", file=sys.stderr)
    if known is not None:
        kept = not_shown(known)
        if kept:
            print(f"not in the photos, kept from {base.source or 'the previous profile'}: "  # type: ignore[union-attr]
                  + ", ".join(k.replace(":", " ") for k in kept), file=sys.stderr)
    return 0


def cmd_calibrate_board(args: argparse.Namespace) -> int:
    from .calibrate_web import make_server
    from .sources import read_image

    try:
        board = _board(args)
        image = read_image(args.photo)
        out = Path(args.out) if args.out else paths.config_dir() / paths.BOARD
        out.parent.mkdir(parents=True, exist_ok=True)
        server = make_server(board, image, out, args.port)
    except (BoardError, SourceError) as exc:
        return _fail("calibrate board", str(exc), 2)
    except OSError as exc:
        return _fail("calibrate board", f"cannot listen on port {args.port}: {exc}", 2)
    host, port = server.server_address[:2]
    assert isinstance(host, str)  # (an AF_INET server's host)
    print(f"open http://{host}:{port}/ , drag the handles, press Save; Ctrl-C to stop",
          file=sys.stderr)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `vision` and `calibrate` to the companion command."""
    def files(p: argparse.ArgumentParser, profile: bool = True) -> None:
        p.add_argument("--board", help="board file (JSON; default: the table's own in "
                       "~/.config/niagara-companion/, else the packaged one)")
        if profile:
            p.add_argument("--profile", help="colour profile (JSON; default: the table's own, "
                           "else the packaged one)")

    vision = subparsers.add_parser("vision", help="see the board: detect, watch, render")
    sub = vision.add_subparsers(dest="vision_command", metavar="COMMAND")
    vision.set_defaults(func=lambda a: (vision.print_help(), 0)[1])
    p = sub.add_parser("detect", help="print the observation of one image (JSON)")
    p.add_argument("image", metavar="IMAGE")
    files(p)
    p.add_argument("--timings", action="store_true", help="add the time of each step")
    p.set_defaults(func=cmd_detect)
    p = sub.add_parser("watch", help="print each new stable observation of a camera, "
                       "video or folder (JSON lines)")
    p.add_argument("source", metavar="SOURCE", help='"pi", a camera number, a video, a folder')
    files(p)
    p.add_argument("--settle", type=int, default=5, help="frames a view must stay the same")
    p.add_argument("--every", action="store_true", help="print every frame's observation")
    p.set_defaults(func=cmd_watch)
    p = sub.add_parser("render", help="paint a game state as the camera would see it")
    p.add_argument("state", metavar="STATE", help="a game log (JSONL) or a snapshot (JSON)")
    p.add_argument("--out", required=True, help="image file to write (.jpg or .png)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--nuisance", choices=("clean", "mild", "issue"), default="mild")
    p.add_argument("--hand", action="store_true", help="a hand reaching over the board")
    p.add_argument("--missing-disc", action="append", metavar="SLOT")
    files(p, profile=False)
    p.set_defaults(func=cmd_render)
    p = sub.add_parser("infer", help="which legal event explains a picture (buybacks, "
                       "the turn to move, or the river), in the state at the end of LOG")
    p.add_argument("log", metavar="LOG")
    p.add_argument("observation", metavar="AFTER",
                   help="image (PNG/JPEG) or observation JSON (vision.md), or - for stdin")
    p.add_argument("--before", metavar="BEFORE",
                   help="the last stable picture before the move, from the same camera "
                   "(image or observation JSON)")
    files(p)
    p.set_defaults(func=cmd_infer)
    p = sub.add_parser("markers", help="write the printable marker sheet (SVG, A4)")
    p.add_argument("--out", default="markers.svg", help="file, or - for stdout")
    files(p, profile=False)
    p.set_defaults(func=cmd_markers)

    cal = subparsers.add_parser("calibrate", help="fit the board file and learn the colours")
    csub = cal.add_subparsers(dest="calibrate_command", metavar="COMMAND")
    cal.set_defaults(func=lambda a: (cal.print_help(), 0)[1])
    p = csub.add_parser("board", help="adjust the board file on a photo (local web page)")
    p.add_argument("photo", metavar="PHOTO")
    p.add_argument("--out", help="where to write the board file (default: "
                   "~/.config/niagara-companion/board.json)")
    p.add_argument("--port", type=int, default=8765)
    files(p, profile=False)
    p.set_defaults(func=cmd_calibrate_board)
    p = csub.add_parser("profile", help="learn the colour profile from photos of the "
                        "calibration layout or of a known state (see "
                        "companion/vision/learn.py)")
    p.add_argument("photos", nargs="*", metavar="PHOTO")
    p.add_argument("--state", metavar="LOG_OR_SNAPSHOT",
                   help="the photos show this state (a game log, at its end, or a snapshot), "
                        "e.g. a freshly set-up game, instead of the calibration layout")
    p.add_argument("--synthetic", action="store_true",
                   help="learn from rendered photos in the nominal colours instead")
    p.add_argument("--out", help="where to write the profile (default: "
                   "~/.config/niagara-companion/profile.json)")
    files(p, profile=False)
    p.set_defaults(func=cmd_calibrate_profile)


__all__ = ["register"]
