"""The synthetic renderer: deterministic, truthful, and with its nuisances."""

from __future__ import annotations

import numpy as np
import pytest

from companion.rules import Game
from companion.vision.render import Hand, Nuisance


def test_same_seed_gives_the_same_picture(renderer, mid_game):
    a = renderer.render(mid_game.state, seed=5, nuisance=Nuisance.issue())
    b = renderer.render(mid_game.state, seed=5, nuisance=Nuisance.issue())
    assert np.array_equal(a.image, b.image)


def test_other_seed_gives_another_picture(renderer, mid_game):
    a = renderer.render(mid_game.state, seed=5, nuisance=Nuisance.issue())
    b = renderer.render(mid_game.state, seed=6, nuisance=Nuisance.issue())
    assert not np.array_equal(a.image, b.image)


def test_truth_lists_every_canoe_where_the_state_has_it(renderer, mid_game):
    shot = renderer.render(mid_game.state, seed=1)
    truth = shot.truth
    on_river = sum(len(v["canoes"]) for v in truth["slots"].values())
    assert on_river + len(truth["dock"]) + len(truth["falls"]) == 10
    assert {"player": "blue", "gem": "clear"} in truth["slots"]["6L"]["canoes"] + \
        truth["slots"]["6R"]["canoes"]
    assert truth["weather"] == 1 and truth["stable"] and truth["markers"] == 4


def test_snapshot_dict_renders_like_the_state(renderer, mid_game):
    a = renderer.render(mid_game.state, seed=2)
    b = renderer.render(mid_game.snapshot(), seed=2)
    assert np.array_equal(a.image, b.image)


def test_frame_has_the_camera_size(renderer):
    shot = renderer.render(Game(["red", "blue", "green"]).state, seed=0)
    assert shot.image.shape == (720, 1280, 3) and shot.image.dtype == np.uint8


def test_hand_makes_the_truth_unstable(renderer, mid_game):
    shot = renderer.render(mid_game.state, seed=3, hand=Hand("left", (240.0, 300.0)))
    assert shot.truth["stable"] is False
    assert shot.hand_mask is not None and shot.hand_mask.any()


def test_missing_disc_is_in_the_truth(renderer, mid_game):
    shot = renderer.render(mid_game.state, seed=3, missing_discs=["7R"])
    assert shot.truth["slots"]["7R"]["disc"] is False


def test_unknown_missing_slot_is_refused(renderer, mid_game):
    with pytest.raises(ValueError, match="no slot 9"):
        renderer.render(mid_game.state, missing_discs=["9"])


def test_homography_maps_marker_centres_into_the_frame(renderer, board, mid_game):
    import cv2

    shot = renderer.render(mid_game.state, seed=4, nuisance=Nuisance.issue())
    pts = np.array([list(board.markers.centres_mm.values())], np.float64)
    img = cv2.perspectiveTransform(pts, shot.homography)[0]
    assert (img >= 0).all() and (img[:, 0] < 1280).all() and (img[:, 1] < 720).all()


def test_darker_light_darkens_the_picture(renderer, mid_game):
    dim = renderer.render(mid_game.state, seed=1, nuisance=Nuisance(light=(0.4, 0.4)))
    bright = renderer.render(mid_game.state, seed=1, nuisance=Nuisance(light=(1.0, 1.0)))
    assert dim.image.mean() < 0.6 * bright.image.mean()


def test_frames_of_a_still_camera_differ_only_in_noise(renderer, mid_game):
    a = renderer.render(mid_game.state, seed=9, nuisance=Nuisance.issue(), frame=1)
    b = renderer.render(mid_game.state, seed=9, nuisance=Nuisance.issue(), frame=2)
    diff = np.abs(a.image.astype(int) - b.image.astype(int))
    assert 0 < diff.mean() < 6 and np.array_equal(a.homography, b.homography)
