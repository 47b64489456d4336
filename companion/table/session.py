"""The session: the current game and its store, the version every change bumps, the
referee feed, and everyone who follows along (publish/subscribe).

Every other part of the table works through one Session: it holds the lock, so one
change at a time is stored and then announced.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.rules import DangerZone, Game, Verdict, danger_zone
from companion.store import Store

from .errors import Conflict, NotFound

log = logging.getLogger("companion.app")


@dataclass(frozen=True)
class Change:
    """What a subscriber is told after every change. It never carries a secret card."""

    kind: str  # new-game join choice reveal turn river buyback undo illegal lang seat
    version: int
    player: str | None = None
    verdict: Verdict | None = None  # for "illegal": the referee's verdict (public)
    event: Any = None  # the refused ("illegal") or applied ("turn", "river") event (public)
    river: Any = None  # for "river": the engine's RiverPreview of the pushes (public)
    zone: DangerZone | None = None  # the game's danger zone after the change (public)


Subscriber = Callable[[Change], None]

# The changes after which the game itself is another: the danger zone is computed again
# after these only (a phone joining or laying a card face down changes nothing public).
GAME_CHANGES = frozenset({"resume", "new-game", "buyback", "reveal", "turn", "river", "undo"})


class Session:
    """One store's current game, its version and its followers. Thread-safe."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self.game: Game | None = None
        self.game_id: int | None = None
        self.version = 0
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._subscribers: list[Subscriber] = []
        self._outbox: queue.SimpleQueue[tuple[Change, list[Subscriber]]] = queue.SimpleQueue()
        self._deliverer: threading.Thread | None = None
        self.zone: DangerZone | None = None  # the current game's danger zone

    @property
    def players(self) -> tuple[str, ...]:
        return self.game.players if self.game else ()

    def need_game(self) -> Game:
        if self.game is None:
            raise Conflict("no game is set up yet: start one on the table page")
        return self.game

    def need_player(self, player: str) -> Game:
        game = self.need_game()
        if player not in game.players:
            raise NotFound(f"{player!r} is not a seat in this game "
                           f"(seats: {', '.join(game.players)})")
        return game

    # -- following the game ------------------------------------------------------------

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Call `callback(change)` after every change; returns a function that stops it.
        Callbacks run in order on one background thread, never under the table's lock,
        so a callback may read the table (``table.view()``) or even change it."""
        with self._lock:
            self._subscribers.append(callback)
            if self._deliverer is None:
                self._deliverer = threading.Thread(target=self._deliver, daemon=True,
                                                   name="table-subscribers")
                self._deliverer.start()

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)
        return unsubscribe

    def wait_for_change(self, since: int, timeout: float) -> int:
        """Block until `version` differs from `since` or `timeout` passes; the version."""
        with self._changed:
            self._changed.wait_for(lambda: self.version != since, timeout)
            return self.version

    def feed(self, entry: dict[str, Any]) -> None:
        """Add a line to the referee feed (stored with the game)."""
        entry = {"at": round(self.clock(), 3), **entry}
        self.store.add_feed(self.game_id or 0, entry)

    def bump(self, kind: str, player: str | None = None, verdict: Verdict | None = None,
             event: Any = None, river: Any = None) -> None:
        """Announce a change (called with the lock held): wake the live streams now, and
        queue the change for the subscribers, who are called in order on one thread."""
        self.version += 1
        if kind in GAME_CHANGES or (self.zone is None and self.game is not None):
            self.zone = danger_zone(self.game) if self.game is not None else None
        self._changed.notify_all()
        if self._subscribers:
            change = Change(kind, self.version, player, verdict, event, river, self.zone)
            self._outbox.put((change, list(self._subscribers)))

    def _deliver(self) -> None:
        while True:
            change, subscribers = self._outbox.get()
            for callback in subscribers:
                try:
                    callback(change)
                except Exception:  # one broken follower must not stop the game
                    log.exception("table subscriber %r failed on %s", callback, change)


__all__ = ["Change", "Session", "Subscriber"]
