"""Frame sources: files, folders, videos, the renderer; clear errors."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.sources import (
    ImageFiles,
    PiCamera,
    RenderedSource,
    SourceError,
    VideoSource,
    open_source,
    read_image,
)


def _write(path, value=100):
    cv2.imwrite(str(path), np.full((48, 64, 3), value, np.uint8))


def test_folder_gives_its_images_in_name_order(tmp_path):
    _write(tmp_path / "b.png", 20)
    _write(tmp_path / "a.png", 10)
    (tmp_path / "notes.txt").write_text("x")
    frames = list(open_source(str(tmp_path)))
    assert [int(f[0, 0, 0]) for f in frames] == [10, 20]


def test_empty_folder_is_an_error(tmp_path):
    with pytest.raises(SourceError, match="no images"):
        ImageFiles(tmp_path)


def test_repeat_turns_a_photo_into_a_still_stream(tmp_path):
    _write(tmp_path / "a.png")
    assert len(list(ImageFiles([tmp_path / "a.png"], repeat=3))) == 3


def test_unreadable_image_is_named(tmp_path):
    path = tmp_path / "x.jpg"
    path.write_bytes(b"garbage")
    with pytest.raises(SourceError, match="x.jpg: not an image"):
        read_image(path)


def test_video_file_frames_then_end(tmp_path):
    path = tmp_path / "v.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    if not writer.isOpened():
        pytest.skip("this OpenCV cannot write MJPG video")
    for v in (10, 120, 240):
        writer.write(np.full((48, 64, 3), v, np.uint8))
    writer.release()
    with open_source(str(path)) as frames:
        assert len(list(frames)) == 3


def test_missing_video_is_named(tmp_path):
    with pytest.raises(SourceError, match="no such file"):
        VideoSource(str(tmp_path / "none.mp4"))


def test_pi_camera_off_a_pi_says_what_is_missing():
    with pytest.raises(SourceError, match="picamera2"):
        PiCamera(settle_s=0)


def test_rendered_source_paints_each_state(renderer, mid_game):
    frames = list(RenderedSource(renderer, [mid_game.state, mid_game.snapshot()], repeat=2))
    assert len(frames) == 4 and frames[0].shape == (720, 1280, 3)
