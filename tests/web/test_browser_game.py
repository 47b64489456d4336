"""A whole game to a winner through the pages only, as people play it: one table page
(a landscape tablet) and three phones (Pixel 7, iPhone 13, Galaxy S9+) in Debian's
chromium, cards tapped on the phones, moves typed on the table, the river tapped, and
the server restarted twice mid-game (once in phase II, once with cards face down in
phase I). After each restart every open page must show the server's state within 5 s,
without a reload, and drop its "Reconnecting" banner only then.

The players' choices come from the engine's own person-like random play on a mirror
game, so the game ends in about twenty rounds and every action is legal; the pages
only ever see what a player would do. Screenshots at 1280x800, 1920x1080 and 390x844
go to test-artifacts/.
"""

from __future__ import annotations

import copy
import random
import signal
import time
from typing import Any

import pytest

from companion.rules import Buyback, Cards, Game, River, Turn, format_turn
from companion.rules.random_play import random_phase_events

from .browser_support import (
    ARTIFACTS,
    PHONES,
    PORTRAIT,
    TABLET,
    TV,
    ServerProcess,
    eventually,
    launch,
    needs_chromium,
    phone_context,
    sync_api,
)

pytestmark = needs_chromium

PLAYERS = ["blue", "green", "yellow"]
SEED = 2  # any seed plays to a winner; this one in 14 rounds, with a buy-back
RESYNC_SECONDS = 5.0


def public(state: dict[str, Any]) -> list[Any]:
    """What every page must agree on with the server."""
    return [state.get("round"), state.get("phase"), state.get("to_move"),
            state.get("canoes"), state.get("camps"), state.get("winners")]


def page_state(page: Any) -> dict[str, Any] | None:
    return page.evaluate("() => state")


def assert_fits(page: Any, height: int) -> None:
    for what in (".board-svg .falls", ".board-svg", "#leds .led-row"):
        box = page.locator(what).first.bounding_box()
        assert box and box["y"] + box["height"] <= height, \
            f"{what} ends at {box and box['y'] + box['height']:.0f} px, below the fold ({height})"


def font_size(page: Any, selector: str) -> float:
    return float(page.eval_on_selector(selector, "e => parseFloat(getComputedStyle(e).fontSize)"))


@pytest.fixture
def server(tmp_path):
    srv = ServerProcess(tmp_path)
    srv.start()
    yield srv
    srv.stop()


def test_a_whole_game_to_a_winner_through_the_pages_with_two_restarts(server, tmp_path):
    ARTIFACTS.mkdir(exist_ok=True)
    expect = sync_api.expect
    with sync_api.sync_playwright() as p:
        browser = launch(p)
        tablet = browser.new_context(**TABLET).new_page()
        tablet.goto(f"{server.url}/table?key={server.table_key}")
        for colour in PLAYERS:
            tablet.click(f".colour-pick[data-colour={colour}]")
        tablet.select_option("#setup-start", "blue")
        tablet.select_option("#setup-branch", "L")
        tablet.click("#setup-go")
        expect(tablet.locator(".qr")).to_have_count(3)
        links = {c: tablet.get_attribute(f".seat[data-player={c}] .qr", "data-join")
                 for c in PLAYERS}

        phones: dict[str, Any] = {}
        for colour, device in zip(PLAYERS, PHONES, strict=True):
            page = phone_context(p, browser, device).new_page()
            page.goto(server.url + "/join/" + links[colour].rsplit("/", 1)[1])
            page.wait_for_url("**/phone")
            phones[colour] = page
        pages = [tablet, *phones.values()]

        def in_step(page: Any, want: Game) -> bool:
            got = page_state(page)
            return bool(got) and public(got) == public(want.view(None))

        def agree(want: Game, what: str) -> None:
            for page in pages:
                eventually(lambda page=page: in_step(page, want), 10, f"{what}: {page.url}")

        def restart(sig: int, when: str) -> None:
            server.stop(sig)
            # While the server is away, every page says so.
            for page in pages:
                expect(page.locator("#offline")).to_be_visible(timeout=10_000)
            serving = server.start()
            truth = server.get("/api/table")
            for page in pages:
                def resynced(page: Any = page) -> bool:
                    got = page_state(page)
                    return (bool(got) and got["server"] == truth["server"]
                            and public(got) == public(truth)
                            and page.locator("#offline").is_hidden())
                eventually(resynced, RESYNC_SECONDS, f"{page.url} showing the server's state "
                                                     f"after the restart {when}")
            took = time.monotonic() - serving
            assert took < RESYNC_SECONDS, f"pages took {took:.1f} s to resynchronise"

        mirror = Game(PLAYERS, start="blue", branch="L")
        rng = random.Random(SEED)
        restarted_in_turns = restarted_in_cards = False
        shots = set()
        while not mirror.is_over:
            assert mirror.round <= 40, "the scripted game should have ended"
            events = random_phase_events(copy.deepcopy(mirror), rng, observed_branches=0,
                                         judged=True)
            for event in events:
                if isinstance(event, Buyback):
                    phone = phones[event.player]
                    phone.click(f"#buyback [data-gem={event.gem or 'free'}]")
                    mirror.apply(event)
                    agree(mirror, f"buy-back by {event.player}")
                elif isinstance(event, Cards):
                    for n, (player, card) in enumerate(dict(event.cards).items()):
                        phone = phones[player]
                        phone.click(f".paddle[data-card='{card}']")
                        phone.click("#confirm")
                        expect(phone.locator("#choice")).to_be_visible()
                        if n == 1 and mirror.round == 4 and not restarted_in_cards:
                            # Two cards lie face down: they must survive the restart.
                            restart(signal.SIGTERM, "in phase I")
                            restarted_in_cards = True
                    if mirror.round == 2 and "cards" not in shots:
                        shots.add("cards")
                        tablet.screenshot(path=str(ARTIFACTS / "game-table-1280x800-cards.png"))
                    phones[mirror.state.start].click("#reveal")
                    mirror.apply(event)
                    agree(mirror, f"cards of round {mirror.round}")
                elif isinstance(event, Turn):
                    # Typed on the table page, as the notation says it.
                    tablet.fill("#move-text", format_turn(event))
                    tablet.click("#play")
                    mirror.apply(event)
                    if mirror.phase == "river" and mirror.speed == 0:
                        mirror.apply(River(0, ()))  # the table moves nothing by itself
                    agree(mirror, f"{event.player}'s turn {format_turn(event)}")
                    if mirror.round == 3 and not restarted_in_turns:
                        restart(signal.SIGKILL, "in phase II")
                        restarted_in_turns = True
                elif isinstance(event, River):
                    if mirror.phase != "river":
                        continue  # speed 0: applied with the last turn (R-RIVER-1)
                    if "river" not in shots:
                        shots.add("river")
                        tablet.screenshot(path=str(ARTIFACTS / "game-table-1280x800-river.png"))
                    tablet.click("#river")
                    mirror.apply(event)
                    agree(mirror, f"the river of round {mirror.round - 1}")

        assert restarted_in_turns and restarted_in_cards
        expect(tablet.locator("#winners")).to_be_visible()
        truth = server.get("/api/table")
        assert truth["phase"] == "over" and truth["winners"] == mirror.winners
        for page in pages:
            assert public(page_state(page)) == public(truth)

        # The same table on a TV and on a phone held upright: on landscape screens the
        # whole board, the waterfall and the LED strip are above the fold.
        tablet.screenshot(path=str(ARTIFACTS / "game-table-1280x800-over.png"))
        assert_fits(tablet, 800)
        tv = browser.new_context(**TV).new_page()
        tv.goto(f"{server.url}/table?key={server.table_key}")
        expect(tv.locator("#winners")).to_be_visible()
        tv.screenshot(path=str(ARTIFACTS / "game-table-1920x1080-over.png"))
        assert_fits(tv, 1080)
        # Readable from across the room: the TV's text is larger than the tablet's.
        assert font_size(tv, "#round") > font_size(tablet, "#round") * 1.3
        upright = browser.new_context(**PORTRAIT).new_page()
        upright.goto(f"{server.url}/")
        expect(upright.locator("#winners")).to_be_visible()
        upright.screenshot(path=str(ARTIFACTS / "game-table-390x844-over.png"), full_page=True)
        board = upright.locator(".board-svg").bounding_box()
        assert board["x"] >= 0 and board["x"] + board["width"] <= 390
        for colour, phone in phones.items():
            phone.screenshot(path=str(ARTIFACTS / f"game-phone-{colour}-over.png"), full_page=True)
        browser.close()
