"""Random play as a camera could log it (`seen_only`, used by the 3-D worlds' games): a
disc enters the branch the alternation would not (R-RIVER-3) only where that moves a
canoe differently."""

import copy
import random

from companion.rules.random_play import random_phase_events, random_setup_game
from companion.rules.river import branches_for, step_river


def _rivers(seed: int):
    rng = random.Random(seed)
    game = random_setup_game(rng, 3, [])
    while not game.is_over:
        before = copy.deepcopy(game.state) if game.phase == "river" else None
        events = random_phase_events(game, rng, seen_only=True)
        if before is not None:
            yield before, events[-1]


def test_R_RIVER_3_a_branch_off_the_alternation_always_moves_a_canoe_differently():
    deviations = 0
    for seed in range(40):
        for state, event in _rivers(seed):
            if event.branches is None:
                continue
            usual = branches_for(state, len(event.branches))
            assert list(event.branches) != usual
            for branch in event.branches:
                if branch != state.branch_next:
                    deviations += 1
                    other, alternate = copy.deepcopy(state), copy.deepcopy(state)
                    step_river(other, branch)
                    step_river(alternate, state.branch_next)
                    assert other.canoes != alternate.canoes
                step_river(state, branch)
    assert deviations > 0  # the rivers still show the "usually, not always"

