"""The board file: loading, checking, and the geometry derived from it."""

from __future__ import annotations

import json

import pytest

from companion.rules import SLOTS
from companion.vision.board import BoardError, load_board, parse_board


def _data(board) -> dict:
    return json.loads(json.dumps(board.to_json()))


def test_default_board_has_every_slot_deposit_and_weather_value(board):
    assert set(board.slots) == set(SLOTS)
    assert set(board.deposits) == {"violet", "clear", "yellow", "blue", "red"}
    assert set(board.weather_mm) == {-1, 0, 1, 2}


def test_default_board_river_runs_from_dock_at_top_to_falls_at_bottom(board):
    dock_y = max(y for _, y in board.dock)
    falls_y = min(y for _, y in board.falls)
    depths = [board.slots[s][1] for s in ("1", "2", "3", "4", "5")]
    assert dock_y < depths[0] and depths == sorted(depths)
    assert max(board.slots["7L"][1], board.slots["7R"][1]) < falls_y
    assert board.slots["6L"][0] < board.slots["5"][0] < board.slots["6R"][0]


def test_place_at_finds_slots_dock_and_falls(board):
    assert board.place_at(board.slots["6R"]) == "6R"
    assert board.place_at((board.slots["3"][0] + 10, board.slots["3"][1])) == "3"
    dock_x = sum(x for x, _ in board.dock) / 4
    dock_y = sum(y for _, y in board.dock) / 4
    assert board.place_at((dock_x, dock_y)) == "D"
    assert board.place_at((5.0, 5.0)) is None


def test_board_round_trips_through_save(board, tmp_path):
    path = tmp_path / "b.json"
    board.save(path)
    assert load_board(path) == board


def test_missing_slot_is_named(board):
    data = _data(board)
    del data["slots"]["6L"]
    with pytest.raises(BoardError, match="slots: missing 6L"):
        parse_board(data)


def test_point_off_the_board_is_named(board):
    data = _data(board)
    data["slots"]["3"] = [900, 10]
    with pytest.raises(BoardError, match="slot 3 .* lies off the board"):
        parse_board(data)


def test_unknown_marker_dictionary_is_refused(board):
    data = _data(board)
    data["markers"]["dictionary"] = "DICT_6X6_250"
    with pytest.raises(BoardError, match="markers.dictionary"):
        parse_board(data)


def test_flat_polygon_is_refused(board):
    data = _data(board)
    data["dock"] = [[10, 10], [20, 20], [30, 30]]
    with pytest.raises(BoardError, match="dock encloses no area"):
        parse_board(data)


def test_not_json_gives_one_line_reason(tmp_path):
    path = tmp_path / "b.json"
    path.write_text("{nope")
    with pytest.raises(BoardError) as err:
        load_board(path)
    assert "not valid JSON" in str(err.value) and "\n" not in str(err.value)


def test_missing_file_gives_one_line_reason(tmp_path):
    with pytest.raises(BoardError, match="no such file"):
        load_board(tmp_path / "none.json")


def test_boolean_is_not_a_number(board):
    data = _data(board)
    data["disc_radius_mm"] = True
    with pytest.raises(BoardError, match="disc_radius_mm must be a number"):
        parse_board(data)
