"""A board whose own print takes a piece's colour class in the table's light is no hand
over the board (learn_board.ground_map, hands.py): tests/fixtures/worlds/w106, a world
kept for tuning, whose grass by the board's edge its calibration reads as a green
canoe's colour."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from companion.vision.board import load_board
from companion.vision.learn import learn_profile
from companion.vision.observer import Vision

WORLD = Path(__file__).resolve().parents[1] / "fixtures" / "worlds" / "w106"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def table():
    meta = json.loads((WORLD / "world.json").read_text())
    board = load_board(ROOT / meta["world"]["board_file"])
    layouts = [cv2.imread(str(p)) for p in sorted((WORLD / "calibration").glob("layout-*.jpg"))]
    return board, learn_profile(board, layouts), layouts


def _stills(hand: bool) -> list:
    lines = [json.loads(x) for x in (WORLD / "stills.jsonl").read_text().splitlines()]
    return [cv2.imread(str(WORLD / x["file"])) for x in lines if x["hand"] is hand]


def test_the_calibration_keeps_where_the_print_takes_a_canoe_s_colour(table):
    _, profile, _ = table
    assert profile.ground_map is not None
    assert profile.ground_map["canoe:green"].any()


def test_the_calibration_photos_show_nothing_over_the_board(table):
    board, profile, layouts = table
    for photo in layouts:
        vision = Vision(board, profile, settle=1)
        assert vision.observe(photo)["stable"], vision.last_reading.in_the_way


def test_a_hand_over_that_board_is_still_seen(table):
    board, profile, _ = table
    for still in _stills(hand=True):
        vision = Vision(board, profile, settle=1)
        obs = vision.observe(still)
        assert obs is not None and not obs["stable"]
