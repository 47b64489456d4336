"""The colour profile: learned from the layout, saved, checked when loaded."""

from __future__ import annotations

import json
from collections import Counter

import cv2
import numpy as np
import pytest

from companion.vision.dock_canoes import HULL_MM, find_dock_canoes, find_slot_canoe
from companion.vision.known import PlaceError
from companion.vision.learn import LAYOUT_NO_DISC, layout_state, learn_profile
from companion.vision.profile import ProfileError
from companion.vision.profile_file import load_profile, parse_profile
from companion.vision.read_back import misreadings
from companion.vision.render import Nuisance


def test_default_profile_has_every_piece_class(profile):
    for name in ("canoe:blue", "gem:clear", "cloud", "water", "disc"):
        assert name in profile.classes
    assert profile.sizes_mm2["canoe"] > profile.sizes_mm2["gem"] > 0


def test_classify_labels_water_and_canoe_colours(profile):
    water = profile.classes["water"].bgr
    blue = profile.classes["canoe:blue"].bgr
    img = np.array([[water, blue]], np.uint8)
    labels = profile.classify(img)
    assert profile.names[labels[0, 0]] == "water"
    assert profile.names[labels[0, 1]] == "canoe:blue"


def test_profile_learned_from_layout_photos_reads_the_layout(board, renderer):
    shots = [renderer.render(layout_state(), seed=s, nuisance=Nuisance.mild(),
                             missing_discs=(LAYOUT_NO_DISC,)).image for s in (1, 2)]
    learned = learn_profile(board, shots)
    for canoe in ("brown", "yellow", "red", "blue", "green"):
        mean = learned.classes[f"canoe:{canoe}"].bgr
        assert learned.names[learned.classify(mean.astype(np.uint8)[None, None])[0, 0]] \
            == f"canoe:{canoe}"


def _disc_with_canoe(board, slot: str, angle: float | None, s: float = 2.0) -> np.ndarray:
    """A straightened board image (s px/mm): grey-blue water, a canoe on `slot` lying
    `angle` degrees off the image's x axis, a paler gem in its middle."""
    h, w = int(board.size_mm[1] * s), int(board.size_mm[0] * s)
    img = np.full((h, w, 3), (150, 110, 70), np.uint8)
    rng = np.random.default_rng(5)
    img = cv2.add(img, rng.integers(0, 12, img.shape, dtype=np.uint8))
    if angle is not None:
        cx, cy = board.slots[slot]
        centre = (int(cx * s), int(cy * s))
        cv2.ellipse(img, centre, (int(HULL_MM[0] / 2 * s), int(HULL_MM[1] / 2 * s)), angle,
                    0, 360, (40, 60, 200), -1)
        cv2.circle(img, centre, int(4 * s), (230, 230, 235), -1)
    return img


@pytest.mark.parametrize("angle", [0.0, 35.0, 90.0, 150.0])
def test_a_layout_canoe_is_found_however_it_was_put_down(board, angle):
    img = _disc_with_canoe(board, "3", angle)
    found = find_slot_canoe(img, board, "3", "red", 2.0)
    assert found is not None and found.player == "red"
    assert abs((found.angle_deg - angle + 90) % 180 - 90) <= 15
    cx, cy = board.slots["3"]
    assert np.hypot(found.centre_mm[0] - cx, found.centre_mm[1] - cy) <= 3
    ys, xs = found.hull
    hull = img[ys, xs].astype(int)
    # all hull, no gem, no water
    assert len(ys) > 100 and (np.abs(hull - (40, 60, 200)).max(axis=1) < 20).all()


@pytest.mark.parametrize("angle", [0.0, 60.0, 90.0])
def test_the_boards_look_is_not_learned_under_a_layout_canoe_however_it_lies(board, angle):
    # The cells a lone canoe covers are where it was put down, not a strip along the
    # flow: none of its pixels may teach the board's look, the disc beside it may.
    from companion.vision.known import KnownBoard
    from companion.vision.learn_board import _covered_slots
    from companion.vision.surface import cell_px

    s = 2.0
    img = _disc_with_canoe(board, "3", angle, s)
    side = cell_px(s)
    covered = _covered_slots(img, board, KnownBoard(river={"3": (("red", None),)}), side, s)
    hull = np.all(np.abs(img.astype(int) - (40, 60, 200)) < 20, axis=2)
    rows, cols = covered.shape
    cells_with_hull = hull[:rows * side, :cols * side].reshape(rows, side, cols, side) \
        .any(axis=(1, 3))
    assert cells_with_hull.any() and not (cells_with_hull & ~covered).any()
    disc = np.zeros_like(covered)
    cx, cy = board.slots["3"]
    cv2.circle(disc, (int(cx * s / side), int(cy * s / side)),
               int(board.disc_radius_mm * s / side), True, -1)
    assert (disc & ~covered).any()  # found, not the whole disc given up


@pytest.mark.parametrize("angle", [0.0, 30.0, 100.0])
def test_a_layout_canoe_is_found_on_a_disc_whose_print_shows_two_looks(board, angle):
    # Glare lays ripples of white sheen over the water: the disc's spread, taken over
    # water and sheen, hides a brown hull, and neither look fills a hull's ellipse. The
    # hull is what lies nearer brown than the disc does.
    s = 2.0
    h, w = int(board.size_mm[1] * s), int(board.size_mm[0] * s)
    img = np.full((h, w, 3), (150, 110, 70), np.uint8)
    cx, cy = board.slots["3"]
    for k in range(-12, 12, 2):
        y = int((cy + 3 * k) * s)
        cv2.rectangle(img, (int((cx - 30) * s), y), (int((cx + 30) * s), y + int(3 * s) - 1),
                      (215, 215, 220), -1)
    img = cv2.add(img, np.random.default_rng(5).integers(0, 12, img.shape, dtype=np.uint8))
    cv2.ellipse(img, (int(cx * s), int(cy * s)),
                (int(HULL_MM[0] / 2 * s), int(HULL_MM[1] / 2 * s)), angle, 0, 360,
                (70, 100, 150), -1)
    found = find_slot_canoe(img, board, "3", "brown", s)
    assert found is not None
    assert abs((found.angle_deg - angle + 90) % 180 - 90) <= 7.5
    assert np.hypot(found.centre_mm[0] - cx, found.centre_mm[1] - cy) <= 3
    ys, xs = found.hull
    assert len(ys) > 100 and (np.abs(img[ys, xs].astype(int) - (70, 100, 150)).max(axis=1)
                              < 20).all()


def test_a_disc_without_a_canoe_holds_none(board):
    assert find_slot_canoe(_disc_with_canoe(board, "3", None), board, "3", "red", 2.0) is None


def test_a_layout_photo_missing_a_canoe_names_the_slot(board, renderer):
    state = layout_state()
    del state["canoes"]["red"]                      # the red canoe of slot 3 left in the box
    shot = renderer.render(state, seed=1, nuisance=Nuisance.mild(),
                           missing_discs=(LAYOUT_NO_DISC,)).image
    with pytest.raises(PlaceError, match="slot 3: the red canoe") as err:
        learn_profile(board, [shot])
    assert "\n" not in str(err.value)


def test_a_canoe_one_layout_photo_misses_is_learned_from_the_other_and_noted(board, renderer):
    # A blue hull on a blue river, a canoe in glare: one photo may not make a canoe out.
    state = layout_state()
    shots = [renderer.render(layout_state(), seed=1, nuisance=Nuisance.mild(),
                             missing_discs=(LAYOUT_NO_DISC,)).image]
    del state["canoes"]["red"]
    shots.append(renderer.render(state, seed=2, nuisance=Nuisance.mild(),
                                 missing_discs=(LAYOUT_NO_DISC,)).image)
    profile = learn_profile(board, shots)
    assert "canoe:red" in profile.classes
    assert profile.notes[:2] == ["photo 2: slot 3: the red canoe the calibration layout puts "
                                 "there is not seen: learned from the other photos",
                                 "read back: photo 2: slot 3: a red canoe not seen"]
    assert profile.notes[2].startswith("read back: 9 of 10 canoes")


def test_the_photos_a_profile_is_learned_from_are_read_back_with_it(board, renderer):
    shots = [renderer.render(layout_state(), seed=s, nuisance=Nuisance.mild(),
                             missing_discs=(LAYOUT_NO_DISC,)).image for s in (1, 2)]
    assert learn_profile(board, shots).notes == [
        "read back: 10 of 10 canoes (and their gems) read as the photos show them"]


def test_a_read_back_names_what_each_place_showed_otherwise():
    missed = Counter({("red", "clear"): 1, ("brown", "red"): 1})
    extra = Counter({("red", None): 1, ("blue", None): 2})
    assert misreadings(missed, extra) == ["the red canoe's clear gem read as none",
                                      "a brown canoe not seen",
                                      "a blue canoe seen, none lies there",
                                      "a blue canoe seen, none lies there"]


def test_layout_photo_without_markers_is_refused(board):
    with pytest.raises(ProfileError, match="markers"):
        learn_profile(board, [np.zeros((720, 1280, 3), np.uint8)])


def test_profile_round_trips(profile, tmp_path):
    path = tmp_path / "p.json"
    profile.save(path)
    again = load_profile(path)
    assert again.names == profile.names and again.sizes_mm2 == profile.sizes_mm2


def test_profile_missing_a_class_is_refused(profile):
    data = json.loads(json.dumps(profile.to_json()))
    del data["classes"]["canoe:green"]
    with pytest.raises(ProfileError, match="missing classes canoe:green"):
        parse_profile(data)


def test_profile_file_not_json_is_one_line(tmp_path):
    path = tmp_path / "p.json"
    path.write_text("[")
    with pytest.raises(ProfileError, match="not valid JSON"):
        load_profile(path)


@pytest.mark.parametrize("angle", [90.0, 75.0, 0.0])
def test_R_SETUP_3_two_canoes_of_one_colour_side_by_side_on_the_dock_are_two_hulls(board,
                                                                                  angle):
    # Side by side and touching, two red hulls fill a hull's ellipse laid across both as
    # well as along either: each is found lying along itself, where little red lies
    # beyond its outline.
    s = 1.0
    h, w = int(board.size_mm[1] * s), int(board.size_mm[0] * s)
    img = np.full((h, w, 3), (60, 110, 170), np.uint8)  # a wooden dock's print
    img = cv2.add(img, np.random.default_rng(3).integers(0, 12, img.shape, dtype=np.uint8))
    dock = np.asarray(board.dock, float)
    cx, cy = dock.mean(axis=0)
    across = np.radians(angle + 90.0)
    centres = [(cx + k * 16.0 * np.cos(across), cy + k * 16.0 * np.sin(across))
               for k in (-0.5, 0.5)]
    for x, y in centres:
        cv2.ellipse(img, (int(round(x * s)), int(round(y * s))),
                    (int(HULL_MM[0] / 2 * s), int(HULL_MM[1] / 2 * s)), angle, 0, 360,
                    (40, 50, 200), -1)
    found, _ = find_dock_canoes(img, board, ["red", "red"], s)
    assert [c.player for c in found] == ["red", "red"]
    for canoe in found:
        assert abs((canoe.angle_deg - angle + 90) % 180 - 90) <= 15, canoe.angle_deg
        assert min(np.hypot(canoe.centre_mm[0] - x, canoe.centre_mm[1] - y)
                   for x, y in centres) <= 4
