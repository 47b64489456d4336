"""Seats and their phones: one-use join tokens for the QR codes, the seat token a
phone keeps in its cookie, and each seat's language."""

from __future__ import annotations

import hmac
import secrets

from companion.store import token_hash

from .errors import Forbidden
from .session import Session


class Seats:
    """The seats of the session's current game, kept in its store."""

    def __init__(self, session: Session) -> None:
        self.session = session

    @property
    def _game_id(self) -> int:
        return self.session.game_id or 0

    def open(self, player: str) -> str:
        """A fresh one-use join token for `player`'s QR code. A phone already on the seat
        keeps it until a new phone joins with this token (then it is logged out)."""
        session = self.session
        with session._lock:
            session.need_player(player)
            seat = session.store.seats(self._game_id)[player]
            if seat.join_token:
                return seat.join_token
            token = secrets.token_urlsafe(16)
            session.store.set_seat(self._game_id, player, token_hash=seat.token_hash,
                                   join_token=token)
            session.bump("seat", player)
            return token

    def open_free(self) -> None:
        """Give every seat with no phone its join token (when a game starts or is
        loaded), so that showing the QR codes changes nothing."""
        store = self.session.store
        seats = store.seats(self._game_id)
        for player in self.session.players:
            seat = seats[player]
            if seat.join_token is None and seat.token_hash is None:
                store.set_seat(self._game_id, player, token_hash=None,
                               join_token=secrets.token_urlsafe(16))

    def join_tokens(self) -> dict[str, str]:
        """The open join token of every seat that has no phone or is being moved."""
        with self.session._lock:
            if self.session.game is None:
                return {}
            seats = self.session.store.seats(self._game_id)
            return {player: token for player in self.session.players
                    if (token := seats[player].join_token)}

    def join(self, join_token: str, lang: str | None = None) -> tuple[str, str]:
        """Claim the seat whose QR code holds `join_token`: returns (player, seat token).
        The join token is used up; an earlier phone on the seat is logged out."""
        session = self.session
        with session._lock:
            session.need_game()
            for player, seat in session.store.seats(self._game_id).items():
                if seat.join_token and hmac.compare_digest(seat.join_token, str(join_token)):
                    token = secrets.token_urlsafe(24)
                    session.store.set_seat(self._game_id, player,
                                           token_hash=token_hash(token), join_token=None,
                                           lang=lang)
                    session.feed({"kind": "join", "ok": True, "player": player})
                    session.bump("join", player)
                    return player, token
        raise Forbidden("this join link is used up or belongs to an earlier game: "
                        "scan the seat's QR code on the table page again")

    def seat_for(self, token: str | None) -> str | None:
        """The seat a phone's token belongs to, or None for a missing/wrong/old token."""
        if not token or self.session.game is None:
            return None
        digest = token_hash(str(token))
        with self.session._lock:
            for player, seat in self.session.store.seats(self._game_id).items():
                if seat.token_hash and hmac.compare_digest(seat.token_hash, digest):
                    return player
        return None

    def joined(self) -> list[str]:
        """The seats that have a phone, in seating order."""
        seats = self.session.store.seats(self._game_id)
        return [p for p in self.session.players if seats[p].token_hash]

    def lang(self, player: str) -> str | None:
        with self.session._lock:
            if player not in self.session.players:
                return None
            return self.session.store.seats(self._game_id)[player].lang

    def set_lang(self, player: str, lang: str) -> None:
        with self.session._lock:
            self.session.need_player(player)
            self.session.store.set_seat_lang(self._game_id, player, lang)
            self.session.bump("lang", player)


__all__ = ["Seats"]
