"""The `companion` command. Each area adds its own subcommands through a
`register(subparsers)` function in its `cli` module (rules' live here)."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from companion.rules import Game, LogError, Verdict, format_turn
from companion.rules.events import parse_card
from companion.rules.referee import NoSetup, referee_lines, replay

# Which area's CLI module adds which subcommands. Only the module of the command being
# run is imported (OpenCV, Flask and numpy take a while to load); help loads them all.
AREAS = {
    "companion.vision.cli": ("vision", "calibrate"),
    "companion.hardware.cli": ("leds", "buttons"),
    "companion.web.cli": ("serve",),
    "companion.doctor": ("doctor",),
    "companion.demo": ("demo",),
}


def _dump(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False)


def read_log(path: str) -> list[str]:
    """The lines of a log file; OSError/ValueError with a one-line reason if unreadable."""
    data = Path(path).read_bytes()
    return data.decode("utf-8", errors="replace").splitlines()


def cmd_referee(args: argparse.Namespace) -> int:
    try:
        lines = read_log(args.log)
        verdicts = referee_lines(lines, _in_language(args.lang))
        first = next(verdicts)
    except (OSError, NoSetup) as exc:
        print(f"companion referee: cannot read {args.log}: {_reason(exc)}", file=sys.stderr)
        return 2
    ok = True
    out = sys.stdout
    for verdict in [first, *verdicts]:
        ok = ok and verdict.get("ok", True)
        out.write(_dump(verdict) + "\n")
    return 0 if ok else 1


def _in_language(lang: str) -> Callable[[Verdict], str] | None:
    """A verdict's message in `lang` (None for English, the referee's own)."""
    if lang == "en":
        return None
    from companion.i18n import describe_verdict
    return lambda verdict: describe_verdict(verdict, lang)["message"]


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return str(exc)


def game_at_end(path: str, last_line: int | None = None) -> Game:
    """The game in the state at the end of a log (or after line `last_line`); illegal
    lines are skipped as the referee skips them. Raises NoSetup/OSError when the log
    cannot be read."""
    return replay(read_log(path), last_line)


def cmd_moves(args: argparse.Namespace) -> int:
    try:
        game = game_at_end(args.log)
    except (OSError, NoSetup) as exc:
        print(f"companion moves: cannot read {args.log}: {_reason(exc)}", file=sys.stderr)
        return 2
    try:
        card = parse_card(int(args.card) if args.card.isdigit() else args.card)
    except LogError as exc:
        print(f"companion moves: {exc.message}", file=sys.stderr)
        return 2
    if args.player not in game.players:
        print(f"companion moves: {args.player} is not playing in this game "
              f"(players: {', '.join(game.players)})", file=sys.stderr)
        return 2
    turns = game.legal_turns(args.player, card)
    for turn in turns:
        print(format_turn(turn) if args.text else _dump(turn.to_json()))
    print(_dump({"count": len(turns)}))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    try:
        game = game_at_end(args.log)
    except (OSError, NoSetup) as exc:
        print(f"companion show: cannot read {args.log}: {_reason(exc)}", file=sys.stderr)
        return 2
    print(game)
    return 0


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The whole parser; with `argv`, only the area module its command needs."""
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Niagara Companion: the referee, the camera, the LEDs and the table app.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = sub.add_parser("referee", help="judge every event of a game log (JSON Lines)")
    p.add_argument("log", metavar="LOG")
    p.add_argument("--lang", default="en", choices=["en", "ru", "zh", "pl", "it"],
                   help="also give each illegal verdict's message in this language "
                        "(as \"message_local\")")
    p.set_defaults(func=cmd_referee)
    p = sub.add_parser("moves", help="list every legal turn of a player with a card")
    p.add_argument("log", metavar="LOG")
    p.add_argument("--player", required=True)
    p.add_argument("--card", required=True, help="1-6 or cloud")
    p.add_argument("--text", action="store_true", help="print the text notation, not JSON")
    p.set_defaults(func=cmd_moves)
    p = sub.add_parser("show", help="print the board at the end of a game log")
    p.add_argument("log", metavar="LOG")
    p.set_defaults(func=cmd_show)
    command = next((a for a in argv if not a.startswith("-")), None) if argv else None
    for name, commands in AREAS.items():
        if command in ("referee", "moves", "show"):
            break
        if command is not None and command not in commands and \
                any(command in c for c in AREAS.values()):
            continue
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
