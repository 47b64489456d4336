"""A gem is judged by how it looks at this table in hulls of the canoe's colour: a gem
is translucent, and the hull under it shows through."""

from __future__ import annotations

import pytest

from companion.vision.detect import Detector
from companion.vision.seen_canoes import SeenCanoe
from companion.vision.sighting import UNKNOWN
from companion.vision.stage import GemEvidence


@pytest.fixture
def detector(board, profile):
    return Detector(board, profile, 0.8, gem_model=None)  # (the hand rules alone)


def test_a_gem_is_judged_by_its_look_in_hulls_of_the_same_colour(detector, profile):
    # A violet gem in a yellow canoe shows the yellow through it: halfway between the
    # two, nowhere near how it looks in red canoes. The table has seen it three times in
    # a red canoe and once in a yellow one: the yellow sighting decides.
    violet = profile.classes["gem:violet"].bgr
    yellow, red = profile.classes["canoe:yellow"].bgr, profile.classes["canoe:red"].bgr
    in_yellow, in_red = 0.5 * (yellow + violet), 0.5 * (red + violet)
    middle = GemEvidence(0.8, yellow, in_yellow, 30.0, 0.6 * yellow + 0.4 * in_yellow,
                         (0.8, 0.0, 0.0, 0.0))
    for _ in range(3):
        detector.looks.learn([SeenCanoe("red", "3", 30.0, tuple(in_red))],
                             {"red": [("3", "violet")]})
    assert detector._gem(middle, "yellow").gem == UNKNOWN
    detector.looks.learn([SeenCanoe("yellow", "4", 30.0, tuple(in_yellow))],
                         {"yellow": [("4", "violet")]})
    assert detector._gem(middle, "yellow").gem == "violet"


def _evidence(hull, core) -> GemEvidence:
    return GemEvidence(0.8, hull, core, 30.0, 0.5 * (hull + core), (0.8, 0.0, 0.0, 0.0))


def _violet_nearer_than_clear(profile):
    """The violet and the clear gem's colours, and a hull's colour on the line through
    them, the violet nearer: both gems leave it the same way."""
    violet, clear = profile.classes["gem:violet"].bgr, profile.classes["gem:clear"].bgr
    return violet, clear, violet - 0.3 * (clear - violet)


def test_a_middle_farther_from_the_hull_than_a_gems_colour_is_not_that_gem(detector,
                                                                             profile):
    # Only how far tells the two gems apart: a middle as far as the clear gem's colour
    # is past the violet's, and no mix of the hull and a violet gem lies there.
    violet, clear, hull = _violet_nearer_than_clear(profile)
    assert detector._gem(_evidence(hull, clear), "green").gem == "clear"


def test_a_middle_short_of_both_gems_colours_the_same_way_is_unsure(detector, profile):
    # As far as the violet gem's colour is also part of the way to the clear one's: a
    # violet gem, or a clear gem the camera blurred into its hull.
    violet, clear, hull = _violet_nearer_than_clear(profile)
    assert detector._gem(_evidence(hull, violet), "green").gem == UNKNOWN


def test_R_LAND_2_a_canoe_ashore_gets_no_gem_from_how_far_its_middle_lies(detector, profile):
    # On the dock a canoe is empty by the rules (R-LAND-2; below the falls, R-RIVER-4):
    # only a gem plainly of another colour is read there, not one told from another by
    # how far it lies. Without one, the canoe is as the rules leave it: empty.
    violet, clear, hull = _violet_nearer_than_clear(profile)
    assert detector._gem(_evidence(hull, clear), "green", ashore=True).gem is None
    assert detector._gem(_evidence(hull, clear), "green").gem == "clear"   # (afloat)
    # A gem plainly of its colour is read ashore too: the reading says what is there.
    green, red = profile.classes["canoe:green"].bgr, profile.classes["gem:red"].bgr
    assert detector._gem(_evidence(green, red), "green", ashore=True).gem == "red"


def test_what_the_table_learned_of_its_empty_hulls_comes_before_how_far_the_middle_lies(
        detector, profile):
    # This table has shown green hulls empty looking just as this middle does, and with
    # a violet gem looking otherwise: the middle is an empty hull's, however far its
    # colour lies (a gem claimed where none is costs far more than one missed).
    violet, clear, hull = _violet_nearer_than_clear(profile)
    for k in range(2):
        detector.looks.learn([SeenCanoe("green", "3", 30.0, look=(0.8 + 0.01 * k, 0.0, 0.0, 0.0))],
                             {"green": [("3", None)]})
        detector.looks.learn([SeenCanoe("green", "4", 30.0, look=(0.2 + 0.01 * k, 1.0, 0.0, 0.0))],
                             {"green": [("4", "violet")]})
    assert detector._gem(_evidence(hull, clear), "green").gem is None


def test_a_plain_middle_that_looks_as_this_tables_clear_gems_did_holds_one(detector, profile):
    # Nothing in the middle unlike the hull, and not paler than the empty hulls (under
    # this lamp their gloss is paler than a clear gem over them): it looks as the clear
    # gems this table confirmed in yellow hulls looked, so it holds one.
    yellow = profile.classes["canoe:yellow"].bgr
    glossy, clear = (0.60, 0.0, 0.0, 0.0), (0.85, 0.0, -0.3, 0.0)
    for k in range(3):
        detector.looks.learn([SeenCanoe("yellow", "3", 5.0, look=(*glossy[:3], 1e-6 * k))],
                             {"yellow": [("3", None)]})
    plain = GemEvidence(0.0, yellow, yellow, 5.0, yellow, clear)
    assert detector._gem(plain, "yellow").gem is None
    for k in range(2):
        detector.looks.learn([SeenCanoe("yellow", "4", 5.0, look=(*clear[:3], 1e-6 * k))],
                             {"yellow": [("4", "clear")]})
    assert detector._gem(plain, "yellow").gem == "clear"
    assert detector._gem(plain._replace(look=glossy), "yellow").gem is None
