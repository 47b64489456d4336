"""Where frames come from, behind one small interface: a camera, a video, photos, or the
synthetic renderer. Every source is an iterator of BGR frames with a `close()`.

>>> with open_source("shots/") as frames:       # a folder of photos
...     for frame in frames:
...         print(frame.shape)

open_source() understands "pi" (the Pi camera, picamera2), a number ("0": a USB camera),
a video file, an image file, or a folder of images.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")


class SourceError(RuntimeError):
    """A source that cannot be opened or read; one-line message."""


class CameraLost(SourceError):
    """A live camera stopped giving frames (unplugged, crashed, covered by the OS)."""


class FrameSource:
    """Frames one by one: iterate, or call read() (None when a finite source ends)."""

    name = "frames"

    def read(self) -> np.ndarray | None:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __iter__(self) -> Iterator[np.ndarray]:
        while True:
            frame = self.read()
            if frame is None:
                return
            yield frame

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_image(path: str | Path) -> np.ndarray:
    """One image file as BGR; SourceError with a one-line reason if it cannot be."""
    p = Path(path)
    if not p.exists():
        raise SourceError(f"{p}: no such file")
    if p.is_dir():
        raise SourceError(f"{p}: is a folder, not an image")
    try:
        data = np.fromfile(str(p), np.uint8)
    except OSError as exc:
        raise SourceError(f"{p}: cannot read it ({exc.strerror or exc})") from None
    if data.size == 0:
        raise SourceError(f"{p}: the file is empty")
    image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    if image is None:
        raise SourceError(f"{p}: not an image OpenCV can read (PNG or JPEG expected)")
    return image


class ImageFiles(FrameSource):
    """A list of image files, or every image in a folder (sorted by name)."""

    def __init__(self, paths: str | Path | Iterable[str | Path], repeat: int = 1) -> None:
        if isinstance(paths, str | Path):
            p = Path(paths)
            if p.is_dir():
                files = sorted(f for f in p.iterdir() if f.suffix.lower() in IMAGE_SUFFIXES)
                if not files:
                    raise SourceError(f"{p}: no images in this folder")
            else:
                files = [p]
        else:
            files = [Path(f) for f in paths]
        self.files = files
        self.repeat = max(1, repeat)  # each photo as that many frames (a still view)
        self._i = 0
        self.name = str(paths) if isinstance(paths, str | Path) else "image files"

    def read(self) -> np.ndarray | None:
        if self._i >= len(self.files) * self.repeat:
            return None
        path = self.files[self._i // self.repeat]
        self._i += 1
        return read_image(path)


class VideoSource(FrameSource):
    """OpenCV VideoCapture: a USB camera (by number) or a video file."""

    def __init__(self, device: int | str, size: tuple[int, int] | None = (1280, 720),
                 retries: int = 5) -> None:
        self.live = isinstance(device, int)
        self.name = f"camera {device}" if self.live else str(device)
        if not self.live and not Path(str(device)).exists():
            raise SourceError(f"{device}: no such file")
        self.cap = cv2.VideoCapture(device)
        if not self.cap.isOpened():
            raise SourceError(f"{self.name}: cannot be opened"
                              + (" (is it plugged in?)" if self.live else ""))
        if self.live and size:
            self.cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self.cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self.retries = retries

    def read(self) -> np.ndarray | None:
        for attempt in range(self.retries if self.live else 1):
            ok, frame = self.cap.read()
            if ok and frame is not None:
                return frame
            if self.live:
                time.sleep(0.05 * (attempt + 1))
        if self.live:
            raise CameraLost(f"{self.name} stopped sending frames (unplugged?)")
        return None

    def close(self) -> None:
        self.cap.release()


class PiCamera(FrameSource):
    """The Raspberry Pi camera through picamera2 (imported only here, only on a Pi).
    Exposure and white balance are locked after `settle_s` seconds so the colours the
    profile learned stay put."""

    name = "pi camera"

    def __init__(self, size: tuple[int, int] = (1280, 720), settle_s: float = 2.0) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError:
            raise SourceError("the Pi camera needs picamera2 (apt install "
                              "python3-picamera2); this machine does not have it") from None
        try:
            self.cam = Picamera2()
            config = self.cam.create_video_configuration(
                main={"size": size, "format": "RGB888"})
            self.cam.configure(config)
            self.cam.start()
        except Exception as exc:  # the library raises many kinds; all mean "no camera"
            raise SourceError(f"the Pi camera cannot be started ({exc})") from None
        time.sleep(settle_s)
        self.lock()

    def lock(self) -> None:
        """Freeze exposure and white balance at their current values."""
        meta: dict[str, Any] = self.cam.capture_metadata()
        controls = {"AeEnable": False, "AwbEnable": False}
        for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if key in meta:
                controls[key] = meta[key]
        self.cam.set_controls(controls)

    def read(self) -> np.ndarray | None:
        try:
            return self.cam.capture_array("main")  # RGB888 is BGR in memory
        except Exception as exc:
            raise CameraLost(f"the Pi camera stopped sending frames ({exc})") from None

    def close(self) -> None:
        self.cam.stop()


class RenderedSource(FrameSource):
    """Frames from the synthetic renderer: one per (state, repeat), e.g. a game replay."""

    name = "renderer"

    def __init__(self, renderer: Any, states: Iterable[Any], repeat: int = 1, seed: int = 0,
                 **render_args: Any) -> None:
        self.renderer = renderer
        self.states = iter(states)
        self.repeat = max(1, repeat)
        self.seed = seed
        self.args = render_args
        self._left = 0
        self._state: Any = None
        self._n = 0

    def read(self) -> np.ndarray | None:
        if self._left == 0:
            self._state = next(self.states, None)
            if self._state is None:
                return None
            self._left = self.repeat
        self._left -= 1
        self._n += 1
        shot = self.renderer.render(self._state, seed=self.seed + self._n, **self.args)
        return shot.image


def open_source(spec: str) -> FrameSource:
    """A source from a command-line word: "pi", a camera number, a video, an image or
    a folder of images."""
    if spec == "pi":
        return PiCamera()
    if spec.isdigit():
        return VideoSource(int(spec))
    p = Path(spec)
    if p.is_dir() or p.suffix.lower() in IMAGE_SUFFIXES:
        if not p.exists():
            raise SourceError(f"{p}: no such file or folder")
        return ImageFiles(p)
    return VideoSource(spec)


__all__ = ["CameraLost", "FrameSource", "ImageFiles", "PiCamera", "RenderedSource",
           "SourceError", "VideoSource", "open_source", "read_image"]
