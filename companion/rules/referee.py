"""The referee over a whole log, as a pure function of its lines (game-log.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .errors import LogError
from .events import parse_line
from .game import LEGAL, Game, Verdict


class NoSetup(ValueError):
    """The log cannot be read at all: its first event is not a valid setup."""


def judged(lines: Iterable[str]) -> Iterator[tuple[int, Verdict, Game]]:
    """(1-based line number, verdict, the game after it) for each non-blank line, the
    setup first. An illegal or malformed line is reported and skipped, as game-log.md
    says. Raises NoSetup when the first non-blank line is not a valid setup event."""
    numbered = ((n, line) for n, line in enumerate(lines, 1) if line.strip())
    first = next(numbered, None)
    if first is None:
        raise NoSetup("the log is empty: no setup line")
    n, line = first
    try:
        game = Game.from_setup(parse_line(line))
    except LogError as exc:
        raise NoSetup(f"line {n}: no valid setup line ({exc.message})") from None
    yield n, LEGAL, game
    for n, line in numbered:
        try:
            event = parse_line(line)
        except LogError as exc:
            yield n, Verdict(False, "LOG", exc.message, (), exc.key, exc.fields), game
            continue
        yield n, game.try_apply(event), game


def referee_lines(lines: Iterable[str], local: Callable[[Verdict], str] | None = None
                  ) -> Iterator[dict[str, Any]]:
    """Verdicts for each line (1-based `line`), then `{"state": …}` (game-log.md).

    With `local` (e.g. a verdict in the reader's language, from its key and fields),
    each illegal verdict also gets ``message_local``."""
    last = None
    for n, verdict, game in judged(lines):
        out = {"line": n, **verdict.to_json()}
        if local is not None and not verdict.ok:
            out["message_local"] = local(verdict)
        yield out
        last = game
    assert last is not None
    yield {"state": last.snapshot()}


def replay(lines: Iterable[str], last_line: int | None = None) -> Game:
    """The game after a log's lines (up to line `last_line`), skipping the illegal ones
    as the referee does. Raises NoSetup."""
    if last_line is not None:
        lines = list(lines)[:max(last_line, 0)]
    last = None
    for _, _, game in judged(lines):
        last = game
    assert last is not None
    return last
