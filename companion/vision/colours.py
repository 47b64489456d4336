"""The nominal colours of the pieces (shared/spec/vision.md, "Nominal colours").

These are what the synthetic renderer paints and what the default colour profile is
learned from. The classifier never reads them: it works from a learned profile.
(Calibrating from a set-up game uses them once, to tell which hull on the dock is
whose among the colours the state puts there: ``dock_canoes``.)
Values are sRGB (red, green, blue); OpenCV images are BGR, hence `bgr()`.
"""

from __future__ import annotations

RGB = tuple[int, int, int]

CANOE_RGB: dict[str, RGB] = {
    "brown": (115, 70, 40),
    "yellow": (235, 195, 35),
    "red": (195, 35, 35),
    "blue": (35, 75, 185),
    "green": (40, 145, 65),
}

GEM_RGB: dict[str, RGB] = {
    "red": (215, 25, 70),
    "blue": (40, 90, 230),
    "clear": (230, 235, 240),
    "yellow": (250, 175, 10),
    "violet": (135, 55, 165),
}

CLOUD_RGB: RGB = (245, 245, 245)


def bgr(rgb: RGB) -> tuple[int, int, int]:
    """OpenCV's channel order."""
    return rgb[2], rgb[1], rgb[0]


__all__ = ["CANOE_RGB", "GEM_RGB", "CLOUD_RGB", "RGB", "bgr"]
