"""The table's learned look of its canoes (vision.looks): learned only from canoes the
confirmed state says are empty, kept current, and used to judge a gem's facets."""

from __future__ import annotations

import itertools

import pytest

from companion.vision.looks import (
    CLEAR_SHOWN_PRIOR,
    EMPTY,
    ENOUGH,
    KEEP,
    LOOK_FAR,
    LOOK_SPREAD,
    MISREAD_PRIOR,
    PALE_CLEAR,
    PALE_ENOUGH,
    PALE_SPREAD,
    PALE_UNSURE,
    SHARED_PRIOR,
    SHOWN_PRIOR,
    PieceLooks,
)
from companion.vision.seen_canoes import SeenCanoe


def test_a_hull_is_learned_only_where_the_state_has_that_players_canoes_all_empty():
    looks = PieceLooks()
    learned = looks.learn(
        [SeenCanoe("red", "3", 5.0), SeenCanoe("red", "4", 9.0), SeenCanoe("blue", "4", 2.0),
         SeenCanoe("green", "5", 1.0)],
        {"red": [("3", None), ("4", "violet")], "blue": [("4", None)], "green": [("D", None)]})
    # red on 4 carries violet: not an empty hull; green is not on 5: a misread.
    assert learned == 2
    assert looks.empty_texture("red") is None  # one sample is not ENOUGH
    looks.learn([SeenCanoe("red", "3", 7.0)], {"red": [("3", None)]})
    assert looks.empty_texture("red") == 6.0


def test_nothing_is_known_before_enough_hulls_were_seen():
    looks = PieceLooks()
    for n in range(ENOUGH - 1):
        looks.learn([SeenCanoe("yellow", "D", 3.0)], {"yellow": [("D", None)]})
        assert looks.empty_texture("yellow") is None, n
    assert looks.empty_texture("brown") is None


def test_the_look_follows_the_light_keeping_only_the_newest_hulls():
    looks = PieceLooks()
    for _ in range(KEEP):
        looks.learn([SeenCanoe("blue", "2", 3.0)], {"blue": [("2", None)]})
    for _ in range(KEEP // 2 + 1):  # a lamp switched on: the hulls look glossier
        looks.learn([SeenCanoe("blue", "2", 8.0)], {"blue": [("2", None)]})
    assert looks.empty_texture("blue") == 8.0


def test_a_canoe_whose_middle_was_not_measured_teaches_nothing():
    looks = PieceLooks()
    assert looks.learn([SeenCanoe("red", "3", None)] * 3, {"red": [("3", None)]}) == 0


def test_a_gem_in_a_canoe_is_learned_from_the_state_that_says_which_gem_it_is():
    looks = PieceLooks()
    violet = (90.0, 10.0, 98.0)  # a violet gem blurred into a red hull, BGR
    learned = looks.learn([SeenCanoe("red", "3", 2.0, violet)], {"red": [("3", "violet")]})
    assert learned == 1
    assert list(looks.gem_colour("violet")) == list(violet)
    assert looks.gem_colour("blue") is None


def test_twin_canoes_carrying_different_gems_teach_nothing():
    # Which of the two is which cannot be told: neither teaches a gem's look.
    looks = PieceLooks()
    seen = [SeenCanoe("red", "3", 2.0, (90.0, 10.0, 98.0)), SeenCanoe("red", "3", 2.0, None)]
    assert looks.learn(seen, {"red": [("3", "violet"), ("3", None)]}) == 0
    assert looks.gem_colour("violet") is None


def test_a_gem_seen_in_a_canoe_says_more_than_its_pile_in_the_deposit():
    looks = PieceLooks()
    looks.learn_pile("violet", (150.0, 60.0, 130.0))
    assert list(looks.gem_colour("violet")) == [150.0, 60.0, 130.0]
    looks.learn([SeenCanoe("red", "3", 2.0, (90.0, 10.0, 98.0))], {"red": [("3", "violet")]})
    assert list(looks.gem_colour("violet")) == [90.0, 10.0, 98.0]


def test_a_gem_looks_as_it_did_in_hulls_of_the_same_colour_once_one_was_seen():
    # A translucent gem shows the hull under it: a violet gem is pinkish in a red canoe,
    # greyish in a yellow one. In another hull colour, every sighting counts.
    looks = PieceLooks()
    in_red, in_yellow = (90.0, 10.0, 98.0), (120.0, 110.0, 130.0)
    looks.learn([SeenCanoe("red", "3", 2.0, in_red)], {"red": [("3", "violet")]})
    looks.learn([SeenCanoe("yellow", "4", 2.0, in_yellow)], {"yellow": [("4", "violet")]})
    assert list(looks.gem_colour("violet", hull="red")) == list(in_red)
    assert list(looks.gem_colour("violet", hull="yellow", in_canoe=True)) == list(in_yellow)
    assert list(looks.gem_colour("violet", hull="green")) == [105.0, 60.0, 114.0]
    assert list(looks.gem_colour("violet")) == [105.0, 60.0, 114.0]


def test_how_often_a_carried_gem_showed_is_counted_per_colour_from_the_state():
    looks = PieceLooks()
    state = {"red": [("3", "clear"), ("4", "violet")]}
    # The clear gem read once in four pictures, the violet one three times.
    for clear, violet in ((None, "violet"), (None, "violet"), ("clear", None), (None, "violet")):
        looks.learn([SeenCanoe("red", "3", 5.0, gem=clear),
                     SeenCanoe("red", "4", 5.0, gem=violet)], state)
    shown = looks.shown()
    # three sightings of four, with SHOWN_PRIOR pretended sightings more
    assert shown["violet"] == (3 + SHOWN_PRIOR) / (4 + SHOWN_PRIOR)
    # one sighting of four, with CLEAR_SHOWN_PRIOR pretended sightings and misses more
    seen, missed = CLEAR_SHOWN_PRIOR
    assert shown["clear"] == (1 + seen) / (4 + seen + missed)


def test_a_clear_gem_read_as_its_hull_did_not_show():
    # Read as red in a red canoe, the clear gem was not made out: the hull showed
    # through it, as an empty red hull reads.
    looks = PieceLooks()
    state = {"red": [("3", "clear")]}
    for gem in ("red", "red", "clear"):
        looks.learn([SeenCanoe("red", "3", 5.0, gem=gem)], state)
    seen, missed = CLEAR_SHOWN_PRIOR
    assert looks.shown()["clear"] == (1 + seen) / (3 + seen + missed)


def test_a_gem_read_in_another_colour_again_and_again_is_this_cameras_habit():
    # A violet gem in a red canoe read clear twice in five pictures (once not seen,
    # once unknown, once violet); the clear gem read as its hull is not seen, no
    # misread; a red gem read blue once is no habit yet (fewer than ENOUGH).
    looks = PieceLooks()
    state = {"red": [("3", "violet"), ("4", "clear")], "blue": [("5", "red")]}
    for violet, clear, red in (("clear", "red", "blue"), ("clear", "red", "red"),
                               (None, "clear", "red"), ("unknown", None, "red"),
                               ("violet", "red", "red")):
        looks.learn([SeenCanoe("red", "3", 5.0, gem=violet), SeenCanoe("red", "4", 5.0, gem=clear),
                     SeenCanoe("blue", "5", 5.0, gem=red)], state)
    assert ENOUGH == 2
    assert looks.misread() == {"violet": {"clear": 2 / (5 + MISREAD_PRIOR)}}
    # kept over a restart; a table kept before it was counted has none yet
    data = looks.to_json()
    assert PieceLooks.from_json(data).misread() == looks.misread()
    del data["reads"]
    assert PieceLooks.from_json(data).misread() == {}


def test_a_canoe_read_again_where_it_lay_is_one_reading_of_its_gem():
    # Re-read from its cached middle (the same look) in every picture while it stays:
    # one picture's misread, counted once, is no habit.
    looks = PieceLooks()
    state = {"red": [("3", "violet")]}
    for _ in range(4):
        looks.learn([SeenCanoe("red", "3", 5.0, gem="clear", look=(0.5, 0.0, 0.0, 0.0))],
                    state)
    assert looks.misread() == {}
    looks.learn([SeenCanoe("red", "3", 5.0, gem="clear", look=(0.6, 0.0, 0.0, 0.0))], state)
    assert looks.misread() == {"violet": {"clear": 2 / (2 + MISREAD_PRIOR)}}


def test_a_canoe_read_again_where_it_lay_is_one_sighting_of_whether_its_gem_showed():
    # A violet gem missed in one sighting of a canoe that then stays (re-read from its
    # cached middle in four pictures), and seen in a canoe that came after: one miss,
    # one sighting, not four misses.
    looks = PieceLooks()
    state = {"red": [("3", "violet")]}
    for _ in range(4):
        looks.learn([SeenCanoe("red", "3", 5.0, look=(0.5, 0.0, 0.0, 0.0))], state)
    looks.learn([SeenCanoe("red", "3", 5.0, gem="violet", look=(0.6, 0.0, 0.0, 0.0))], state)
    assert looks.shown()["violet"] == (1 + SHOWN_PRIOR) / (2 + SHOWN_PRIOR)


def test_an_empty_canoe_read_again_where_it_lay_is_one_sighting_of_a_gem_invented():
    # A gem read once in an empty canoe that then stays, re-read in every picture, is
    # one reading of four empty canoes, not four of seven.
    looks = PieceLooks()
    state = {"blue": [("2", None)]}
    for _ in range(4):
        looks.learn([SeenCanoe("blue", "2", 3.0, gem="red", look=(0.5, 0.0, 0.0, 0.0))],
                    state)
    for k in range(3):
        looks.learn([SeenCanoe("blue", "2", 3.0, look=(0.7 + k / 100, 0.0, 0.0, 0.0))], state)
    assert looks.invented()["red"] == 1 / 4


def test_a_gem_read_beside_another_players_gem_teaches_no_misread():
    # Red's violet gem read clear beside blue's clear gem on slot 3: it may be blue's,
    # read in its neighbour (which canoe of a shared disc holds a gem is what a picture
    # tells least well).
    looks = PieceLooks()
    state = {"red": [("3", "violet")], "blue": [("3", "clear")]}
    for _ in range(3):
        looks.learn([SeenCanoe("red", "3", 5.0, gem="clear")], state)
    assert looks.misread() == {}


@pytest.mark.parametrize("reads", [{"violet": "clearclear"}, {"violet": ["gold"]},
                                   {"gold": ["clear"]}, ["violet"]])
def test_a_kept_look_with_malformed_readings_is_refused(reads):
    data = PieceLooks().to_json()
    data["reads"] = reads
    with pytest.raises(ValueError, match="'reads' must map gems"):
        PieceLooks.from_json(data)


def test_a_gem_ashore_or_in_a_canoe_of_twins_carrying_others_teaches_no_misread():
    looks = PieceLooks()
    state = {"red": [("D", "violet"), ("3", "violet"), ("3", "yellow")]}
    for _ in range(3):
        looks.learn([SeenCanoe("red", "D", 5.0, gem="clear"),
                     SeenCanoe("red", "3", 5.0, gem="clear")], state)
    assert looks.misread() == {}


def test_a_clear_gem_starts_as_one_the_camera_misses_every_other_time():
    # It shows its hull through it: before this table has shown any, not seeing one in
    # a canoe that loaded it tells little (a coloured gem starts as always seen).
    seen, missed = CLEAR_SHOWN_PRIOR
    assert PieceLooks().shown() == {"clear": seen / (seen + missed)} == {"clear": 0.5}


def test_a_gem_read_in_an_empty_canoe_on_the_river_is_counted_as_invented():
    looks = PieceLooks()
    state = {"blue": [("2", None), ("D", None)], "yellow": [("5", None)]}
    looks.learn([SeenCanoe("blue", "2", 3.0, gem="clear"),
                 SeenCanoe("blue", "D", 3.0, gem="red"),        # ashore: not counted
                 SeenCanoe("yellow", "5", 3.0, gem="yellow")],  # its own colour: no gem
                state)
    looks.learn([SeenCanoe("blue", "2", 3.0), SeenCanoe("yellow", "5", 3.0, gem="unknown")],
                state)
    assert looks.invented() == {"clear": 0.25}


_sightings = itertools.count(1)


def _noise() -> float:
    """A difference too small to matter that makes each sighting's look its own."""
    return 1e-6 * next(_sightings)


def _empty_hulls(looks: PieceLooks, player: str, pales: list[float]) -> None:
    # Each a sighting of its own: its look differs from the others by the sensor's noise.
    for pale in pales:
        looks.learn([SeenCanoe(player, "3", 5.0, look=(pale, 0.0, 0.0, _noise()))],
                    {player: [("3", None)]})


def test_a_clear_gem_is_judged_only_once_enough_empty_hulls_were_seen_on_the_river():
    looks = PieceLooks()
    assert looks.pale_gem("red", 0.1) is None
    # The dock's print is another background: its hulls do not teach the river's look.
    for _ in range(PALE_ENOUGH):
        looks.learn([SeenCanoe("red", "D", 5.0, look=(0.9, 0.0, 0.0, 0.0))], {"red": [("D", None)]})
    assert looks.pale_gem("red", 0.1) is None
    _empty_hulls(looks, "red", [0.9] * (PALE_ENOUGH - 1))
    assert looks.pale_gem("red", 0.1) is None
    _empty_hulls(looks, "red", [0.9])
    assert looks.pale_gem("red", 0.1) == "clear"
    assert looks.pale_gem("blue", 0.1) is None  # another hull colour: nothing learned


def test_a_middle_paler_than_this_tables_empty_hulls_by_their_spread_holds_a_clear_gem():
    looks = PieceLooks()
    _empty_hulls(looks, "green", [0.70, 0.75, 0.80, 0.85, 0.90])
    centre, spread = 0.80, max(1.4826 * 0.05, PALE_SPREAD)
    assert looks.pale_gem("green", centre) is None
    assert looks.pale_gem("green", centre + 0.3) is None         # less pale: no gem
    assert looks.pale_gem("green", centre - (PALE_CLEAR + 0.1) * spread) == "clear"
    between = centre - (PALE_UNSURE + PALE_CLEAR) / 2 * spread
    assert looks.pale_gem("green", between) == "unknown"
    assert looks.pale_gem("green", centre - (PALE_UNSURE - 0.1) * spread) is None
    assert looks.pale_gem("green", None) is None                 # not measured


def test_the_pale_look_follows_the_light_keeping_only_the_newest_hulls():
    looks = PieceLooks()
    _empty_hulls(looks, "yellow", [0.9] * KEEP)
    assert looks.pale_gem("yellow", 0.6) == "clear"
    _empty_hulls(looks, "yellow", [0.6] * (KEEP // 2 + 1))   # daylight fading
    assert looks.pale_gem("yellow", 0.6) is None


def test_once_clear_is_read_from_paleness_the_camera_may_invent_it():
    # A hull's gloss paler than any seen yet reads as a clear gem: one seen where no
    # move puts one is a slip to ask about, not an illegal load to flag.
    looks = PieceLooks()
    _empty_hulls(looks, "red", [0.9] * (PALE_ENOUGH - 1))
    assert "clear" not in looks.invented()
    _empty_hulls(looks, "red", [0.9])
    assert looks.invented() == {"clear": 1 / (PALE_ENOUGH + 1)}


def _middles(looks: PieceLooks, player: str, gem: str | None, look: tuple[float, ...],
             times: int = ENOUGH) -> None:
    for _ in range(times):
        noisy = (*look[:3], look[3] + _noise())
        looks.learn([SeenCanoe(player, "4", 5.0, look=noisy)], {player: [("4", gem)]})


def test_a_middle_is_judged_by_the_nearest_look_once_two_were_learned_an_empty_one_among_them():
    looks = PieceLooks()
    empty, violet = (0.9, 0.0, 0.0, 0.0), (0.5, 0.6, -0.5, 0.0)
    _middles(looks, "yellow", "violet", violet)
    assert looks.middle_gem("yellow", violet) is None      # no empty hull's look yet
    _middles(looks, "yellow", None, empty, times=ENOUGH - 1)
    assert looks.middle_gem("yellow", violet) is None      # not ENOUGH of them
    _middles(looks, "yellow", None, empty, times=1)
    assert looks.middle_gem("yellow", violet) == "violet"
    assert looks.middle_gem("yellow", (0.88, 0.05, 0.0, 0.0)) == EMPTY
    assert looks.middle_gem("red", violet) is None         # another hull colour
    assert looks.middle_gem("yellow", None) is None        # not measured


def test_a_middle_about_as_near_two_looks_is_unknown_and_one_near_none_says_nothing():
    looks = PieceLooks()
    _middles(looks, "green", None, (0.9, 0.0, 0.0, 0.0))
    _middles(looks, "green", "clear", (0.5, 0.0, 0.0, 0.0))
    assert looks.middle_gem("green", (0.7, 0.0, 0.0, 0.0)) == "unknown"
    # Far from both (a blue gem this table has not shown in a green hull yet): the
    # colour rules judge it.
    assert looks.middle_gem("green", (0.9, 0.0, 0.0, (LOOK_FAR + 1) * LOOK_SPREAD[3])) is None


def test_a_clear_gem_less_pale_than_the_glossy_empty_hulls_it_covers_is_told_by_their_looks():
    # Under a glossy lamp an empty yellow hull's middle is paler than a clear gem over
    # it: paleness alone never reads that gem, the looks this table confirmed do.
    looks = PieceLooks()
    glossy, clear = (0.60, 0.0, 0.0, 0.0), (0.85, 0.0, -0.3, 0.0)
    _middles(looks, "yellow", None, glossy, times=PALE_ENOUGH)
    assert looks.pale_gem("yellow", clear[0]) is None
    assert looks.clear_look("yellow", clear) is None        # no clear gem seen yet
    _middles(looks, "yellow", "clear", clear, times=ENOUGH)
    assert looks.clear_look("yellow", clear) == "clear"
    assert looks.clear_look("yellow", (0.61, 0.0, 0.02, 0.0)) is None  # an empty hull
    assert looks.clear_look("yellow", (0.725, 0.0, -0.15, 0.0)) == "unknown"
    assert looks.clear_look("red", clear) is None           # another hull colour
    assert looks.clear_look("yellow", None) is None         # not measured
    # Far from both (a look this table has not shown): it says nothing.
    assert looks.clear_look("yellow", (0.6, 0.0, 0.0, (LOOK_FAR + 1) * LOOK_SPREAD[3])) is None


def test_a_clear_gems_look_says_nothing_before_enough_empty_hulls_were_seen():
    looks = PieceLooks()
    clear = (0.85, 0.0, -0.3, 0.0)
    _middles(looks, "yellow", "clear", clear)
    _middles(looks, "yellow", None, (0.60, 0.0, 0.0, 0.0), times=PALE_ENOUGH - 1)
    assert looks.clear_look("yellow", clear) is None


def test_a_gem_of_the_hulls_own_colour_is_told_by_its_look_once_the_table_showed_it():
    # A yellow gem in a yellow hull shows nothing unlike the hull, and under a soft lamp
    # its facets hardly show: the looks this table confirmed tell it from the empty hull.
    looks = PieceLooks()
    empty, own = (0.80, 0.0, 0.0, 0.0), (0.55, 0.0, 0.3, 0.0)
    _middles(looks, "yellow", None, empty, times=PALE_ENOUGH)
    assert looks.own_look("yellow", own) is None            # no yellow gem seen in one yet
    _middles(looks, "yellow", "yellow", own, times=ENOUGH)
    assert looks.own_look("yellow", own) == "yellow"
    assert looks.own_look("yellow", (0.79, 0.0, 0.01, 0.0)) is None  # an empty hull
    assert looks.own_look("yellow", (0.675, 0.0, 0.15, 0.0)) == "unknown"
    assert looks.own_look("red", own) is None               # another hull colour
    assert looks.own_look("yellow", None) is None           # not measured
    # A clear gem's look is another question (``clear_look``).
    assert looks.clear_look("yellow", own) is None


def test_a_canoe_read_again_where_it_lay_is_one_sighting_of_its_look():
    # A canoe that did not move is read from its cached middle: the same look, which
    # says no more the tenth time than the first.
    looks = PieceLooks()
    for _ in range(PALE_ENOUGH + 2):
        looks.learn([SeenCanoe("red", "3", 5.0, look=(0.9, 0.0, 0.0, 0.0))],
                    {"red": [("3", None)]})
    assert looks.pale_gem("red", 0.1) is None


def _swap_share(right: int, wrong: int) -> float:
    prior_right, prior_wrong = SHARED_PRIOR
    return (wrong + prior_wrong) / (right + wrong + prior_right + prior_wrong)


def test_R_STEAL_1_a_shared_discs_one_gem_read_in_its_canoe_or_the_others_is_counted_once():
    looks = PieceLooks()
    assert looks.swapped() == _swap_share(0, 0)
    state = {"red": [("3", "clear"), ("D", None)], "blue": [("3", None), ("5", None)]}
    right = [SeenCanoe("red", "3", 5.0, gem="clear"), SeenCanoe("blue", "3", 5.0)]
    for _ in range(3):      # the same disc in three pictures is one sighting
        looks.learn(right, state)
    assert looks.swapped() == _swap_share(1, 0)
    moved = {"red": [("3", "clear"), ("D", None)], "blue": [("4", None), ("5", None)]}
    looks.learn([SeenCanoe("red", "3", 5.0, gem="clear")], moved)
    # blue comes back beside red: a new sighting, read with the gem in blue's canoe
    looks.learn([SeenCanoe("red", "3", 5.0), SeenCanoe("blue", "3", 5.0, gem="clear")],
                state)
    assert looks.swapped() == _swap_share(1, 1)


def test_a_shared_disc_read_with_a_canoe_missing_or_with_the_gem_in_both_says_nothing():
    looks = PieceLooks()
    state = {"red": [("3", "clear")], "blue": [("3", None)], "green": [("6L", "red"),
                                                                         ("6L", None)]}
    looks.learn([SeenCanoe("red", "3", 5.0, gem="clear")], state)   # blue not seen
    looks.learn([SeenCanoe("red", "3", 5.0, gem="clear"),
                 SeenCanoe("blue", "3", 5.0, gem="violet"),         # both: no one swap
                 SeenCanoe("green", "6L", 5.0, gem="red")], state)  # twins: unsure which
    assert looks.swapped() == _swap_share(0, 0)
    # a gem of the hull's own colour, or one unknown, claims nothing
    state = {"red": [("4", "clear")], "blue": [("4", None)]}
    looks.learn([SeenCanoe("red", "4", 5.0, gem="clear"),
                 SeenCanoe("blue", "4", 5.0, gem="blue")], state)
    assert looks.swapped() == _swap_share(1, 0)


def test_the_canoes_of_a_picture_may_come_one_by_one():
    # (a generator of sightings teaches as a list does: shared discs included)
    looks, listed = PieceLooks(), PieceLooks()
    state = {"red": [("3", "clear")], "blue": [("3", None)]}
    canoes = [SeenCanoe("red", "3", 5.0, gem="clear"), SeenCanoe("blue", "3", 5.0)]
    looks.learn((c for c in canoes), state)
    listed.learn(canoes, state)
    assert looks.swapped() == listed.swapped() < _swap_share(0, 0)
