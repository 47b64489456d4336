"""Move inference: which legal event explains what the camera sees.

The rules engine knows the state before and lists the legal turns; the vision reports a
stable observation after (``shared/spec/vision.md``). For each legal turn this module
works out what a perfect camera would see (:mod:`.expected`), compares it with what was
seen, and ranks the turns by how badly they disagree:

>>> from companion.rules import Game
>>> from companion.vision.expected import expected_observation
>>> game = Game(["blue", "green", "yellow"])
>>> game.apply({"event": "cards", "cards": {"blue": 6, "green": "cloud", "yellow": 5}})
>>> seen = expected_observation(game)
>>> seen["dock"].pop(0)
{'player': 'blue', 'gem': None}
>>> seen["slots"]["4"]["canoes"].append({"player": "blue", "gem": "unknown"})
>>> result = infer_turn(game, seen)
>>> result.status, format_turn(result.turn)
('exact', 'D-4+clear')

The same for the river phase (:func:`infer_river`: how many steps, which branches) and
for the buybacks of phase I (:func:`infer_buybacks`).

How the fit is scored (lower is better, 0 is a perfect fit; :class:`FitWeights`):

* a seen gem ``"unknown"`` matches any cargo, including none;
* a canoe on the right place with the wrong cargo costs less than one on a wrong place,
  which costs less than one not seen at all plus one seen where none should be;
* only pieces the event can change are scored: the mover's canoes, the canoes of
  players it could rob, the cloud for a cloud card, every canoe for the river. Pieces
  that no candidate changes are compared with the state before and any difference is
  reported apart, as ``unexplained`` (a bumped canoe, a misread bystander), so that
  noise there neither decides nor blocks the answer.

Statuses: ``exact`` (one event fits perfectly), ``ambiguous`` (several fit perfectly
and lead to different states: ask the players), ``none`` (nothing fits: the closest
events are listed with a slot-by-slot diff saying how to put the board right).

Where things are: reading the observation (:mod:`.sighting`), scoring a fit
(:mod:`.fit`), what a turn loads or steals (:mod:`.turn_gems`), what the disagreements
amount to (:mod:`.slips`, :mod:`.not_shown`), the result objects (:mod:`.candidates`),
the river (:mod:`.infer_river`), the buybacks (:mod:`.infer_buyback`); this module has
the turns and ``infer``, and re-exports what callers use (``__all__``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.rules import (
    Game,
    IllegalEvent,
    LogError,
    Turn,
    format_turn,
)
from companion.rules.state import canoe_key

from .candidates import (
    STATUSES,
    Candidate,
    Inference,
    _status,
    placed,
    scratch_copy,
    swaps_rare,
)
from .expected import Canoe, canoes_of
from .fit import (
    DEFAULT_WEIGHTS,
    FitWeights,
    Mismatch,
    _unexplained,
    compare,
    match_canoes,
    place_diff,
)
from .fit_changes import (
    beside,
    cargo_mismatches,
    deposit_mismatches,
    disputed,
    stirred_mismatches,
    stolen_seen_leave,
    unsourced,
    vouched_loads,
)
from .infer_buyback import BuybackInference, infer_buybacks
from .infer_river import RiverInference, infer_river, river_outcomes
from .sighting import UNKNOWN, InferenceError, ObservationError, Sighting, read_observation
from .slips import _key
from .turn_gems import gain_counts, loads


@dataclass(frozen=True)
class TurnInference(Inference):
    player: str = ""
    card: int | str = ""

    @property
    def turn(self) -> Turn | None:
        """The turn to apply when the status is exact, else None."""
        if self.status != "exact":
            return None
        event = self.candidates[0].event
        assert isinstance(event, Turn)
        return event

    @property
    def turns(self) -> list[Turn]:
        return [c.event for c in self.best if isinstance(c.event, Turn)]

    def to_json(self, candidates: int = 5) -> dict[str, Any]:
        return {"player": self.player, "card": self.card} | super().to_json(candidates)


def _outcomes(game: Game, turns: Sequence[Turn]
              ) -> list[tuple[Turn, dict[str, list[Canoe]], int, dict[str, dict[str, int]]]]:
    """Each turn with the canoes, weather and deposits it leaves, by applying it to a
    scratch copy and taking it back. A listed turn the engine then refuses (an engine
    bug) is left out rather than stopping the table."""
    game = scratch_copy(game)
    out = []
    for turn in turns:
        try:
            game.apply(turn)
        except (IllegalEvent, LogError):
            continue
        out.append((turn, {p: list(c) for p, c in game.state.canoes.items()},
                    game.state.weather, dict(game.state.deposits)))
        game.undo()
    return out


def _seen_leave(m: Mismatch, gone: frozenset[str]) -> bool:
    """A gem not seen in its canoe whose colour the picture saw leave a pile."""
    return m.unseen_gem and isinstance(m.expected, tuple) and m.expected[1] in gone


def _recosted(score: float, was: list[Mismatch], now: list[Mismatch]
              ) -> tuple[float, list[Mismatch]]:
    """An event's score and disagreements after some of them were costed again (`now`,
    one for one with `was`)."""
    return score - sum(a.cost - b.cost for a, b in zip(was, now, strict=True)), now


def infer_turn(game: Game, observation: Mapping[str, Any] | Sighting,
               card: int | str | None = None, weights: FitWeights = DEFAULT_WEIGHTS
               ) -> TurnInference:
    """Which legal turn of the player to move, playing `card` (default: their card of
    this round), explains the stable `observation` after it.

    `game` is left as it was. Raises InferenceError when nobody is to move or the card
    is not the player's, ObservationError for a malformed or unstable observation."""
    seen = read_observation(observation)
    player = game.to_move
    if player is None:
        raise InferenceError(f"no turn to infer: the game is in phase {game.phase!r}, "
                             "not in phase II")
    own = game.state.cards.get(player)
    if card is not None and card != own:
        raise InferenceError(f"{player}'s card this round is {own}, not {card}")
    card = own
    assert card is not None
    try:
        turns = game.legal_turns(player, card)
    except (IllegalEvent, LogError) as exc:  # pragma: no cover - the engine's own bug
        raise InferenceError(f"the engine cannot list {player}'s turns: {exc}") from exc
    before = canoes_of(game.state)
    outcomes = _outcomes(game, turns)
    # Score the mover and anyone some turn robs; everything else is only cross-checked.
    scored = [p for p in game.players if p == player or any(
        sorted(canoes[p], key=canoe_key) != before[p] for _, canoes, _, _ in outcomes)]
    cloud = card == "cloud"
    judged = disputed((canoes for _, canoes, _, _ in outcomes), seen)
    candidates = []
    for turn, canoes, weather, piles in outcomes:
        loaded, counted = loads(turn), gain_counts(turn, before)
        # (A stolen gem came into the thief's canoe by the turn: not one it carried.)
        # (Each as often as it comes: two loads of one colour on one slot are both new.)
        score, found = compare(canoes, seen, scored, weights, weather if cloud else None,
                               {player: list(counted.elements())}, before)
        deposits = deposit_mismatches(game.state.deposits, piles, seen, weights)
        if not deposits and seen.deposits_changed:
            # The piles changed as this turn says: a gem it loads was seen leaving its
            # deposit, even if the picture missed it in the canoe. Where the picture saw
            # that very gem leave (``Sighting.deposits_taken``), its canoe not showing
            # it is no evidence against the turn: a gem taken goes into a canoe.
            # (The mover's canoes only: another player's gem on that slot is no load. A
            # pile's change stands for as many gems as it was seen to lose; the others
            # it may stand for are ``Mismatch.pile_changed`` only.)
            vouched = vouched_loads(turn, [m for m in found if m.player == player
                                           and m.expected in loaded], seen)
            score, found = _recosted(score, found, [
                replace(m, vouched=True, pile_changed=True,
                        cost=0.0 if _seen_leave(m, seen.gems_seen_taken) else m.cost)
                if any(m is v for v in vouched)
                else replace(m, pile_changed=True)
                if m.player == player and m.expected in loaded else m for m in found])
        score, found = _recosted(score, found, stolen_seen_leave(turn, before, found, seen))
        stirred = stirred_mismatches(before, canoes, seen, weights,
                                     {place for a in turn.canoes
                                      for place in (a.origin, a.destination)}) + \
            cargo_mismatches(before, canoes, seen, weights, player, judged)
        score += sum(m.cost for m in deposits + stirred)
        found += deposits + stirred
        candidates.append(Candidate(turn, score, tuple(found), format_turn(turn),
                                    canoes, seen, tuple(scored), weather,
                                    gains=frozenset(counted)))
    unexplained = _unexplained(before, seen, game.players, scored,
                               None if cloud else game.state.weather, weights)
    # (Once every legal event is known: a gem one of them puts where it is seen is no
    # gem from nowhere, in any of them. A bystander's gem gone from beside the mover's
    # canoe is a gem read in the wrong canoe until this table's camera has shown that
    # it reads shared discs right: then it is a theft no rule allows, R-STEAL-1/3.)
    put = placed(candidates, player)
    lost = () if swaps_rare(seen) else unexplained
    candidates = [replace(c, mismatches=tuple(beside(
        unsourced(c.mismatches, seen, player, before, put), seen, player, lost)))
        for c in candidates]
    candidates.sort(key=lambda c: (_key(c.score), c.text))
    return TurnInference(_status(candidates), tuple(candidates), tuple(unexplained),
                         player, card).settled()


def unseen_turns(game: Game) -> list[Turn]:
    """The legal turns of the player to move (with the card they played) that leave every
    piece on the board as it lies: no camera sees them made. A canoe landing from a slot
    as the player's other one is launched to it (R-LAND-1, R-WHICH-2), both empty; a gem
    unloaded and another like it loaded where the canoe lies (R-MOVE-7). Empty outside
    phase II or when the engine cannot list the turns."""
    player = game.to_move
    card = None if player is None else game.state.cards.get(player)
    if player is None or card is None:
        return []
    try:
        turns = game.legal_turns(player, card)
    except (IllegalEvent, LogError):  # pragma: no cover - the engine's own bug
        return []
    before = canoes_of(game.state)   # (sorted, as each outcome's canoes are below)
    return [turn for turn, canoes, weather, piles in _outcomes(game, turns)
            if weather == game.state.weather and piles == dict(game.state.deposits)
            and {p: sorted(c, key=canoe_key) for p, c in canoes.items()} == before]


def infer(game: Game, observation: Mapping[str, Any] | Sighting) -> Inference:
    """What happened on the table since `game`'s state, whatever the phase: buybacks
    in phase I, the turn of the player to move in phase II, the river in phase III.
    Raises InferenceError once the game is over."""
    if game.phase == "cards":
        return infer_buybacks(game, observation)
    if game.phase == "turns":
        return infer_turn(game, observation)
    if game.phase == "river":
        return infer_river(game, observation)
    raise InferenceError("the game is over; nothing moves any more")


__all__ = ["infer", "UNKNOWN", "STATUSES", "ObservationError", "InferenceError", "Sighting",
           "read_observation", "FitWeights", "DEFAULT_WEIGHTS", "Mismatch", "match_canoes",
           "compare", "place_diff", "scratch_copy", "Candidate", "Inference", "TurnInference",
           "infer_turn", "unseen_turns", "RiverInference", "river_outcomes", "infer_river",
           "BuybackInference", "infer_buybacks"]
