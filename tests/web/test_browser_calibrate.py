"""At a game's start the table page offers to learn the table's colours from the set-up
board (issue 10); a tap does it: Debian's chromium on a real server on 127.0.0.1 with
the simulated camera watching."""

from __future__ import annotations

import pytest

from companion.camera_sources import SimulatedCamera

from .browser_support import launch, needs_chromium, sync_api, watched_table

pytestmark = needs_chromium


@pytest.fixture
def served(tmp_path):
    with watched_table(tmp_path, SimulatedCamera) as served:
        yield served


def test_the_table_page_calibrates_the_camera_from_the_set_up_board(served):
    server, table, camera = served
    expect = sync_api.expect
    with sync_api.sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page()
        page.goto(f"{server.url}/table?key={table.table_key}")
        offer = page.locator("#calibrate")
        expect(offer).to_have_text("Learn this table's colours from the set-up board")
        offer.click()
        expect(page.locator("#toast")).to_have_text("The camera learned this table's colours",
                                                    timeout=60_000)
        assert camera.profile_path.exists()
        # Once the game is under way the offer is gone.
        for player, card in [("blue", 6), ("green", "cloud"), ("yellow", 5)]:
            table.choose(player, card)
        table.reveal()
        expect(page.locator("#calibrate")).to_have_count(0, timeout=10_000)
        browser.close()
