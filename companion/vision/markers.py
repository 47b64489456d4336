"""ArUco markers: drawing them, finding them, and the printable marker sheet.

OpenCV changed its ArUco API in 4.7 (``cv2.aruco.ArucoDetector``); Debian bookworm ships
4.6 with the older functions (``cv2.aruco.detectMarkers``). Both are handled here so
nothing else in the project needs to know.

>>> import numpy as np
>>> img = np.full((200, 200), 255, np.uint8)
>>> img[50:150, 50:150] = marker_image(2, 100)
>>> sorted(find_markers(img))
[2]
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from .board import Board

# The white paper around each printed marker, as a fraction of the marker side. The
# sheet prints it and the vision reads the paper's white there as its light reference.
PAPER_MARGIN = 0.25
# Where, outside the marker's edge, the vision samples that white (fractions of the
# marker side): clear of the black border and of the paper's cut edge.
WHITE_BAND = (0.05, 0.17)

# Any: its API differs from one OpenCV version to the next (and it may be missing).
_ARUCO: Any = getattr(cv2, "aruco", None)


def dictionary(name: str = "DICT_4X4_50") -> object:
    if _ARUCO is None:
        raise RuntimeError("this OpenCV has no ArUco module (install opencv-contrib "
                           "or python3-opencv)")
    ident = getattr(_ARUCO, name)
    if hasattr(_ARUCO, "getPredefinedDictionary"):
        return _ARUCO.getPredefinedDictionary(ident)
    return _ARUCO.Dictionary_get(ident)  # very old bindings


def marker_image(marker_id: int, side_px: int, name: str = "DICT_4X4_50") -> np.ndarray:
    """A marker as a black-and-white image, side_px square, no white margin."""
    d = dictionary(name)
    if hasattr(_ARUCO, "generateImageMarker"):
        return _ARUCO.generateImageMarker(d, marker_id, side_px)
    return _ARUCO.drawMarker(d, marker_id, side_px)  # OpenCV < 4.7


def marker_bits(marker_id: int, name: str = "DICT_4X4_50") -> np.ndarray:
    """The marker's cells including its black border (6x6 for a 4x4 dictionary);
    1 = white."""
    for cells in (6, 7, 8, 9):
        img = marker_image(marker_id, cells * 10, name)
        small = img[5::10, 5::10]
        if small.shape[0] == cells and not small[0].any() and not small[:, 0].any() \
                and not small[-1].any() and not small[:, -1].any():
            return (small > 127).astype(np.uint8)
    raise RuntimeError(f"cannot read the cells of marker {marker_id}")


class MarkerFinder:
    """Finds ArUco markers in grey images with whichever API this OpenCV has.

    `correcting`: also take a marker one of whose cells reads wrong. The codes of
    DICT_4X4_50 differ from each other (turned any way) in four cells at least, so one
    can be put right, but at ArUco's default error correction rate (0.6 of the
    dictionary's one correctable cell, rounded down) none is. Small in the picture and
    blurred, a marker at a wide lens's far corner loses a cell to its neighbours' ink
    (a board found from the other three then lies up to 14 mm astray there): where the
    others say it must be, only it is looked for, so a corrected cell there is safe."""

    def __init__(self, name: str = "DICT_4X4_50", correcting: bool = False) -> None:
        self._dict = dictionary(name)
        new_api = hasattr(_ARUCO, "ArucoDetector")
        params = _ARUCO.DetectorParameters() if new_api else _ARUCO.DetectorParameters_create()
        if correcting:
            params.errorCorrectionRate = 1.0
        self._detector = _ARUCO.ArucoDetector(self._dict, params) if new_api else None
        self._params = None if new_api else params

    def find(self, gray: np.ndarray) -> dict[int, np.ndarray]:
        """{marker id: 4x2 float32 corners (clockwise from the marker's top-left)}."""
        if self._detector is not None:
            corners, ids, _ = self._detector.detectMarkers(gray)
        else:
            corners, ids, _ = _ARUCO.detectMarkers(gray, self._dict, parameters=self._params)
        found: dict[int, np.ndarray] = {}
        if ids is None:
            return found
        for c, i in zip(corners, ids.ravel(), strict=True):
            found.setdefault(int(i), c.reshape(4, 2).astype(np.float32))
        return found


_default_finder: MarkerFinder | None = None


def find_markers(gray: np.ndarray) -> dict[int, np.ndarray]:
    """Markers of DICT_4X4_50 in a grey image (see MarkerFinder.find)."""
    global _default_finder
    if _default_finder is None:
        _default_finder = MarkerFinder()
    return _default_finder.find(gray)


# -- the printable sheet ------------------------------------------------------------------

PAGE_MM = (210.0, 297.0)  # A4 portrait


def marker_sheet_svg(board: Board) -> str:
    """An A4 SVG at true scale (print at 100%, no "fit to page") with the board's four
    markers, each on its white paper square with a cut line, its id and its corner."""
    side = board.markers.size_mm
    paper = side * (1 + 2 * PAPER_MARGIN)
    corner = {0: "top-left", 1: "top-right", 2: "bottom-right", 3: "bottom-left"}
    w, h = PAGE_MM
    gap_x = (w - 2 * paper) / 3
    gap_y = (h - 2 * paper - 30) / 3
    if gap_x < 5 or gap_y < 5:
        raise ValueError(f"markers of {side:g} mm do not fit two by two on an A4 page")
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}mm" height="{h:g}mm" '
        f'viewBox="0 0 {w:g} {h:g}">',
        f'<title>Niagara Companion markers for board "{board.name}"</title>',
        f'<rect width="{w:g}" height="{h:g}" fill="white"/>',
        f'<text x="{w / 2:g}" y="12" font-family="sans-serif" font-size="4.2" '
        'text-anchor="middle">Niagara Companion - ArUco DICT_4X4_50 markers, '
        f'{side:g} mm. Print at 100% (no scaling); the bar below must measure 100 mm.'
        '</text>',
        f'<rect x="{(w - 100) / 2:g}" y="16" width="100" height="3" fill="black"/>',
    ]
    for i in sorted(board.markers.centres_mm):
        col, row = i % 2 if i < 2 else 1 - i % 2, i // 2
        x0 = gap_x + col * (paper + gap_x)
        y0 = 30 + gap_y + row * (paper + gap_y)
        out.append(f'<rect x="{x0:.3f}" y="{y0:.3f}" width="{paper:.3f}" '
                   f'height="{paper:.3f}" fill="white" stroke="#999" stroke-width="0.2" '
                   'stroke-dasharray="2,1.5"/>')
        bits = marker_bits(i, board.markers.dictionary)
        cell = side / bits.shape[0]
        mx, my = x0 + side * PAPER_MARGIN, y0 + side * PAPER_MARGIN
        out.append(f'<rect x="{mx:.3f}" y="{my:.3f}" width="{side:.3f}" height="{side:.3f}" '
                   'fill="black"/>')
        for r in range(bits.shape[0]):
            for c in range(bits.shape[1]):
                if bits[r, c]:
                    out.append(f'<rect x="{mx + c * cell:.3f}" y="{my + r * cell:.3f}" '
                               f'width="{cell:.3f}" height="{cell:.3f}" fill="white"/>')
        cx, cy = board.markers.centres_mm[i]
        out.append(f'<text x="{x0 + paper / 2:.3f}" y="{y0 + paper + 5:.3f}" '
                   'font-family="sans-serif" font-size="3.5" text-anchor="middle">'
                   f'marker {i}: {corner[i]} corner, centre at {cx:g}, {cy:g} mm</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


__all__ = ["MarkerFinder", "PAPER_MARGIN", "WHITE_BAND", "dictionary", "find_markers",
           "marker_bits", "marker_image", "marker_sheet_svg"]
