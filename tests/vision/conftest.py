"""Shared pieces for the vision tests: the default board, profile and a renderer; and
w106, a 3-D world kept for tuning, calibrated from its layout photos (any other tuned
world through ``tuned_world``)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from companion.rules import Game
from companion.vision.board import load_board
from companion.vision.learn import learn_profile
from companion.vision.profile_file import load_profile
from companion.vision.render import Renderer


@pytest.fixture(scope="session")
def board():
    return load_board()


@pytest.fixture(scope="session")
def profile():
    return load_profile()


@pytest.fixture(scope="session")
def renderer(board):
    return Renderer(board)


W106 = Path(__file__).resolve().parents[1] / "fixtures" / "worlds" / "w106"


@pytest.fixture(scope="session")
def w106_board():
    """tests/fixtures/worlds/w106's board file."""
    meta = json.loads((W106 / "world.json").read_text())
    return load_board(Path(__file__).resolve().parents[2] / meta["world"]["board_file"])


@pytest.fixture(scope="session")
def w106(w106_board):
    """tests/fixtures/worlds/w106's board, the profile its layout photos give (as
    `companion calibrate profile` makes it) and those photos."""
    board = w106_board
    layouts = [cv2.imread(str(p)) for p in sorted((W106 / "calibration").glob("layout-*.jpg"))]
    return board, learn_profile(board, layouts), layouts


@pytest.fixture(scope="session")
def tuned_world():
    """A function from a tuned world's name (tests/fixtures/worlds) to its board, the
    profile its layout photos give and its stills (stills.jsonl lines, each with its
    picture under "image"), each world calibrated once a session."""
    made: dict[str, tuple] = {}

    def world(name: str) -> tuple:
        if name not in made:
            path = W106.parent / name
            meta = json.loads((path / "world.json").read_text())
            assert meta.get("tuning", True), f"{name} is not for tuning"
            board = load_board(Path(__file__).resolve().parents[2] / meta["world"]["board_file"])
            layouts = [cv2.imread(str(p))
                       for p in sorted((path / "calibration").glob("layout-*.jpg"))]
            lines = (path / "stills.jsonl").read_text().splitlines()
            stills = [{**line, "image": cv2.imread(str(path / line["file"]))}
                      for line in map(json.loads, lines)]
            made[name] = board, learn_profile(board, layouts), stills
        return made[name]

    return world


@pytest.fixture(scope="session")
def mid_game():
    """A game after two rounds of the worked example's kind: canoes on the river,
    some carrying gems, the weather moved."""
    game = Game(["blue", "green", "yellow", "red", "brown"])
    game.apply({"event": "cards", "cards": {"blue": 6, "green": "cloud", "yellow": 5,
                                            "red": 1, "brown": 4}})
    game.apply({"event": "turn", "player": "blue",
                "canoes": [{"from": "D", "to": "4", "post": ["load:clear"]}]})
    game.apply({"event": "turn", "player": "green", "cloud": "up"})
    game.apply({"event": "turn", "player": "yellow",
                "canoes": [{"from": "D", "to": "3", "post": ["load:violet"]}]})
    game.apply({"event": "turn", "player": "red", "canoes": [{"from": "D", "to": "1"}]})
    game.apply({"event": "turn", "player": "brown", "canoes": [{"from": "D", "to": "4"}]})
    game.apply({"event": "river"})
    return game


def same_view(a: dict, b: dict) -> bool:
    """Two observations show the same pieces (canoe order within a place ignored)."""
    def norm(o: dict) -> tuple:
        def key(c: dict) -> tuple:
            return (c["player"], c["gem"] or "")
        return (o["weather"],
                tuple((s, v["disc"], tuple(sorted(map(key, v["canoes"]))))
                      for s, v in sorted(o["slots"].items())),
                tuple(sorted(map(key, o["dock"]))), tuple(sorted(map(key, o["falls"]))))
    return norm(a) == norm(b)
