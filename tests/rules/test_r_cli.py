"""`companion referee`, `companion moves` and `companion show` run as real subprocesses:
verdict lines, the final state line and exit codes exactly as game-log.md says."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "tests" / "fixtures" / "logs"
WORKED = ROOT / "examples" / "worked-example.jsonl"

SPEC_KEYS = ["round", "phase", "start", "weather", "branch_next", "canoes", "camps",
             "deposits", "hands", "winners"]
PLACE_ORDER = ["D", "1", "2", "3", "4", "5", "6L", "6R", "7L", "7R", "F"]


def companion(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", *map(str, args)],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)


def lines_of(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


def assert_one_line_error(result: subprocess.CompletedProcess, *words: str) -> None:
    assert result.stdout == ""
    err = result.stderr.strip()
    assert err and "\n" not in err and "Traceback" not in err, result.stderr
    for word in words:
        assert word in err, err


@pytest.fixture(scope="module")
def worked():
    return companion("referee", WORKED)


def test_referee_worked_example_verdicts_exactly(worked):
    """Line 7 has brown steal while moving downstream: reported and skipped."""
    out = worked.stdout.splitlines()
    assert out[:9] == [
        '{"line": 1, "ok": true}', '{"line": 2, "ok": true}', '{"line": 3, "ok": true}',
        '{"line": 4, "ok": true}', '{"line": 5, "ok": true}', '{"line": 6, "ok": true}',
        '{"line": 7, "ok": false, "rule": "R-STEAL-1", "message": "brown\'s canoe on the '
        'dock moved downstream; only a canoe moving upstream may steal"}',
        '{"line": 8, "ok": true}', '{"line": 9, "ok": true}']
    assert len(out) == 10 and out[9].startswith('{"state": ')
    assert worked.returncode == 1  # one event was illegal
    assert worked.stderr == ""


def test_referee_worked_example_final_state(worked):
    state = lines_of(worked.stdout)[-1]["state"]
    assert state["round"] == 2 and state["phase"] == "cards" and state["start"] == "green"
    assert state["canoes"]["blue"] == [{"at": "D", "gem": None}, {"at": "6R", "gem": "clear"}]
    assert state["canoes"]["brown"] == [{"at": "D", "gem": None}, {"at": "6R", "gem": None}]


def test_referee_all_legal_exits_0_and_prints_a_verdict_per_line():
    result = companion("referee", LOGS / "polish-rounds-1-3.jsonl")
    assert result.returncode == 0, result.stdout
    out = lines_of(result.stdout)
    assert out[:-1] == [{"line": n, "ok": True} for n in range(1, 23)]
    assert set(out[-1]) == {"state"}


def test_referee_state_line_has_the_keys_and_orders_of_game_log_md():
    """Camps sorted by colour though violet landed before clear; canoes sorted by place
    D … F; deposits without zero entries; hands numbers ascending then the cloud.
    game-log.md allows added fields after these, never renamed ones."""
    result = companion("referee", LOGS / "camp-order.jsonl")
    assert result.returncode == 0
    state = lines_of(result.stdout)[-1]["state"]
    assert list(state)[:len(SPEC_KEYS)] == SPEC_KEYS
    expected = {
        "round": 4, "phase": "cards", "start": "blue", "weather": -1, "branch_next": "R",
        "canoes": {"blue": [{"at": "D", "gem": None}, {"at": "D", "gem": None}],
                   "green": [{"at": "D", "gem": None}, {"at": "4", "gem": None}],
                   "yellow": [{"at": "D", "gem": None}, {"at": "F", "gem": None}]},
        "camps": {"blue": ["clear", "violet"], "green": [], "yellow": []},
        # Down the river, as game-log.md's example lists them.
        "deposits": {"violet": {"violet": 6}, "clear": {"clear": 6}, "yellow": {"yellow": 7},
                     "blue": {"blue": 7}, "red": {"red": 7}},
        "hands": {"blue": [1, 2, 3, "cloud"], "green": [3, 4, 5, 6],
                  "yellow": [3, 5, 6, "cloud"]},
        "winners": [],
    }
    for key in SPEC_KEYS:
        assert state[key] == expected[key], key
        if isinstance(expected[key], dict):
            assert list(state[key]) == list(expected[key]), f"order of {key}"


def test_referee_state_line_sorts_a_players_canoes_on_one_place_empty_first(tmp_path):
    """Mid-round 2 of the Polish example: brown's two canoes on 3, one robbed gem."""
    log = tmp_path / "mid-round.jsonl"
    log.write_text("\n".join((LOGS / "polish-rounds-1-3.jsonl").read_text()
                             .splitlines()[:14]) + "\n")
    result = companion("referee", log)
    state = lines_of(result.stdout)[-1]["state"]
    assert state["phase"] == "river"
    assert state["canoes"]["brown"] == [{"at": "3", "gem": None}, {"at": "3", "gem": "yellow"}]
    assert state["deposits"]["yellow"] == {"violet": 1, "yellow": 6}
    for canoes in state["canoes"].values():
        keys = [(PLACE_ORDER.index(c["at"]), c["gem"] or "") for c in canoes]
        assert keys == sorted(keys)
    for pile in state["deposits"].values():
        assert all(n > 0 for n in pile.values())
    for hand in state["hands"].values():
        numbers = [c for c in hand if c != "cloud"]
        assert numbers == sorted(numbers) and hand[len(numbers):] in ([], ["cloud"])


def test_referee_reports_broken_lines_as_LOG_and_goes_on(tmp_path):
    log = tmp_path / "broken.jsonl"
    log.write_text("\n".join([
        (LOGS / "camp-order.jsonl").read_text().splitlines()[0],
        '{"event": "cards", "cards": {"blue": 5, "green": "cloud", "yellow": 1}',
        '{"event": "cards", "cards": {"blue": 5, "green": "cloud", "purple": 1}}',
        '{"event": "dance"}',
        '[1, 2, 3]',
        '',
        '{"event": "turn", "player": "blue", "canoes": [{"from": "D", "to": "9"}]}',
        '{"event": "cards", "cards": {"blue": 5, "green": "cloud", "yellow": 1}}',
        '{"event": "turn", "player": "blue", "canoes": [{"from": "D", "to": "3", '
        '"post": ["load:violet"]}]}',
    ]) + "\n")
    result = companion("referee", log)
    assert result.returncode == 1 and result.stderr == ""
    out = lines_of(result.stdout)
    verdicts = {v["line"]: v for v in out[:-1]}
    assert sorted(verdicts) == [1, 2, 3, 4, 5, 7, 8, 9]  # the blank line 6 is skipped
    for n in (2, 3, 4, 5, 7):
        assert verdicts[n]["ok"] is False and verdicts[n]["rule"] == "LOG", verdicts[n]
        message = verdicts[n]["message"]
        assert message and "\n" not in message and "Traceback" not in message
    assert "JSON" in verdicts[2]["message"]
    assert "purple" in verdicts[3]["message"]
    assert "dance" in verdicts[4]["message"]
    assert "9" in verdicts[7]["message"]
    assert verdicts[8] == {"line": 8, "ok": True} and verdicts[9] == {"line": 9, "ok": True}
    assert out[-1]["state"]["canoes"]["blue"] == [{"at": "D", "gem": None},
                                                  {"at": "3", "gem": "violet"}]


@pytest.mark.parametrize("content", ["\n\n", '{"event": "cards", "cards": {"blue": 1}}\n'])
def test_referee_exit_2_when_there_is_no_setup_line(tmp_path, content):
    log = tmp_path / "nosetup.jsonl"
    log.write_text(content)
    result = companion("referee", log)
    assert result.returncode == 2
    assert_one_line_error(result, "companion referee", str(log))


def test_referee_exit_2_when_the_file_is_missing(tmp_path):
    result = companion("referee", tmp_path / "nope.jsonl")
    assert result.returncode == 2
    assert_one_line_error(result, "nope.jsonl")


def test_moves_prints_one_turn_per_line_then_the_count():
    """After the worked example (round 2, phase I), as if blue played a 5. Blue: A on 6R
    with clear, B on D. A alone (9): down over the falls (clear home); up 5 to 1;
    unload at the start then over the falls or up 3 to 3; unload + load blue then 7R or
    5; up 3 and unload at violet; down 1 / up 1 and unload + load red at 7R / yellow at
    5. B: to 5, or to 3 loading violet. A then B: 9 × 2, plus B loading the clear gem A
    left at violet = 19. Total 28."""
    result = companion("moves", WORKED, "--player", "blue", "--card", "5")
    assert result.returncode == 0 and result.stderr == ""
    out = lines_of(result.stdout)
    assert out[-1] == {"count": 28}
    assert len(out) == 29
    for event in out[:-1]:
        assert event["event"] == "turn" and event["player"] == "blue"
        assert 1 <= len(event["canoes"]) <= 2
    assert {"event": "turn", "player": "blue",
            "canoes": [{"from": "6R", "to": "3", "post": ["unload"]},
                       {"from": "D", "to": "3", "post": ["load:clear"]}]} in out


def test_moves_text_notation_for_a_fresh_player():
    result = companion("moves", WORKED, "--player", "green", "--card", "6", "--text")
    assert result.returncode == 0
    assert sorted(result.stdout.splitlines()[:-1]) == ["D-4+clear", "D-6L", "D-6R"]
    assert result.stdout.splitlines()[-1] == '{"count": 3}'


def test_moves_cloud_card():
    result = companion("moves", WORKED, "--player", "red", "--card", "cloud")
    assert lines_of(result.stdout) == [
        {"event": "turn", "player": "red", "cloud": "up"},
        {"event": "turn", "player": "red", "cloud": "down"}, {"count": 2}]


@pytest.mark.parametrize("args,words", [
    (["--player", "purple", "--card", "3"], ["purple", "not playing"]),
    (["--player", "blue", "--card", "sun"], ["sun"]),
])
def test_moves_bad_arguments_exit_2_with_one_line(args, words):
    result = companion("moves", WORKED, *args)
    assert result.returncode == 2
    assert_one_line_error(result, "companion moves", *words)


def test_show_prints_the_board():
    result = companion("show", LOGS / "polish-rounds-1-3.jsonl")
    assert result.returncode == 0 and result.stderr == ""
    text = result.stdout
    assert "round 4" in text and "weather +2" in text and "ring red" in text
    rows = {line.split()[0]: line for line in text.splitlines() if line.strip()}
    assert "Bl[v]" in rows["7L"]  # blue's canoe with violet on 7L


def test_show_missing_file_exits_2(tmp_path):
    result = companion("show", tmp_path / "gone.jsonl")
    assert result.returncode == 2
    assert_one_line_error(result, "companion show", "gone.jsonl")


def test_a_log_whose_first_event_is_not_a_setup_is_unreadable(tmp_path):
    log = tmp_path / "no-setup.jsonl"
    log.write_text('{"event": "river"}\n')
    for args in (("show",), ("moves", "--player", "red", "--card", "3"), ("referee",)):
        result = companion(args[0], log, *args[1:])
        assert result.returncode == 2, args
        assert "Traceback" not in result.stderr and "setup" in result.stderr
