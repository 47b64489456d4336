"""Accessibility of every page in every phase: axe-core (from the npm registry, injected
into the page by Playwright) finds no serious or critical violation on the table page
(landscape tablet, TV, upright) and on a phone, and every control a finger or a mouse
uses is at least 44 px high.

The game is advanced through the Table itself (the pages are what is under test here,
not the flow), from the engine's person-like random play, and the pages follow it live.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from companion.rules import Buyback, Cards, Game, River, Turn
from companion.rules.random_play import random_phase_events
from companion.web import create_app
from companion.web.server import BackgroundServer

from .browser_support import (
    AXE,
    IN_CI,
    PORTRAIT,
    TABLET,
    TV,
    eventually,
    launch,
    needs_chromium,
    phone_context,
    sync_api,
)

pytestmark = [
    needs_chromium,
    pytest.mark.skipif(not AXE.exists() and not IN_CI,
                       reason=f"axe-core is not installed at {AXE} (.ci/run installs it: "
                              "npm install --prefix .cache/node axe-core@4)"),
]

PLAYERS = ["blue", "green", "yellow"]
SEED = 0  # a game with buy-backs, so the phone's buy-back panel is checked too
SERIOUS = ("serious", "critical")
# Controls a person taps or clicks (visible ones only).
CONTROLS = "button, a[href], summary, select, input:not([type=checkbox]), label.check"


def axe_violations(page: Any) -> list[str]:
    if page.evaluate("() => typeof axe === 'undefined'"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']} ({v['impact']}): {v['help']} — "
            + "; ".join(" ".join(n["target"]) for n in v["nodes"][:4])
            for v in result["violations"] if v["impact"] in SERIOUS]


def small_targets(page: Any) -> list[str]:
    return page.evaluate("""(selector) => [...document.querySelectorAll(selector)]
        .filter((e) => e.offsetParent !== null || getComputedStyle(e).position === 'fixed')
        .map((e) => [e, e.getBoundingClientRect()])
        .filter(([e, r]) => r.width > 0 && r.height < 43.5)
        .map(([e, r]) => `${e.tagName.toLowerCase()}#${e.id}.${e.className} "${
            (e.textContent || '').trim().slice(0, 20)}" ${Math.round(r.height)} px high`)""",
                         CONTROLS)


@pytest.fixture
def server(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "a11y.sqlite3"), "HEARTBEAT_SECONDS": 1})
    with BackgroundServer(app) as srv:
        yield srv, app.extensions["companion.table"]


def test_no_serious_violation_and_44px_targets_on_every_page_in_every_phase(server):
    srv, table = server
    problems: dict[str, list[str]] = {}
    with sync_api.sync_playwright() as p:
        browser = launch(p)
        screens = {name: browser.new_context(**spec).new_page()
                   for name, spec in (("tablet", TABLET), ("tv", TV), ("upright", PORTRAIT))}
        for page in screens.values():
            page.goto(f"{srv.url}/table?key={table.table_key}")

        def check(moment: str, pages: dict[str, Any]) -> None:
            version = table.version
            for name, page in pages.items():
                eventually(lambda page=page: (page.evaluate("() => state && state.version")
                                              or 0) >= version, 10, f"{name} at {moment}")
                found = axe_violations(page) + small_targets(page)
                if found:
                    problems[f"{moment} / {name}"] = found

        check("no game: the setup dialog", screens)
        table.new_game(PLAYERS, start="blue", branch="L")
        phone = phone_context(p, browser, "iPhone 13").new_page()
        token = table.join_tokens()["green"]
        phone.goto(f"{srv.url}/join/{token}")
        phone.wait_for_url("**/phone")
        pages = {**screens, "phone": phone}
        check("phase I, no card laid", pages)

        mirror = Game(PLAYERS, start="blue", branch="L")
        rng = random.Random(SEED)
        seen: set[str] = set()
        while not mirror.is_over:
            for event in random_phase_events(copy.deepcopy(mirror), rng, judged=True):
                if isinstance(event, Buyback):
                    if event.player == "green" and "buyback" not in seen:
                        seen.add("buyback")
                        check("phase I, green may buy back", pages)
                    table.buyback(event.player, event.gem)
                elif isinstance(event, Cards):
                    for player, card in event.cards:
                        table.choose(player, card)
                        if player == "green" and "chosen" not in seen:
                            seen.add("chosen")
                            check("phase I, green's card face down", pages)
                    table.reveal()
                elif isinstance(event, Turn):
                    if "turns" not in seen:
                        seen.add("turns")
                        check("phase II", pages)
                    table.play_turn(event)
                elif isinstance(event, River):
                    if "river" not in seen:
                        seen.add("river")
                        check("phase III", pages)
                    table.move_river(event.steps, event.branches)
                mirror.apply(event)
        check("game over", pages)
        browser.close()
    assert seen == {"buyback", "chosen", "turns", "river"}
    assert not problems, "\n".join(f"{where}:\n  " + "\n  ".join(found)
                                   for where, found in problems.items())
