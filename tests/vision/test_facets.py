"""A canoe's middle is faceted (a gem of the hull's own colour) only when it is more
uneven than this table's empty hulls look: learned from the confirmed pictures, or,
before the table has shown any, than the plain middles of the same picture. How uneven
an empty hull looks depends on the lamp and the hull's make, so the sensor noise alone is
no yardstick.

These pin the hand rules themselves (``GemReader._ruled_gem``), read without the gem
model that weighs them on the river (tests/vision/test_gem_model.py)."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.detect import Detector
from companion.vision.looks import ENOUGH
from companion.vision.middle_looks import PALE_ENOUGH
from companion.vision.seen_canoes import SeenCanoe
from companion.vision.sighting import UNKNOWN
from companion.vision.stage import GemEvidence
from companion.vision.thresholds import FACETED_OVER_EMPTY, GEM_TEXTURE, GEM_UNLIKE

SCALE = 0.8


@pytest.fixture
def detector(board, profile):
    return Detector(board, profile, SCALE, gem_model=None)


def _plain(texture: float) -> GemEvidence:
    """A middle showing nothing unlike its red hull, `texture` times the noise uneven."""
    red = np.array([40.0, 40.0, 200.0])
    return GemEvidence(0.0, red, red, texture, red, (0.8, 0.0, 0.0, 0.0))


def test_a_middle_as_uneven_as_the_pictures_other_plain_middles_is_an_empty_hull(detector):
    # Under this lamp every hull's middle looks 12 times the noise uneven: a red canoe's
    # middle at 14 is one more such hull, not a red gem.
    picture = [_plain(t) for t in (11.0, 12.0, 13.0, 12.5)]
    plain = detector._plain_texture(picture)
    assert plain == pytest.approx(12.25)
    assert detector._gem(_plain(14.0), "red", plain=plain).gem is None
    # Far more uneven than they are, it is faceted: the red gem.
    assert detector._gem(_plain(FACETED_OVER_EMPTY * 12.25 + 1), "red",
                         plain=plain).gem == "red"


def test_a_smooth_picture_leaves_a_faceted_middle_faceted(detector):
    # Flat hulls (2 to 3 times the noise): a middle at 14 stands out of them.
    plain = detector._plain_texture([_plain(t) for t in (2.0, 3.0, 2.5)])
    assert detector._gem(_plain(14.0), "red", plain=plain).gem == "red"


def test_what_the_table_learned_of_its_empty_hulls_comes_before_the_picture(detector):
    for _ in range(ENOUGH):
        detector.looks.learn([SeenCanoe("red", "3", 4.0)], {"red": [("3", None)]})
    # (a picture of glossy hulls of other colours)
    assert detector._gem(_plain(14.0), "red", plain=20.0).gem == "red"


def test_middles_with_something_unlike_the_hull_or_too_few_give_no_yardstick(detector):
    unlike = _plain(30.0)._replace(unlike=GEM_UNLIKE + 0.1)
    assert detector._plain_texture([_plain(10.0), _plain(12.0), unlike, None]) is None
    # Then a middle more uneven than the noise may be a red gem or one more glossy
    # hull (on the tuned worlds empty hulls lie from 4 to 27 times the noise): unsure,
    # no claim of a gem. One as smooth as the noise is empty.
    assert detector._gem(_plain(GEM_TEXTURE + 1), "red").gem == UNKNOWN
    assert detector._gem(_plain(GEM_TEXTURE - 1), "red").gem is None


def test_a_smooth_middle_that_looks_as_the_tables_own_colour_gems_did_is_that_gem(detector):
    # Under a soft lamp a red gem in a red hull is as smooth as the empty hull: the
    # looks this table confirmed of both tell them apart (``PieceLooks.own_look``).
    # (as pale as the empty hull: no clear gem; its tint shifted as a red gem tints it)
    empty, red_gem = (0.8, 0.0, 0.0, 0.0), (0.8, 0.0, 0.3, 0.3)
    smooth = GEM_TEXTURE - 1
    assert detector._gem(_plain(smooth)._replace(look=red_gem), "red").gem is None
    for i in range(max(ENOUGH, PALE_ENOUGH)):
        shift = 1e-6 * i  # (each sighting its own look)
        detector.looks.learn([SeenCanoe("red", "3", smooth, look=(*empty[:3], shift)),
                              SeenCanoe("red", "5", smooth, look=(*red_gem[:3], 0.3 + shift))],
                             {"red": [("3", None), ("5", "red")]})
    assert detector._gem(_plain(smooth)._replace(look=red_gem), "red").gem == "red"
    assert detector._gem(_plain(smooth)._replace(look=empty), "red").gem is None
    # A hull colour no gem has (green) keeps an empty look empty.
    assert detector._gem(_plain(smooth)._replace(look=red_gem), "green").gem is None
