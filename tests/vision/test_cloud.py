"""The cloud on the weather track, read against the bare track as calibrated
(companion/vision/cloud.py): R-WEATHER-1 moves it one step at a time, so every value
must be read, in the light of play, not of calibration."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.rules import Game
from companion.vision.cloud import (
    COVERED,
    OUTER_MM,
    PX_PER_MM,
    STANDS_OUT,
    CloudFinder,
    TrackLooks,
)
from companion.vision.known import KnownBoard
from companion.vision.learn import learn_profile
from companion.vision.locate import BoardLocator
from companion.vision.observer import Vision
from companion.vision.profile import ProfileError
from companion.vision.profile_file import parse_profile
from companion.vision.render import Nuisance

PLAYERS = ["blue", "green", "yellow", "red", "brown"]


@pytest.fixture(scope="module")
def setup_profile(board, renderer, profile):
    """Learned from one photo of a freshly set-up game: the cloud on 0 (R-SETUP)."""
    setup = Game(PLAYERS).state.snapshot()
    photo = renderer.render(setup, seed=3, nuisance=Nuisance.mild()).image
    return learn_profile(board, [photo], known=KnownBoard.of_snapshot(setup), base=profile)


def _track(value: int) -> dict:
    return {"canoes": {}, "weather": value, "deposits": {}}


def _where(board, looks, image):
    return CloudFinder(board, looks).where(image, BoardLocator(board).locate(image))


def test_calibrating_on_the_setup_learns_the_three_positions_the_cloud_left_bare(
        setup_profile):
    assert setup_profile.track is not None
    assert setup_profile.track.cloud_on == 0
    assert sorted(setup_profile.track.looks) == [-1, 1, 2]


@pytest.mark.parametrize("value", [-1, 0, 1, 2])
@pytest.mark.parametrize("light", ["mild", "issue"])
def test_R_WEATHER_1_the_cloud_is_read_on_every_position(board, renderer, setup_profile,
                                                        value, light):
    """On 0 it is read by elimination: no position seen bare is covered."""
    vision = Vision(board, setup_profile, settle=1)
    for seed in (20, 40):
        shot = renderer.render(_track(value), seed=seed + value,
                               nuisance=getattr(Nuisance, light)())
        vision.reset()
        assert vision.observe(shot.image)["weather"] == value


def test_the_cloud_is_read_in_a_light_far_from_the_calibration_light(board, renderer,
                                                                     setup_profile):
    shot = renderer.render(_track(1), seed=5, nuisance=Nuisance.mild())
    dim = cv2.convertScaleAbs(shot.image, alpha=0.55, beta=0)
    assert _where(board, setup_profile.track, dim) == 1


def _cover(image: np.ndarray, board, value: int, opacity: float = 1.0) -> np.ndarray:
    """A grey counter put down on a weather position (`opacity` < 1: a faint one, as a
    pale cloud on a pale print is in grey)."""
    to_image = np.linalg.inv(BoardLocator(board).locate(image).homography)
    (cx, cy), edge = (cv2.perspectiveTransform(np.array([[p]], np.float64), to_image)[0, 0]
                      for p in (board.weather_mm[value],
                                np.add(board.weather_mm[value], (9.0, 0.0))))
    out = image.copy()
    cv2.circle(out, (int(cx), int(cy)), int(np.hypot(*(edge - (cx, cy)))), (90, 90, 90), -1)
    return cv2.addWeighted(out, opacity, image, 1.0 - opacity, 0.0)


def test_R_WEATHER_1_a_cloud_that_hardly_changes_its_position_in_grey_is_read_there(
        board, renderer, setup_profile):
    # Under COVERED, but far more unlike its calibrated look than the other positions
    # of the same frame are unlike theirs (STANDS_OUT).
    image = renderer.render(_track(0), seed=7, nuisance=Nuisance.mild()).image
    faint = _cover(image, board, -1, opacity=0.2)
    finder = CloudFinder(board, setup_profile.track)
    differ = finder.differences(faint, BoardLocator(board).locate(faint))
    assert STANDS_OUT * max(differ[1], differ[2]) < differ[-1] < COVERED
    assert _where(board, setup_profile.track, faint) == -1
    assert _where(board, setup_profile.track, image) == 0


def test_two_covered_positions_do_not_tell_where_the_cloud_is(board, renderer,
                                                              setup_profile):
    image = renderer.render(_track(1), seed=6, nuisance=Nuisance.mild()).image
    assert _where(board, setup_profile.track, _cover(image, board, 2)) is None


def test_the_track_looks_survive_the_profile_file(setup_profile):
    again = parse_profile(json.loads(json.dumps(setup_profile.to_json())))
    assert again.track is not None and again.track.cloud_on == 0
    for value, look in setup_profile.track.looks.items():
        assert np.array_equal(again.track.looks[value], look)
        assert look.shape == (int(round(2 * OUTER_MM * PX_PER_MM)),) * 2


@pytest.mark.parametrize("damage", [
    lambda t: t.update(looks={"+1": "not base64!"}),
    lambda t: t.update(cloud_on="+1"),
    lambda t: t.update(px_per_mm=7),
    lambda t: t.pop("looks"),
    lambda t: t.update(looks=[]),
])
def test_a_damaged_weather_track_is_refused_in_one_line(setup_profile, damage):
    data = json.loads(json.dumps(setup_profile.to_json()))
    damage(data["weather_track"])
    with pytest.raises(ProfileError, match="weather_track is damaged") as err:
        parse_profile(data)
    assert "\n" not in str(err.value)


def test_a_profile_without_track_looks_still_reads_the_weather_by_brightness(
        board, renderer, profile):
    assert profile.track is None
    vision = Vision(board, profile, settle=1)
    shot = renderer.render(_track(2), seed=8, nuisance=Nuisance.mild())
    assert vision.observe(shot.image)["weather"] == 2


def test_track_looks_need_a_photo():
    assert TrackLooks.learn(None, [], 0) is None  # type: ignore[arg-type]
