"""A camera turned so that part of the board left its picture says so on the table page,
in the page's language, naming what it does not see: Debian's chromium on a real server
on 127.0.0.1."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.board import load_board
from companion.vision.render import Nuisance, Renderer
from companion.vision.sources import FrameSource

from ..frames import turned_off
from .browser_support import launch, needs_chromium, sync_api, watched_table

pytestmark = needs_chromium


class TurnedFar(FrameSource):
    """The set-up board from a camera turned so far that the falls and the cloud's
    track left its picture."""

    name = "turned"

    def __init__(self, state) -> None:
        board = load_board()
        shot = Renderer(board).render(state, seed=3, nuisance=Nuisance.mild())
        self.frame = turned_off(shot, board, 1.0)

    def read(self) -> np.ndarray:
        return self.frame


@pytest.fixture
def served(tmp_path):
    with watched_table(tmp_path, lambda table: TurnedFar(table.game.state)) as served:
        yield served


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "the camera does not see F, the cloud's track: turn it back onto the whole board"),
    ("it", "la fotocamera non vede F, il percorso della nuvola"),
])
def test_the_table_page_names_what_the_camera_does_not_see(served, lang, said):
    server, table, camera = served
    with sync_api.sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page()
        page.goto(f"{server.url}/table?key={table.table_key}")
        page.goto(f"{server.url}/?lang={lang}")
        sync_api.expect(page.locator("#camera")).to_contain_text(said, timeout=30_000)
        assert camera.status["over"] == ["F", "weather"]
        browser.close()
