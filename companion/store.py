"""The store: games, their event logs, seats and the referee feed in one SQLite file.

A restart of the server reads the current game back from here and carries on where it
stopped; every change is one transaction, so a crash never leaves half an event.

>>> store = Store(":memory:")
>>> game_id = store.new_game({"event": "setup", "players": ["blue", "green", "yellow"],
...                           "start": "blue", "branch": "L", "variants": []})
>>> store.append_event(game_id, {"event": "river"})
1
>>> [e["event"] for e in store.events(game_id)]
['river']
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import paths

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    setup TEXT NOT NULL,
    created_at REAL NOT NULL,
    ended_at REAL
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    event TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS seats (
    game_id INTEGER NOT NULL REFERENCES games(id),
    player TEXT NOT NULL,
    token_hash TEXT,
    join_token TEXT,
    lang TEXT,
    PRIMARY KEY (game_id, player)
);
CREATE TABLE IF NOT EXISTS choices (
    game_id INTEGER NOT NULL REFERENCES games(id),
    player TEXT NOT NULL,
    card TEXT NOT NULL,
    PRIMARY KEY (game_id, player)
);
CREATE TABLE IF NOT EXISTS feed (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


def default_path() -> Path:
    """Where `companion serve` keeps its database unless the config names a file."""
    return paths.database_file()


def token_hash(token: str) -> str:
    """Seat tokens are kept only as hashes: a copied database file opens no phone."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Seat:
    player: str
    token_hash: str | None  # None: nobody has joined (or the seat was freed)
    join_token: str | None  # the one-use token in the seat's QR code, while one is open
    lang: str | None


class StoreError(ValueError):
    """The database file cannot be used (not SQLite, read-only, from a newer version)."""


class Store:
    """One SQLite file. Thread-safe: every call takes the store's lock."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False,
                                       isolation_level=None)
            self._db.execute("PRAGMA foreign_keys = ON")
            if self.path != ":memory:":
                self._db.execute("PRAGMA journal_mode = WAL")
                # FULL: a commit returns only after the WAL is fsynced, so an event the
                # table or a phone was told about survives the power being pulled (NORMAL
                # may lose the last commits). It costs one fsync per event: 5 ms against
                # 0.02 ms on the development VM (benchmarks/power_cut.py), nothing beside
                # the seconds a turn takes at the table.
                self._db.execute("PRAGMA synchronous = FULL")
            self._db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot use {self.path} as the companion's database: {exc}") \
                from None

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _all(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    # -- meta ---------------------------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        rows = self._all("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def set_meta(self, key: str, value: str) -> None:
        with self._tx() as db:
            db.execute("INSERT INTO meta (key, value) VALUES (?, ?) "
                       "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value))

    # -- games and their logs --------------------------------------------------------

    def new_game(self, setup: Mapping[str, Any]) -> int:
        """Record a new game (its setup event) and make it the current one."""
        players = list(setup["players"])
        with self._tx() as db:
            now = time.time()
            current = db.execute("SELECT value FROM meta WHERE key = 'current_game'").fetchone()
            if current:
                db.execute("UPDATE games SET ended_at = ? WHERE id = ? AND ended_at IS NULL",
                           (now, int(current[0])))
            cur = db.execute("INSERT INTO games (setup, created_at) VALUES (?, ?)",
                             (json.dumps(dict(setup)), now))
            game_id = int(cur.lastrowid or 0)
            db.executemany("INSERT INTO seats (game_id, player) VALUES (?, ?)",
                           [(game_id, p) for p in players])
            db.execute("INSERT INTO meta (key, value) VALUES ('current_game', ?) "
                       "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (str(game_id),))
        return game_id

    def current_game(self) -> int | None:
        value = self.get_meta("current_game")
        return int(value) if value else None

    def setup(self, game_id: int) -> dict[str, Any]:
        rows = self._all("SELECT setup FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise KeyError(f"no game {game_id} in {self.path}")
        return json.loads(rows[0][0])

    def games(self) -> list[dict[str, Any]]:
        """Every game, newest first: id, players, when, how many events."""
        rows = self._all(
            "SELECT g.id, g.setup, g.created_at, g.ended_at, "
            "(SELECT COUNT(*) FROM events e WHERE e.game_id = g.id) "
            "FROM games g ORDER BY g.id DESC")
        return [{"id": r[0], "players": json.loads(r[1])["players"], "created_at": r[2],
                 "ended_at": r[3], "events": r[4]} for r in rows]

    def events(self, game_id: int) -> list[dict[str, Any]]:
        """The game's events after the setup, in order."""
        rows = self._all("SELECT event FROM events WHERE game_id = ? ORDER BY seq",
                         (game_id,))
        return [json.loads(r[0]) for r in rows]

    def set_aside(self, game_id: int, numbers: Sequence[int]) -> None:
        """Move events (1-based positions among the game's events) out of the log into
        the meta table, in one transaction: a log that cannot be replayed keeps what is
        sound, and nothing is lost. The remaining events are renumbered in order."""
        if not numbers:
            return
        with self._tx() as db:
            rows = db.execute("SELECT seq, event, at FROM events WHERE game_id = ? "
                              "ORDER BY seq", (game_id,)).fetchall()
            drop = {rows[n - 1][0] for n in numbers if 0 < n <= len(rows)}
            kept = [(event, at) for seq, event, at in rows if seq not in drop]
            aside = [json.loads(event) for seq, event, _ in rows if seq in drop]
            key = f"game {game_id} set aside"
            old = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
            db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                       (key, json.dumps((json.loads(old[0]) if old else []) + aside)))
            db.execute("DELETE FROM events WHERE game_id = ?", (game_id,))
            db.executemany("INSERT INTO events (game_id, seq, event, at) VALUES (?, ?, ?, ?)",
                           [(game_id, n, event, at) for n, (event, at) in enumerate(kept, 1)])

    def log_lines(self, game_id: int) -> list[str]:
        """The whole game log of game-log.md: the setup line, then one line an event."""
        lines = [json.dumps(self.setup(game_id))]
        lines += [json.dumps(e) for e in self.events(game_id)]
        return lines

    def append_event(self, game_id: int, event: Mapping[str, Any],
                     clear_choices: bool = False) -> int:
        """Append one event; returns its 1-based number. With `clear_choices`, the
        phones' pending card choices go in the same transaction (they became the event)."""
        with self._tx() as db:
            row = db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?",
                             (game_id,)).fetchone()
            seq = int(row[0]) + 1
            db.execute("INSERT INTO events (game_id, seq, event, at) VALUES (?, ?, ?, ?)",
                       (game_id, seq, json.dumps(dict(event)), time.time()))
            if clear_choices:
                db.execute("DELETE FROM choices WHERE game_id = ?", (game_id,))
        return seq

    def pop_event(self, game_id: int,
                  restore_choices: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
        """Remove the last event (undo); returns it, or None when there is none.
        `restore_choices` puts card choices back in the same transaction."""
        with self._tx() as db:
            row = db.execute("SELECT seq, event FROM events WHERE game_id = ? "
                             "ORDER BY seq DESC LIMIT 1", (game_id,)).fetchone()
            if row is None:
                return None
            db.execute("DELETE FROM events WHERE game_id = ? AND seq = ?", (game_id, row[0]))
            if restore_choices is not None:
                db.execute("DELETE FROM choices WHERE game_id = ?", (game_id,))
                db.executemany("INSERT INTO choices (game_id, player, card) VALUES (?, ?, ?)",
                               [(game_id, p, json.dumps(c)) for p, c in restore_choices.items()])
            db.execute("UPDATE games SET ended_at = NULL WHERE id = ?", (game_id,))
        return json.loads(row[1])

    def end_game(self, game_id: int) -> None:
        with self._tx() as db:
            db.execute("UPDATE games SET ended_at = ? WHERE id = ? AND ended_at IS NULL",
                       (time.time(), game_id))

    # -- seats -------------------------------------------------------------------------

    def seats(self, game_id: int) -> dict[str, Seat]:
        rows = self._all("SELECT player, token_hash, join_token, lang FROM seats "
                         "WHERE game_id = ?", (game_id,))
        return {r[0]: Seat(*r) for r in rows}

    def set_seat(self, game_id: int, player: str, *, token_hash: str | None,
                 join_token: str | None, lang: str | None = None) -> None:
        with self._tx() as db:
            db.execute("UPDATE seats SET token_hash = ?, join_token = ?, "
                       "lang = COALESCE(?, lang) WHERE game_id = ? AND player = ?",
                       (token_hash, join_token, lang, game_id, player))

    def set_seat_lang(self, game_id: int, player: str, lang: str) -> None:
        with self._tx() as db:
            db.execute("UPDATE seats SET lang = ? WHERE game_id = ? AND player = ?",
                       (lang, game_id, player))

    # -- the phones' pending card choices (secret until the reveal) -------------------

    def choices(self, game_id: int) -> dict[str, Any]:
        rows = self._all("SELECT player, card FROM choices WHERE game_id = ?", (game_id,))
        return {r[0]: json.loads(r[1]) for r in rows}

    def set_choice(self, game_id: int, player: str, card: Any) -> None:
        with self._tx() as db:
            db.execute("INSERT INTO choices (game_id, player, card) VALUES (?, ?, ?) "
                       "ON CONFLICT(game_id, player) DO UPDATE SET card = excluded.card",
                       (game_id, player, json.dumps(card)))

    def clear_choice(self, game_id: int, player: str) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM choices WHERE game_id = ? AND player = ?",
                       (game_id, player))

    # -- the referee feed -------------------------------------------------------------

    def add_feed(self, game_id: int, entry: Mapping[str, Any], keep: int = 200) -> int:
        with self._tx() as db:
            row = db.execute("SELECT COALESCE(MAX(seq), 0) FROM feed WHERE game_id = ?",
                             (game_id,)).fetchone()
            seq = int(row[0]) + 1
            db.execute("INSERT INTO feed (game_id, seq, entry) VALUES (?, ?, ?)",
                       (game_id, seq, json.dumps(dict(entry))))
            db.execute("DELETE FROM feed WHERE game_id = ? AND seq <= ?", (game_id, seq - keep))
        return seq

    def feed(self, game_id: int, limit: int = 50) -> list[dict[str, Any]]:
        """The newest `limit` feed entries, oldest first."""
        rows = self._all("SELECT seq, entry FROM feed WHERE game_id = ? "
                         "ORDER BY seq DESC LIMIT ?", (game_id, limit))
        return [{"seq": r[0], **json.loads(r[1])} for r in reversed(rows)]
