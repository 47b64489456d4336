"""The camera referee: what a stable view of the board (a vision.md observation) means
for the game, decided once by phase, then played, asked about or flagged."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from companion.rules import Game, Phase, River, Turn, format_turn
from companion.rules.state import canoe_key

from .errors import Invalid

if TYPE_CHECKING:
    from companion.vision.candidates import Candidate
    from companion.vision.inference import Inference, TurnInference

    from .table import Table

log = logging.getLogger("companion.app")


class CameraReferee:
    """Interprets the camera's views for one table."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._turn_at: int | None = None  # len(events) after a camera-read turn
        self._same_asked: int | None = None  # len(events) when asked about a same view
        # Whether the last view judged showed every piece where the game has it (its
        # question, if it raised one, was whether an unseen move was made).
        self.showed_game = False

    def observe(self, observation: Mapping[str, Any], *, source: str = "camera",
                first: bool = False) -> str:
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
            cost, found = compare(canoes_of(game.state), seen, game.players,
                                  weather=game.state.weather)
            self.showed_game = cost == 0
            if cost == 0:
                return self._same(game, seen, source)
            if game.is_over:
                return "ignored"
            if first:
                return self._first_look(game, seen, found, source)
            if game.phase == Phase.TURNS and self._amend_turn(game, seen):
                return "applied"
            try:
                return self._infer(game, seen, source)
            except InferenceError as exc:
                log.info("camera: %s", exc)
                return "ignored"

    def _first_look(self, game: Game, seen: Any, found: list[Any], source: str) -> str:
        """The camera's first look at the game, nothing having moved over the board
        since it began watching (started with nothing kept of this game, or calibrated
        anew), read otherwise than the game has it. One picture cannot tell a move made
        while the camera was not watching from its own slips: of 32 such looks at
        boards nobody had touched (the tuned games, restarted cold before every fifth
        move), 22 were flagged and one played a move nobody made. So nothing is played
        or flagged: where the phase's events fit the view (a turn of the player to move,
        the river's push), the players are asked whether one was made ("ambiguous"; no
        answer: nothing is played); else the game is taken as it stands ("taken"), the
        places read otherwise named in the feed."""
        from companion.vision.inference import InferenceError, infer_river, infer_turn
        from companion.vision.mismatch import place_name

        read = {str(at[0]) for m in found for at in (m.expected, m.seen)
                if isinstance(at, tuple) and at}
        places = [place_name(place) for place in sorted(read)]
        places += ["the cloud"] * any(m.kind == "weather" for m in found)
        where = ", ".join(places)
        result: Inference | None = None
        try:
            if game.phase == Phase.TURNS:
                result = infer_turn(game, seen)
            elif game.phase == Phase.RIVER:
                result = infer_river(game, seen)
        except InferenceError:
            result = None
        fits = [] if result is None or result.status == "none" else list(result.best)
        if any(_leaves_as_is(c, game) for c in fits):
            # (The river not yet pushed, a turn that leaves every piece as it lay: the
            # view fits nothing having moved as well as any move.)
            fits = []
        if fits:
            texts = [c.text for c in fits]
            # (Not counted as the turn's question: a view of the game as it stands may
            # still ask whether a move that leaves it so was made.)
            return self._ask(game, [c.event for c in fits], texts, source,
                             f"the camera has just begun watching and reads {where} "
                             "otherwise than the game has them; if this was played while "
                             f"it was not watching, which: {' | '.join(texts)}", once=False)
        hint = "" if game.phase == Phase.CARDS else \
            " (a move made while it was not watching: enter it here)"
        self.table.feed({"kind": "camera", "ok": True, "status": "taken", "source": source,
                         "message": f"began watching: read {where} otherwise than the game "
                                    f"has them, and took the game as it stands{hint}"})
        self.table.bump("camera")
        return "taken"

    def _same(self, game: Game, seen: Any, source: str) -> str:
        """A view showing the pieces as the game has them: "same". But when places'
        pixels changed (``places_changed``) and moves of the player to move leave the
        same pieces there (two canoes of theirs trading places, a gem unloaded and
        another like it loaded; a gem's colour may be misread), the move may have been
        made: the players are asked which, once a turn (no move may have been made
        yet: nothing is played); unless one move alone fits the piles as they changed
        (a gem brought home and another like it loaded: it is played). When no place
        changed at all and no pile showed a gem taken, the same is asked of the moves
        that leave every piece as it lay (``_unseen``). When a pile showed a gem taken
        (even where no place changed: a clear gem loaded into a pale hull may change
        nothing there) and the move that fits best differs only by gems it loads that
        the picture did not show, it is read as any view (``_hidden_load``)."""
        from companion.vision.candidates import MARGIN
        from companion.vision.inference import InferenceError, infer_turn

        if game.phase != Phase.TURNS or game.is_over or self._same_asked == len(game.events) \
                or seen.places_changed is None:
            return "same"
        if not seen.places_changed and not seen.deposits_taken:
            return self._unseen(game, source)
        try:
            result = infer_turn(game, seen)
        except InferenceError:
            return "same"
        # Moves the view shows but for a gem's colour misread (a gem a canoe carried
        # before is read as it likes; a clear gem read as its hull), as near as the
        # nearest of them.
        fits = [c for c in result.candidates
                if all(m.misread_colour or m.hull_through for m in c.mismatches)]
        near = [c for c in fits if c.score < fits[0].score + MARGIN] if fits else []
        if not near:
            outcome = self._hidden_load(game, seen, result, source)
            if outcome != "same":
                return outcome
            return self._unread(game, seen, result, source) if seen.places_changed \
                else self._unseen(game, source)
        only = near[0].event
        if len(near) == 1 and seen.deposits_changed and isinstance(only, Turn) and (
                not near[0].mismatches
                or (seen.deposits_taken and result.status == "exact" and result.turn == only)):
            # The piles changed as this move alone says, and no move at all leaves
            # them so: it was made. So too where the piles showed its gem taken and the
            # inference takes it for the move (the gem it loaded read in the hull's own
            # colour, which an empty hull of that colour shows as well).
            return "applied" if self._play(game, only, source) else "flagged"
        where = (f"the same pieces lie on {', '.join(sorted(seen.places_changed))} as before"
                 if seen.places_changed else "every piece lies as before, but a pile changed")
        return self._ask_same(game, [c.event for c in near], [c.text for c in near], source,
                              where)

    def _hidden_load(self, game: Game, seen: Any, result: TurnInference, source: str) -> str:
        """A view showing the pieces as the game has them but for gems a move loads
        that the picture did not show in their canoes (a gem of the hull's own colour,
        a clear one: ``Mismatch.unseen_gem``), where a pile showed a gem taken from it
        (``Sighting.deposits_taken``): no move leaves a pile so, and that move takes the
        gem. Read as any view: played when it alone fits (a canoe loading in place, or
        one landing as another like it leaves loaded), else asked once a turn. Where no
        pile showed a gem taken, but the piles such a move takes from may not show it
        (``_pile_hid``), the move is asked about, never played: a turn must move
        something. (Its fit counts the places whose pixels changed: a load where
        nothing changed is a place stirred against it, no longer hidden only.) "same"
        when the best fit disagrees otherwise."""
        from companion.vision.not_shown import loads_unseen

        if result.status == "none" or not result.candidates:
            return "same"
        taken = bool(seen.deposits_taken)

        def hidden_only(c: Candidate) -> bool:
            return loads_unseen(c, piles_unseen=not taken)

        if not hidden_only(result.candidates[0]):
            return "same"
        if not taken:
            near = [c for c in result.best if hidden_only(c)]
            places = ", ".join(sorted(seen.places_changed))
            return self._ask_same(game, [c.event for c in near], [c.text for c in near],
                                  source, f"the pieces lie as before, but {places} changed "
                                  "(a gem loaded there may not show)")
        if result.status == "exact" and result.turn is not None:
            return "applied" if self._play(game, result.turn, source) else "flagged"
        near = [c for c in result.best if hidden_only(c)]
        piles = ", ".join(sorted(set(seen.deposits_taken.values())))
        return self._ask_same(game, [c.event for c in near], [c.text for c in near], source,
                              f"a gem left the {piles} pile, no canoe is seen to carry it")

    def _unread(self, game: Game, seen: Any, result: TurnInference, source: str) -> str:
        """A view read as the game stands where the pixels of places changed, and the
        move that fits best disagrees with it only about canoes on those places (a
        canoe launched from the dock, its hull on the water not made out and the dock
        still read with it): the move was likely made and the reading did not follow.
        The players are asked, once a turn, about the moves that fit so as well as the
        best; nothing is played ("same" when none does)."""
        from companion.vision.candidates import MARGIN

        changed = seen.places_changed
        if not result.candidates or not _only_where_changed(result.candidates[0], changed):
            return "same"
        best = result.candidates[0].score
        near = [c for c in result.candidates
                if c.score < best + MARGIN and _only_where_changed(c, changed)]
        places = ", ".join(sorted(changed))
        return self._ask_same(game, [c.event for c in near], [c.text for c in near], source,
                              f"{places} changed, but the camera reads the same canoes "
                              "there as before")

    def _unseen(self, game: Game, source: str) -> str:
        """A view after something moved over the board in which no place changed. A
        turn must move something (R-WHICH, R-PTS-1), but some leave every piece as it
        lay (``unseen_turns``: a canoe landing as the other one is launched to its slot):
        when the player to move has such a turn, they are asked whether they made one,
        once a turn (no move may have been made yet: nothing is played)."""
        from companion.vision.inference import unseen_turns

        turns = unseen_turns(game)
        if not turns:
            return "same"
        return self._ask_same(game, turns, [format_turn(t) for t in turns], source,
                              "every piece lies as before")

    def _ask_same(self, game: Game, events: list[Any], texts: list[str], source: str,
                  said: str) -> str:
        """Ask which of `events` (moves a view that looks as the game stands may show
        made; `texts`: their notation) the player to move made, if any."""
        return self._ask(game, events, texts, source,
                         f"{said}; if {game.to_move} moved, which: {' | '.join(texts)}")

    def _ask(self, game: Game, events: list[Any], texts: list[str], source: str,
             message: str, once: bool = True) -> str:
        """Ask the players which of `events` was made, if any (nothing is played
        unless they tap one); with `once`, this turn's question about a view that
        looks as the game stands."""
        if once:
            self._same_asked = len(game.events)
        self.table.feed({"kind": "camera", "ok": False, "status": "ambiguous",
                         "player": game.to_move, "source": source, "choices": texts,
                         "answers": answers(events), "events": len(game.events),
                         "message": message})
        self.table.bump("camera", game.to_move)
        return "ambiguous"

    def _infer(self, game: Game, seen: Any, source: str) -> str:
        """Read the view as the phase's own event, once: buy-backs in phase I, the turn
        of the player to move in phase II, the river's push in phase III."""
        from companion.vision.inference import infer_buybacks, infer_river, infer_turn

        table = self.table
        if game.phase == Phase.CARDS:
            buybacks = infer_buybacks(game, seen)
            if buybacks.status == "exact" and buybacks.events:
                for buyback in buybacks.events:
                    table.buyback(buyback.player, buyback.gem)
                return "applied"
            table.feed({"kind": "camera", "ok": True, "status": buybacks.status,
                        "message": buybacks.summary})
            table.bump("camera")
            return str(buybacks.status)
        if game.phase == Phase.TURNS:
            turn = infer_turn(game, seen)
            if turn.turn is not None:
                return "applied" if self._play(game, turn.turn, source) else "flagged"
            return self._flag(game, turn, source)
        river = infer_river(game, seen)
        if river.event is not None:
            verdict = table.move_river(river.event.steps, river.event.branches, source=source)
            return "applied" if verdict.ok else "flagged"
        return self._flag(game, river, source)

    def _flag(self, game: Game, result: Inference, source: str) -> str:
        """Several moves fit (ask the players) or none does (the referee flags it with
        the closest legal moves and what to put back)."""
        entry: dict[str, Any] = {"kind": "camera", "ok": False, "status": result.status,
                                 "player": game.to_move, "message": result.summary,
                                 "source": source}
        if result.status == "ambiguous":
            entry["choices"] = [c.text for c in result.best]
            entry["answers"] = answers(c.event for c in result.best)
            entry["events"] = len(game.events)
        else:
            entry["diff"] = result.diff
            entry["closest"] = [c.text for c in result.closest()]
            entry["rule"] = "R-TURN-1" if game.phase == Phase.TURNS else "R-RIVER-2"
        self.table.feed(entry)
        self.table.bump("illegal" if result.status == "none" else "camera", game.to_move)
        return "flagged" if result.status == "none" else "ambiguous"

    def _amend_turn(self, game: Game, seen: Any) -> bool:
        """The last turn came from the camera and the board changed again before the
        next player moved: the player had not finished. Re-read their whole turn."""
        from companion.vision.expected import canoes_of
        from companion.vision.inference import compare, infer_turn

        if self._turn_at != len(game.events):
            return False
        last = game.events[-1]
        if not isinstance(last, Turn):
            return False
        if last.cloud is None and \
                compare(canoes_of(game.state), seen, [last.player])[0] == 0:
            # Their canoes lie as the turn left them: whatever changed is another's.
            return False
        probe = game.copy()
        probe.undo()
        result = infer_turn(probe, seen)
        if result.status != "exact" or result.turn is None or result.turn == last:
            return False
        if result.unexplained:
            # Others' canoes changed too: the next player moved; their turn is read
            # next, this one stands.
            return False
        self.table.undo()
        return self._play(game, result.turn, "camera")

    def _play(self, game: Game, turn: Turn, source: str) -> bool:
        """Play a turn the camera read; the referee's verdict (False: flagged). A turn
        played is one the player may still finish (``_amend_turn``)."""
        ok = self.table.play_turn(turn, source=source).ok
        self._turn_at = len(game.events) if ok else None
        return ok


def _leaves_as_is(candidate: Candidate, game: Game) -> bool:
    """Whether an event leaves the canoes it scores (and the cloud) as the game has
    them."""
    from companion.vision.expected import canoes_of

    now = canoes_of(game.state)
    return all(sorted(canoes, key=canoe_key) == now.get(player, [])
               for player, canoes in candidate.expected.items()) \
        and candidate.weather in (None, game.state.weather)


def _only_where_changed(candidate: Candidate, changed: frozenset[str]) -> bool:
    """Whether every disagreement of an event with the view is a canoe expected on, or
    seen on, places whose pixels changed (both its places), and there is one."""
    canoes = ("moved", "missing", "extra")
    return bool(candidate.mismatches) and all(
        m.kind in canoes and all(c is None or (isinstance(c, tuple) and c[0] in changed)
                                 for c in (m.expected, m.seen))
        for m in candidate.mismatches)


def answers(events: Iterable[Any]) -> list[dict[str, Any]]:
    """A question's choices as the table page plays them when a player taps one (while
    the game still stands where it was asked, ``events`` in the feed entry): a turn's
    notation for /api/table/turn, a river's steps and branches for /api/table/river."""
    out: list[dict[str, Any]] = []
    for event in events:
        if isinstance(event, Turn):
            out.append({"move": format_turn(event)})
        elif isinstance(event, River):
            out.append({"steps": event.steps,
                        "branches": None if event.branches is None else list(event.branches)})
    return out


__all__ = ["CameraReferee", "answers"]
