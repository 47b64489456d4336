"""The committed 3-D worlds (tests/fixtures/worlds): their truth is the rules engine's,
their files are all there, and the not-for-tuning discipline holds. Runs in CI."""

import json
from pathlib import Path

import cv2
import pytest

from companion.rules import Game
from companion.vision.board import load_board
from tools.worlds.generate import GAMES, WORLDS
from tools.worlds.truth import observation

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "worlds"
WORLD_DIRS = sorted(p.parent for p in FIXTURES.glob("*/world.json"))
GAME_DIRS = sorted(p.parent for p in FIXTURES.glob("*/games/*/game.json"))


def _meta(world_dir: Path) -> dict:
    return json.loads((world_dir / "world.json").read_text())


@pytest.mark.parametrize("world_dir", WORLD_DIRS, ids=lambda p: p.name)
def test_a_world_is_the_one_the_generator_draws(world_dir):
    meta = _meta(world_dir)
    seed, board_file, tuning = WORLDS[world_dir.name]
    assert (meta["world"]["seed"], meta["board_file"], meta["tuning"]) == (seed, board_file, tuning)
    load_board(ROOT / board_file)
    assert 450 <= meta["camera"]["height_mm"] <= 750
    assert 0 <= meta["camera"]["tilt_deg"] <= 25
    layouts = sorted((world_dir / "calibration").glob("layout-*.jpg"))
    assert len(layouts) == 2


@pytest.mark.parametrize("world_dir", WORLD_DIRS, ids=lambda p: p.name)
def test_every_still_has_its_picture_and_the_engine_s_truth(world_dir):
    lines = [json.loads(x) for x in (world_dir / "stills.jsonl").read_text().splitlines()]
    assert lines
    assert any(x["hand"] for x in lines) and any(not x["hand"] for x in lines)
    for x in lines:
        image = cv2.imread(str(world_dir / x["file"]))
        assert image is not None and image.shape == (720, 1280, 3), x["file"]
        want = observation(x["state"], x["missing_discs"], stable=not x["hand"],
                           markers=x["truth"]["markers"])
        assert x["truth"] == want, x["file"]
        assert x["hand"] or x["truth"]["markers"] == 4


@pytest.mark.parametrize("game_dir", GAME_DIRS, ids=lambda p: p.name)
def test_a_whole_game_is_legal_to_the_end_and_every_frame_shows_its_state(game_dir):
    meta = json.loads((game_dir / "game.json").read_text())
    assert GAMES[game_dir.name][0] == meta["world"]
    lines = [json.loads(x) for x in (game_dir / "log.jsonl").read_text().splitlines()]
    game = Game.from_setup(lines[0])
    states = [game.state.snapshot()]
    for event in lines[1:]:
        game.apply(event)
        states.append(game.state.snapshot())
    assert game.is_over, "the committed game does not reach its end"
    assert meta["events"] == len(lines) - 1
    for frame in meta["frames"]:
        image = cv2.imread(str(game_dir / frame["file"]))
        assert image is not None and image.shape == (720, 1280, 3), frame["file"]
        stable = frame["kind"] == "stable"
        want = observation(states[frame["events"]], stable=stable,
                           markers=frame["truth"]["markers"])
        assert frame["truth"] == want, frame["file"]


@pytest.mark.parametrize("game_dir", GAME_DIRS, ids=lambda p: p.name)
def test_every_change_of_the_board_has_a_hand_frame_then_a_stable_frame(game_dir):
    meta = json.loads((game_dir / "game.json").read_text())
    lines = [json.loads(x) for x in (game_dir / "log.jsonl").read_text().splitlines()]
    changes = [k for k, ev in enumerate(lines[1:], start=1) if ev["event"] != "cards"]
    frames = meta["frames"]
    assert (frames[0]["kind"], frames[0]["events"]) == ("stable", 0)
    pairs = [(a["events"], a["kind"], b["kind"]) for a, b in zip(frames[1::2], frames[2::2],
                                                                strict=True)]
    assert [k for k, _, _ in pairs] == changes
    assert all((a, b) == ("hand", "stable") for _, a, b in pairs)


def test_the_fixtures_fit_the_repository_budget():
    # Twenty-eight short games and eighteen worlds' stills (README.md); a twenty-ninth
    # game needs a reason. (The eighteenth to twentieth, 2026-11-27: a fourth and a fifth
    # tuned board; the first showed moves missed, which no tuned world had. The
    # twenty-first and -second: two more on the fifth, whose one game was asked about
    # most. The twenty-third, 2026-12-03: a sixth board and a fresh draw of the looks,
    # w111, whose first read put the weather wrong on half its stills. The
    # twenty-fourth, 2026-12-07: a fresh draw, w112, whose first read missed a move
    # that only a pile showed, as no tuned game had. The twenty-fifth to -eighth,
    # 2026-12-07: untuned, one on each of w904-w906 and a fourth on w904, so that the
    # issue's "9 games of 10" not for tuning can be measured at all.)
    total = sum(p.stat().st_size for p in FIXTURES.rglob("*") if p.is_file())
    assert total < 190 * 1024 * 1024


def test_every_world_and_game_of_the_generator_is_committed():
    assert {d.name for d in WORLD_DIRS} == set(WORLDS)
    assert {d.name for d in GAME_DIRS} == set(GAMES)


@pytest.mark.parametrize("world_dir", WORLD_DIRS, ids=lambda p: p.name)
def test_a_world_has_twelve_stills_four_with_a_hand_and_names_its_sensor(world_dir):
    lines = [json.loads(x) for x in (world_dir / "stills.jsonl").read_text().splitlines()]
    assert len(lines) == 12 and sum(x["hand"] for x in lines) == 4
    sensor = _meta(world_dir)["sensor"]
    assert sensor["noise"] > 0 and 70 <= sensor["jpeg"] <= 92
