"""The danger zone: what the river will do this round, as far as the whole table may
know it: a rules fact, from public information only (nothing here looks at a secret
card). The LED strip draws it, the table page shows it; the live table computes it once
per change and hands it to both.

- Once the speed is known (phase "river", or earlier when public information leaves
  only one speed): the discs that fall, the discs that end on 7L/7R, the canoes that
  fall.
- Before that (phases "cards" and "turns") only the speeds still possible from public
  information count (revealed cards, the weather, each player's unplayed cards of the
  cycle): slots that fall for every possible speed are *certain*, those that fall for
  some are *possible*.

>>> from companion.rules import Game
>>> game = Game(["blue", "green", "yellow"])
>>> game.apply({"event": "cards", "cards": {"blue": 1, "green": 2, "yellow": 3}})
>>> zone = danger_zone(game)     # blue's 1 is revealed; two clouds may still come
>>> sorted(zone.speeds), sorted(zone.certain), sorted(zone.possible)
([0, 1, 2, 3], [], ['6L', '7L', '7R'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .game import Game
from .geometry import Phase

Canoe = tuple[str, str, str | None]  # (player, place, gem)


@dataclass(frozen=True)
class DangerZone:
    """Public facts about this round's river. Equal zones draw equal frames."""

    phase: Phase
    speeds: frozenset[int]  # the speeds still possible (one once it is known)
    known: bool  # every card is revealed: `falling`, `last` and `canoes` are exact
    certain: frozenset[str]  # slots whose disc falls for every possible speed
    possible: frozenset[str]  # slots whose disc falls for some possible speed, not all
    last: frozenset[str]  # known speed: slots whose disc ends on 7L/7R
    canoes: tuple[Canoe, ...]  # known speed: canoes that will fall
    edges: frozenset[str]  # "L"/"R": falls edges that discs certainly go over
    maybe_edges: frozenset[str]  # edges that discs possibly go over
    weather: int
    to_move: str | None
    winners: tuple[str, ...]
    steps: int = 0  # the highest possible speed, the one the table page previews
    slots: tuple[str, ...] = ()  # slots whose disc falls at `steps` (certain or possible)
    branches: tuple[str, ...] = ()  # the forks taken at `steps`

    def to_json(self) -> dict[str, Any]:
        """The zone as the table page and the phones receive it (public)."""
        if self.phase == Phase.OVER:
            return {"known": True, "steps": 0, "slots": [], "certain": [], "canoes": []}
        return {"known": self.known, "steps": self.steps, "slots": list(self.slots),
                "certain": sorted(self.certain), "branches": list(self.branches),
                "canoes": [[p, at, gem] for p, at, gem in self.canoes]}

    @property
    def falling(self) -> frozenset[str]:
        """With the speed known: the slots whose disc falls this round."""
        return self.certain


def danger_zone(game: Game) -> DangerZone:
    """The danger zone of `game` now (public information only)."""
    state = game.state
    if game.phase == Phase.OVER:
        return DangerZone(Phase.OVER, frozenset(), True, frozenset(), frozenset(), frozenset(),
                          (), frozenset(), frozenset(), state.weather, None,
                          tuple(game.winners))
    speed = game.speed
    speeds = frozenset([speed]) if speed is not None else frozenset(game.possible_speeds())
    previews = [game.preview_river(steps) for steps in sorted(speeds)]
    falls = [frozenset(p.falling_slots) for p in previews]
    certain = frozenset.intersection(*falls) if falls else frozenset()
    possible = frozenset.union(*falls) - certain if falls else frozenset()
    edge_sets = [_edges(p.falling_slots, p.branches) for p in previews]
    edges = frozenset.intersection(*edge_sets) if edge_sets else frozenset()
    maybe = frozenset.union(*edge_sets) - edges if edge_sets else frozenset()
    # Known also before phase III when public information leaves one speed (the last
    # player to move has turned up a number): then nothing about it is secret.
    known = len(speeds) == 1
    last = frozenset(previews[0].last_slots) if known else frozenset()
    canoes = tuple(previews[0].falling_canoes) if known else ()
    # The page previews the highest possible speed: the most the river can do.
    top = previews[-1] if previews else game.preview_river(0)
    slots = tuple(s for s in top.falling_slots if s in certain or s in possible)
    return DangerZone(game.phase, speeds, known, certain, possible, last, canoes, edges,
                      maybe, state.weather, game.to_move, (), max(speeds, default=0), slots,
                      tuple(top.branches))


def _edges(falling: tuple[str, ...], branches: tuple[str, ...]) -> frozenset[str]:
    """The falls edges that discs go over: a disc from 6x/7x falls on its own side, one
    from above the fork on a side the step branches chose."""
    sides = {slot[-1] for slot in falling if slot[-1] in "LR"}
    if any(slot[-1] not in "LR" for slot in falling):
        sides.update(branches)
    return frozenset(sides)
