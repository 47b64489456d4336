"""preview_river tells, push by push, what step_river will do (R-RIVER-2, R-RIVER-4)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.random_play import random_position
from companion.rules.river import preview_river, step_river


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 9))
def test_R_RIVER_4_the_preview_names_the_pushes_in_which_canoes_fall(seed, steps):
    rng = random.Random(seed)
    game = random_position(rng)
    branches = [rng.choice("LR") for _ in range(steps)]
    preview = preview_river(game.state, steps, branches)
    state = game.state.copy()
    fell = [bool(step_river(state, branch)) for branch in branches]
    assert list(preview.canoe_falls) == fell
    fallen = sorted((p, gem or "") for p, _, gem in preview.falling_canoes)
    in_falling_slots = sorted((p, gem or "") for p in game.players
                              for at, gem in game.state.canoes[p] if at in preview.falling_slots)
    assert fallen == in_falling_slots
