"""The :class:`Game`: apply events, judge them, list legal turns, undo, print.

>>> game = Game(["blue", "green", "yellow", "red", "brown"])
>>> game.apply({"event": "cards", "cards": {"blue": 6, "green": "cloud", "yellow": 5,
...                                         "red": 1, "brown": 4}})
>>> game.to_move
'blue'
>>> turn = game.push_san("D-4+clear")   # the Turn it played
>>> game.state.canoes["blue"]
[('D', None), ('4', 'clear')]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .canoes import apply_number_turn
from .errors import IllegalEvent, LogError
from .events import Buyback, Card, Cards, Event, River, Setup, Turn, card_key, parse_event
from .geometry import GEMS, VARIANTS, WEATHER_TRACK, Phase
from .movegen import Option, legal_turns, play_options
from .river import (
    RiverPreview,
    branches_for,
    possible_speeds,
    preview_river,
    river_speed,
    step_river,
)
from .state import State, full_hand


@dataclass(frozen=True)
class Verdict:
    """The referee's word on one event: legal, or the broken rule and why."""

    ok: bool
    rule: str | None = None
    message: str | None = None
    # The places the broken rule is about ("D", "1" … "7R", "F"), for pointing at
    # them (LEDs); not part of the referee's JSON.
    places: tuple[str, ...] = ()
    # The message as a catalogue key and its fields (companion.rules.messages), from
    # which every language writes it; not part of the referee's JSON either.
    key: str | None = None
    fields: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def to_json(self) -> dict[str, Any]:
        if self.ok:
            return {"ok": True}
        return {"ok": False, "rule": self.rule, "message": self.message}


LEGAL = Verdict(True)


def _refused(exc: IllegalEvent | LogError) -> Verdict:
    return Verdict(False, exc.rule, exc.message, getattr(exc, "places", ()),
                   exc.key, exc.fields)


def win_met(camp: Sequence[str]) -> bool:
    """R-WIN-1: five colours, or four of one colour, or seven gems."""
    if len(camp) < 4:  # every way needs four gems at least
        return False
    return (len(set(camp)) >= len(GEMS) or len(camp) >= 7
            or any(camp.count(g) >= 4 for g in GEMS))


class Game:
    """A game of Niagara: its state, the events that made it, and undo."""

    def __init__(self, players: Sequence[str], start: str | None = None, branch: str = "L",
                 variants: Iterable[str] = ()) -> None:
        setup = parse_event({"event": "setup", "players": list(players),
                             "start": start or players[0], "branch": branch,
                             "variants": list(variants)})
        assert isinstance(setup, Setup)
        self.setup = setup
        self.state = State.new(setup.players, setup.start, setup.branch,
                               frozenset(setup.variants))
        self.events: list[Event] = []
        self._history: list[State] = []

    @classmethod
    def from_setup(cls, setup: Event | Mapping[str, Any]) -> Game:
        if not isinstance(setup, Setup):
            event = parse_event(setup) if isinstance(setup, Mapping) else setup
            if not isinstance(event, Setup):
                raise LogError.of("log.first_setup")
            setup = event
        return cls(setup.players, setup.start, setup.branch, setup.variants)

    @classmethod
    def from_events(cls, events: Iterable[Event | Mapping[str, Any]]) -> Game:
        """Replay a whole log (first event a setup); raises on the first bad event."""
        it = iter(events)
        game = cls.from_setup(next(it))
        for event in it:
            game.apply(event)
        return game

    def copy(self) -> Game:
        """This game with a log and undo history of its own: what either applies or
        undoes later leaves the other as it was (the states they share are never
        changed in place)."""
        twin = object.__new__(type(self))
        twin.setup = self.setup
        twin.state = self.state
        twin.events = list(self.events)
        twin._history = list(self._history)
        return twin

    __copy__ = copy

    # -- reading the state ------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        return self.state.players

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def round(self) -> int:
        return self.state.round

    @property
    def to_move(self) -> str | None:
        return self.state.to_move

    @property
    def winners(self) -> list[str]:
        return list(self.state.winners)

    @property
    def is_over(self) -> bool:
        return self.state.phase == "over"

    @property
    def speed(self) -> int | None:
        """This round's river speed once every card is revealed (R-RIVER-1), else None."""
        if self.state.phase == "river":
            return river_speed(self.state.cards.values(), self.state.weather)
        return None

    def possible_speeds(self) -> set[int]:
        """The speeds still possible given only public information."""
        return possible_speeds(self.state)

    def preview_river(self, steps: int | None = None,
                      branches: Sequence[str] | None = None) -> RiverPreview:
        """Which discs and canoes `steps` pushes (default: this round's speed) take over
        the falls, without moving anything."""
        if steps is None:
            steps = self.speed or 0
        return preview_river(self.state, steps, branches)

    def snapshot(self) -> dict[str, Any]:
        """The state in game-log.md form: the whole truth (the referee's view)."""
        return self.state.snapshot()

    def view(self, seat: str | None) -> dict[str, Any]:
        """The snapshot as `seat` may see it: their own hand and card, the others' cards
        only once revealed, and only the newest card of each discard pile (R-CARD-3).
        `seat=None` is the public view (the table page)."""
        snap = self.state.snapshot()
        revealed = self.state.revealed
        snap["hands"] = {p: h for p, h in snap["hands"].items() if p == seat}
        snap["cards"] = {p: c for p, c in snap["cards"].items() if p == seat or p in revealed}
        snap["chosen"] = [p for p in self.state.turn_order if p in self.state.cards]
        snap["played"] = {p: self._discard_top(p) for p in self.players if p != seat} | \
            ({seat: list(self.state.played[seat])} if seat in self.players else {})
        snap["speed"] = self.speed
        return snap

    def _discard_top(self, player: str) -> list[Card]:
        """R-CARD-3: only the newest revealed card of a discard pile can be seen."""
        played = list(self.state.played[player])
        if played and player in self.state.cards and player not in self.state.revealed:
            played.pop()  # face down on the table, not yet turned up
        return played[-1:]

    def __str__(self) -> str:
        from .text import board_text
        return board_text(self.state)

    # -- legal turns ------------------------------------------------------------------

    def legal_turns(self, player: str | None = None, card: Card | None = None) -> list[Turn]:
        """Every distinct legal turn of `player` with `card` (default: the player to move
        and their card), one per resulting state: the perft of game-log.md."""
        player = player or self.to_move
        if player is None or player not in self.players:
            raise ValueError(f"no player to list turns for (phase {self.phase})")
        if card is None:
            card = self.state.cards.get(player)
            if card is None:
                raise ValueError(f"{player} has no card this round")
        return legal_turns(self.state, player, card)

    # -- judging and applying ---------------------------------------------------------

    def check(self, event: Event | Mapping[str, Any]) -> Verdict:
        """The verdict on `event` in the current state; changes nothing."""
        try:
            self._next_state(event)
        except (IllegalEvent, LogError) as exc:
            return _refused(exc)
        return LEGAL

    def is_legal(self, event: Event | Mapping[str, Any]) -> bool:
        return self.check(event).ok

    def apply(self, event: Event | Mapping[str, Any]) -> None:
        """Apply a legal event; raise IllegalEvent (or LogError) and change nothing if not."""
        event, after = self._next_state(event)
        self._history.append(self.state)
        self.events.append(event)
        self.state = after

    push = apply

    def try_apply(self, event: Event | Mapping[str, Any]) -> Verdict:
        """Apply `event` if it is legal and give the verdict either way, judging it once
        (``check`` then ``apply`` would judge it twice)."""
        try:
            self.apply(event)
        except (IllegalEvent, LogError) as exc:
            return _refused(exc)
        return LEGAL

    def push_san(self, text: str, player: str | None = None) -> Turn:
        """Apply a turn written in the text notation (see :mod:`.notation`)."""
        from .notation import parse_turn
        turn = parse_turn(text, player or self.to_move or "")
        self.apply(turn)
        return turn

    def undo(self) -> Event:
        """Take back the last applied event; returns it. IndexError when none is left."""
        if not self._history:
            raise IndexError("nothing to undo")
        self.state = self._history.pop()
        return self.events.pop()

    pop = undo

    def _next_state(self, event: Event | Mapping[str, Any]) -> tuple[Event, State]:
        if not isinstance(event, Setup | Buyback | Cards | Turn | River):
            event = parse_event(event)
        for name in _named_players(event):
            if name not in self.players:
                raise LogError.of("log.not_playing", player=name, players=list(self.players))
        state = self.state.evolve()
        if state.phase == "over" and not isinstance(event, Setup):
            raise IllegalEvent.of("R-WIN-2", "win.over", winners=list(state.winners))
        if isinstance(event, Setup):
            raise LogError.of("log.setup_first")
        if isinstance(event, Buyback):
            self._buyback(state, event)
        elif isinstance(event, Cards):
            self._cards(state, event)
        elif isinstance(event, Turn):
            self._turn(state, event)
        else:
            self._river(state, event)
        return event, state

    # R-BUY
    def _buyback(self, state: State, event: Buyback) -> None:
        player = event.player
        if state.phase != "cards":
            raise IllegalEvent.of("R-BUY-1", "buy.phase", player=player)
        canoes = state.canoes[player]
        fallen = [c for c in canoes if c[0] == "F"]
        if not fallen:
            raise IllegalEvent.of("R-BUY-1", "buy.nothing", player=player)
        camp = state.camps[player]
        if event.gem is None:
            if len(fallen) < 2:
                raise IllegalEvent.of("R-BUY-2", "buy.not_free", player=player)
            if camp:
                raise IllegalEvent.of("R-BUY-3", "buy.must_pay", player=player)
        else:
            if event.gem not in camp:
                raise IllegalEvent.of("R-BUY-1", "buy.no_such_gem", player=player,
                                      gem=event.gem, camp=list(camp))
            rest = list(camp)
            rest.remove(event.gem)
            state.camps[player] = rest
            state.return_gem(event.gem)
        kept = list(canoes)
        kept.remove(fallen[0])
        state.put_canoes(player, kept + [("D", None)])

    # R-CARD
    def _cards(self, state: State, event: Cards) -> None:
        if state.phase == "turns":
            raise IllegalEvent.of("R-TURN-2", "turn.cards_not_over", player=state.to_move)
        if state.phase == "river":
            raise IllegalEvent.of("R-RIVER-1", "river.not_moved",
                                  speed=river_speed(state.cards.values(), state.weather))
        cards = event.as_dict()
        missing = [p for p in state.players if p not in cards]
        if missing:
            raise IllegalEvent.of("R-CARD-1", "card.missing", missing=missing)
        for player in state.players:
            canoes = state.canoes[player]
            if all(at == "F" for at, _ in canoes):
                if state.camps[player]:
                    raise IllegalEvent.of("R-BUY-3", "buy.must_buy", player=player)
                raise IllegalEvent.of("R-BUY-2", "buy.free", player=player)
        for player in state.players:
            card = cards[player]
            if card not in state.hands[player]:
                raise IllegalEvent.of("R-CARD-2", "card.played", player=player, card=card,
                                      cards=list(state.played[player]))
        for player in state.players:
            hand = list(state.hands[player])
            hand.remove(cards[player])
            state.hands[player] = hand
            state.played[player] = [*state.played[player], cards[player]]
        state.cards = {p: cards[p] for p in state.players}
        state.phase = Phase.TURNS
        state.turn_index = 0

    # R-TURN
    def _turn(self, state: State, event: Turn) -> None:
        player = event.player
        if state.phase != "turns":
            # Nobody's turn: before phase II every card must be down (R-CARD-1), after
            # it the river moves (R-RIVER-1); neither is about the order of turns.
            if state.phase == "cards":
                raise IllegalEvent.of("R-CARD-1", "turn.no_cards", player=player)
            raise IllegalEvent.of("R-RIVER-1", "turn.river_next", player=player)
        if state.to_move != player:
            rule = "R-STEAL-5" if any(a.steal for a in event.canoes) else "R-TURN-1"
            raise IllegalEvent.of(rule, "turn.other", mover=state.to_move, player=player)
        card = state.cards[player]
        if card == "cloud":
            if event.cloud is None:
                if event.canoes:
                    raise IllegalEvent.of("R-WEATHER-2", "weather.no_canoes", player=player)
                raise IllegalEvent.of("R-WEATHER-1", "weather.must_move", player=player)
            new = state.weather + (1 if event.cloud == "up" else -1)
            if new not in WEATHER_TRACK:
                raise IllegalEvent.of("R-WEATHER-1", "weather.off_track",
                                      weather=state.weather, dir=event.cloud)
            state.weather = new
        else:
            if event.cloud is not None:
                # Only the cloud card moves the cloud (R-WEATHER-1); it is their turn.
                raise IllegalEvent.of("R-WEATHER-1", "turn.not_cloud", player=player, card=card)
            apply_number_turn(state, player, int(card), event)
        _next_player(state)

    def _play_generated(self, turn: Turn, moves: Sequence[tuple[int, Option]]) -> None:
        """Random play's fast path: apply the numbered-card `turn` of the player to move,
        made of the canoe `moves` that :func:`.movegen.canoe_options` listed for them
        in this state (see :func:`.movegen.play_options`), without judging it again.
        Everything else, :meth:`apply` judges."""
        state = self.state.evolve()
        play_options(state, turn.player, moves)
        _next_player(state)
        self._history.append(self.state)
        self.events.append(turn)
        self.state = state

    # R-RIVER, R-RING
    def _river(self, state: State, event: River) -> None:
        if state.phase == "turns":
            raise IllegalEvent.of("R-TURN-2", "turn.river_not_over", player=state.to_move)
        if state.phase == "cards":
            # The river moved; what comes next is phase I's cards (R-CARD-1).
            raise IllegalEvent.of("R-CARD-1", "river.moved")
        speed = river_speed(state.cards.values(), state.weather)
        steps = speed if event.steps is None else event.steps
        if steps != speed:
            raise IllegalEvent.of("R-RIVER-1", "river.speed", speed=speed,
                                  weather=state.weather, steps=steps)
        if event.branches is not None and len(event.branches) != steps:
            raise IllegalEvent.of("R-RIVER-3", "river.branches", n=len(event.branches),
                                  steps=steps)
        for branch in branches_for(state, steps, event.branches):
            step_river(state, branch)
        # Phase IV (R-RING-1) and the next round's hands (R-CARD-2).
        state.start = state.turn_order[1]
        state.round += 1
        state.phase = Phase.CARDS
        state.cards = {}
        state.turn_index = 0
        for player in state.players:
            if not state.hands[player]:
                state.hands[player] = full_hand()
                state.played[player] = []


def _next_player(state: State) -> None:
    """A turn is over: the next player's, or the end of phase II (R-TURN-1, R-WIN-2)."""
    state.turn_index += 1
    if state.turn_index == len(state.players):
        winners = [p for p in state.players if win_met(state.camps[p])]
        if winners:  # R-WIN-2: the game ends after this phase II
            state.winners = winners
            state.phase = Phase.OVER
        else:
            state.phase = Phase.RIVER


def _named_players(event: Event) -> list[str]:
    if isinstance(event, Buyback | Turn):
        return [event.player]
    if isinstance(event, Cards):
        return [p for p, _ in event.cards]
    return []


__all__ = ["Game", "Verdict", "LEGAL", "win_met", "card_key", "VARIANTS"]
