"""The referee against thousands of mutated logs: wrong types, unknown colours, missing
fields, truncated lines, huge numbers, shuffled and repeated lines. It always answers
with one verdict per line and a final state, never a traceback."""

import json
import random
import subprocess
import sys

import pytest

from companion.rules import to_line
from companion.rules.random_play import random_game
from companion.rules.referee import NoSetup, referee_lines

WEIRD = [None, True, False, 0, -1, 7, 10**30, -(10**30), 1.5, float("1e308"), "", "x",
         "cloud", "purple", "6L", "D", "F", "red", "load:red", [], {}, [1, 2], {"a": 1},
         "ü" * 3, "\u0000", "9" * 400]


def valid_log(seed: int, events: int = 40) -> list[str]:
    out = []
    for _, event in random_game(random.Random(seed), max_rounds=50):
        out.append(to_line(event))
        if len(out) >= events:
            break
    return out


def mutate_value(rng: random.Random, obj):
    """Change one thing somewhere inside a decoded event."""
    if isinstance(obj, dict) and obj:
        key = rng.choice(list(obj))
        roll = rng.random()
        if roll < 0.25:
            del obj[key]
        elif roll < 0.6:
            obj[key] = rng.choice(WEIRD)
        elif roll < 0.7:
            obj[rng.choice(["extra", "from", "to", "gem", "steal", "steps"])] = rng.choice(WEIRD)
        else:
            obj[key] = mutate_value(rng, obj[key])
        return obj
    if isinstance(obj, list) and obj:
        i = rng.randrange(len(obj))
        if rng.random() < 0.3:
            obj.pop(i)
        else:
            obj[i] = mutate_value(rng, obj[i])
        return obj
    return rng.choice(WEIRD)


def mutate_log(rng: random.Random, lines: list[str]) -> list[str]:
    lines = list(lines)
    for _ in range(rng.randint(1, 6)):
        i = rng.randrange(len(lines))
        roll = rng.random()
        if roll < 0.5:
            try:
                lines[i] = json.dumps(mutate_value(rng, json.loads(lines[i])))
            except (ValueError, RecursionError):
                lines[i] = ""
        elif roll < 0.6:
            lines[i] = lines[i][: rng.randrange(len(lines[i]))]
        elif roll < 0.7:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif roll < 0.8:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif roll < 0.9:
            lines[i] = "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(rng.randrange(30)))
        else:
            lines[i] = "[" * 5000 + "]" * 5000
    return lines


def test_thousands_of_mutated_logs_get_verdicts_never_a_traceback():
    rng = random.Random(2026)
    bases = [valid_log(seed) for seed in range(10)]
    judged = illegal = 0
    for _ in range(2000):
        lines = mutate_log(rng, rng.choice(bases))
        try:
            out = list(referee_lines(lines))
        except NoSetup:
            continue  # exit 2: the first line is no longer a setup
        judged += 1
        verdicts, final = out[:-1], out[-1]
        assert [v["line"] for v in verdicts] == \
            [i for i, line in enumerate(lines, 1) if line.strip()]
        for v in verdicts:
            assert set(v) in ({"line", "ok"}, {"line", "ok", "rule", "message"})
            if not v["ok"]:
                illegal += 1
                assert v["rule"] == "LOG" or v["rule"].startswith("R-")
                assert v["message"] and "\n" not in v["message"]
        assert set(final) == {"state"}
        json.dumps(final)
    assert judged > 1000 and illegal > 1000


@pytest.mark.parametrize("content,code", [
    (b"", 2),
    (b"\n\n", 2),
    (b'{"event": "turn"}\n', 2),
    (b"\xff\xfe garbage\n", 2),
    (b'{"event": "setup", "players": ["red", "red", "blue"]}\n', 2),
    (b'{"event": "setup", "players": ["red", "blue", "green"]}\n{"event": 1}\n[\n', 1),
])
def test_the_command_answers_with_exit_codes_not_tracebacks(tmp_path, content, code):
    log = tmp_path / "game.jsonl"
    log.write_bytes(content)
    proc = subprocess.run([sys.executable, "-m", "companion", "referee", str(log)],
                          capture_output=True, text=True)
    assert proc.returncode == code
    assert "Traceback" not in proc.stderr
    if code == 2:
        assert proc.stderr.count("\n") == 1 and str(log) in proc.stderr
    else:
        assert json.loads(proc.stdout.splitlines()[-1])["state"]["round"] == 1
