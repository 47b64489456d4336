"""A whole round in a real browser: Debian's chromium driven by Playwright, one table
page and three phones on a real server on 127.0.0.1. Screenshots go to
test-artifacts/ (phone and tablet sizes)."""

from __future__ import annotations

import pytest

from companion.web import create_app
from companion.web.server import BackgroundServer

from .browser_support import ARTIFACTS, launch, needs_chromium, sync_api

pytestmark = needs_chromium

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}
TABLET = {"viewport": {"width": 1180, "height": 820}}


@pytest.fixture
def server(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "browser.sqlite3"), "HEARTBEAT_SECONDS": 1})
    with BackgroundServer(app) as server:
        yield server, app.extensions["companion.table"]


@pytest.fixture
def browser():
    with sync_api.sync_playwright() as p:
        browser = launch(p)
        yield browser
        browser.close()


def test_a_whole_round_with_a_table_page_and_three_phones(server, browser):
    srv, table = server
    ARTIFACTS.mkdir(exist_ok=True)
    expect = sync_api.expect

    tablet = browser.new_context(**TABLET).new_page()
    tablet.goto(f"{srv.url}/table?key={table.table_key}")
    # No game yet: the setup dialog opens; tap the colours in seating order.
    for colour in ("blue", "green", "yellow"):
        tablet.click(f".colour-pick[data-colour={colour}]")
    tablet.select_option("#setup-start", "blue")
    tablet.click("#setup-go")
    expect(tablet.locator(".seat")).to_have_count(3)
    expect(tablet.locator(".qr")).to_have_count(3)
    tablet.screenshot(path=str(ARTIFACTS / "table-join.png"), full_page=True)

    links = {colour: tablet.get_attribute(f".seat[data-player={colour}] .qr", "data-join")
             for colour in ("blue", "green", "yellow")}
    phones = {}
    for colour, link in links.items():
        assert link and link.startswith("http://")
        page = browser.new_context(**PHONE).new_page()
        # The QR code holds the machine's LAN address; the test reaches it on 127.0.0.1.
        page.goto(srv.url + "/join/" + link.rsplit("/", 1)[1])
        page.wait_for_url("**/phone")
        expect(page.locator("#seat-name")).to_contain_text(colour)
        phones[colour] = page
    expect(tablet.locator(".qr")).to_have_count(0)

    cards = {"blue": "6", "green": "cloud", "yellow": "5"}
    for colour, card in cards.items():
        page = phones[colour]
        page.click(f".paddle[data-card='{card}']")
        page.click("#confirm")
        expect(page.locator("#choice")).to_be_visible()
    phones["green"].screenshot(path=str(ARTIFACTS / "phone-card-down.png"), full_page=True)

    # The table knows who has chosen, never what.
    for colour in cards:
        assert f'"{colour}":' not in tablet.evaluate("JSON.stringify(state.cards)")
    assert tablet.evaluate("JSON.stringify(state.hands)") == "{}"

    # Blue holds the life ring and reveals from the phone.
    expect(phones["blue"].locator("#reveal")).to_be_visible()
    phones["blue"].screenshot(path=str(ARTIFACTS / "phone-reveal.png"), full_page=True)
    phones["blue"].click("#reveal")
    expect(tablet.locator(".revealed-card")).to_have_text("6")
    expect(phones["blue"].locator(".your-turn")).to_be_visible()
    assert "cloud" not in tablet.evaluate("JSON.stringify(state.cards)")

    # Turns, entered on the table page: a pick from the legal list, then typed ones.
    tablet.fill("#move-text", "D-4+c")
    tablet.click("#legal .move >> text=D-4+clear")
    tablet.screenshot(path=str(ARTIFACTS / "table-move-picker.png"), full_page=True)
    tablet.click("#play")
    expect(tablet.locator(".revealed-card")).to_contain_text("☁")
    tablet.fill("#move-text", "D-2")  # illegal: green played the cloud
    tablet.click("#play")
    expect(tablet.locator("#feed li.illegal").first).to_contain_text("R-WEATHER")
    tablet.fill("#move-text", "cloud up")
    tablet.click("#play")
    expect(tablet.locator(".revealed-card")).to_have_text("5")
    tablet.fill("#move-text", "D-3+violet")
    tablet.click("#play")

    # The river: speed 5 + 1 = 6, the branches as seen on the table, then round 2.
    expect(tablet.locator("#river")).to_contain_text("6")
    tablet.screenshot(path=str(ARTIFACTS / "table-river.png"), full_page=True)
    tablet.click("#river")
    expect(tablet.locator("#round")).to_contain_text("2")
    for colour, page in phones.items():
        expect(page.locator(".paddle")).to_have_count(6)
        assert page.locator(f".paddle[data-card='{cards[colour]}']").count() == 0
    phones["yellow"].screenshot(path=str(ARTIFACTS / "phone-round-2.png"), full_page=True)
    tablet.screenshot(path=str(ARTIFACTS / "table-round-2.png"), full_page=True)
    assert table.game.round == 2 and table.game.state.weather == 1
