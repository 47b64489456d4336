"""Errors of the rules engine. Both subclass ValueError, like python-chess's."""

from __future__ import annotations


class LogError(ValueError):
    """A line that is not an event of game-log.md: bad JSON, bad shape, unknown names.

    The referee reports it with the pseudo-rule ``LOG``.
    """

    rule = "LOG"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class IllegalEvent(ValueError):
    """A well-formed event that breaks a rule; ``rule`` is the most specific rule ID,
    ``places`` the board places it is about ("D", "1" … "7R", "F"; may be empty)."""

    def __init__(self, rule: str, message: str, places: tuple[str, ...] = ()) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
        self.places = tuple(places)
