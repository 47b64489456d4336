"""What the table refuses, by kind. Each kind is a ValueError (like the rules engine's
errors); the web layer alone turns a kind into an HTTP status (companion.web)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules import IllegalEvent


class TableError(ValueError):
    """A request the table refuses, with a one-line message.

    `rule` is the rule ID when a rule of rules.md is the reason, else None; `key` and
    `fields` name the engine's message template when it came from one (so a page can
    say it in its own language).
    """

    def __init__(self, message: str, rule: str | None = None, *, key: str | None = None,
                 fields: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.key = key
        self.fields = dict(fields or {})


class Invalid(TableError):
    """The request is malformed: not a card, not a turn, not an observation."""


class NotSeated(TableError):
    """The phone asking has no seat in the current game."""


class Forbidden(TableError):
    """The asker may not do this (a used-up join link, a reveal by the wrong player)."""


class NotFound(TableError):
    """The request names something the game does not have (a seat)."""


class Conflict(TableError):
    """Well-formed, but not now: no game yet, the wrong phase, nothing to undo."""


class Illegal(Conflict):
    """The rules forbid it (the engine's IllegalEvent, with its rule ID)."""

    @classmethod
    def of(cls, exc: IllegalEvent) -> Illegal:
        """The engine's refusal, as the table says it (its message template kept)."""
        return cls(exc.message, exc.rule, key=exc.key, fields=exc.fields)


__all__ = ["TableError", "Invalid", "NotSeated", "Forbidden", "NotFound", "Conflict",
           "Illegal"]
