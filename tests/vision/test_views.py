"""Are two pictures of one view (vision.views): the same camera position, a camera knocked
on its stand, or one put down elsewhere."""

from __future__ import annotations

import numpy as np

from companion.vision.locate import Location
from companion.vision.views import knocked_only, same_view

# Image px -> board mm, as a camera ~1.5 px/mm above the board has it.
HERE = np.array([[0.66, 0.01, -40.0], [0.005, 0.66, -25.0], [0.0, 0.0, 1.0]])


def _moved(px: float) -> Location:
    """The board's picture moved `px` pixels to the right."""
    shift = np.array([[1.0, 0.0, -px], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    return Location(HERE @ shift, 4, False, {})


def test_same_view_tells_a_moved_camera():
    here = Location(HERE.copy(), 4, False, {})
    assert same_view(here, _moved(0.0))
    assert same_view(here, _moved(2.0))
    assert not same_view(here, _moved(20.0))


def test_a_knock_moves_the_picture_a_little_a_camera_put_elsewhere_a_lot():
    here = Location(HERE.copy(), 4, False, {})
    # The board's 500 mm square is ~1070 px across its diagonal here: a knock moves it a
    # few tens of pixels, a camera set up anew by a hundred and more.
    assert knocked_only(here, _moved(20.0))
    assert knocked_only(here, _moved(45.0))
    assert not knocked_only(here, _moved(120.0))
