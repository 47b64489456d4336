"""The live table: one game, its seats and phones, the secret card choices, the referee
feed, and everyone who follows along (web pages, LED strip, camera).

>>> from companion.store import Store
>>> table = Table(Store(":memory:"))
>>> table.new_game(["blue", "green", "yellow"])
>>> for player, card in [("blue", 6), ("green", "cloud"), ("yellow", 5)]:
...     table.choose(player, card)
>>> table.reveal()
>>> table.play_turn("D-4+clear").ok
True
>>> table.view()["cards"]
{'blue': 6, 'green': 'cloud'}

Phones pick cards one by one; the choices stay inside the table (and its store) until
the reveal turns them into one `cards` event. Every change bumps `version` and calls
the subscribers, so a page, an LED controller or a logger can follow the game with
``table.subscribe(callback)``.
"""

from __future__ import annotations

import hmac
import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.rules import (
    Buyback,
    Cards,
    Game,
    IllegalEvent,
    LogError,
    River,
    Turn,
    Verdict,
    format_turn,
    parse_event,
    parse_turn,
)
from companion.rules.events import parse_card
from companion.store import Store, token_hash

if TYPE_CHECKING:
    from companion.hardware.danger import DangerZone

log = logging.getLogger(__name__)

MAX_LEGAL_LISTED = 400  # the move picker lists at most this many turns (ranked as generated)


class TableError(ValueError):
    """A request the table refuses, with an HTTP-like status and a one-line message.

    `rule` is the rule ID when a rule of rules.md is the reason, else None.
    """

    def __init__(self, status: int, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.rule = rule


@dataclass(frozen=True)
class Change:
    """What a subscriber is told after every change. It never carries a secret card."""

    kind: str  # new-game join choice reveal turn river buyback undo illegal lang seat
    version: int
    player: str | None = None
    verdict: Verdict | None = None  # for "illegal": the referee's verdict (public)
    event: Any = None  # the refused ("illegal") or applied ("turn", "river") event (public)
    river: Any = None  # for "river": the engine's RiverPreview of the pushes (public)


Subscriber = Callable[[Change], None]


class Table:
    """The running companion's game. Thread-safe; every change is stored before it is
    announced, so a restart (``Table(store)`` on the same file) resumes exactly."""

    def __init__(self, store: Store, *, auto_reveal: bool = False,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.auto_reveal = auto_reveal
        self.clock = clock
        self.game: Game | None = None
        self.game_id: int | None = None
        self.version = 0
        self._choices: dict[str, Any] = {}
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._subscribers: list[Subscriber] = []
        self._outbox: queue.SimpleQueue[tuple[Change, list[Subscriber]]] = queue.SimpleQueue()
        self._deliverer: threading.Thread | None = None
        self._legal_cache: tuple[int, list[str], int] | None = None
        self._camera_turn_at: int | None = None  # len(events) after a camera-read turn
        key = store.get_meta("table_key")
        if key is None:
            key = secrets.token_urlsafe(12)
            store.set_meta("table_key", key)
        self.table_key = key
        self.resume()

    # -- lifecycle -------------------------------------------------------------------

    def resume(self) -> bool:
        """Load the store's current game, replaying its log. False when there is none."""
        with self._lock:
            game_id = self.store.current_game()
            if game_id is None:
                return False
            game = Game.from_setup(self.store.setup(game_id))
            skipped = []
            for n, event in enumerate(self.store.events(game_id), 1):
                try:
                    game.apply(event)
                except ValueError as exc:  # a log edited by hand: keep what is sound
                    log.warning("game %s event %d set aside on resume: %s", game_id, n, exc)
                    skipped.append(n)
            # The stored log must match the game event for event, or undo would take
            # back the wrong one: what could not be replayed moves out of the log.
            self.store.set_aside(game_id, skipped)
            self.game, self.game_id = game, game_id
            self._choices = self.store.choices(game_id) if game.phase == "cards" else {}
            self._open_free_seats()
            self._bump("resume")
            return True

    def new_game(self, players: Sequence[str], start: str | None = None, branch: str = "L",
                 variants: Iterable[str] = ()) -> None:
        """Start a new game (the old one stays in the store). Seats start free."""
        setup = {"event": "setup", "players": list(players), "start": start or
                 (players[0] if players else None), "branch": branch,
                 "variants": list(variants)}
        if setup["start"] is None:
            del setup["start"]
        try:
            game = Game.from_setup(setup)
        except LogError as exc:
            raise TableError(400, exc.message, "LOG") from None
        with self._lock:
            self.game_id = self.store.new_game(game.setup.to_json())
            self.game = game
            self._choices = {}
            self._open_free_seats()
            self._feed({"kind": "new-game", "ok": True, "players": list(game.players),
                        "start": game.setup.start})
            self._bump("new-game")

    @property
    def players(self) -> tuple[str, ...]:
        return self.game.players if self.game else ()

    def _need_game(self) -> Game:
        if self.game is None:
            raise TableError(409, "no game is set up yet: start one on the table page")
        return self.game

    def _need_player(self, player: str) -> Game:
        game = self._need_game()
        if player not in game.players:
            raise TableError(404, f"{player!r} is not a seat in this game "
                                  f"(seats: {', '.join(game.players)})")
        return game

    # -- seats and phones --------------------------------------------------------------

    def check_table_key(self, key: str | None) -> bool:
        return bool(key) and hmac.compare_digest(str(key), self.table_key)

    def open_seat(self, player: str) -> str:
        """A fresh one-use join token for `player`'s QR code. A phone already on the seat
        keeps it until a new phone joins with this token (then it is logged out)."""
        with self._lock:
            self._need_player(player)
            seat = self.store.seats(self.game_id or 0)[player]
            if seat.join_token:
                return seat.join_token
            token = secrets.token_urlsafe(16)
            self.store.set_seat(self.game_id or 0, player, token_hash=seat.token_hash,
                                join_token=token)
            self._bump("seat", player)
            return token

    def _open_free_seats(self) -> None:
        """Give every seat with no phone its join token (when a game starts or is
        loaded), so that showing the QR codes changes nothing."""
        seats = self.store.seats(self.game_id or 0)
        for player in self.game.players if self.game else ():
            seat = seats[player]
            if seat.join_token is None and seat.token_hash is None:
                self.store.set_seat(self.game_id or 0, player, token_hash=None,
                                    join_token=secrets.token_urlsafe(16))

    def join_tokens(self) -> dict[str, str]:
        """The open join token of every seat that has no phone or is being moved."""
        with self._lock:
            if self.game is None:
                return {}
            seats = self.store.seats(self.game_id or 0)
            return {player: seats[player].join_token for player in self.game.players
                    if seats[player].join_token}

    def join(self, join_token: str, lang: str | None = None) -> tuple[str, str]:
        """Claim the seat whose QR code holds `join_token`: returns (player, seat token).
        The join token is used up; an earlier phone on the seat is logged out."""
        with self._lock:
            self._need_game()
            for player, seat in self.store.seats(self.game_id or 0).items():
                if seat.join_token and hmac.compare_digest(seat.join_token, str(join_token)):
                    token = secrets.token_urlsafe(24)
                    self.store.set_seat(self.game_id or 0, player, token_hash=token_hash(token),
                                        join_token=None, lang=lang)
                    self._feed({"kind": "join", "ok": True, "player": player})
                    self._bump("join", player)
                    return player, token
        raise TableError(403, "this join link is used up or belongs to an earlier game: "
                              "scan the seat's QR code on the table page again")

    def seat_for(self, token: str | None) -> str | None:
        """The seat a phone's token belongs to, or None for a missing/wrong/old token."""
        if not token or self.game is None:
            return None
        digest = token_hash(str(token))
        with self._lock:
            for player, seat in self.store.seats(self.game_id or 0).items():
                if seat.token_hash and hmac.compare_digest(seat.token_hash, digest):
                    return player
        return None

    def seat_lang(self, player: str) -> str | None:
        with self._lock:
            if self.game is None or player not in self.game.players:
                return None
            return self.store.seats(self.game_id or 0)[player].lang

    def set_lang(self, player: str, lang: str) -> None:
        with self._lock:
            self._need_player(player)
            self.store.set_seat_lang(self.game_id or 0, player, lang)
            self._bump("lang", player)

    # -- phase I: buy-backs, secret cards, the reveal ------------------------------------

    def buyback(self, player: str, gem: str | None = None) -> None:
        """R-BUY: pay `gem` from the camp (or take the free canoe with gem=None)."""
        with self._lock:
            game = self._need_player(player)
            event = Buyback(player, gem)
            try:
                game.apply(event)
            except IllegalEvent as exc:
                raise TableError(409, exc.message, exc.rule) from None
            self.store.append_event(self.game_id or 0, event.to_json())
            self._feed({"kind": "buyback", "ok": True, "player": player, "gem": gem})
            self._bump("buyback", player)
        self._maybe_auto_reveal()

    def choose(self, player: str, card: Any) -> None:
        """A phone lays its card face down (or changes it, until the reveal)."""
        with self._lock:
            game = self._need_player(player)
            try:
                card = parse_card(card)
            except LogError as exc:
                raise TableError(400, exc.message, "LOG") from None
            if game.phase != "cards":
                if game.is_over:
                    raise TableError(409, "the game is over", "R-WIN-2")
                raise TableError(409, "the cards of this round are revealed: your card is "
                                      "locked until the next round", "R-CARD-1")
            hand = game.state.hands[player]
            if card not in hand:
                raise TableError(409, f"{card} is not in your hand: it was played in this "
                                      "cycle and returns after all 7", "R-CARD-2")
            self._choices[player] = card
            self.store.set_choice(self.game_id or 0, player, card)
            self._bump("choice", player)
        self._maybe_auto_reveal()

    def withdraw(self, player: str) -> None:
        """Take a face-down card back into the hand (before the reveal)."""
        with self._lock:
            game = self._need_player(player)
            if game.phase != "cards":
                raise TableError(409, "the cards of this round are revealed: your card is "
                                      "locked until the next round", "R-CARD-1")
            if self._choices.pop(player, None) is not None:
                self.store.clear_choice(self.game_id or 0, player)
                self._bump("choice", player)

    def choice(self, player: str) -> Any:
        """`player`'s face-down card before the reveal (for that player's phone only)."""
        return self._choices.get(player)

    def chosen(self) -> list[str]:
        """Who has a card down, in turn order (never which card)."""
        game = self.game
        if game is None:
            return []
        if game.phase == "cards":
            return [p for p in game.state.turn_order if p in self._choices]
        return [p for p in game.state.turn_order if p in game.state.cards]

    def must_buy_back(self) -> list[str]:
        """Players with no canoe left who must buy back (or take the free canoe) first."""
        game = self.game
        if game is None or game.phase != "cards":
            return []
        return [p for p in game.players
                if all(at == "F" for at, _ in game.state.canoes[p])]

    def reveal_blocker(self) -> str | None:
        """Why the cards cannot be revealed now, or None when they can."""
        game = self.game
        if game is None:
            return "no game is set up yet"
        if game.phase != "cards":
            return "the cards of this round are already revealed"
        waiting = [p for p in game.state.turn_order if p not in self._choices]
        if waiting:
            return f"waiting for {', '.join(waiting)} to choose a card"
        stuck = self.must_buy_back()
        if stuck:
            return f"{', '.join(stuck)} must first buy back a canoe (R-BUY-2, R-BUY-3)"
        return None

    def reveal(self, by: str | None = None) -> None:
        """Turn the face-down cards into this round's `cards` event (R-CARD-1, R-TURN-1).
        `by` is the phone that asked (only the life-ring holder may); None is the table."""
        with self._lock:
            game = self._need_game()
            if by is not None and game.phase == "cards" and by != game.state.start:
                raise TableError(403, f"only {game.state.start}, who holds the life ring, "
                                      "reveals first", "R-TURN-1")
            blocker = self.reveal_blocker()
            if blocker:
                raise TableError(409, blocker)
            event = Cards.of({p: self._choices[p] for p in game.players})
            try:
                game.apply(event)
            except IllegalEvent as exc:  # e.g. a buy-back undone after the choices
                raise TableError(409, f"the cards cannot be revealed ({exc.rule}); "
                                      "check the buy-backs and choose again", exc.rule) from None
            self.store.append_event(self.game_id or 0, event.to_json(), clear_choices=True)
            self._choices = {}
            self._feed({"kind": "reveal", "ok": True, "player": game.to_move,
                        "card": game.state.cards.get(game.to_move or "")})
            self._bump("reveal", by)

    def _maybe_auto_reveal(self) -> None:
        if self.auto_reveal and self.reveal_blocker() is None:
            try:
                self.reveal()
            except TableError:
                pass

    # -- phase II and III: turns, the river, undo ------------------------------------

    def play_turn(self, turn: Turn | Mapping[str, Any] | str, *,
                  source: str = "table") -> Verdict:
        """The move of the player to move: a Turn, its JSON, or the text notation.
        Returns the referee's verdict; an illegal move is reported in the feed (with
        what to do) and changes nothing. Malformed input raises TableError."""
        with self._lock:
            game = self._need_game()
            player = game.to_move
            try:
                if isinstance(turn, str):
                    if player is None:
                        raise TableError(409, self._not_turns_message(game), "R-TURN-1")
                    turn = parse_turn(turn, player)
                elif not isinstance(turn, Turn):
                    event = parse_event(dict(turn))
                    if not isinstance(event, Turn):
                        raise TableError(400, "expected a turn event")
                    turn = event
            except LogError as exc:
                raise TableError(400, exc.message, "LOG") from None
            card = game.state.cards.get(turn.player)
            verdict = game.try_apply(turn)
            if not verdict.ok:
                hint = self._hint(game, turn)
                self._feed({"kind": "turn", "ok": False, "player": turn.player,
                            "text": format_turn(turn), "rule": verdict.rule,
                            "message": verdict.message, "source": source, **hint})
                self._bump("illegal", turn.player, verdict, turn)
                return verdict
            self.store.append_event(self.game_id or 0, turn.to_json())
            self._feed({"kind": "turn", "ok": True, "player": turn.player, "card": card,
                        "text": format_turn(turn), "source": source})
            if game.is_over:
                self.store.end_game(self.game_id or 0)
                self._feed({"kind": "over", "ok": True, "winners": game.winners})
            elif game.to_move:
                self._feed({"kind": "reveal", "ok": True, "player": game.to_move,
                            "card": game.state.cards[game.to_move]})
            self._bump("turn", turn.player, event=turn)
            return verdict

    def move_river(self, steps: int | None = None, branches: Sequence[str] | None = None, *,
                   source: str = "table") -> Verdict:
        """Phase III (R-RIVER): push the river; `branches` as observed on the table."""
        with self._lock:
            game = self._need_game()
            body: dict[str, Any] = {"event": "river"}
            if steps is not None:
                body["steps"] = steps
            if branches is not None:
                body["branches"] = list(branches)
            try:
                event = parse_event(body)
            except LogError as exc:
                raise TableError(400, exc.message, "LOG") from None
            assert isinstance(event, River)
            speed = game.speed
            # What falls is read before the river moves, and only for a push the rules
            # allow (a bad `steps` from a request must not make us simulate it).
            preview = game.preview_river(speed, event.branches) \
                if speed is not None and event.steps in (None, speed) else None
            verdict = game.try_apply(event)
            if not verdict.ok:
                self._feed({"kind": "river", "ok": False, "rule": verdict.rule,
                            "message": verdict.message, "source": source,
                            "hint": "river" if game.phase == "river" else "wait"})
                self._bump("illegal", None, verdict, event)
                return verdict
            self.store.append_event(self.game_id or 0, event.to_json())
            self._feed({"kind": "river", "ok": True, "steps": speed,
                        "branches": list(preview.branches) if preview else [],
                        "fell": [[p, at, gem] for p, at, gem in preview.falling_canoes]
                        if preview else [],
                        "source": source})
            self._bump("river", event=River(speed, preview.branches) if preview else None,
                       river=preview)
            return verdict

    # -- the camera ------------------------------------------------------------------

    def observe(self, observation: Mapping[str, Any], *, source: str = "camera") -> str:
        """A stable view of the board (vision.md observation) from the camera.

        If it shows the game as it stands: "same". In phase II, the move it shows is
        played ("applied"); when several legal moves fit, the players are asked on the
        table page ("ambiguous"); when none fits, the referee flags it with the closest
        legal move and what to put back ("flagged"). A player who moves a second canoe
        after the camera already took the first for the whole turn has that turn
        replaced. In phase III the river's steps and branches are read off the board;
        in phase I canoes bought back are noted (the gem is paid on the phone)."""
        from companion.vision.expected import canoes_of
        from companion.vision.inference import (
            InferenceError,
            ObservationError,
            compare,
            infer,
            read_observation,
        )

        with self._lock:
            game = self._need_game()
            try:
                seen = read_observation(observation)
            except ObservationError as exc:
                raise TableError(400, str(exc)) from None
            cost, _ = compare(canoes_of(game.state), seen, game.players,
                              weather=game.state.weather)
            if cost == 0:
                return "same"
            if game.is_over:
                return "ignored"
            if game.phase == "turns" and self._amend_camera_turn(seen):
                return "applied"
            try:
                result = infer(game, seen)
            except InferenceError as exc:
                log.info("camera: %s", exc)
                return "ignored"
            if game.phase == "cards":
                if result.status == "exact" and getattr(result, "events", ()):
                    for event in result.events:
                        self.buyback(event.player, event.gem)
                    return "applied"
                self._feed({"kind": "camera", "ok": True, "status": result.status,
                            "message": result.summary})
                self._bump("camera")
                return result.status
            if result.status == "exact":
                event = result.candidates[0].event
                if isinstance(event, Turn):
                    verdict = self.play_turn(event, source=source)
                    self._camera_turn_at = len(game.events) if verdict.ok else None
                else:
                    verdict = self.move_river(event.steps, event.branches, source=source)
                return "applied" if verdict.ok else "flagged"
            entry: dict[str, Any] = {"kind": "camera", "ok": False, "status": result.status,
                                     "player": game.to_move, "message": result.summary,
                                     "source": source}
            if result.status == "ambiguous":
                entry["choices"] = [c.text for c in result.best]
            else:
                entry["diff"] = result.diff
                entry["closest"] = [c.text for c in result.closest()]
                entry["rule"] = "R-TURN-1" if game.phase == "turns" else "R-RIVER-2"
            self._feed(entry)
            self._bump("illegal" if result.status == "none" else "camera", game.to_move)
            return "flagged" if result.status == "none" else "ambiguous"

    def _amend_camera_turn(self, seen: Any) -> bool:
        """The last turn came from the camera and the board changed again before the
        next player moved: the player had not finished. Re-read their whole turn."""
        from companion.vision.inference import infer_turn

        game = self._need_game()
        if self._camera_turn_at != len(game.events):
            return False
        last = game.events[-1]
        if not isinstance(last, Turn):
            return False
        probe = Game.from_events([game.setup, *game.events[:-1]])
        result = infer_turn(probe, seen)
        if result.status != "exact" or result.turn == last:
            return False
        self.undo()
        ok = self.play_turn(result.turn, source="camera").ok
        self._camera_turn_at = len(game.events) if ok else None
        return ok

    def undo(self) -> None:
        """Take back the last event. Undoing the reveal puts the cards face down again."""
        with self._lock:
            game = self._need_game()
            if not game.events:
                raise TableError(409, "nothing to undo: the game has just been set up")
            last = game.events[-1]
            restore = last.as_dict() if isinstance(last, Cards) else None
            game.undo()
            self.store.pop_event(self.game_id or 0, restore_choices=restore)
            if restore is not None:
                self._choices = dict(restore)
                what: dict[str, Any] = {"undone": "reveal"}
            elif isinstance(last, Turn):
                what = {"undone": "turn", "player": last.player, "text": format_turn(last)}
            elif isinstance(last, Buyback):
                what = {"undone": "buyback", "player": last.player}
            else:
                what = {"undone": "river"}
            self._feed({"kind": "undo", "ok": True, **what})
            self._bump("undo")

    def legal_turns(self) -> tuple[list[str], int]:
        """The player to move's legal turns in text notation (at most MAX_LEGAL_LISTED)
        and how many there are. Public: the card is face up on their turn."""
        with self._lock:
            game = self.game
            if game is None or game.to_move is None:
                return [], 0
            if self._legal_cache and self._legal_cache[0] == self.version:
                return self._legal_cache[1], self._legal_cache[2]
            turns = [format_turn(t) for t in game.legal_turns()]
            listed = sorted(turns, key=lambda t: (len(t), t))[:MAX_LEGAL_LISTED]
            self._legal_cache = (self.version, listed, len(turns))
            return listed, len(turns)

    @staticmethod
    def _not_turns_message(game: Game) -> str:
        if game.is_over:
            return "the game is over"
        if game.phase == "cards":
            return "no turn now: the cards are not revealed yet"
        return "no turn now: every player has moved; the river moves next"

    @staticmethod
    def _hint(game: Game, turn: Turn) -> dict[str, Any]:
        """What to do after an illegal move: put the pieces back and play a legal turn."""
        player = game.to_move
        if player is None:
            return {"hint": "river" if game.phase == "river" else "wait"}
        if turn.player != player:
            return {"hint": "other", "to_move": player}
        try:
            legal = game.legal_turns()
        except ValueError:
            return {"hint": "wait"}
        example = min((format_turn(t) for t in legal), key=len, default="pass")
        return {"hint": "retry", "to_move": player, "legal": len(legal), "example": example}

    # -- views (what each screen may see) -------------------------------------------

    def view(self, seat: str | None = None) -> dict[str, Any]:
        """The state for one phone (`seat`) or the table/public (None): the rules
        engine's view (no other hand, no unrevealed card) plus what the pages need."""
        with self._lock:
            game = self.game
            if game is None:
                return {"game": None, "version": self.version, "seat": seat}
            if seat is not None and seat not in game.players:
                raise TableError(404, f"{seat!r} is not a seat in this game")
            out = game.view(seat)
            seats = self.store.seats(self.game_id or 0)
            out["game"] = self.game_id
            out["version"] = self.version
            out["seat"] = seat
            out["chosen"] = self.chosen()
            out["turn_order"] = list(game.state.turn_order)
            out["joined"] = [p for p in game.players if seats[p].token_hash]
            out["must_buy_back"] = self.must_buy_back()
            out["reveal_blocker"] = self.reveal_blocker()
            from companion.hardware.danger import danger_zone  # the LEDs' own zone

            zone = danger_zone(game)
            # Before the river the zone's speeds are the speeds still possible.
            out["possible_speeds"] = sorted(zone.speeds) \
                if game.phase in ("cards", "turns") else None
            out["danger"] = self._danger(game, zone)
            out["feed"] = self.store.feed(self.game_id or 0, 30)
            if seat is not None:
                out["choice"] = self._choices.get(seat)
                out["buyback"] = self._buyback_options(game, seat)
            else:
                out["legal"], out["legal_count"] = self.legal_turns()
            return out

    @staticmethod
    def _buyback_options(game: Game, seat: str) -> dict[str, Any]:
        fallen = sum(1 for at, _ in game.state.canoes[seat] if at == "F")
        camp = sorted(set(game.state.camps[seat]))
        if game.phase != "cards" or not fallen:
            return {"fallen": fallen, "gems": [], "free": False, "must": False}
        return {"fallen": fallen, "gems": camp, "free": fallen == 2 and not camp,
                "must": fallen == 2}

    @staticmethod
    def _danger(game: Game, zone: DangerZone) -> dict[str, Any]:
        """The LEDs' danger zone (companion.hardware.danger, public information only):
        slots whose disc goes over the falls this round, for the known speed or for
        some speed still possible (`certain` for every one of them)."""
        if game.phase == "over":
            return {"known": True, "steps": 0, "slots": [], "certain": [], "canoes": []}
        steps = max(zone.speeds, default=0)
        preview = game.preview_river(steps)
        return {"known": zone.known, "steps": steps,
                "slots": [s for s in preview.falling_slots
                          if s in zone.certain or s in zone.possible],
                "certain": sorted(zone.certain),
                "branches": list(preview.branches),
                "canoes": [[p, at, gem] for p, at, gem in zone.canoes]}

    def log_lines(self) -> list[str]:
        """The game log, when it holds no unrevealed card (not during phase II)."""
        with self._lock:
            game = self._need_game()
            if game.phase == "turns":
                raise TableError(409, "the log is available between rounds: during phase II "
                                      "it holds cards that are not revealed yet")
            return self.store.log_lines(self.game_id or 0)

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

    def _feed(self, entry: dict[str, Any]) -> None:
        entry = {"at": round(self.clock(), 3), **entry}
        self.store.add_feed(self.game_id or 0, entry)

    def _bump(self, kind: str, player: str | None = None, verdict: Verdict | None = None,
              event: Any = None, river: Any = None) -> None:
        """Announce a change (called with the lock held): wake the live streams now, and
        queue the change for the subscribers, who are called in order on one thread."""
        self.version += 1
        self._changed.notify_all()
        if self._subscribers:
            change = Change(kind, self.version, player, verdict, event, river)
            self._outbox.put((change, list(self._subscribers)))

    def _deliver(self) -> None:
        while True:
            change, subscribers = self._outbox.get()
            for callback in subscribers:
                try:
                    callback(change)
                except Exception:  # one broken follower must not stop the game
                    log.exception("table subscriber %r failed on %s", callback, change)


def follow_with_leds(table: Table, controller: Any) -> Callable[[], None]:
    """Keep an LED controller (companion.hardware.LedController) showing the table's
    game: every change, and an illegal move's places blinking. Returns unsubscribe."""
    def show(change: Change) -> None:
        if table.game is not None:
            controller.show(table.game, change.verdict, change.event, change.river)
    if table.game is not None:
        controller.show(table.game)
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


__all__ = ["Table", "TableError", "Change", "follow_with_leds", "button_actions"]
