"""`companion vision detect` and friends, run as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from .conftest import same_view

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "vision"
ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_detect_prints_the_observation_of_a_photo():
    r = run("vision", "detect", str(FIXTURES / "board_mild.jpg"))
    assert r.returncode == 0, r.stderr
    obs = json.loads(r.stdout)
    truth = json.loads((FIXTURES / "board_mild.json").read_text())
    assert obs["markers"] == 4 and obs["stable"] is True
    assert same_view(obs, truth)


def test_detect_without_markers_exits_3_with_one_line():
    r = run("vision", "detect", str(FIXTURES / "no_markers.jpg"))
    assert r.returncode == 3
    assert r.stdout == "" and r.stderr.count("\n") == 1 and "board not found" in r.stderr


def test_detect_black_frame_exits_3(tmp_path):
    path = tmp_path / "black.png"
    cv2.imwrite(str(path), np.zeros((720, 1280, 3), np.uint8))
    assert run("vision", "detect", str(path)).returncode == 3


@pytest.mark.parametrize("content", [b"", b"not an image at all"])
def test_detect_unreadable_file_exits_2(tmp_path, content):
    path = tmp_path / "x.jpg"
    path.write_bytes(content)
    r = run("vision", "detect", str(path))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_detect_missing_file_exits_2(tmp_path):
    r = run("vision", "detect", str(tmp_path / "none.jpg"))
    assert r.returncode == 2 and "no such file" in r.stderr


def test_detect_bad_board_file_exits_2(tmp_path):
    bad = tmp_path / "board.json"
    bad.write_text("{}")
    r = run("vision", "detect", str(FIXTURES / "board_mild.jpg"), "--board", str(bad))
    assert r.returncode == 2 and "missing" in r.stderr and "Traceback" not in r.stderr


def test_detect_works_from_another_folder(tmp_path):
    r = run("vision", "detect", str(FIXTURES / "board_mild.jpg"), cwd=tmp_path)
    assert r.returncode == 0, r.stderr


def test_render_then_detect_round_trip(tmp_path):
    out = tmp_path / "we.jpg"
    r = run("vision", "render", "examples/worked-example.jsonl", "--out", str(out),
            "--nuisance", "clean", "--seed", "3")
    assert r.returncode == 0, r.stderr
    truth = json.loads(r.stdout)
    obs = json.loads(run("vision", "detect", str(out)).stdout)
    assert same_view(obs, truth)


def test_watch_a_folder_prints_stable_views(tmp_path):
    for i in range(3):
        (tmp_path / f"{i}.jpg").write_bytes((FIXTURES / "board_mild.jpg").read_bytes())
    r = run("vision", "watch", str(tmp_path), "--settle", "2")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["stable"] is True
