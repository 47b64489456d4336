"""What each screen may see: a phone's view of its own seat, the table's public view.

Built on the rules engine's ``Game.view`` (no other hand, no unrevealed card)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.rules import Game, format_turn

from .errors import NotFound

if TYPE_CHECKING:
    from companion.hardware.danger import DangerZone

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
        from companion.hardware.danger import danger_zone  # the LEDs' own zone

        zone = danger_zone(game)
        # Before the river the zone's speeds are the speeds still possible.
        out["possible_speeds"] = sorted(zone.speeds) \
            if game.phase in ("cards", "turns") else None
        out["danger"] = danger(game, zone)
        out["feed"] = table.store.feed(table.game_id or 0, 30)
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


def danger(game: Game, zone: DangerZone) -> dict[str, Any]:
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


__all__ = ["MAX_LEGAL_LISTED", "view", "legal_turns", "danger"]
