"""The camera referee: what a stable view of the board (a vision.md observation) means
for the game, decided once by phase, then played, asked about or flagged."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.rules import Game, Turn

from .errors import Invalid

if TYPE_CHECKING:
    from .table import Table

log = logging.getLogger("companion.app")


class CameraReferee:
    """Interprets the camera's views for one table."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._turn_at: int | None = None  # len(events) after a camera-read turn

    def observe(self, observation: Mapping[str, Any], *, source: str = "camera") -> str:
        """See Table.observe."""
        from companion.vision.expected import canoes_of
        from companion.vision.inference import (
            InferenceError,
            ObservationError,
            compare,
            read_observation,
        )

        table = self.table
        with table._lock:
            game = table.need_game()
            try:
                seen = read_observation(observation)
            except ObservationError as exc:
                raise Invalid(str(exc)) from None
            cost, _ = compare(canoes_of(game.state), seen, game.players,
                              weather=game.state.weather)
            if cost == 0:
                return "same"
            if game.is_over:
                return "ignored"
            if game.phase == "turns" and self._amend_turn(game, seen):
                return "applied"
            try:
                return self._infer(game, seen, source)
            except InferenceError as exc:
                log.info("camera: %s", exc)
                return "ignored"

    def _infer(self, game: Game, seen: Any, source: str) -> str:
        from companion.vision.inference import BuybackInference, infer

        table = self.table
        result = infer(game, seen)
        if game.phase == "cards":
            if result.status == "exact" and isinstance(result, BuybackInference) \
                    and result.events:
                for buyback in result.events:
                    table.buyback(buyback.player, buyback.gem)
                return "applied"
            table.feed({"kind": "camera", "ok": True, "status": result.status,
                        "message": result.summary})
            table.bump("camera")
            return str(result.status)
        if result.status == "exact":
            event = result.candidates[0].event
            if isinstance(event, Turn):
                verdict = table.play_turn(event, source=source)
                self._turn_at = len(game.events) if verdict.ok else None
            elif isinstance(event, tuple):  # buy-backs: phase I only, handled above
                return "ignored"
            else:
                verdict = table.move_river(event.steps, event.branches, source=source)
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
        table.feed(entry)
        table.bump("illegal" if result.status == "none" else "camera", game.to_move)
        return "flagged" if result.status == "none" else "ambiguous"

    def _amend_turn(self, game: Game, seen: Any) -> bool:
        """The last turn came from the camera and the board changed again before the
        next player moved: the player had not finished. Re-read their whole turn."""
        from companion.vision.inference import infer_turn

        if self._turn_at != len(game.events):
            return False
        last = game.events[-1]
        if not isinstance(last, Turn):
            return False
        probe = Game.from_events([game.setup, *game.events[:-1]])
        result = infer_turn(probe, seen)
        if result.status != "exact" or result.turn is None or result.turn == last:
            return False
        self.table.undo()
        ok = self.table.play_turn(result.turn, source="camera").ok
        self._turn_at = len(game.events) if ok else None
        return ok


__all__ = ["CameraReferee"]
