"""The Table: the running companion's game, put together from its parts (the session,
the seats, the face-down cards of phase I, the camera referee, the views) with the
game's own actions: the turns, the river and undo."""

from __future__ import annotations

import hmac
import logging
import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from companion.rules import (
    Buyback,
    CardPhase,
    Cards,
    Game,
    LogError,
    Phase,
    River,
    Turn,
    Verdict,
    format_turn,
    parse_event,
    parse_turn,
)
from companion.store import Store

from . import views
from .camera_referee import CameraReferee
from .errors import Conflict, Illegal, Invalid
from .face_down import FaceDownCards
from .seats import Seats
from .session import Session

log = logging.getLogger("companion.app")


class Table(Session):
    """The running companion's game. Thread-safe; every change is stored before it is
    announced, so a restart (``Table(store)`` on the same file) resumes exactly."""

    def __init__(self, store: Store, *, auto_reveal: bool = False,
                 clock: Callable[[], float] = time.time) -> None:
        super().__init__(store, clock=clock)
        self.auto_reveal = auto_reveal
        self.seats = Seats(self)
        self.face_down = FaceDownCards(self)
        self.camera_referee = CameraReferee(self)
        self.cards: CardPhase | None = None  # the face-down cards, in phase I
        self._legal_cache: tuple[int, list[str], int] | None = None
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
            self.cards = CardPhase(game, self.store.choices(game_id)
                                   if game.phase == Phase.CARDS else {})
            self.seats.open_free()
            self.bump("resume")
            self._river_of_speed_zero()  # if the power went between it and its turn
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
            raise Invalid(exc.message, "LOG") from None
        with self._lock:
            self.game_id = self.store.new_game(game.setup.to_json())
            self.game = game
            self.cards = CardPhase(game)
            self.seats.open_free()
            self.feed({"kind": "new-game", "ok": True, "players": list(game.players),
                       "start": game.setup.start})
            self.bump("new-game")

    # -- seats and phones (companion.table.seats) --------------------------------------

    def check_table_key(self, key: str | None) -> bool:
        return bool(key) and hmac.compare_digest(str(key), self.table_key)

    def open_seat(self, player: str) -> str:
        """A fresh one-use join token for `player`'s QR code (see Seats.open)."""
        return self.seats.open(player)

    def join_tokens(self) -> dict[str, str]:
        """The open join token of every seat that has no phone or is being moved."""
        return self.seats.join_tokens()

    def join(self, join_token: str, lang: str | None = None) -> tuple[str, str]:
        """Claim the seat whose QR code holds `join_token`: returns (player, seat token)."""
        return self.seats.join(join_token, lang)

    def seat_for(self, token: str | None) -> str | None:
        """The seat a phone's token belongs to, or None for a missing/wrong/old token."""
        return self.seats.seat_for(token)

    def seat_lang(self, player: str) -> str | None:
        return self.seats.lang(player)

    def set_lang(self, player: str, lang: str) -> None:
        self.seats.set_lang(player, lang)

    # -- phase I: buy-backs, secret cards, the reveal (the actions: table.face_down) --

    def buyback(self, player: str, gem: str | None = None) -> None:
        """R-BUY: pay `gem` from the camp (or take the free canoe with gem=None)."""
        self.face_down.buyback(player, gem)

    def choose(self, player: str, card: Any) -> None:
        """A phone lays its card face down (or changes it, until the reveal)."""
        self.face_down.choose(player, card)

    def withdraw(self, player: str) -> None:
        """Take a face-down card back into the hand (before the reveal)."""
        self.face_down.withdraw(player)

    def choice(self, player: str) -> Any:
        """`player`'s face-down card before the reveal (for that player's phone only)."""
        return self.cards.choices.get(player) if self.cards else None

    @property
    def _choices(self) -> dict[str, Any]:
        # The secret choices, for tests that compare the whole table before and after
        # a refused request (tests/web/test_bad_input.py); the pages use choice().
        return self.cards.choices if self.cards else {}

    def chosen(self) -> list[str]:
        """Who has a card down, in turn order (never which card)."""
        return self.cards.chosen() if self.cards else []

    def must_buy_back(self) -> list[str]:
        """Players with no canoe left who must buy back (or take the free canoe) first."""
        return self.cards.must_buy_back() if self.cards else []

    def reveal_blocker(self) -> str | None:
        """Why the cards cannot be revealed now, or None when they can."""
        return self.face_down.blocker()

    def reveal(self, by: str | None = None) -> None:
        """Turn the face-down cards into this round's `cards` event (R-CARD-1, R-TURN-1).
        `by` is the phone that asked (only the life-ring holder may); None is the table."""
        self.face_down.reveal(by)

    # -- phase II and III: turns, the river, undo ------------------------------------

    def play_turn(self, turn: Turn | Mapping[str, Any] | str, *,
                  source: str = "table") -> Verdict:
        """The move of the player to move: a Turn, its JSON, or the text notation.
        Returns the referee's verdict; an illegal move is reported in the feed (with
        what to do) and changes nothing. Malformed input raises Invalid (a TableError)."""
        with self._lock:
            game = self.need_game()
            player = game.to_move
            try:
                if isinstance(turn, str):
                    if player is None:
                        raise Illegal(*_not_turns(game))
                    turn = parse_turn(turn, player)
                elif not isinstance(turn, Turn):
                    event = parse_event(dict(turn))
                    if not isinstance(event, Turn):
                        raise Invalid("expected a turn event")
                    turn = event
            except LogError as exc:
                raise Invalid(exc.message, "LOG") from None
            card = game.state.cards.get(turn.player)
            verdict = game.try_apply(turn)
            if not verdict.ok:
                hint = _hint(game, turn)
                self.feed({"kind": "turn", "ok": False, "player": turn.player,
                           "text": format_turn(turn), "rule": verdict.rule,
                           "message": verdict.message, "key": verdict.key,
                           "fields": verdict.fields, "source": source, **hint})
                self.bump("illegal", turn.player, verdict, turn)
                return verdict
            self.store.append_event(self.game_id or 0, turn.to_json())
            self.feed({"kind": "turn", "ok": True, "player": turn.player, "card": card,
                       "text": format_turn(turn), "source": source})
            if game.is_over:
                self.store.end_game(self.game_id or 0)
                self.feed({"kind": "over", "ok": True, "winners": game.winners})
            elif game.to_move:
                self.feed({"kind": "reveal", "ok": True, "player": game.to_move,
                           "card": game.state.cards[game.to_move]})
            self.bump("turn", turn.player, event=turn)
            self._river_of_speed_zero()
            return verdict

    def _river_of_speed_zero(self) -> None:
        """Nothing on the board moves this round (R-RIVER-1): no camera can see the
        river's phase and nobody should have to press for it; the table plays it."""
        if self.game is not None and _still_river(self.game):
            self.move_river(0, [], source="rules")

    def move_river(self, steps: int | None = None, branches: Sequence[str] | None = None, *,
                   source: str = "table") -> Verdict:
        """Phase III (R-RIVER): push the river; `branches` as observed on the table."""
        with self._lock:
            game = self.need_game()
            body: dict[str, Any] = {"event": "river"}
            if steps is not None:
                body["steps"] = steps
            if branches is not None:
                body["branches"] = list(branches)
            try:
                event = parse_event(body)
            except LogError as exc:
                raise Invalid(exc.message, "LOG") from None
            assert isinstance(event, River)
            speed = game.speed
            # What falls is read before the river moves, and only for a push the rules
            # allow (a bad `steps` from a request must not make us simulate it).
            preview = game.preview_river(speed, event.branches) \
                if speed is not None and event.steps in (None, speed) else None
            verdict = game.try_apply(event)
            if not verdict.ok:
                self.feed({"kind": "river", "ok": False, "rule": verdict.rule,
                           "message": verdict.message, "key": verdict.key,
                           "fields": verdict.fields, "source": source,
                           "hint": "river" if game.phase == Phase.RIVER else "wait"})
                self.bump("illegal", None, verdict, event)
                return verdict
            self.store.append_event(self.game_id or 0, event.to_json())
            self.feed({"kind": "river", "ok": True, "steps": speed,
                       "branches": list(preview.branches) if preview else [],
                       "fell": [[p, at, gem] for p, at, gem in preview.falling_canoes]
                       if preview else [],
                       "source": source})
            self.bump("river", event=River(speed, preview.branches) if preview else None,
                      river=preview)
            return verdict

    def observe(self, observation: Mapping[str, Any], *, source: str = "camera",
                first: bool = False) -> str:
        """A stable view of the board (vision.md observation) from the camera.

        If it shows the game as it stands: "same". In phase II, the move it shows is
        played ("applied"); when several legal moves fit, the players are asked on the
        table page ("ambiguous"); when none fits, the referee flags it with the closest
        legal move and what to put back ("flagged"). A player who moves a second canoe
        after the camera already took the first for the whole turn has that turn
        replaced. In phase III the river's steps and branches are read off the board;
        in phase I canoes bought back are noted (the gem is paid on the phone).

        `first`: the camera's first look at the game, nothing having moved over the
        board since it began watching (a restart with nothing kept, a new calibration).
        Read otherwise than the game has it, it plays and flags nothing: the game is
        taken as it stands ("taken"), unless an event of the phase fits it better than
        nothing having moved (a turn of the player to move, the river's push), of which
        the players are asked ("ambiguous")."""
        return self.camera_referee.observe(observation, source=source, first=first)

    def undo(self) -> None:
        """Take back the last event. Undoing the reveal puts the cards face down again."""
        with self._lock:
            game = self.need_game()
            if not game.events:
                raise Conflict("nothing to undo: the game has just been set up")
            last = game.events[-1]
            restore = last.as_dict() if isinstance(last, Cards) else None
            game.undo()
            self.store.pop_event(self.game_id or 0, restore_choices=restore)
            if isinstance(last, River) and _still_river(game) \
                    and game.events and isinstance(game.events[-1], Turn):
                # A river of speed 0 is the table's own, played with the last turn
                # (R-RIVER-1): it goes back with that turn.
                last = game.events[-1]
                game.undo()
                self.store.pop_event(self.game_id or 0)
            if restore is not None:
                self.cards = CardPhase(game, restore)
                what: dict[str, Any] = {"undone": "reveal"}
            elif isinstance(last, Turn):
                what = {"undone": "turn", "player": last.player, "text": format_turn(last)}
            elif isinstance(last, Buyback):
                what = {"undone": "buyback", "player": last.player}
            else:
                what = {"undone": "river"}
            self.feed({"kind": "undo", "ok": True, **what})
            self.bump("undo")

    def legal_turns(self) -> tuple[list[str], int]:
        """The player to move's legal turns in text notation (at most MAX_LEGAL_LISTED)
        and how many there are. Public: the card is face up on their turn."""
        with self._lock:
            game = self.game
            if game is None or game.to_move is None:
                return [], 0
            if self._legal_cache and self._legal_cache[0] == self.version:
                return self._legal_cache[1], self._legal_cache[2]
            listed, count = views.legal_turns(game)
            self._legal_cache = (self.version, listed, count)
            return listed, count

    # -- what each screen may see (companion.table.views) ----------------------------

    def view(self, seat: str | None = None) -> dict[str, Any]:
        """The state for one phone (`seat`) or the table/public (None): the rules
        engine's view (no other hand, no unrevealed card) plus what the pages need."""
        return views.view(self, seat)

    def log_lines(self) -> list[str]:
        """The game log, when it holds no unrevealed card (not during phase II)."""
        with self._lock:
            game = self.need_game()
            if game.phase == Phase.TURNS:
                raise Conflict("the log is available between rounds: during phase II "
                               "it holds cards that are not revealed yet")
            return self.store.log_lines(self.game_id or 0)


def _not_turns(game: Game) -> tuple[str, str]:
    """Why no turn can be played now, and the rule that says so (the engine cites the
    same rules for a turn event at these moments)."""
    if game.is_over:
        return "the game is over", "R-WIN-2"
    if game.phase == Phase.CARDS:
        return "no turn now: the cards are not revealed yet", "R-CARD-1"
    return "no turn now: every player has moved; the river moves next", "R-RIVER-1"


def _hint(game: Game, turn: Turn) -> dict[str, Any]:
    """What to do after an illegal move: put the pieces back and play a legal turn."""
    player = game.to_move
    if player is None:
        return {"hint": "river" if game.phase == Phase.RIVER else "wait"}
    if turn.player != player:
        return {"hint": "other", "to_move": player}
    try:
        legal = game.legal_turns()
    except ValueError:
        return {"hint": "wait"}
    example = min((format_turn(t) for t in legal), key=len, default="pass")
    return {"hint": "retry", "to_move": player, "legal": len(legal), "example": example}


def _still_river(game: Game) -> bool:
    """The game waits for a river of speed 0 (R-RIVER-1)."""
    return game.phase == Phase.RIVER and game.speed == 0


__all__ = ["Table"]

