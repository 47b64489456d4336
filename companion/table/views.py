"""What each screen may see: a phone's view of its own seat, the table's public view.

Built on the rules engine's ``Game.view`` (no other hand, no unrevealed card)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.rules import Game, Phase, danger_zone, format_turn

from .errors import NotFound

if TYPE_CHECKING:
    from .table import Table

MAX_LEGAL_LISTED = 400  # the move picker lists at most this many turns (ranked as generated)


def view(table: Table, seat: str | None = None) -> dict[str, Any]:
    """See Table.view."""
    with table._lock:
        game = table.game
        if game is None:
            return {"game": None, "version": table.version, "seat": seat}
        if seat is not None and seat not in game.players:
            raise NotFound(f"{seat!r} is not a seat in this game")
        out = game.view(seat)
        out["game"] = table.game_id
        out["version"] = table.version
        out["seat"] = seat
        out["chosen"] = table.chosen()
        out["turn_order"] = list(game.state.turn_order)
        out["joined"] = table.seats.joined()
        out["must_buy_back"] = table.must_buy_back()
        out["reveal_blocker"] = table.reveal_blocker()
        zone = table.zone or danger_zone(game)  # the one the LEDs show, computed once
        # Before the river the zone's speeds are the speeds still possible.
        out["possible_speeds"] = sorted(zone.speeds) \
            if game.phase in (Phase.CARDS, Phase.TURNS) else None
        out["danger"] = zone.to_json()
        out["feed"] = table.store.feed(table.game_id or 0, 30)
        out["events"] = len(game.events)  # a camera question stands while this does
        if seat is not None:
            out["choice"] = table.choice(seat)
            out["buyback"] = table.cards.buyback_options(seat) if table.cards else None
        else:
            out["legal"], out["legal_count"] = table.legal_turns()
        return out


def legal_turns(game: Game) -> tuple[list[str], int]:
    """The player to move's legal turns in text notation (at most MAX_LEGAL_LISTED)
    and how many there are."""
    turns = [format_turn(t) for t in game.legal_turns()]
    return sorted(turns, key=lambda t: (len(t), t))[:MAX_LEGAL_LISTED], len(turns)


__all__ = ["MAX_LEGAL_LISTED", "view", "legal_turns"]
