"""The canoes' colours learned from the table's confirmed pictures (vision.hull_looks), and
the colour profile's classes replaced without building its look-up table again
(ColourProfile.with_classes)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.rules import Game
from companion.vision import hull_looks
from companion.vision.hull_looks import MAX_AGE, HullLooks, misreads_of
from companion.vision.masks import ring_pixels
from companion.vision.memory import BoardMemory
from companion.vision.observer import Vision
from companion.vision.profile import ColourClass, features, fit_class, squared_distance
from companion.vision.render import Nuisance, with_levels

STILL = with_levels(Nuisance.mild(), light=(1.0, 1.0), gradient=0.0, shadows=0,
                    white_balance=0.0, glare=0.0)


def _shifted(c: ColourClass, by: tuple[float, float, float]) -> ColourClass:
    """A class as a calibration in other light might have learned it: its mean moved
    by `by` of its own spread (r, g chromaticity, log brightness)."""
    return ColourClass(c.mean + np.array(by) * np.sqrt(np.diag(c.cov)), c.cov, c.bgr)


@pytest.fixture
def lone_red():
    """A game whose red canoe lies alone on slot 4 (the other on the dock)."""
    game = Game(["red", "blue", "green"])
    game.state.put_canoes("red", [("4", None), ("D", None)])
    return game


# -- the look-up table -------------------------------------------------------------------------


def test_a_replaced_class_gives_the_table_a_whole_rebuild_would(profile):
    moved = _shifted(profile.classes["canoe:brown"], (0.2, 0.2, 0.6))
    moved = ColourClass(moved.mean, moved.cov * 1.5, moved.bgr)
    updated = profile.with_classes({"canoe:brown": moved})
    whole = replace(profile, classes={**profile.classes, "canoe:brown": moved},
                    _lut=None, _cells=None)
    assert np.array_equal(updated.lut(), whole.lut())
    assert not np.array_equal(updated.lut(), profile.lut())


def test_replacing_a_class_leaves_the_profile_it_came_from_alone(profile):
    before = profile.lut().copy()
    calibrated = profile.classes["canoe:red"]
    profile.with_classes({"canoe:red": _shifted(calibrated, (0.5, 0.0, 0.0))})
    assert profile.classes["canoe:red"] is calibrated
    assert np.array_equal(profile.lut(), before)


@pytest.mark.parametrize("name", ["gem:red", "canoe:pink"])
def test_a_class_outside_the_look_up_table_cannot_be_replaced(profile, name):
    with pytest.raises(ValueError, match=name):
        profile.with_classes({name: profile.classes["canoe:red"]})


# -- learning at the table -------------------------------------------------------------------


def test_a_lone_canoe_in_a_confirmed_picture_moves_its_colour_towards_its_hull(
        board, profile, renderer, lone_red):
    vision = Vision(board, profile, settle=1)
    vision.observe(renderer.render(lone_red, seed=3, nuisance=STILL, camera=3).image)
    img = vision.last_reading.corrected
    off = _shifted(profile.classes["canoe:red"], (0.0, 0.0, 2.0))
    classes = {**profile.classes, "canoe:red": off}
    hulls = HullLooks(board, classes, vision.detector.scale)
    start = profile.with_classes({"canoe:red": off})
    learned = hulls.learn(img, lone_red.state.canoes, start)
    assert [n for n, c in learned.classes.items() if c is not start.classes[n]] == ["canoe:red"]
    # The hull itself, as calibration would have measured it in this light:
    hull = features(profile.classes["canoe:red"].bgr)[None]
    assert squared_distance(hull, learned.classes["canoe:red"])[0] < \
        squared_distance(hull, off)[0]


def test_a_hull_the_state_puts_in_another_colour_is_not_learned_from(
        board, profile, renderer, lone_red):
    vision = Vision(board, profile, settle=1)
    vision.observe(renderer.render(lone_red, seed=3, nuisance=STILL, camera=3).image)
    wrong = lone_red.copy()
    wrong.state.put_canoes("red", [("D", None), ("D", None)])
    wrong.state.put_canoes("blue", [("4", None), ("D", None)])   # (red lies there)
    hulls = HullLooks(board, profile.classes, vision.detector.scale)
    assert hulls.learn(vision.last_reading.corrected, wrong.state.canoes, profile) is profile
    assert hulls.fitted("canoe:blue") is None


def test_a_crowded_slot_teaches_nothing(board, profile, renderer, lone_red):
    crowded = lone_red.copy()
    crowded.state.put_canoes("blue", [("4", None), ("D", None)])
    vision = Vision(board, profile, settle=1)
    vision.observe(renderer.render(crowded, seed=3, nuisance=STILL, camera=3).image)
    hulls = HullLooks(board, profile.classes, vision.detector.scale)
    hulls.learn(vision.last_reading.corrected, crowded.state.canoes, profile)
    assert hulls.fitted("canoe:red") is None and hulls.fitted("canoe:blue") is None


def test_a_slots_look_no_longer_counts_after_MAX_AGE_confirmed_pictures(
        board, profile, renderer, lone_red):
    vision = Vision(board, profile, settle=1)
    vision.observe(renderer.render(lone_red, seed=3, nuisance=STILL, camera=3).image)
    hulls = HullLooks(board, profile.classes, vision.detector.scale)
    hulls.learn(vision.last_reading.corrected, lone_red.state.canoes, profile)
    assert hulls.fitted("canoe:red") is not None
    docked = lone_red.copy()
    docked.state.put_canoes("red", [("D", None), ("D", None)])
    for _ in range(MAX_AGE):
        hulls.learn(vision.last_reading.corrected, docked.state.canoes, profile)
    assert hulls.fitted("canoe:red") is None


def test_the_calibrated_class_holds_the_learned_one_back_by_PRIOR_PX_pixels(
        board, profile, renderer, lone_red, monkeypatch):
    vision = Vision(board, profile, settle=1)
    vision.observe(renderer.render(lone_red, seed=3, nuisance=STILL, camera=3).image)
    img = vision.last_reading.corrected
    off = _shifted(profile.classes["canoe:red"], (0.0, 0.0, 2.0))
    classes = {**profile.classes, "canoe:red": off}

    def fitted() -> ColourClass:
        hulls = HullLooks(board, classes, vision.detector.scale)
        hulls.learn(img, lone_red.state.canoes, profile.with_classes({"canoe:red": off}))
        return hulls.fitted("canoe:red")

    held_back = fitted()
    monkeypatch.setattr(hull_looks, "PRIOR_PX", 0)
    alone = fitted()
    # One hull's pixels, about as many as PRIOR_PX: the class lies between the two.
    for part in (off.mean, alone.mean):
        assert 0.2 < np.linalg.norm(held_back.mean - part) / np.linalg.norm(
            alone.mean - off.mean) < 0.8


def test_a_canoe_missed_in_calibrations_light_is_seen_once_the_table_confirmed_it(
        board, profile, renderer, lone_red):
    # Calibrated where the red hulls looked otherwise: this picture's red canoe is not
    # made out; once a confirmed picture showed it, the next picture's is.
    off = _shifted(profile.classes["canoe:red"], (0.0, 0.0, 4.0))
    miscalibrated = profile.with_classes({"canoe:red": off})
    vision = Vision(board, miscalibrated, settle=1)
    image = renderer.render(lone_red, seed=3, nuisance=STILL, camera=3).image
    first = vision.observe(image)
    assert first["slots"]["4"]["canoes"] == []
    memory = BoardMemory(vision.detector)
    memory.confirm(vision.last_reading.corrected, vision.last_location, lone_red.state)
    assert vision.detector.profile is not miscalibrated
    vision.reset()
    again = vision.observe(image)
    assert [c["player"] for c in again["slots"]["4"]["canoes"]] == ["red"]
    assert vision.profile is miscalibrated     # (the table's file and fingerprint: as calibrated)


def test_a_slots_look_is_measured_again_only_once_it_is_REFRESH_pictures_old(
        board, profile, renderer, lone_red, monkeypatch):
    vision = Vision(board, profile, settle=1)
    vision.observe(renderer.render(lone_red, seed=3, nuisance=STILL, camera=3).image)
    found = []
    finder = hull_looks.find_slot_canoe
    monkeypatch.setattr(hull_looks, "find_slot_canoe",
                        lambda *a, **k: found.append(a[2]) or finder(*a, **k))
    hulls = HullLooks(board, profile.classes, vision.detector.scale)
    for _ in range(hull_looks.REFRESH + 1):
        hulls.learn(vision.last_reading.corrected, lone_red.state.canoes, profile)
    assert found == ["4", "4"]


def test_a_colour_that_would_take_in_the_empty_discs_is_not_used(
        board, profile, renderer, lone_red, monkeypatch):
    # As if the hull found were its disc's colour (a hull's edge blurred into the water):
    # red would be read on every empty disc.
    vision = Vision(board, profile, settle=1)
    vision.observe(renderer.render(lone_red, seed=3, nuisance=STILL, camera=3).image)
    img = vision.last_reading.corrected
    disc = fit_class(img[ring_pixels(img.shape[:2], vision.detector.scale, board.slots["2"],
                                     0, 0.8 * board.disc_radius_mm)])
    monkeypatch.setattr(HullLooks, "fitted", lambda self, name: disc)
    hulls = HullLooks(board, profile.classes, vision.detector.scale)
    assert hulls.learn(vision.last_reading.corrected, lone_red.state.canoes, profile,
                       vision.detector.print_only) is profile


def test_a_confirmed_picture_is_misread_by_the_canoes_its_state_does_not_show(
        board, profile, renderer, lone_red):
    vision = Vision(board, profile, settle=1)
    vision.observe(renderer.render(lone_red, seed=3, nuisance=STILL, camera=3).image)
    misreads = misreads_of(vision.detector, vision.last_reading.corrected,
                           lone_red.state.canoes)
    assert misreads(profile) == 0
    blind = profile.with_classes({"canoe:red": _shifted(profile.classes["canoe:red"],
                                                        (0.0, 0.0, 4.0))})
    assert misreads(blind) == 1       # its red canoe on 4 not found
    assert vision.detector.profile is profile


def test_a_colour_that_reads_its_own_picture_worse_is_not_used(
        board, profile, renderer, lone_red):
    vision = Vision(board, profile, settle=1)
    vision.observe(renderer.render(lone_red, seed=3, nuisance=STILL, camera=3).image)
    off = profile.with_classes({"canoe:red": _shifted(profile.classes["canoe:red"],
                                                      (0.0, 0.0, 2.0))})
    hulls = HullLooks(board, off.classes, vision.detector.scale)
    assert hulls.learn(vision.last_reading.corrected, lone_red.state.canoes, off,
                       misreads=lambda p: 0 if p is off else 1) is off
