"""A canoe that stayed compared with itself across a move (vision.cargo_looks): the same
look is a cargo kept, a far other one a cargo changed, whatever gem either is read as."""

from __future__ import annotations

import pytest

from companion.vision.cargo_looks import CHANGED, KEPT, cargo_compared, look_distance
from companion.vision.looks import LOOK_SPREAD
from companion.vision.seen_canoes import SeenCanoe

VIOLET_IN_YELLOW = (0.55, -0.8, 0.3, 0.5)


def _canoe(player: str, place: str, look: tuple[float, ...] | None) -> SeenCanoe:
    return SeenCanoe(player, place, 5.0, look=look)


def _moved(look: tuple[float, ...], spreads: float) -> tuple[float, ...]:
    """`look` moved `spreads` LOOK_SPREADs along its chroma."""
    return (look[0], look[1] + spreads * LOOK_SPREAD[1], *look[2:])


def test_the_look_distance_is_in_spreads():
    assert look_distance(VIOLET_IN_YELLOW, _moved(VIOLET_IN_YELLOW, 2.5)) == pytest.approx(2.5)


def test_R_STEAL_1_a_victim_looking_as_before_kept_its_gem_and_one_far_other_lost_it():
    state = {"yellow": [("5", "violet"), ("D", None)], "red": [("6R", None), ("6R", None)]}
    before = [_canoe("yellow", "5", VIOLET_IN_YELLOW)]
    near = _canoe("yellow", "5", _moved(VIOLET_IN_YELLOW, KEPT * 0.99))
    kept, changed = cargo_compared(state, before, [near])
    assert (kept, changed) == ({"yellow": ["5"]}, {})
    far = _canoe("yellow", "5", _moved(VIOLET_IN_YELLOW, CHANGED * 1.01))
    kept, changed = cargo_compared(state, before, [far])
    assert (kept, changed) == ({}, {"yellow": ["5"]})


def test_a_look_between_kept_and_changed_says_nothing():
    state = {"yellow": [("5", "violet"), ("D", None)]}
    middle = _moved(VIOLET_IN_YELLOW, (KEPT + CHANGED) / 2)
    assert cargo_compared(state, [_canoe("yellow", "5", VIOLET_IN_YELLOW)],
                          [_canoe("yellow", "5", middle)]) == ({}, {})


def test_two_canoes_of_a_player_on_one_place_or_one_unmeasured_are_not_compared():
    look = VIOLET_IN_YELLOW
    two = {"red": [("4", None), ("4", "blue")]}
    assert cargo_compared(two, [_canoe("red", "4", look)], [_canoe("red", "4", look)]) == ({}, {})
    one = {"red": [("4", None), ("D", None)]}
    seen_twice = [_canoe("red", "4", look), _canoe("red", "4", look)]
    assert cargo_compared(one, seen_twice, [_canoe("red", "4", look)]) == ({}, {})
    assert cargo_compared(one, [_canoe("red", "4", None)], [_canoe("red", "4", look)]) == ({}, {})
    assert cargo_compared(one, [_canoe("red", "4", look)], []) == ({}, {})


def test_R_LAND_2_canoes_ashore_are_not_compared():
    # On the dock and below the falls canoes are empty by the rules; their look there
    # is the print's and the lamp's, not a cargo's.
    state = {"red": [("D", None), ("F", None)]}
    look = VIOLET_IN_YELLOW
    seen = [_canoe("red", "D", look), _canoe("red", "F", look)]
    assert cargo_compared(state, seen, seen) == ({}, {})


def test_the_movers_own_canoes_are_judged_by_the_piles_not_by_their_look():
    # Red's canoe on 5 loads a violet gem where it lies (R-GEM-3), or its twin comes to
    # 5 and the canoe leaves: which canoe lies there now and how it lies on the disc,
    # the look does not tell; the pile does. Blue, who does not move, is judged.
    from companion.vision.fit_changes import cargo_mismatches
    from companion.vision.sighting import Sighting

    seen = Sighting({}, None, cargo_kept=frozenset({("red", "5"), ("blue", "4")}))
    before = {"red": [("5", None), ("D", None)], "blue": [("4", "violet"), ("D", None)]}
    after = {"red": [("5", "violet"), ("D", None)], "blue": [("4", None), ("D", None)]}
    found = cargo_mismatches(before, after, seen, mover="red")
    assert [(m.kind, m.player, m.expected, m.seen) for m in found] == [
        ("kept", "blue", ("4", None), ("4", "violet"))]


def test_R_STEAL_1_a_look_identical_to_the_one_before_is_a_cargo_kept():
    # The gems stage keeps a middle's evidence while it changes by less than SAME_MIDDLE
    # where the gem lies; on the tuned worlds no cargo that changed to one that looks
    # apart (a theft's loot gone) changed it so little.
    state = {"blue": [("4", "violet"), ("D", None)]}
    same = [_canoe("blue", "4", VIOLET_IN_YELLOW)]
    assert cargo_compared(state, same, same) == ({"blue": ["4"]}, {})
