"""The camera's sensor: what turns the optics' picture into a delivered frame.

Game frames are committed as the optics deliver them (render, lens distortion, focus
blur, vignette, exposure) without sensor noise, as a high-quality JPEG: smooth pictures
compress several times better. `deliver` adds what the sensor adds to every frame a
camera delivers, fresh noise and the camera's own JPEG, deterministic by seed, so that a
stable view repeated for 1.5 s differs from frame to frame as a real camera's does.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

# The quality game frames are stored at (the camera's own JPEG comes on delivery): the
# board's print keeps a 1280x720 frame at ~70-95 kB even without noise, and the
# repository's budget (~60 MB for every world) sets the rest.
OPTICS_JPEG = 80


def sensor_of(world_meta: dict[str, Any]) -> dict[str, float]:
    """The world's sensor ({"noise": sigma in 8-bit levels, "jpeg": quality}) from its
    world.json, whichever round of the layout wrote it."""
    if "sensor" in world_meta:
        return dict(world_meta["sensor"])
    lens = world_meta["world"]["lens"]
    return {"noise": float(lens["noise"]), "jpeg": int(lens["jpeg"])}


def add_noise(image: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """Shot and read noise: stronger in bright parts, never zero in the dark."""
    img = image.astype(np.float32)
    scale = sigma * (0.6 + 0.4 * np.sqrt(np.clip(img, 0, 255) / 255))
    img += rng.standard_normal(img.shape).astype(np.float32) * scale
    return np.clip(img, 0, 255).astype(np.uint8)


def camera_jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    """The picture after the camera's JPEG round trip."""
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def deliver(image: np.ndarray, sensor: dict[str, float], seed: int,
            noise_scale: float = 1.0) -> np.ndarray:
    """One delivered camera frame (BGR uint8) of an optics picture: fresh sensor noise
    drawn from `seed`, then the camera's JPEG. The same seed gives the same frame."""
    rng = np.random.default_rng(seed)
    noisy = add_noise(image, float(sensor["noise"]) * noise_scale, rng)
    return camera_jpeg(noisy, int(sensor["jpeg"]))
