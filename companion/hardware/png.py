"""A PNG picture of a strip, written with numpy and zlib only (no imaging library).

Each LED is a square on a dark background, up to 50 a row; under the LEDs a bar in
alternating greys shows where one layout range ends and the next begins.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from .output import RGB

CELL = 14  # pixels per LED, including the gap
LED = 10
PER_ROW = 50
ROW_HEIGHT = CELL + 6
BACKGROUND = (18, 18, 22)
BAR_SHADES = ((90, 90, 100), (160, 160, 170))


def strip_image(pixels: Sequence[RGB], ranges: Iterable[Sequence[int]] = ()) -> np.ndarray:
    """An RGB image (uint8, h x w x 3) of the strip."""
    count = len(pixels)
    per_row = min(PER_ROW, max(count, 1))
    rows = (count + per_row - 1) // per_row
    image = np.empty((rows * ROW_HEIGHT + 2, per_row * CELL + 2, 3), dtype=np.uint8)
    image[:] = BACKGROUND
    colours = np.asarray(pixels, dtype=np.uint8).reshape(-1, 3)
    pad = (CELL - LED) // 2
    for i, colour in enumerate(colours):
        y, x = divmod(i, per_row)
        top, left = y * ROW_HEIGHT + pad + 1, x * CELL + pad + 1
        image[top:top + LED, left:left + LED] = colour
    for n, indices in enumerate(ranges):
        for i in indices:
            y, x = divmod(int(i), per_row)
            top, left = y * ROW_HEIGHT + CELL + 1, x * CELL + 1
            image[top:top + 3, left:left + CELL] = BAR_SHADES[n % 2]
    return image


def png_bytes(image: np.ndarray) -> bytes:
    """Encode an RGB uint8 image as PNG (8-bit truecolour, no filtering)."""
    height, width, _ = image.shape
    raw = np.zeros((height, width * 3 + 1), dtype=np.uint8)  # filter byte 0 per row
    raw[:, 1:] = image.reshape(height, width * 3)

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw.tobytes(), 9)) + chunk(b"IEND", b""))


def write_strip_png(path: str | Path, pixels: Sequence[RGB],
                    ranges: Iterable[Sequence[int]] = ()) -> None:
    Path(path).write_bytes(png_bytes(strip_image(pixels, ranges)))
