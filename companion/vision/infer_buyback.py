"""Inference in phase I: the canoes bought back from below the falls (the gem is paid on
the phone)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from typing import Any

from companion.rules import (
    Buyback,
    Game,
    IllegalEvent,
    LogError,
)

from .candidates import Candidate, Inference, scratch_copy
from .expected import Canoe, canoes_of
from .fit import DEFAULT_WEIGHTS, FitWeights, _unexplained, compare
from .sighting import InferenceError, Sighting, read_observation


@dataclass(frozen=True)
class BuybackInference(Inference):
    """Which canoes came back from the falls to the dock. ``events`` are the buybacks
    the picture decides; ``choices`` the players whose payment it cannot tell (which
    camp gem paid): each has the possible event lists, to be asked on their phone;
    ``pending`` the players who still must buy back (R-BUY-2, R-BUY-3)."""

    events: tuple[Buyback, ...] = ()
    choices: dict[str, list[tuple[Buyback, ...]]] = field(default_factory=dict)
    pending: dict[str, str] = field(default_factory=dict)

    @property
    def summary(self) -> str:
        if self.status == "none":
            return "the picture does not match: " + \
                "; ".join(m.message for m in self.candidates[0].mismatches)
        parts = [self.candidates[0].text] if self.events or not self.choices else []
        for player, options in self.choices.items():
            gems = " or ".join("+".join(e.gem or "free" for e in opt) for opt in options)
            n = len(options[0])
            parts.append(f"{player} bought back {n} canoe{'s' if n > 1 else ''}, paid with "
                         f"{gems}: ask {player}")
        parts += list(self.pending.values())
        return "; ".join(parts)

    def to_json(self, candidates: int = 5) -> dict[str, Any]:
        return {"status": self.status, "summary": self.summary,
                "events": [e.to_json() for e in self.events],
                "choices": {p: [[e.to_json() for e in opt] for opt in opts]
                            for p, opts in self.choices.items()},
                "pending": self.pending,
                "diff": self.diff,
                "unexplained": [m.to_json() for m in self.unexplained]}


def _legal_sequence(game: Game, events: Sequence[Buyback]) -> bool:
    applied = 0
    try:
        for event in events:
            game.apply(event)
            applied += 1
        return True
    except (IllegalEvent, LogError):
        return False
    finally:
        for _ in range(applied):
            game.undo()


def infer_buybacks(game: Game, observation: Mapping[str, Any] | Sighting,
                   weights: FitWeights = DEFAULT_WEIGHTS) -> BuybackInference:
    """From the observation in phase I, which canoes came back from F to D (R-BUY).

    For each player the number of canoes bought back is what left the falls for the
    dock; the gem paid is not on the picture (camps are not seen), so it is decided
    only when the camp leaves no choice (one colour, or the free canoe of R-BUY-2)."""
    if game.phase != "cards":
        raise InferenceError(f"no buyback to infer: the game is in phase {game.phase!r}; "
                             "canoes are bought back in phase I, before the cards")
    seen = read_observation(observation)
    game = scratch_copy(game)
    before = canoes_of(game.state)
    players = list(game.players)
    events: list[Buyback] = []
    choices: dict[str, list[tuple[Buyback, ...]]] = {}
    pending: dict[str, str] = {}
    expected: dict[str, list[Canoe]] = {}
    for player in players:
        canoes = before[player]
        fallen = sum(1 for at, _ in canoes if at == "F")
        back = fallen - sum(1 for at, _ in seen.of(player) if at == "F")
        back = max(0, min(back, fallen))
        options = _buyback_options(game, player, back)
        while back and not options:  # the picture asks for more than the rules allow
            back -= 1
            options = _buyback_options(game, player, back)
        rest = list(canoes)
        for _ in range(back):
            rest.remove(("F", None))
        expected[player] = rest + [("D", None)] * back
        if len(options) == 1:
            events += options[0]
        else:
            choices[player] = options
        if fallen - back == 2:
            rule = "R-BUY-3" if game.state.camps[player] else "R-BUY-2"
            how = "buy one back with a camp gem" if rule == "R-BUY-3" else \
                "take one back for free"
            pending[player] = f"{rule}: {player} has no canoe left and must {how} " \
                              "before the cards"
    _, found = compare(expected, seen, players, weights, before=before)
    # Buybacks move canoes between F and D only; a canoe nudged on the river is
    # reported apart and does not make the buyback doubtful.
    scored = tuple(m for m in found if {"D", "F"} & set(m.places))
    unexplained = [m for m in found if m not in scored]
    score = sum(m.cost for m in scored)
    candidate = Candidate(tuple(events), score, scored,
                          ", ".join(f"{e.player} buys back" + (f" with {e.gem}" if e.gem
                                                               else " for free")
                                    for e in events) or "no buyback",
                          expected, seen, tuple(players))
    if score > 0:
        status = "none"
    else:
        status = "ambiguous" if choices else "exact"
    unexplained += _unexplained(before, seen, players, players, game.state.weather, weights)
    return BuybackInference(status, (candidate,), tuple(unexplained), tuple(events),
                            choices, pending)


def _buyback_options(game: Game, player: str, back: int) -> list[tuple[Buyback, ...]]:
    """Every legal way for `player` to bring `back` canoes home: which camp gems pay."""
    if back == 0:
        return [()]
    camp = game.state.camps[player]
    if not camp:
        free = (Buyback(player),) * back
        return [free] if _legal_sequence(game, free) else []
    options = []
    for gems in combinations_with_replacement(sorted(set(camp)), back):
        seq = tuple(Buyback(player, g) for g in gems)
        if _legal_sequence(game, seq):
            options.append(seq)
    return options


__all__ = ["BuybackInference", "infer_buybacks"]
