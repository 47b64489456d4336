"""ArUco markers: drawing, finding, and the printable sheet at true scale."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np

from companion.vision.markers import find_markers, marker_bits, marker_image, marker_sheet_svg


def test_drawn_marker_is_found_with_its_id():
    img = np.full((240, 240), 255, np.uint8)
    img[60:180, 60:180] = marker_image(3, 120)
    found = find_markers(img)
    assert list(found) == [3]
    assert found[3].shape == (4, 2)


def test_marker_bits_have_a_black_border():
    bits = marker_bits(0)
    assert bits.shape == (6, 6)
    assert not bits[0].any() and not bits[-1].any()


def test_sheet_is_a4_at_true_scale_with_four_markers(board):
    svg = marker_sheet_svg(board)
    root = ET.fromstring(svg)
    assert root.get("width") == "210mm" and root.get("height") == "297mm"
    assert root.get("viewBox") == "0 0 210 297"
    side = board.markers.size_mm
    blacks = [r for r in root.iter("{http://www.w3.org/2000/svg}rect")
              if r.get("fill") == "black" and r.get("width") == f"{side:.3f}"]
    assert len(blacks) == 4


def test_committed_sheet_matches_the_default_board(board):
    committed = Path(__file__).resolve().parents[2] / "calibration" / "markers.svg"
    assert committed.read_text() == marker_sheet_svg(board)


def test_sheet_markers_can_be_read_back(board):
    # Rasterise the sheet's cells for marker 2 and find it.
    svg = marker_sheet_svg(board)
    assert re.search(r"marker 2: bottom-right corner", svg)
    bits = marker_bits(2)
    img = np.kron(bits * 255, np.ones((20, 20))).astype(np.uint8)
    img = np.pad(img, 40, constant_values=255)
    assert 2 in find_markers(img)
