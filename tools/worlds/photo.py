"""The camera's own doing: lens distortion, focus blur, vignetting, auto-exposure,
sensor noise and JPEG. Deterministic given the generator."""

from __future__ import annotations

import cv2
import numpy as np

from .sensor import add_noise, camera_jpeg


def distort(image: np.ndarray, k1: float) -> np.ndarray:
    """Radial lens distortion (k1 < 0: barrel), centred, normalised to the half-width."""
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy, s = w / 2, h / 2, w / 2
    x, y = (xx - cx) / s, (yy - cy) / s
    # The output pixel at radius r shows the ideal image at r * (1 + k1 r^2).
    f = 1 + k1 * (x * x + y * y)
    return cv2.remap(image, x * f * s + cx, y * f * s + cy, cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REFLECT)


def photograph(raw: np.ndarray, lens: dict[str, float], rng: np.random.Generator,
               sensor: bool = True) -> np.ndarray:
    """The camera frame (BGR uint8) a raw render becomes; `sensor=False` stops at what
    the optics deliver (no noise, no camera JPEG: sensor.deliver adds them per frame)."""
    img = distort(raw, lens["k1"]).astype(np.float32)
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    # Depth of field: focused on the board's middle, a little softer towards the top and
    # bottom of the frame (nearer and farther under tilt) - a photo's tell-tale. Subtle:
    # a Pi camera or webcam lens at 45-75 cm keeps the whole board nearly sharp. (Up to
    # 2.6x the blur at the edge, the first round's, lost w903's far markers: no camera a
    # player would keep does that.) At most 1.5x the blur, reached only at the edge.
    dof = min(1.0, lens.get("dof", 0.0))
    sharp = cv2.GaussianBlur(img, (0, 0), lens["blur_px"])
    soft = cv2.GaussianBlur(img, (0, 0), lens["blur_px"] * (1.0 + 0.5 * dof))
    depth = np.clip(np.abs(yy - h / 2) / (h / 2), 0, 1) ** 2 * dof
    img = sharp * (1 - depth[..., None]) + soft * depth[..., None]
    r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / (w / 2) ** 2
    img *= (1 - lens["vignette"] * r2 * 0.5)[..., None]
    # Auto-exposure: the camera brings the frame's mid-bright level to a target.
    # Centre-weighted metering, as webcams and the Pi camera's default do.
    grey = img.mean(axis=2)
    weight = np.exp(-r2 * 2.0)
    level = float((grey * weight).sum() / weight.sum())
    img *= (118.0 * lens["exposure_bias"]) / max(level, 1.0)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if not sensor:
        return img
    return camera_jpeg(add_noise(img, lens["noise"], rng), int(lens["jpeg"]))


def jpeg_bytes(image: np.ndarray, quality: int) -> bytes:
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return buf.tobytes()
