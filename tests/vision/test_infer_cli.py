"""`companion vision infer LOG OBSERVATION`: the event that explains a picture."""

import json
import subprocess
import sys
from pathlib import Path

from companion.rules import Game, parse_line
from companion.vision.expected import expected_observation

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "examples" / "worked-example.jsonl"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", "vision", "infer", *args],
                          capture_output=True, text=True, timeout=60)


def test_infer_names_the_turn_the_picture_shows(tmp_path):
    log = tmp_path / "game.jsonl"
    log.write_text("\n".join(LOG.read_text().splitlines()[:3]) + "\n")  # blue has moved
    game = Game.from_events([parse_line(line) for line in log.read_text().splitlines()])
    game.apply({"event": "turn", "player": "green", "cloud": "up"})
    obs = tmp_path / "obs.json"
    obs.write_text(json.dumps(expected_observation(game.state)))
    result = run(str(log), str(obs))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["status"] == "exact" and out["summary"] == "cloud up"


def test_infer_refuses_bad_input_in_one_line(tmp_path):
    bad = tmp_path / "obs.json"
    bad.write_text("{not json")
    for args in ((str(LOG), str(bad)), (str(tmp_path / "missing.jsonl"), str(bad))):
        result = run(*args)
        assert result.returncode == 2
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def _game_and_log(tmp_path: Path) -> tuple[Game, Path]:
    log = tmp_path / "game.jsonl"
    log.write_text("\n".join(LOG.read_text().splitlines()[:2]) + "\n")  # cards revealed
    return Game.from_events([parse_line(line) for line in log.read_text().splitlines()]), log


def _picture(tmp_path: Path, name: str, state, seed: int = 4) -> Path:
    import cv2

    from companion.vision.board import load_board
    from companion.vision.render import Nuisance, Renderer

    path = tmp_path / name
    shot = Renderer(load_board()).render(state, seed=seed, nuisance=Nuisance.mild())
    cv2.imwrite(str(path), shot.image)
    return path


def test_infer_reads_the_move_off_a_picture(tmp_path):
    game, log = _game_and_log(tmp_path)
    player = game.to_move
    turn = game.legal_turns()[0]
    game.apply(turn)
    result = run(str(log), str(_picture(tmp_path, "after.png", game.state)))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["status"] == "exact" and out["best"][0]["event"]["player"] == player


def test_infer_with_a_reading_before_keeps_what_did_not_change(tmp_path):
    game, log = _game_and_log(tmp_path)
    before = expected_observation(game.state)
    game.apply(game.legal_turns()[0])
    after = expected_observation(game.state)
    # A place nobody touched misread the same way in both readings: it did not change,
    # so the state before holds there.
    for obs in (before, after):
        obs["slots"]["7R"]["disc"] = False
    (tmp_path / "before.json").write_text(json.dumps(before))
    (tmp_path / "after.json").write_text(json.dumps(after))
    result = run(str(log), str(tmp_path / "after.json"), "--before", str(tmp_path / "before.json"))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["unexplained"] == []


def test_infer_refuses_a_before_from_another_camera_position(tmp_path):
    game, log = _game_and_log(tmp_path)
    before = _picture(tmp_path, "before.png", game.state, seed=4)
    game.apply(game.legal_turns()[0])
    after = _picture(tmp_path, "after.png", game.state, seed=5)
    result = run(str(log), str(after), "--before", str(before))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "another camera position" in result.stderr


def test_infer_says_when_the_board_is_not_in_the_picture(tmp_path):
    import cv2
    import numpy as np

    _, log = _game_and_log(tmp_path)
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 128, np.uint8))
    result = run(str(log), str(blank))
    assert result.returncode == 3
    assert result.stderr.count("\n") == 1 and "board not found" in result.stderr
