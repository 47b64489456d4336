"""Inference in the river phase (III): how many steps the river moved and which
branches the discs took at the forks, read off the canoes after it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from companion.rules import (
    SLOTS,
    Game,
    River,
    State,
)
from companion.rules.river import step_river
from companion.rules.state import canoe_key

from .candidates import MARGIN, Candidate, Inference
from .expected import Canoe, canoes_of
from .fit import DEFAULT_WEIGHTS, FitWeights, Mismatch, _unexplained, compare
from .sighting import InferenceError, Sighting, read_observation
from .slips import TOLERANCE, _key, slips

Layout = tuple[tuple[str, tuple[Canoe, ...]], ...]  # (player, canoes) in seating order


@dataclass(frozen=True)
class RiverInference(Inference):
    speed: int = 0
    branch_next: str = "L"

    @property
    def best(self) -> tuple[Candidate, ...]:
        """As Inference.best; when asking, only pushes of the round's speed (R-RIVER-1)
        are offered, if any is close enough: the others are not the players' to choose."""
        best = super().best
        if self.status != "ambiguous":
            return best
        return tuple(c for c in best if c.rank[1:2] == (0,)) or best

    @property
    def event(self) -> River | None:
        """The river event to apply when the status is exact, else None."""
        if self.status != "exact":
            return None
        event = self.candidates[0].event
        assert isinstance(event, River)
        return event

    @property
    def flags(self) -> list[dict[str, str]]:
        """What the referee should say about the best explanation: a step count other
        than the speed (R-RIVER-1), branches that did not alternate (R-RIVER-3)."""
        if not self.candidates:
            return []
        event = self.candidates[0].event
        assert isinstance(event, River)
        out = []
        steps = event.steps or 0
        if steps != self.speed:
            out.append({"rule": "R-RIVER-1",
                        "message": f"the river was pushed {steps} steps; this round's speed "
                                   f"is {self.speed}"})
        if _breaks(event.branches or (), self.branch_next):
            seq = "".join(event.branches or ())
            out.append({"rule": "R-RIVER-3",
                        "message": f"the discs entered the branches {seq}, not alternately "
                                   f"from {self.branch_next}"})
        return out

    def to_json(self, candidates: int = 5) -> dict[str, Any]:
        event = self.event
        return {"speed": self.speed, "event": event.to_json() if event else None,
                "flags": self.flags} | super().to_json(candidates)


def _breaks(branches: Sequence[str], first: str) -> int:
    """How often a branch sequence departs from alternation starting at `first`."""
    prev = None
    count = 0
    for i, b in enumerate(branches):
        if (i == 0 and b != first) or (i and b == prev):
            count += 1
        prev = b
    return count


def _layout(canoes: Mapping[str, Sequence[Canoe]]) -> Layout:
    return tuple((p, tuple(sorted(c, key=canoe_key))) for p, c in canoes.items())


@lru_cache(maxsize=1)
def _step_table() -> dict[str, dict[str, str]]:
    """Where one push of the river takes a canoe on each slot, for each branch the new
    disc enters: learnt once from the engine's own step (R-RIVER-2) so that the two
    can never disagree."""
    table: dict[str, dict[str, str]] = {}
    for branch in ("L", "R"):
        table[branch] = {}
        for slot in SLOTS:
            state = State(players=("blue",), start="blue", canoes={"blue": [(slot, None)]})
            step_river(state, branch)
            table[branch][slot] = state.canoes["blue"][0][0]
    return table


def _push(layout: Layout, branch: str) -> Layout:
    """One push of the river; a canoe that falls loses its gem (R-RIVER-4)."""
    moves = _step_table()[branch]
    out = []
    for player, canoes in layout:
        moved = []
        for at, gem in canoes:
            to = moves.get(at, at)
            moved.append((to, None) if to == "F" else (to, gem))
        out.append((player, tuple(sorted(moved, key=canoe_key))))
    return tuple(out)


def river_outcomes(canoes: Mapping[str, Sequence[Canoe]], max_steps: int, first: str
                   ) -> dict[tuple[int, Layout, str | None], tuple[int, tuple[str, ...]]]:
    """Every distinct way `0 … max_steps` pushes can leave the canoes: for each (steps,
    canoe layout, last branch) the branch sequence closest to alternation (starting
    from `first`) that produces it, with its number of departures from alternation."""
    frontier: dict[tuple[Layout, str | None], tuple[int, tuple[str, ...]]] = {
        (_layout(canoes), None): (0, ())}
    out: dict[tuple[int, Layout, str | None], tuple[int, tuple[str, ...]]] = {}
    for steps in range(max_steps + 1):
        for (layout, last), best in frontier.items():
            out[(steps, layout, last)] = best
        if steps == max_steps:
            break
        nxt: dict[tuple[Layout, str | None], tuple[int, tuple[str, ...]]] = {}
        for (layout, last), (breaks, seq) in frontier.items():
            expected = first if last is None else ("R" if last == "L" else "L")
            for branch in ("L", "R"):
                key = (_push(layout, branch), branch)
                cost = breaks + (branch != expected)
                if key not in nxt or cost < nxt[key][0]:
                    nxt[key] = (cost, (*seq, branch))
        frontier = nxt
    return out


def infer_river(game: Game, after: Mapping[str, Any] | Sighting,
                before: Mapping[str, Any] | Sighting | None = None,
                max_steps: int | None = None, weights: FitWeights = DEFAULT_WEIGHTS
                ) -> RiverInference:
    """How many steps the river was pushed and which branch each disc took, from the
    stable observation `after` phase III (and `before` it, when given: the canoes then
    start where they were seen rather than where the engine has them).

    Among explanations that fit equally, the one closest to the rules wins: the
    round's speed, then alternating branches (R-RIVER-3). When the picture needs other
    steps or branches, the event says so and :attr:`RiverInference.flags` names the
    rule. `max_steps` (default: the speed + 4) bounds the search."""
    if game.phase != "river":
        raise InferenceError(f"no river move to infer: the game is in phase {game.phase!r}; "
                             "the river moves after every player's turn")
    seen = read_observation(after)
    speed = game.speed or 0
    first = game.state.branch_next
    players = list(game.players)
    if before is None:
        start = canoes_of(game.state)
    else:
        was = read_observation(before)
        start = {p: list(was.of(p)) for p in players}
    limit = speed + 4 if max_steps is None else max_steps
    outcomes = river_outcomes(start, limit, first)
    # Score each distinct layout once; many step/branch sequences share one.
    scores: dict[Layout, tuple[float, list[Mismatch]]] = {}
    ranked = []
    for (steps, layout, last), (breaks, seq) in outcomes.items():
        if layout not in scores:
            scores[layout] = compare(dict(layout), seen, players, weights, loaded={},
                                     before=start)
        ranked.append((_key(scores[layout][0]), abs(steps - speed), breaks, steps, seq,
                       layout, last))
    ranked.sort(key=lambda r: r[:5])
    candidates = []
    for score, off, breaks, steps, seq, layout, _ in ranked:
        text = f"{steps} step{'s' if steps != 1 else ''}" + (f" {''.join(seq)}" if seq else "")
        candidates.append(Candidate(River(steps, seq), score, tuple(scores[layout][1]), text,
                                    dict(layout), seen, tuple(players),
                                    rank=(score, off, breaks)))
    status = _status_river(ranked, {layout: found for layout, (_, found) in scores.items()})
    unexplained = _unexplained(start, seen, players, players, game.state.weather, weights)
    return RiverInference(status, tuple(candidates), tuple(unexplained), speed,
                          first).settled()


def _status_river(ranked: Sequence[tuple], mismatches: Mapping[Layout, Sequence[Mismatch]]
                  ) -> str:
    """exact when one layout fits best (perfectly, or with canoes hidden only, within
    TOLERANCE and by MARGIN ahead of every other layout) and the explanations of it
    closest to the rules agree on the branch the next disc takes; ambiguous when they
    do not, or only with more unseen than TOLERANCE (nothing seen contradicts it);
    none otherwise. A gem read otherwise than its canoe carries is no reason to ask:
    nothing is loaded, unloaded or stolen in phase III (R-RIVER-5), so every push
    leaves the same gems in the same canoes and that misread tells none from another
    (a push that put the canoes where the gems are read is scored too)."""
    if not ranked:
        return "none"
    kind = slips([m for m in mismatches[ranked[0][5]] if m.kind != "cargo"])
    if kind is None:
        return "none"
    if ranked[0][0] > TOLERANCE:  # only what nothing seen contradicts is asked about
        return "ambiguous" if kind == "hidden" else "none"
    if kind == "misread":
        return "ambiguous"
    best = ranked[0][0]
    near = best + (MARGIN if best > 0 else 0.0)
    if len({r[5] for r in ranked if r[0] == best or r[0] < near}) > 1:
        return "ambiguous"
    fits = [r for r in ranked if r[0] == best]
    top = fits[0][1:3]
    lasts = {r[6] for r in fits if r[1:3] == top}
    return "exact" if len(lasts) == 1 else "ambiguous"


__all__ = ["RiverInference", "river_outcomes", "infer_river"]
