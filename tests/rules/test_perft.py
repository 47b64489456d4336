"""Perft: pinned counts of distinct legal turns (`companion moves`), each checked
against brute force when the fixture was written (tests/rules/make_perft.py)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import game_at_end

PERFT = Path(__file__).resolve().parent.parent / "fixtures" / "perft"
CASES = json.loads((PERFT / "cases.json").read_text())


@pytest.mark.parametrize("case", CASES, ids=[c["log"] for c in CASES])
def test_perft_count(case):
    game = game_at_end(str(PERFT / case["log"]))
    assert len(game.legal_turns(case["player"], case["card"])) == case["count"]


def test_moves_command_prints_one_turn_a_line_then_the_count():
    case = max(CASES, key=lambda c: c["count"])
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "moves", str(PERFT / case["log"]),
         "--player", case["player"], "--card", str(case["card"])],
        capture_output=True, text=True, check=True)
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert lines[-1] == {"count": case["count"]}
    assert len(lines) == case["count"] + 1
    assert all(t["event"] == "turn" and t["player"] == case["player"] for t in lines[:-1])
