"""The board calibration page in a real browser (Debian's chromium, Playwright): drag a
slot's handle on the straightened photo, press Save, and the board file moved it."""

from __future__ import annotations

import os

import pytest

from companion.vision.board import load_board
from companion.vision.calibrate_web import PX_PER_MM, make_server, serve_in_background
from companion.vision.render import Nuisance

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM) and os.environ.get("CI") != "true",
    reason=f"Debian's chromium is not installed at {CHROMIUM}")


def test_dragging_a_slot_and_saving_writes_the_board_file(board, renderer, mid_game,
                                                         tmp_path):
    shot = renderer.render(mid_game.state, seed=3, nuisance=Nuisance.mild())
    out = tmp_path / "board.json"
    server = make_server(board, shot.image, out, port=0)
    serve_in_background(server)
    host, port = server.server_address[:2]
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            page = browser.new_page(viewport={"width": 1300, "height": 1400})
            page.goto(f"http://{host}:{port}/")
            handles = page.locator("circle.h")
            sync_api.expect(handles.first).to_be_visible()
            # The first handle is slot 1; drag it 10 mm to the right.
            box = handles.first.bounding_box()
            scale = box["width"] / 12  # the handle is 12 units wide (radius 6)
            x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            page.mouse.move(x, y)
            page.mouse.down()
            page.mouse.move(x + 10 * PX_PER_MM * scale, y, steps=5)
            page.mouse.up()
            page.click("#save")
            sync_api.expect(page.locator("#msg")).to_contain_text("saved")
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    moved = load_board(out).slots["1"]
    assert abs(moved[0] - (board.slots["1"][0] + 10)) <= 1.0
    assert abs(moved[1] - board.slots["1"][1]) <= 1.0
