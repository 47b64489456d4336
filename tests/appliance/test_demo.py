"""`companion demo --fast`: scripted players play a whole game on rendered camera
frames, through the real vision, referee, store, simulated LEDs and pages, to a winner;
the out-of-turn move of round 2 is caught by the camera referee and put right."""

import json
import re
import subprocess
import sys
import urllib.request


def test_the_fast_demo_plays_a_game_to_a_winner_through_camera_and_pages(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "companion", "demo", "--fast", "--seed",
                             "1", "--port", "0", "--database", str(tmp_path / "demo.sqlite3")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=tmp_path)
    lines, page = [], None
    try:
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            link = re.search(r"(http://127\.0\.0\.1:\d+)/table\?key=(\S+)", line)
            if link and page is None:  # the pages answer while the game is played
                request = urllib.request.Request(link.group(1) + "/api/table",
                                                 headers={"X-Table-Key": link.group(2)})
                with urllib.request.urlopen(request, timeout=30) as reply:
                    page = json.loads(reply.read())
        code = proc.wait(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    stderr = proc.stderr.read()
    proc.stdout.close()
    proc.stderr.close()
    assert code == 0, stderr[-2000:]
    assert page is not None and page["camera"]["source"] == "demo camera"
    assert page["leds"] is not None  # the simulated strip's pixels for the table page
    text = "\n".join(lines)
    assert "the camera referee: no legal move fits" in text
    assert "puts the canoe back" in text
    assert re.search(r"\(the camera saw it\)", text)
    winner = re.search(r"^winner: (\w+)", text, re.M)
    assert winner and winner.group(1) in ("red", "blue", "green")
    stats = dict(re.findall(r"(camera moves|illegal caught|put right) (\d+)", text))
    assert stats["illegal caught"] == "1" and stats["put right"] == "1"
    assert int(stats["camera moves"]) >= 10
    # The store kept the game, to its end.
    from companion.store import Store
    store = Store(tmp_path / "demo.sqlite3")
    try:
        events = store.events(store.current_game())
    finally:
        store.close()
    assert len(events) > 20
