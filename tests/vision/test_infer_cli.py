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
