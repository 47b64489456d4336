"""The worlds' board files: loadable by the vision, and physically possible boards."""

import math
from pathlib import Path

import pytest

from companion.vision.board import inside, load_board
from tools.worlds.layout import place_pieces
from tools.worlds.world import BOARDS_DIR, DEFAULT_BOARD_FILE

BOARD_FILES = sorted(BOARDS_DIR.glob("*.json")) + [DEFAULT_BOARD_FILE]


def test_there_are_at_least_three_board_files_of_their_own_size():
    sizes = {load_board(p).size_mm for p in BOARD_FILES}
    assert len(list(BOARDS_DIR.glob("*.json"))) >= 3 and len(sizes) == len(BOARD_FILES)


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: Path(p).stem)
def test_discs_lie_on_the_board_apart_and_clear_of_the_markers(path):
    board = load_board(path)
    w, h = board.size_mm
    r = board.disc_radius_mm
    for slot, (x, y) in board.slots.items():
        assert r <= x <= w - r and r <= y <= h - r, slot
        for other, q in board.slots.items():
            if other != slot:
                assert math.dist((x, y), q) >= 2 * r, (slot, other)
        for mx, my in board.markers.centres_mm.values():
            assert math.dist((x, y), (mx, my)) > r + board.markers.size_mm, slot


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: Path(p).stem)
def test_the_set_up_pieces_land_where_the_board_file_says(path):
    import random

    from companion.rules import Game

    board = load_board(path)
    snap = Game(["red", "blue", "green", "yellow", "brown"]).state.snapshot()
    pieces = place_pieces(board, snap, random.Random(1), jitter=3.0)
    canoes = [p for p in pieces if p.kind == "canoe"]
    assert len(canoes) == 10
    assert all(board.place_at((c.x, c.y)) == "D" or inside((c.x, c.y), board.dock)
               for c in canoes)
    gems = [p for p in pieces if p.kind == "gem"]
    assert len(gems) == sum(sum(d.values()) for d in snap["deposits"].values())
    for g in gems:
        assert inside((g.x, g.y), board.deposits[g.colour]), g
