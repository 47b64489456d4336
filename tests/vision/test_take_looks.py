"""How this table's camera sees gems leave their piles (vision.take_looks): counted per
colour, and two gems taken told from one by this table's own single takes."""

from __future__ import annotations

import pytest

from companion.vision.looks import PieceLooks
from companion.vision.take_looks import KEEP, TAKES_ENOUGH, TAKES_PRIOR, TakeLooks


def test_R_GEM_3_how_often_a_gem_taken_was_seen_leave_its_pile_is_counted_per_colour():
    looks = TakeLooks()
    assert looks.takes_shown() == {}
    for seen in (True, True, False, True):
        looks.learn_take("clear", seen)
    for _ in range(KEEP + 3):
        looks.learn_take("violet", True)
    seen, missed = TAKES_PRIOR
    assert looks.takes_shown() == {"clear": (3 + seen) / (4 + seen + missed),
                                   "violet": (KEEP + seen) / (KEEP + seen + missed)}


def test_R_GEM_3_two_gems_taken_are_told_from_one_by_this_tables_single_takes():
    looks = TakeLooks()
    sizes = (0.8, 0.9, 1.0, 1.0, 1.1, 1.2)
    for size in sizes[:TAKES_ENOUGH - 1]:
        looks.learn_take("violet", True, size)
    assert not looks.two_taken("violet", 2.0)      # too few takes seen to tell
    for size in sizes[TAKES_ENOUGH - 1:]:
        looks.learn_take("violet", True, size)
    looks.learn_take("violet", False, 0.1)         # (a take not seen teaches no size)
    looks.learn_take("violet", True)               # (nor one whose size is not known)
    assert looks.two_taken("violet", 2.0)
    assert not looks.two_taken("violet", 1.25)     # a large single take
    assert not looks.two_taken("violet", 0.5)
    # a translucent colour's takes change less of the pile: their own size counts
    for size in (0.3, 0.35, 0.3, 0.4, 0.35, 0.3):
        looks.learn_take("clear", True, size)
    assert looks.two_taken("clear", 0.7) and not looks.two_taken("clear", 0.4)
    # a colour whose single takes spread widely is seldom told
    for size in (0.1, 0.3, 0.5, 0.8, 1.0, 1.6):
        looks.learn_take("yellow", True, size)
    assert not looks.two_taken("yellow", 1.9)
    # nor is a change no larger than the largest single take seen
    looks.learn_take("violet", True, 2.1)
    assert not looks.two_taken("violet", 2.0)


@pytest.mark.parametrize("sizes", [[True], ["0.5"], [None], [float("nan")]])
def test_take_sizes_read_back_that_are_not_numbers_are_refused(sizes):
    looks = PieceLooks()
    looks.learn_take("violet", True, 1.0)
    data = looks.to_json()
    assert PieceLooks.from_json(data).to_json() == data    # what it wrote reads back
    data["take_sizes"]["violet"] = sizes
    with pytest.raises(ValueError, match="not a number"):
        PieceLooks.from_json(data)
