"""Power cuts, simulated: a game played over HTTP against a real `companion serve`,
which is killed with SIGKILL at random moments (often in the middle of a request) and
started again on the same SQLite file.

After every kill the file is read back, before the restart, and compared with what the
server had acknowledged (an HTTP 200): every acknowledged event must be in the game's
log, in order, once, and nothing else may be there except, at most, the one action
that was in flight when the server died (its client never heard back, so either way is
honest). Acknowledged card choices (phase I, kept outside the log until the reveal)
must be there too. The restarted server must then show the same game.

Used by tests/appliance/test_power_cut.py (50 kills) and benchmarks/power_cut.py.
"""

from __future__ import annotations

import http.client
import json
import random
import signal
import threading
import time
import urllib.request
from copy import deepcopy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.rules import Buyback, Cards, Game, River, Turn
from companion.rules.events import parse_event
from companion.rules.random_play import random_phase_events
from companion.rules.referee import replay
from companion.store import Store

from .helpers import Served

PLAYERS = ["red", "blue", "green"]


@dataclass
class Tally:
    kills: int = 0
    kills_mid_request: int = 0
    acknowledged: int = 0          # actions answered 200 (events and card choices)
    acknowledged_events: int = 0
    lost: int = 0                  # acknowledged, missing after the kill
    duplicated: int = 0            # in the log more than once, or never sent
    in_flight_landed: int = 0      # unacknowledged actions that were durable anyway
    games: int = 0
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (f"kills {self.kills} (mid-request {self.kills_mid_request}), acknowledged "
                f"{self.acknowledged} ({self.acknowledged_events} events), lost {self.lost}, "
                f"duplicated {self.duplicated}, in-flight that landed "
                f"{self.in_flight_landed}, games {self.games}")


def canonical(event: Any) -> str:
    if not isinstance(event, dict):
        event = event.to_json()
    return json.dumps(parse_event(event).to_json(), sort_keys=True)


class Phones:
    """The table (its key) and one phone per seat (their seat tokens)."""

    def __init__(self, served: Served, seats: dict[str, str] | None = None) -> None:
        self.served = served
        self.seats = seats or {}

    def join_all(self) -> None:
        state = self.served.get_with_key("/api/table")
        for player, info in state["join"].items():
            token = info["url"].rsplit("/", 1)[1]
            request = urllib.request.Request(
                self.served.url + "/api/join", data=json.dumps({"token": token}).encode(),
                headers={"Content-Type": "application/json"}, method="POST")
            with urllib.request.urlopen(request, timeout=10) as reply:
                cookie = reply.headers.get("Set-Cookie", "")
            self.seats[player] = cookie.split("=", 1)[1].split(";", 1)[0]

    def phone(self, player: str, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        return self.served.post(path, body, bearer=self.seats[player])


class PowerCuts:
    """Plays games, kills the server `kills` times, checks after each kill."""

    def __init__(self, workdir: Path, kills: int, seed: int = 0,
                 max_delay: float = 0.4) -> None:
        self.db = workdir / "cuts.sqlite3"
        self.rng = random.Random(seed)
        self.kills = kills
        self.max_delay = max_delay
        self.tally = Tally()
        self.in_request = False
        self.killed = threading.Event()

    # -- the server ----------------------------------------------------------------------

    def start(self, new_game: bool) -> Served:
        args = ["--database", str(self.db), "--camera", "none", "--no-hardware"]
        if new_game:
            args += ["--players", *PLAYERS, "--start", PLAYERS[0]]
        return Served(args)

    def arm_killer(self, served: Served) -> threading.Thread:
        """SIGKILL at a random moment soon after now, whatever the server is doing."""
        delay = self.rng.uniform(0.02, self.max_delay)

        def kill() -> None:
            time.sleep(delay)
            mid = self.in_request
            served.proc.send_signal(signal.SIGKILL)
            self.tally.kills += 1
            self.tally.kills_mid_request += int(mid)
            self.killed.set()

        thread = threading.Thread(target=kill, daemon=True)
        thread.start()
        return thread

    # -- the durable state, read from the file ------------------------------------------

    def on_file(self) -> tuple[int | None, list[str], dict[str, Any]]:
        store = Store(self.db)
        try:
            game_id = store.current_game()
            if game_id is None:
                return None, [], {}
            lines = store.log_lines(game_id)
            return game_id, lines, store.choices(game_id)
        finally:
            store.close()

    # -- one run ------------------------------------------------------------------------

    def run(self) -> Tally:
        served = self.start(new_game=True)
        self.tally.games = 1
        phones = Phones(served)
        phones.join_all()
        game_id, lines, _ = self.on_file()
        shadow = replay(lines)
        chosen: dict[str, Any] = {}
        while self.tally.kills < self.kills:
            self.killed.clear()
            killer = self.arm_killer(served)
            in_flight = self.play(served, phones, shadow, chosen)
            killer.join()
            served.kill()
            shadow, chosen, game_id = self.check(shadow, chosen, in_flight, game_id)
            served = self.start(new_game=shadow.is_over)
            if shadow.is_over:  # a new game: new seats to join
                self.tally.games += 1
                phones = Phones(served)
                phones.join_all()
                game_id, lines, _ = self.on_file()
                shadow, chosen = replay(lines), {}
            else:
                phones.served = served
                self.check_served(served, shadow)
        served.stop()
        return self.tally

    def play(self, served: Served, phones: Phones, shadow: Game, chosen: dict[str, Any]
             ) -> tuple[str, Any] | None:
        """Play on until the server dies; returns the action in flight then, if any."""
        while not shadow.is_over:
            plan = random_phase_events(deepcopy(shadow), self.rng)
            for event in plan:
                for action in self.actions(event, chosen):
                    self.in_request = True
                    try:
                        status, reply = self.send(served, phones, action)
                    except (OSError, http.client.HTTPException, ValueError):
                        return action  # the server died under it
                    finally:
                        self.in_request = False
                    if status != 200:
                        raise AssertionError(f"{action}: {status} {reply}")
                    self.acknowledge(action, shadow, chosen)
                    if self.killed.is_set():
                        return None
        self.killed.wait()
        return None

    @staticmethod
    def actions(event: Any, chosen: dict[str, Any]) -> list[tuple[str, Any]]:
        if isinstance(event, Cards):
            out: list[tuple[str, Any]] = [("choose", (p, c)) for p, c in event.cards
                                          if chosen.get(p) != c]
            return out + [("reveal", event)]
        return [("event", event)]

    @staticmethod
    def send(served: Served, phones: Phones, action: tuple[str, Any]) -> tuple[int, Any]:
        kind, what = action
        if kind == "choose":
            player, card = what
            return phones.phone(player, "/api/phone/card", {"card": card})
        if kind == "reveal":
            return served.post("/api/table/reveal", {})
        if isinstance(what, Buyback):
            body = {"gem": what.gem}
            return phones.phone(what.player, "/api/phone/buyback", body)
        if isinstance(what, Turn):
            return served.post("/api/table/turn", {"turn": what.to_json()})
        assert isinstance(what, River)
        branches = None if what.branches is None else list(what.branches)
        return served.post("/api/table/river", {"steps": what.steps, "branches": branches})

    def acknowledge(self, action: tuple[str, Any], shadow: Game, chosen: dict[str, Any]
                    ) -> None:
        kind, what = action
        self.tally.acknowledged += 1
        if kind == "choose":
            chosen[what[0]] = what[1]
            return
        self.tally.acknowledged_events += 1
        shadow.apply(what)
        _the_rules_river(shadow)
        if kind == "reveal":
            chosen.clear()

    # -- the checks ---------------------------------------------------------------------

    def check(self, shadow: Game, chosen: dict[str, Any], in_flight: tuple[str, Any] | None,
              game_id: int | None) -> tuple[Game, dict[str, Any], int | None]:
        """Compare the file with what was acknowledged; returns the game to go on with
        (the acknowledged one, plus the in-flight action if it landed)."""
        now_id, lines, choices = self.on_file()
        if now_id != game_id:
            self.tally.problems.append(f"current game changed from {game_id} to {now_id}")
        acked = [canonical(e) for e in shadow.events]
        stored = [canonical(json.loads(line)) for line in lines[1:]]
        kept = 0
        while kept < min(len(acked), len(stored)) and acked[kept] == stored[kept]:
            kept += 1
        lost = len(acked) - kept
        extra = stored[kept:]
        if lost:
            self.tally.lost += lost
            self.tally.problems.append(f"lost {lost} acknowledged events: {acked[kept:]}")
        landed = in_flight is not None and in_flight[0] != "choose" and \
            extra[:1] == [canonical(in_flight[1])] and extra[1:] in ([], _rules_after(
                shadow, in_flight[1]))
        if landed:
            assert in_flight is not None
            self.tally.in_flight_landed += 1
            shadow.apply(in_flight[1])
            _the_rules_river(shadow)  # on file, or played by the table when it resumes
            if in_flight[0] == "reveal":
                chosen.clear()
        elif extra:
            self.tally.duplicated += len(extra)
            self.tally.problems.append(f"events never acknowledged nor in flight: {extra}")
        if in_flight is not None and in_flight[0] == "choose":
            # A phone changing its card: the new one may have landed, replacing the old.
            player, card = in_flight[1]
            if str(choices.get(player)) == str(card) and chosen.get(player) != card:
                self.tally.in_flight_landed += 1
                chosen[player] = card
        for player, card in chosen.items():
            if str(choices.get(player)) != str(card):
                self.tally.lost += 1
                self.tally.problems.append(f"{player}'s acknowledged card {card} is gone "
                                           f"(file: {choices.get(player)})")
        if lost or (extra and not landed):  # go on from what the file holds
            shadow = replay(lines)
            _the_rules_river(shadow)  # the table plays it when it resumes
        return shadow, chosen, now_id

    def check_served(self, served: Served, shadow: Game) -> None:
        """The restarted server shows the game the file holds."""
        state = served.get_with_key("/api/table")
        if (state["round"], state["phase"]) != (shadow.round, shadow.phase):
            self.tally.problems.append(
                f"restarted server at round {state['round']} {state['phase']}, "
                f"expected {shadow.round} {shadow.phase}")


def _the_rules_river(game: Game) -> None:
    """The river of speed 0 the table plays by itself after the last turn (R-RIVER-1)."""
    if game.phase == "river" and game.speed == 0:
        game.apply(River(0, ()))


def _rules_after(game: Game, event: Any) -> list[Any]:
    """What the table logs by itself after `event` (canonical form)."""
    probe = deepcopy(game)
    probe.apply(event)
    return [canonical(River(0, ()))] if probe.phase == "river" and probe.speed == 0 else []
