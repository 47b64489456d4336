"""What a camera remembers of a table (vision.memory): a picture after a move judged
against the last picture of the game as it stands — the cloud's move from its track, the
river's pushes from where the slots' contents went — across a knock of the camera, and
nothing once it moved."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.rules import Game, River
from companion.vision.expected import expected_observation
from companion.vision.locate import Location
from companion.vision.memory import BoardMemory
from companion.vision.observer import Vision
from companion.vision.render import Nuisance, with_levels
from companion.vision.views import knocked_only, same_view

# One still camera (its pose from one seed) in one light: the renderer draws the light per
# picture, so it is held fixed (a moved camera has a test of its own).
STILL = with_levels(Nuisance.mild(), light=(1.0, 1.0), gradient=0.0, shadows=0,
                    white_balance=0.0, glare=0.0)


@pytest.fixture
def look(board, profile, renderer):
    vision = Vision(board, profile, settle=1)

    def picture(source, seed=5, turned=None):
        image = renderer.render(source, seed=seed, nuisance=STILL, camera=seed).image
        if turned is not None:
            image = cv2.warpPerspective(image, turned, (image.shape[1], image.shape[0]))
        obs = vision.observe(image)
        return obs, vision.last_reading.corrected.copy(), vision.last_location

    return vision, picture


def _blank(obs: dict) -> dict:
    """An observation that saw nothing: what the pictures tell must fill it."""
    out = dict(obs)
    out["slots"] = {s: {"disc": True, "canoes": []} for s in obs["slots"]}
    out["dock"], out["falls"], out["weather"] = [], [], None
    return out


# The move's hand knocked the camera: turned by a degree about its centre, it sees every
# point of the picture moved by one homography, K R K^-1.
_K = np.array([[1000.0, 0.0, 640.0], [0.0, 1000.0, 360.0], [0.0, 0.0, 1.0]])
KNOCKED = _K @ cv2.Rodrigues(np.radians([0.6, -0.5, 0.6]))[0] @ np.linalg.inv(_K)


@pytest.mark.parametrize("turned", [None, KNOCKED], ids=["still camera", "camera knocked"])
def test_R_WEATHER_1_the_cloud_moved_one_step_is_read_from_its_track(look, turned):
    vision, picture = look
    game = Game(["blue", "green", "yellow"])
    game.apply({"event": "cards", "cards": {"blue": "cloud", "green": 3, "yellow": 4}})
    _, before, where = picture(game)
    memory = BoardMemory(vision.detector)
    memory.confirm(before, where, game.state)
    after_game = game.copy()
    after_game.push_san("cloud up")
    obs, after, there = picture(after_game, turned=turned)
    assert same_view(where, there) == (turned is None)
    seen = memory.judge(_blank(obs), after, there, game)
    assert seen is not None and seen["weather"] == 1
    assert seen["dock"] == expected_observation(game)["dock"]  # unchanged: as the state says


def test_R_RIVER_4_the_rivers_pushes_are_read_from_the_slots_contents(look):
    vision, picture = look
    game = Game(["blue", "green", "yellow"])
    memory = BoardMemory(vision.detector)
    _, setup, where = picture(game)
    memory.confirm(setup, where, game.state)  # the setup: every slot's empty look
    game.apply({"event": "cards", "cards": {"blue": 6, "green": 5, "yellow": 2}})
    for text in ("D-4+clear", "D-5", "D-2"):
        game.push_san(text)
    _, before, where = picture(game)
    memory.confirm(before, where, game.state)
    moved = game.copy()
    moved.apply(River(2, ("R", "R")))  # not the alternation the rules would guess
    obs, after, there = picture(moved)
    seen = memory.judge(_blank(obs), after, there, game)
    assert seen is not None
    truth = expected_observation(moved)
    assert seen["slots"] == truth["slots"] and seen["falls"] == truth["falls"]


def _setup_remembered(look):
    """A new game's setup, photographed and remembered."""
    vision, picture = look
    game = Game(["blue", "green", "yellow"])
    obs, setup, where = picture(game)
    memory = BoardMemory(vision.detector)
    memory.confirm(setup, where, game.state)
    return vision, game, memory, obs, setup, where


def test_a_camera_that_moved_remembers_no_picture(look):
    _, game, memory, obs, before, where = _setup_remembered(look)
    shifted = np.array([[1.0, 0.0, 12.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]) @ where.homography
    moved = Location(shifted, where.markers, False, where.seen)
    # Straightened from there, the board's print lies a few millimetres off the kept one's.
    off = np.roll(before, 4, axis=1)
    assert memory.judge(obs, off, moved, game) is None
    assert memory.picture is None and not memory.slots.known()


def test_a_camera_put_down_elsewhere_remembers_no_picture(look, renderer):
    vision, game, memory, _, _, where = _setup_remembered(look)
    # The same board from another place: its print straightened agrees, but the pieces
    # are seen from another side.
    vision.locator.reset()
    obs = vision.observe(renderer.render(game, seed=5, nuisance=STILL, camera=9).image)
    there = vision.last_location
    assert not knocked_only(where, there)
    assert memory.judge(obs, vision.last_reading.corrected, there, game) is None
    assert memory.picture is None


def test_R_SETUP_1_the_setup_shows_each_gems_colour_in_its_deposit(look):
    # Seven gems of each colour lie in the deposit of that colour: a picture of the
    # setup teaches every gem's colour in this light before any is loaded.
    vision = _setup_remembered(look)[0]
    learned = {g: vision.detector.looks.gem_colour(g) for g in
               ("red", "blue", "clear", "yellow", "violet")}
    assert all(c is not None for c in learned.values())
    b, g, r = learned["red"]
    assert r > g + 40 and r > b + 20           # red is red
    b, g, r = learned["blue"]
    assert b > r + 40                          # blue is blue
    assert min(learned["clear"]) > 150         # clear is light


def _blue_loads_violet(look):
    """A new game's setup remembered, then blue's D-3+violet photographed and judged:
    (vision, game, memory, before, where, moved, obs, after, there, seen)."""
    vision, game, memory, _, before, where = _setup_remembered(look)
    game.apply({"event": "cards", "cards": {"blue": 5, "green": 3, "yellow": 4}})
    moved = game.copy()
    moved.push_san("D-3+violet")
    obs, after, there = look[1](moved)
    seen = memory.judge(obs, after, there, game)
    assert seen is not None
    return vision, game, memory, before, where, moved, obs, after, there, seen


def test_R_GEM_3_a_confirmed_move_counts_whether_its_take_was_seen_leave_the_pile(look):
    # The picture judged after blue's D-3+violet, then the move confirmed: one violet
    # gem left the violet pile, seen or not as the judged picture said. An undo that
    # reaches a state with fewer gems in a pile took nothing: it teaches nothing.
    from companion.vision.take_looks import TAKES_PRIOR

    vision, game, memory, before, where, moved, obs, after, there, seen = \
        _blue_loads_violet(look)
    assert "takes_shown" not in seen
    memory.confirm(after, there, moved.state)
    shown = "violet" in seen["deposits_changed"]
    ok, missed = TAKES_PRIOR
    assert vision.detector.looks.takes_shown() == {"violet": (shown + ok) / (1 + ok + missed)}
    assert memory.judge(obs, after, there, moved)["takes_shown"] == {
        "violet": (shown + ok) / (1 + ok + missed)}
    # taken back: the picture of the state before, reached by an undo
    memory.judge(obs, before, where, moved)
    memory.confirm(before, where, game.state, moved_on=False)
    memory.judge(obs, after, there, game)
    memory.confirm(after, there, moved.state, moved_on=False)
    assert vision.detector.looks.takes_shown() == {"violet": (shown + ok) / (1 + ok + missed)}


def test_the_colours_this_camera_reads_gems_as_go_with_the_picture_judged(look):
    # What the confirmed pictures taught of this camera's misreads (``PieceLooks.misread``)
    # goes with each picture it judges, for the fit to weigh (``FitWeights.misread``).
    from companion.vision.looks import MISREAD_PRIOR
    from companion.vision.seen_canoes import SeenCanoe

    vision, game, memory, _, _, _, obs, after, there, seen = _blue_loads_violet(look)
    assert "gems_misread" not in seen
    for _ in range(2):
        vision.detector.looks.learn([SeenCanoe("red", "3", 5.0, gem="clear")],
                                    {"red": [("3", "violet")]})
    seen = memory.judge(obs, after, there, game)
    assert seen is not None
    assert seen["gems_misread"] == {"violet": {"clear": 2 / (2 + MISREAD_PRIOR)}}


def test_R_GEM_3_a_pile_seen_only_to_lose_the_gem_loaded_had_none_put_on_it(look):
    # Blue's D-3+violet takes one violet gem and puts none: the picture after names
    # the gem taken, and the pile changed nowhere else (piles_taken.taken_only).
    seen = _blue_loads_violet(look)[-1]
    assert seen["deposits_taken"] == {"violet": "violet"}
    assert seen["deposits_taken_only"] == ["violet"]
    # and no coloured gem of another colour was seen put on it (piles_taken.puts_unseen)
    assert seen["deposits_put_unseen"] == {"violet": ["blue", "red", "yellow"]}


def test_R_STEAL_1_the_victims_canoe_is_compared_with_itself_across_the_move(look):
    # Blue's canoe stays on 5 with its clear gem, or loses it to green's thief beside
    # it: its middle, against its middle in the picture before, says which.
    from .test_inference import green_robs_blue

    vision, picture = look
    game, theft, _ = green_robs_blue()
    _, before, where = picture(game)
    memory = BoardMemory(vision.detector)
    memory.confirm(before, where, game.state, vision.last_reading.canoes)
    for text, field in (("6L-5xblue", "cargo_changed"), ("6L-5", "cargo_kept")):
        after_game = game.copy()
        after_game.push_san(text)
        obs, after, there = picture(after_game)
        seen = memory.judge(obs, after, there, game, vision.last_reading.canoes)
        assert seen is not None and seen.get(field, {}).get("blue") == ["5"], (text, seen)
        other = "cargo_kept" if field == "cargo_changed" else "cargo_changed"
        assert "blue" not in seen.get(other, {}), (text, seen)
