"""The worlds' truth keeps to what a camera can see (R-RIVER-3): a disc enters the branch
the alternation would not only where that moves a canoe differently."""

import copy
import random

from companion.rules.random_play import random_phase_events, random_setup_game
from companion.rules.river import branches_for, step_river
from tools.worlds.generate import seen_river


def _rivers(seed: int):
    rng = random.Random(seed)
    game = random_setup_game(rng, 3, [])
    while not game.is_over:
        if game.phase == "river":
            before = copy.deepcopy(game.state)
            event = seen_river(game, rng)
            yield before, event
            game.apply(event)
        else:
            random_phase_events(game, rng)


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
    assert deviations > 0  # the worlds still show the "usually, not always"
