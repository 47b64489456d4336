"""The whole state of a game of Niagara, and its snapshot form of game-log.md."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .events import Card, card_key
from .geometry import CARD_VALUES, DEPOSIT_AT, GEMS, GEMS_PER_COLOUR, PLACE_ORDER, Phase

# Deposits down the river, as game-log.md lists them: violet, clear, yellow, blue, red.
DEPOSIT_ORDER: tuple[str, ...] = tuple(dict.fromkeys(DEPOSIT_AT.values()))

Canoe = tuple[str, str | None]  # (place, gem); a player's two canoes look identical


def canoe_key(canoe: Canoe) -> tuple[int, str]:
    """game-log.md order: by place D 1 … 7R F, then gem name with the empty canoe first."""
    return PLACE_ORDER[canoe[0]], canoe[1] or ""


@lru_cache(maxsize=256)
def _turn_order(players: tuple[str, ...], start: str) -> tuple[str, ...]:
    i = players.index(start)
    return players[i:] + players[:i]


def full_hand() -> list[Card]:
    return list(CARD_VALUES)


@dataclass
class State:
    """Everything about a game at one moment.

    The engine never changes a list or dict of a state in place once another state may
    share it: it replaces it (see :meth:`evolve`). So a state kept for undo stays as it
    was, and the next state costs a few small copies instead of a deep copy. Code outside
    the engine should treat ``game.state`` as read-only, or work on :meth:`copy`.
    """

    players: tuple[str, ...]
    start: str
    branch_next: str = "L"
    variants: frozenset[str] = frozenset()
    round: int = 1
    phase: Phase = Phase.CARDS
    weather: int = 0
    canoes: dict[str, list[Canoe]] = field(default_factory=dict)
    camps: dict[str, list[str]] = field(default_factory=dict)
    deposits: dict[str, dict[str, int]] = field(default_factory=dict)
    hands: dict[str, list[Card]] = field(default_factory=dict)
    played: dict[str, list[Card]] = field(default_factory=dict)  # this 7-round cycle
    cards: dict[str, Card] = field(default_factory=dict)  # this round's cards
    turn_index: int = 0  # in phase "turns": how many players have acted
    winners: list[str] = field(default_factory=list)

    @classmethod
    def new(cls, players: tuple[str, ...], start: str, branch: str = "L",
            variants: frozenset[str] = frozenset()) -> State:
        """R-SETUP-1 … R-SETUP-4."""
        return cls(
            players=tuple(players), start=start, branch_next=branch,
            variants=frozenset(variants),
            canoes={p: [("D", None), ("D", None)] for p in players},
            camps={p: [] for p in players},
            deposits={g: {g: GEMS_PER_COLOUR} for g in GEMS},
            hands={p: full_hand() for p in players},
            played={p: [] for p in players},
        )

    def evolve(self) -> State:
        """The state to apply the next event to: its own top-level dicts, the lists and
        piles inside shared with this one until the engine replaces them."""
        new = object.__new__(State)
        new.__dict__.update(self.__dict__)
        new.canoes = dict(self.canoes)
        new.camps = dict(self.camps)
        new.deposits = dict(self.deposits)
        new.hands = dict(self.hands)
        new.played = dict(self.played)
        new.cards = dict(self.cards)
        new.winners = list(self.winners)
        return new

    def copy(self) -> State:
        """A deep copy, free to change in place."""
        return State(
            players=self.players, start=self.start, branch_next=self.branch_next,
            variants=self.variants, round=self.round, phase=self.phase,
            weather=self.weather,
            canoes={p: list(c) for p, c in self.canoes.items()},
            camps={p: list(c) for p, c in self.camps.items()},
            deposits={d: dict(g) for d, g in self.deposits.items()},
            hands={p: list(h) for p, h in self.hands.items()},
            played={p: list(h) for p, h in self.played.items()},
            cards=dict(self.cards), turn_index=self.turn_index,
            winners=list(self.winners),
        )

    # -- derived facts ----------------------------------------------------------------

    @property
    def turn_order(self) -> tuple[str, ...]:
        """R-TURN-1: from the life-ring holder, clockwise (the seating order)."""
        return _turn_order(self.players, self.start)

    @property
    def to_move(self) -> str | None:
        """The player whose turn it is in phase II, else None."""
        if self.phase != "turns" or self.turn_index >= len(self.players):
            return None
        return self.turn_order[self.turn_index]

    @property
    def revealed(self) -> dict[str, Card]:
        """This round's cards that are face up: those of players who have had their turn
        and of the player to move (R-CARD-1)."""
        if self.phase == "turns":
            shown = self.turn_order[: self.turn_index + 1]
            return {p: self.cards[p] for p in shown if p in self.cards}
        if self.phase in ("river", "over"):
            return dict(self.cards)
        return {}

    def put_canoes(self, player: str, canoes: list[Canoe]) -> None:
        if len(canoes) == 2:  # the usual case, without sorted()'s overhead
            a, b = canoes
            self.canoes[player] = [a, b] if canoe_key(a) <= canoe_key(b) else [b, a]
        else:
            self.canoes[player] = sorted(canoes, key=canoe_key)

    def return_gem(self, gem: str) -> None:
        """A gem goes back to the deposit of its own colour (R-RIVER-4, R-BUY-1)."""
        self.put_gem(gem, gem)

    def take_gem(self, deposit: str, gem: str) -> None:
        pile = dict(self.deposits[deposit])  # a new pile: the old one may be shared
        pile[gem] -= 1
        if not pile[gem]:
            del pile[gem]
        self.deposits[deposit] = pile

    def put_gem(self, deposit: str, gem: str) -> None:
        pile = dict(self.deposits.get(deposit, ()))
        pile[gem] = pile.get(gem, 0) + 1
        self.deposits[deposit] = pile

    def land_gem(self, player: str, gem: str) -> None:
        """A gem goes into the player's camp (R-LAND-2), kept sorted."""
        self.camps[player] = sorted([*self.camps[player], gem])

    # -- the snapshot of game-log.md --------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The whole truth, in the exact form of game-log.md (plus added fields)."""
        return {
            "round": self.round,
            "phase": self.phase,
            "start": self.start,
            "weather": self.weather,
            "branch_next": self.branch_next,
            "canoes": {p: [{"at": at, "gem": gem} for at, gem in sorted(c, key=canoe_key)]
                       for p, c in self.canoes.items()},
            "camps": {p: sorted(c) for p, c in self.camps.items()},
            "deposits": {d: {g: n for g, n in sorted(self.deposits[d].items()) if n}
                         for d in DEPOSIT_ORDER},
            "hands": {p: sorted(h, key=card_key) for p, h in self.hands.items()},
            "winners": [p for p in self.players if p in self.winners],
            # Added fields (game-log.md allows additions, never renames):
            "players": list(self.players),
            "variants": sorted(self.variants),
            "to_move": self.to_move,
            "cards": {p: self.cards[p] for p in self.turn_order if p in self.cards},
            "played": {p: list(c) for p, c in self.played.items()},
        }

    def key(self) -> tuple[Any, ...]:
        """A hashable summary: equal keys ⇔ equal snapshots."""
        return (
            self.round, self.phase, self.start, self.weather, self.branch_next,
            tuple(tuple(sorted(self.canoes[p], key=canoe_key)) for p in self.players),
            tuple(tuple(sorted(self.camps[p])) for p in self.players),
            tuple((d, tuple(sorted((g, n) for g, n in pile.items() if n)))
                  for d, pile in sorted(self.deposits.items())),
            tuple(tuple(sorted(self.hands[p], key=card_key)) for p in self.players),
            tuple(tuple(self.played[p]) for p in self.players),
            tuple(sorted(self.cards.items())), self.turn_index, tuple(self.winners),
        )
