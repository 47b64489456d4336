"""A board whose own print takes a piece's colour class in the table's light is no hand
over the board (learn_board.ground_map, hands.py): tests/fixtures/worlds/w106, a world
kept for tuning, whose grass by the board's edge its calibration reads as a green
canoe's colour."""

from __future__ import annotations

import json

import cv2

from companion.vision.observer import Vision

from .conftest import W106 as WORLD


def _stills(hand: bool) -> list:
    lines = [json.loads(x) for x in (WORLD / "stills.jsonl").read_text().splitlines()]
    return [cv2.imread(str(WORLD / x["file"])) for x in lines if x["hand"] is hand]


def test_the_calibration_keeps_where_the_print_takes_a_canoe_s_colour(w106):
    _, profile, _ = w106
    assert profile.ground_map is not None
    assert profile.ground_map["canoe:green"].any()


def test_the_calibration_photos_show_nothing_over_the_board(w106):
    board, profile, layouts = w106
    for photo in layouts:
        vision = Vision(board, profile, settle=1)
        assert vision.observe(photo)["stable"], vision.last_reading.in_the_way


def test_a_hand_over_that_board_is_still_seen(w106):
    board, profile, _ = w106
    for still in _stills(hand=True):
        vision = Vision(board, profile, settle=1)
        obs = vision.observe(still)
        assert obs is not None and not obs["stable"]
