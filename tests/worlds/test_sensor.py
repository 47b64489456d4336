"""The camera's sensor (tools/worlds/sensor.py): each delivered frame of an optics
picture has its own noise, deterministic by seed, and the world's JPEG."""

import numpy as np
import pytest

from tools.worlds.sensor import deliver, sensor_of

SENSOR = {"noise": 4.0, "jpeg": 80}


@pytest.fixture
def optics() -> np.ndarray:
    yy, xx = np.mgrid[0:72, 0:128]
    image = np.stack([xx * 2, yy * 3, (xx + yy)], axis=2)
    return image.astype(np.uint8)


def test_the_same_seed_delivers_the_same_frame(optics):
    assert np.array_equal(deliver(optics, SENSOR, 7), deliver(optics, SENSOR, 7))


def test_another_seed_delivers_the_same_picture_with_other_noise(optics):
    a = deliver(optics, SENSOR, 1).astype(float)
    b = deliver(optics, SENSOR, 2).astype(float)
    assert not np.array_equal(a, b)
    assert abs(a.mean() - b.mean()) < 1.0            # same picture
    assert 2.0 < np.std(a - b) < 12.0                # noise of the sensor's size


def test_the_noise_grows_with_the_sensor_s(optics):
    quiet = deliver(optics, {"noise": 1.0, "jpeg": 95}, 3).astype(float) - optics
    loud = deliver(optics, {"noise": 8.0, "jpeg": 95}, 3).astype(float) - optics
    assert np.std(loud) > 3 * np.std(quiet)


def test_a_frame_keeps_its_size_and_type(optics):
    out = deliver(optics, SENSOR, 0)
    assert out.shape == optics.shape and out.dtype == np.uint8


def test_the_sensor_is_read_from_world_json_of_either_round():
    assert sensor_of({"sensor": {"noise": 3.0, "jpeg": 77}}) == {"noise": 3.0, "jpeg": 77}
    assert sensor_of({"world": {"lens": {"noise": 2.5, "jpeg": 90}}}) == {"noise": 2.5,
                                                                          "jpeg": 90}
