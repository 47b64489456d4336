"""`companion demo`: a whole game at a table that is not there.

Scripted players play a game the way people at a real table would: their phones lay
cards and buy canoes back (over HTTP, like the phone pages), their hands move the
pieces on a board that exists only as camera frames (the synthetic renderer), and
the companion does the rest as it would at a table: the real vision watches the frames,
the referee applies or flags what it sees, the store keeps every event, the simulated
LED strip shows the danger zone, and the pages show it all. Open the printed table
link to watch; in round 2 a player moves out of turn, the camera referee flags it and
the canoe is put back.

    companion demo                  # a watchable pace; Ctrl-C ends
    companion demo --fast           # as fast as the camera can follow (tests)
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from copy import deepcopy
from pathlib import Path
from typing import Any

import numpy as np

from companion.rules import PLAYER_COLOURS, Buyback, Cards, River
from companion.rules.random_play import choose_turn, random_phase_events
from companion.vision.sources import FrameSource

ILLEGAL_ROUND = 2  # the round in which one player moves out of turn


class DemoBoard(FrameSource):
    """The demo's physical board, as the camera above it sees it: a position (a game
    state or snapshot) painted by the synthetic renderer, with a hand over the board
    while pieces are being moved."""

    name = "demo camera"

    def __init__(self, state: Any, size: tuple[int, int] = (1280, 720)) -> None:
        from companion.vision.board import load_board
        from companion.vision.render import Nuisance, Renderer

        self.renderer = Renderer(load_board(), size=size)
        self.nuisance = Nuisance.mild()
        self._lock = threading.Lock()
        self._state, self._hand = state, False
        self._frame: np.ndarray | None = None
        self._shots = 0

    def show(self, state: Any, hand: bool = False) -> None:
        """Put the pieces as `state` has them (with a hand still over the board)."""
        with self._lock:
            self._state, self._hand, self._frame = deepcopy(state), hand, None

    def read(self) -> np.ndarray | None:
        with self._lock:
            if self._frame is None:  # a still board looks the same frame after frame
                self._shots += 1
                self._frame = self.renderer.render(self._state, seed=self._shots,
                                                   nuisance=self.nuisance,
                                                   hand=self._hand).image
            return self._frame


class Phone:
    """One player's phone: joined by its seat's QR link, then POSTs as the page does."""

    def __init__(self, base: str, join_token: str) -> None:
        self.base = base
        reply, headers = _post(f"{base}/api/join", {"token": join_token})
        cookie = headers.get("Set-Cookie", "")
        self.token = cookie.split("=", 1)[1].split(";", 1)[0]
        self.player = reply["player"]

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        return _post(f"{self.base}{path}", body, {"Authorization": f"Bearer {self.token}"})[0]


def _post(url: str, body: dict[str, Any], headers: dict[str, str] | None = None
          ) -> tuple[dict[str, Any], Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json",
                                              **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return json.loads(reply.read()), reply.headers
    except urllib.error.HTTPError as exc:
        detail = json.loads(exc.read() or b"{}").get("error", exc.reason)
        raise DemoError(f"{url}: {exc.code} {detail}") from None


class DemoError(RuntimeError):
    """The demo could not go on (a step the companion refused)."""


class Demo:
    """Plays one game; `run()` returns the winners. `stats` counts what happened."""

    def __init__(self, players: list[str], *, fast: bool = False, seed: int | None = None,
                 host: str = "127.0.0.1", port: int = 8000, database: str | None = None,
                 out: Any = None) -> None:
        self.players = players
        self.fast = fast
        self.rng = random.Random(seed)
        self.host, self.port = host, port
        self.database = database
        self.out = out or sys.stdout
        self.stats = {"camera moves": 0, "entered on the table page": 0, "river by camera": 0,
                      "illegal caught": 0, "put right": 0, "rounds": 0}
        self.url = ""
        self.table_link = ""

    # -- pace ---------------------------------------------------------------------------

    def pause(self, seconds: float) -> None:
        time.sleep(0.02 if self.fast else seconds)

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def camera_saw(self, table: Any, events: int, judged: int) -> bool:
        """Wait for the camera's verdict on the board just changed: True when it played
        the move (the game has more than `events` events), False when it put a
        question or a flag on the table page (more than `judged` camera feed entries)
        or said nothing in time."""
        self.wait_until(lambda: len(table.game.events) > events
                        or self.judged(table) > judged, 10)
        return len(table.game.events) > events

    @staticmethod
    def judged(table: Any) -> int:
        """How many views the camera referee has questioned or flagged so far."""
        return sum(1 for e in table.view(None)["feed"] if e.get("kind") == "camera"
                   and e.get("status") in ("ambiguous", "none"))

    def wait_until(self, ready: Any, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if ready():
                return True
            time.sleep(0.02)
        return bool(ready())

    # -- the table ----------------------------------------------------------------------

    def run(self) -> list[str]:
        from companion.app import Table
        from companion.camera import TableCamera
        from companion.store import Store
        from companion.web import create_app
        from companion.web.cli import attach_hardware
        from companion.web.server import BackgroundServer

        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
        with tempfile.TemporaryDirectory(prefix="companion-demo-") as tmp:
            path = self.database or str(Path(tmp) / "demo.sqlite3")
            table = Table(Store(path))
            table.new_game(self.players, self.players[0])
            app = create_app({"DATABASE": path}, table=table)
            server = BackgroundServer(app, self.host, self.port)  # a busy port: OSError now
            stop_leds = attach_hardware(app, table, skip=False, simulated=True)
            game = table.need_game()
            board = DemoBoard(game.state,
                              size=(960, 540) if self.fast else (1280, 720))
            # (The demo's camera keeps its resume point with its game, not the table's.)
            camera = TableCamera(table, board, fps=50 if self.fast else 10,
                                 settle_s=0.04 if self.fast else 1.0,
                                 resume_dir=Path(tmp) / "camera").start()
            app.extensions["companion.camera"] = camera
            server.start()
            self.url = server.url
            self.table_link = f"{self.url}/table?key={table.table_key}"
            self.say("Niagara Companion demo: scripted players, a camera that is a renderer, "
                     "a simulated LED strip.")
            self.say(f"Watch the table page:\n  {self.table_link}")
            try:
                phones = {p: Phone(self.url, token) for p, token in table.join_tokens().items()}
                self.pause(3.0)
                winners = self.play(table, board, phones)
                self.say(f"winner: {', '.join(winners)} after {self.stats['rounds']} rounds; "
                         + ", ".join(f"{k} {v}" for k, v in self.stats.items()))
                if not self.fast:
                    self.say("The game is over; the pages stay up. Ctrl-C ends.")
                    while True:
                        time.sleep(3600)
            finally:
                server.stop()
                camera.stop()
                stop_leds()
                table.store.close()
        return winners

    def play(self, table: Any, board: DemoBoard, phones: dict[str, Phone]) -> list[str]:
        while not table.game.is_over:
            game = table.game
            if game.phase == "cards":
                self.stats["rounds"] = game.round
                self.say(f"round {game.round}: the players choose their cards on their phones")
                self.cards_phase(table, board, phones)
            elif game.phase == "turns":
                if game.round == ILLEGAL_ROUND and not self.stats["illegal caught"]:
                    self.out_of_turn(table, board)
                self.turn(table, board)
            else:
                self.river(table, board)
        return list(table.game.winners)

    def cards_phase(self, table: Any, board: DemoBoard, phones: dict[str, Phone]) -> None:
        for event in random_phase_events(table.game.copy(), self.rng):
            if isinstance(event, Buyback):
                board.show(table.game.state, hand=True)  # the canoe is lifted back ...
                phones[event.player].post("/api/phone/buyback", {"gem": event.gem})
                board.show(table.game.state)  # ... to the dock
                self.say(f"  {event.player} buys a canoe back"
                         + (f" for a {event.gem} gem" if event.gem else ""))
                self.pause(1.0)
            elif isinstance(event, Cards):
                for player, card in event.cards:
                    phones[player].post("/api/phone/card", {"card": card})
                    self.pause(0.7)
                _post(f"{self.url}/api/table/reveal", {}, {"X-Table-Key": table.table_key})
                self.say("  cards revealed: " + ", ".join(f"{p} {c}" for p, c in event.cards))
                self.pause(1.5)

    def move_pieces(self, board: DemoBoard, before: Any, after: Any) -> None:
        """A hand reaches over the board, moves the pieces, and leaves (with --fast the
        pieces just move: each frame drawn costs about a tenth of a second)."""
        if self.fast:
            board.show(after)
            return
        board.show(before, hand=True)
        self.pause(0.6)
        board.show(after, hand=True)
        self.pause(0.6)
        board.show(after)

    def turn(self, table: Any, board: DemoBoard) -> None:
        from companion.rules import format_turn

        game = table.game
        turn = choose_turn(game.copy(), self.rng)
        after = game.copy()
        after.apply(turn)
        count, judged = len(game.events), self.judged(table)
        self.move_pieces(board, game.state, after.state)
        if self.camera_saw(table, count, judged):
            self.stats["camera moves"] += 1
            how = "the camera saw it"
        else:  # the camera could not tell (e.g. two moves look alike): the table page
            _post(f"{self.url}/api/table/turn", {"turn": turn.to_json()},
                  {"X-Table-Key": table.table_key})
            self.stats["entered on the table page"] += 1
            how = "entered on the table page"
        self.say(f"  {turn.player}: {format_turn(turn)} ({how})")
        self.settle_board(table, board)
        self.pause(1.5)

    def river(self, table: Any, board: DemoBoard) -> None:
        game = table.game
        after = game.copy()
        after.apply(River())
        count, judged = len(game.events), self.judged(table)
        self.move_pieces(board, game.state, after.state)
        if self.camera_saw(table, count, judged):
            self.stats["river by camera"] += 1
            how = "the camera saw it"
        else:
            _post(f"{self.url}/api/table/river", {}, {"X-Table-Key": table.table_key})
            how = "pushed on the table page"
        steps = table.game.events[-1].steps
        self.say(f"  the river moves{'' if steps is None else f' {steps} step(s)'} ({how})")
        self.settle_board(table, board)
        self.pause(2.0)

    def settle_board(self, table: Any, board: DemoBoard) -> None:
        """The players keep the board as the companion has the game."""
        board.show(table.game.state)

    def out_of_turn(self, table: Any, board: DemoBoard) -> None:
        """The player after the one to move pushes a canoe of theirs before their turn;
        the camera referee flags it, and the canoe is put back."""
        game = table.game
        order = list(game.state.turn_order) or list(game.players)
        culprit = order[(order.index(game.to_move) + 1) % len(order)]
        snapshot = game.snapshot()
        canoes = snapshot["canoes"][culprit]
        index = next((i for i, c in enumerate(canoes) if c["at"] != "F"), None)
        if index is None:
            return
        canoes[index]["at"] = "3" if canoes[index]["at"] in ("D", "1", "2") else "D"
        judged = self.judged(table)
        self.say(f"  {culprit} moves a canoe before {game.to_move} has played ...")
        self.move_pieces(board, game.state, snapshot)
        self.wait_until(lambda: self.judged(table) > judged, 10)
        caught = [e for e in table.view(None)["feed"] if e.get("status") == "none"]
        if caught and self.judged(table) > judged:
            self.stats["illegal caught"] += 1
            self.say(f"  the camera referee: {caught[-1].get('message')}")
        self.pause(4.0)
        self.move_pieces(board, snapshot, game.state)
        self.say(f"  {culprit} puts the canoe back")
        self.stats["put right"] += 1
        self.pause(1.5)


def cmd_demo(args: argparse.Namespace) -> int:
    demo = Demo(args.players, fast=args.fast, seed=args.seed, host=args.host, port=args.port,
                database=args.database)
    try:
        demo.run()
    except KeyboardInterrupt:
        return 0
    except DemoError as exc:
        print(f"companion demo: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"companion demo: cannot serve on {args.host}:{args.port}: {exc.strerror}",
              file=sys.stderr)
        return 2
    return 0


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "demo", help="watch a whole game played and refereed, with no camera, LEDs or phones",
        description="Scripted players play a game on a board drawn as camera frames; the "
                    "real vision, referee, store, simulated LEDs and pages follow it. Open "
                    "the printed table link to watch.")
    p.add_argument("--players", nargs="+", default=["red", "blue", "green"],
                   choices=PLAYER_COLOURS, metavar="COLOUR", help="3-5 colours")
    p.add_argument("--fast", action="store_true",
                   help="no pauses: as fast as the camera can follow (for tests)")
    p.add_argument("--seed", type=int, help="the same seed plays the same game")
    p.add_argument("--host", default="127.0.0.1", help="address to serve the pages on")
    p.add_argument("--port", type=int, default=8000, help="port (0: any free one)")
    p.add_argument("--database", metavar="FILE",
                   help="keep the demo game in this SQLite file (default: a temporary one)")
    p.set_defaults(func=cmd_demo)


__all__ = ["Demo", "DemoBoard", "register"]
