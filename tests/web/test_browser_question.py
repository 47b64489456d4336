"""When the camera cannot tell two moves apart it asks; the table page shows the
choices as buttons and a tap plays the one made (Debian's chromium on a real server on
127.0.0.1; the camera's view is handed to the table as the camera would)."""

from __future__ import annotations

import pytest

from companion.rules import parse_turn
from companion.vision.expected import expected_observation
from companion.web import create_app
from companion.web.server import BackgroundServer

from ..tables import BLUE_UNLOADS_AT_THE_START_OR_AT_THE_END, play_rounds
from .browser_support import eventually, launch, needs_chromium, sync_api

pytestmark = needs_chromium


@pytest.fixture
def served(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "browser.sqlite3"), "HEARTBEAT_SECONDS": 1})
    table = app.extensions["companion.table"]
    play_rounds(table, BLUE_UNLOADS_AT_THE_START_OR_AT_THE_END)
    with BackgroundServer(app) as server:
        yield server, table


def test_a_camera_question_is_answered_with_a_tap(served):
    server, table = served
    expect = sync_api.expect
    game = table.game
    board = game.copy()
    board.apply(parse_turn("4u-3", "blue"))     # blue unloaded first, then moved on
    with sync_api.sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page()
        page.goto(f"{server.url}/table?key={table.table_key}")
        expect(page.locator("#feed li").first).to_be_visible()
        assert table.observe(expected_observation(board)) == "ambiguous"
        buttons = page.locator("#feed .answer")
        expect(buttons).to_have_count(2)
        # Each choice in words with its notation; tap the one made.
        assert sorted(page.locator("#feed .answer .move-code").all_inner_texts()) == \
            ["4-3u", "4u-3"]
        assert all(w.strip() for w in page.locator("#feed .answer .move-words").all_inner_texts())
        events = len(game.events)
        page.locator("#feed .answer", has_text="4u-3").click()
        eventually(lambda: len(game.events) == events + 1, 5, "the tapped choice played")
        assert game.events[-1] == parse_turn("4u-3", "blue")
        expect(buttons).to_have_count(0)        # the question no longer stands
        browser.close()
