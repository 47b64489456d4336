"""The running companion wired together: the live `Table` (companion.table) and how the
LED strip and the push buttons follow it.

``from companion.app import Table, TableError, Change`` keeps working; the table's
parts live in the `companion.table` package.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from companion.table import (
    MAX_LEGAL_LISTED,
    Change,
    Conflict,
    Forbidden,
    Illegal,
    Invalid,
    NotFound,
    NotSeated,
    Subscriber,
    Table,
    TableError,
)

log = logging.getLogger(__name__)


def follow_with_leds(table: Table, controller: Any) -> Callable[[], None]:
    """Keep an LED controller (companion.hardware.LedController) showing the table's
    game: every change, and an illegal move's places blinking. Returns unsubscribe."""
    def show(change: Change) -> None:
        if table.game is not None:
            controller.show(table.game, change.verdict, change.event, change.river,
                            change.zone)
    if table.game is not None:
        controller.show(table.game, zone=table.zone)
    return table.subscribe(show)


def button_actions(table: Table) -> Callable[[str], None]:
    """What the table's push buttons do (companion.hardware.ButtonPanel names): "river"
    pushes the river as the rules say, "undo" takes back the last event, "next"
    reveals the cards once every one is down."""
    def pressed(name: str) -> None:
        try:
            if name == "river":
                table.move_river(source="button")
            elif name == "undo":
                table.undo()
            elif name == "next":
                table.reveal()
            else:
                log.info("button %r does nothing in the table app", name)
        except TableError as exc:
            log.info("button %r: %s", name, exc.message)
    return pressed


__all__ = ["Table", "TableError", "Change", "Subscriber", "follow_with_leds",
           "button_actions", "Conflict", "Forbidden", "Illegal", "Invalid", "NotFound",
           "NotSeated", "MAX_LEGAL_LISTED"]
