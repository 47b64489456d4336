"""The referee over a whole log, as a pure function of its lines (game-log.md)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from .errors import LogError
from .events import Setup, parse_line
from .game import Game


class NoSetup(ValueError):
    """The log cannot be read at all: its first event is not a valid setup."""


def referee_lines(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """Verdicts for each line (1-based `line`), then `{"state": …}`.

    Blank lines are skipped. Raises NoSetup (before yielding anything) when the first
    non-blank line is not a valid setup event.
    """
    numbered = ((n, line) for n, line in enumerate(lines, 1) if line.strip())
    first = next(numbered, None)
    if first is None:
        raise NoSetup("the log is empty: no setup line")
    n, line = first
    try:
        setup = parse_line(line)
    except LogError as exc:
        raise NoSetup(f"line {n}: no valid setup line ({exc.message})") from None
    if not isinstance(setup, Setup):
        raise NoSetup(f"line {n}: the first event must be setup")
    game = Game.from_setup(setup)
    yield {"line": n, "ok": True}
    for n, line in numbered:
        try:
            event = parse_line(line)
        except LogError as exc:
            yield {"line": n, "ok": False, "rule": "LOG", "message": exc.message}
            continue
        verdict = game.check(event)
        if verdict.ok:
            game.apply(event)
        yield {"line": n, **verdict.to_json()}
    yield {"state": game.snapshot()}
