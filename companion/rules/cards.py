"""Phase I at a real table: each player lays a card face down (and may change it) until
the reveal turns every card into one `cards` event (R-CARD-1), after the buy-backs
(R-BUY). The choices are secret; the engine only ever sees the revealed event.

>>> from companion.rules import Game
>>> game = Game(["blue", "green", "yellow"])
>>> phase = CardPhase(game)
>>> phase.choose("blue", 6)
>>> phase.blocker().message
'waiting for green, yellow to choose a card'
>>> phase.choose("green", "cloud"); phase.choose("yellow", 5)
>>> game.apply(phase.reveal())
>>> game.phase
'turns'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import IllegalEvent, LogError
from .events import Buyback, Card, Cards, parse_card
from .game import Game
from .geometry import Phase


class CardPhase:
    """The face-down cards of the current round of `game`, before the reveal.

    Pure: it reads `game` and keeps the choices; storing them is the caller's job."""

    def __init__(self, game: Game, choices: Mapping[str, Card] | None = None) -> None:
        self.game = game
        self.choices: dict[str, Card] = dict(choices or {})

    def _locked(self) -> IllegalEvent | None:
        if self.game.is_over:
            return IllegalEvent("R-WIN-2", "the game is over")
        if self.game.phase != Phase.CARDS:
            return IllegalEvent("R-CARD-1", "the cards of this round are revealed: your "
                                "card is locked until the next round")
        return None

    def choose(self, player: str, card: Any) -> None:
        """Lay `card` face down for `player` (or change it). LogError for what is not a
        card or not a player; IllegalEvent R-CARD-1 after the reveal, R-CARD-2 for a card
        not in hand."""
        card = parse_card(card)
        if player not in self.game.players:
            raise LogError(f"{player} is not playing in this game "
                           f"(players: {', '.join(self.game.players)})")
        locked = self._locked()
        if locked:
            raise locked
        if card not in self.game.state.hands[player]:
            raise IllegalEvent("R-CARD-2", f"{card} is not in your hand: it was played in "
                               "this cycle and returns after all 7")
        self.choices[player] = card

    def withdraw(self, player: str) -> bool:
        """Take `player`'s face-down card back; False when there was none."""
        if self.game.phase != Phase.CARDS:
            raise IllegalEvent("R-CARD-1", "the cards of this round are revealed: your "
                               "card is locked until the next round")
        return self.choices.pop(player, None) is not None

    def chosen(self) -> list[str]:
        """Who has a card down, in turn order (never which card)."""
        state = self.game.state
        down = self.choices if self.game.phase == Phase.CARDS else state.cards
        return [p for p in state.turn_order if p in down]

    def must_buy_back(self) -> list[str]:
        """R-BUY-2/3: players with no canoe left, who buy one back before the cards."""
        if self.game.phase != Phase.CARDS:
            return []
        state = self.game.state
        return [p for p in self.game.players if all(at == "F" for at, _ in state.canoes[p])]

    def buyback_options(self, player: str) -> dict[str, Any]:
        """What `player` may do about their fallen canoes now, as the engine judges it:
        the camp gems they may pay, whether the free canoe applies, whether they must."""
        state = self.game.state
        fallen = sum(1 for at, _ in state.canoes[player] if at == "F")
        gems = [g for g in sorted(set(state.camps[player]))
                if self.game.check(Buyback(player, g)).ok]
        free = self.game.check(Buyback(player, None)).ok
        must = self.game.phase == Phase.CARDS and fallen == 2
        return {"fallen": fallen, "gems": gems, "free": free, "must": must}

    def blocker(self) -> IllegalEvent | None:
        """Why the cards cannot be revealed now, or None when they can."""
        if self.game.phase != Phase.CARDS:
            return IllegalEvent("R-CARD-1", "the cards of this round are already revealed")
        waiting = [p for p in self.game.state.turn_order if p not in self.choices]
        if waiting:
            return IllegalEvent("R-CARD-1", f"waiting for {', '.join(waiting)} to choose "
                                "a card")
        stuck = self.must_buy_back()
        if stuck:
            return IllegalEvent("R-BUY-2", f"{', '.join(stuck)} must first buy back a canoe "
                                "(R-BUY-2, R-BUY-3)")
        return None

    def reveal(self) -> Cards:
        """This round's `cards` event, judged by the engine (IllegalEvent if it may not
        be played now, e.g. a buy-back undone after the choices). Changes nothing: the
        caller applies it and starts a new CardPhase next round."""
        blocker = self.blocker()
        if blocker:
            raise blocker
        event = Cards.of({p: self.choices[p] for p in self.game.players})
        verdict = self.game.check(event)
        if not verdict.ok:
            raise IllegalEvent(verdict.rule or "R-CARD-1", verdict.message or "",
                               verdict.places)
        return event


__all__ = ["CardPhase"]
