"""The colour profile: learned from the layout, saved, checked when loaded."""

from __future__ import annotations

import json

import numpy as np
import pytest

from companion.vision.learn import LAYOUT_NO_DISC, layout_state, learn_profile
from companion.vision.profile import ProfileError, load_profile, parse_profile
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
