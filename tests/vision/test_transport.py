"""The river read by where the slots' looks went (vision.transport): discs move as
R-RIVER-2 says, and the pushes that carry the pictures' contents best come first."""

from __future__ import annotations

import pytest

from companion.rules import SLOTS, Game, River
from companion.vision.observer import Vision
from companion.vision.render import Nuisance
from companion.vision.transport import (
    EmptySlots,
    layout_after,
    rank_rivers,
    river_board,
    sources,
)


def test_R_RIVER_2_a_push_moves_every_disc_one_slot_and_a_new_one_enters_behind_the_rope():
    assert sources(["L"]) == {"1": None, "2": "1", "3": "2", "4": "3", "5": "4",
                              "6L": "5", "7L": "6L", "6R": "6R", "7R": "7R"}


def test_R_RIVER_2_the_other_branch_does_not_move_and_7_falls():
    came = sources(["L", "R"])
    assert came == {"1": None, "2": None, "3": "1", "4": "2", "5": "3",
                    "6L": "5", "7L": "6L", "6R": "4", "7R": "6R"}
    assert set(came) == set(SLOTS)


def test_no_push_moves_nothing():
    assert sources([]) == {slot: slot for slot in SLOTS}


def _river_round() -> Game:
    """Canoes on 2, 4 (with a clear gem) and 5, the river about to move 2 steps."""
    game = Game(["blue", "green", "yellow"])
    game.apply({"event": "cards", "cards": {"blue": 6, "green": 5, "yellow": 2}})
    for text in ("D-4+clear", "D-5", "D-2"):
        game.push_san(text)
    assert game.phase == "river" and game.speed == 2
    return game


@pytest.fixture(scope="module")
def pictures(board, profile, renderer):
    """The light-corrected pictures: the setup, the board before the river, and after
    each push sequence of speed 2."""
    vision = Vision(board, profile, settle=1)

    def picture(source, seed):
        vision.observe(renderer.render(source, seed=seed, nuisance=Nuisance.mild()).image)
        return vision.last_reading.corrected.copy()

    game = _river_round()
    setup = Game(["blue", "green", "yellow"])
    after = {}
    for branches in (("L", "R"), ("R", "L"), ("L", "L"), ("R", "R")):
        trial = game.copy()
        trial.apply(River(2, branches))
        after[branches] = picture(trial, 3)
    return vision.detector, game, picture(setup, 3), picture(game, 3), after


@pytest.mark.parametrize("truth", [("L", "R"), ("R", "L"), ("L", "L"), ("R", "R")])
def test_R_RIVER_4_the_pushes_that_carried_the_canoes_rank_first(pictures, truth):
    detector, game, setup, before, after = pictures
    slots = EmptySlots(detector)
    assert sorted(slots.learn(setup, Game(["blue", "green", "yellow"]).state)) == sorted(SLOTS)
    ranked = rank_rivers(slots, before, after[truth], game)
    assert layout_after(game, ranked[0].branches) == layout_after(game, truth)
    assert river_board(slots, before, after[truth], game) == layout_after(game, truth)


def test_the_slots_looks_must_be_known_first(pictures):
    detector, game, _, before, after = pictures
    with pytest.raises(ValueError, match="empty looks"):
        rank_rivers(EmptySlots(detector), before, after[("L", "R")], game)
