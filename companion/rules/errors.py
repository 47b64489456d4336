"""Errors of the rules engine. Both subclass ValueError, like python-chess's.

Each carries, beside its English ``message``, the message ``key`` and its ``fields``
(see :mod:`.messages`), from which every language writes its own text without
reading the English one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .messages import english


class LogError(ValueError):
    """A line that is not an event of game-log.md: bad JSON, bad shape, unknown names.

    The referee reports it with the pseudo-rule ``LOG``.
    """

    rule = "LOG"

    def __init__(self, message: str, *, key: str | None = None,
                 fields: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.key = key
        self.fields = dict(fields or {})

    @classmethod
    def of(cls, key: str, /, **fields: Any) -> LogError:
        """The error of message `key` with `fields`, its English text from the catalogue."""
        return cls(english(key, fields), key=key, fields=fields)


class IllegalEvent(ValueError):
    """A well-formed event that breaks a rule; ``rule`` is the most specific rule ID,
    ``places`` the board places it is about ("D", "1" … "7R", "F"; may be empty)."""

    def __init__(self, rule: str, message: str, places: tuple[str, ...] = (), *,
                 key: str | None = None, fields: Mapping[str, Any] | None = None) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
        self.places = tuple(places)
        self.key = key
        self.fields = dict(fields or {})

    @classmethod
    def of(cls, rule: str, key: str, places: tuple[str, ...] = (), /,
           **fields: Any) -> IllegalEvent:
        """The refusal citing `rule` with message `key` and its `fields`.

        >>> IllegalEvent.of("R-TURN-1", "turn.other", mover="blue", player="red").message
        "it is blue's turn, not red's"
        """
        return cls(rule, english(key, fields), places, key=key, fields=fields)
