"""Phase I at the table: buy-backs, the cards the phones lay face down, and the reveal
(R-BUY, R-CARD). Each change is stored before it is announced, as all of the Table's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.rules import Buyback, CardPhase, IllegalEvent, LogError, Phase

from .errors import Conflict, Forbidden, Illegal, Invalid

if TYPE_CHECKING:
    from .table import Table


class FaceDownCards:
    """The changes phase I makes at the table: buy-backs, laying and withdrawing
    face-down cards, and the reveal. They act on ``Table.cards`` (a ``CardPhase``),
    which the Table sets with every game and undo."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def buyback(self, player: str, gem: str | None = None) -> None:
        """R-BUY: pay `gem` from the camp (or take the free canoe with gem=None)."""
        table = self.table
        with table._lock:
            game = table.need_player(player)
            event = Buyback(player, gem)
            try:
                game.apply(event)
            except IllegalEvent as exc:
                raise Illegal.of(exc) from None
            table.store.append_event(table.game_id or 0, event.to_json())
            table.feed({"kind": "buyback", "ok": True, "player": player, "gem": gem})
            table.bump("buyback", player)
        self._maybe_auto_reveal()

    def choose(self, player: str, card: Any) -> None:
        """A phone lays its card face down (or changes it, until the reveal)."""
        table = self.table
        with table._lock:
            cards = self._need_cards(player)
            try:
                cards.choose(player, card)
            except LogError as exc:
                raise Invalid(exc.message, "LOG") from None
            except IllegalEvent as exc:
                raise Illegal.of(exc) from None
            table.store.set_choice(table.game_id or 0, player, cards.choices[player])
            table.bump("choice", player)
        self._maybe_auto_reveal()

    def withdraw(self, player: str) -> None:
        """Take a face-down card back into the hand (before the reveal)."""
        table = self.table
        with table._lock:
            cards = self._need_cards(player)
            try:
                withdrawn = cards.withdraw(player)
            except IllegalEvent as exc:
                raise Illegal.of(exc) from None
            if withdrawn:
                table.store.clear_choice(table.game_id or 0, player)
                table.bump("choice", player)

    def blocker(self) -> str | None:
        """Why the cards cannot be revealed now, or None when they can."""
        if self.table.cards is None:
            return "no game is set up yet"
        blocker = self.table.cards.blocker()
        return blocker.message if blocker else None

    def reveal(self, by: str | None = None) -> None:
        """Turn the face-down cards into this round's `cards` event (R-CARD-1, R-TURN-1).
        `by` is the phone that asked (only the life-ring holder may); None is the table."""
        table = self.table
        with table._lock:
            cards = self._need_cards()
            game = cards.game
            if by is not None and game.phase == Phase.CARDS and by != game.state.start:
                raise Forbidden(f"only {game.state.start}, who holds the life ring, "
                                "reveals first", "R-TURN-1")
            blocker = cards.blocker()
            if blocker:
                raise Conflict(blocker.message)
            try:
                event = cards.reveal()
            except IllegalEvent as exc:  # e.g. a buy-back undone after the choices
                raise Illegal(f"the cards cannot be revealed ({exc.rule}); "
                              "check the buy-backs and choose again", exc.rule) from None
            game.apply(event)
            table.store.append_event(table.game_id or 0, event.to_json(), clear_choices=True)
            table.cards = CardPhase(game)
            table.feed({"kind": "reveal", "ok": True, "player": game.to_move,
                        "card": game.state.cards.get(game.to_move or "")})
            table.bump("reveal", by)

    def _need_cards(self, player: str | None = None) -> CardPhase:
        if player is not None:
            self.table.need_player(player)
        else:
            self.table.need_game()
        assert self.table.cards is not None  # set with every game
        return self.table.cards

    def _maybe_auto_reveal(self) -> None:
        # Through the Table, as a phone's reveal comes: what wraps the Table's reveal
        # (a log, a test's spy) sees this one too.
        if self.table.auto_reveal and self.table.reveal_blocker() is None:
            try:
                self.table.reveal()
            except ValueError:
                pass


__all__ = ["FaceDownCards"]
