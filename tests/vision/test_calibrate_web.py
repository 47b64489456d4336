"""`companion calibrate board`: the page on 127.0.0.1 shows the straightened photo and
saves what the user dragged, checked."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from companion.vision.board import load_board
from companion.vision.calibrate_web import make_server, serve_in_background
from companion.vision.render import Nuisance


@pytest.fixture()
def server(board, renderer, mid_game, tmp_path):
    shot = renderer.render(mid_game.state, seed=3, nuisance=Nuisance.mild())
    srv = make_server(board, shot.image, tmp_path / "board.json", port=0)
    serve_in_background(srv)
    yield srv, tmp_path / "board.json"
    srv.shutdown()
    srv.server_close()


def _url(srv, path):
    host, port = srv.server_address[:2]
    return f"http://{host}:{port}{path}"


def test_page_and_photo_are_served(server):
    srv, _ = server
    page = urllib.request.urlopen(_url(srv, "/")).read().decode()
    assert "Board calibration" in page and "/photo.png" in page
    photo = urllib.request.urlopen(_url(srv, "/photo.png")).read()
    assert photo[:8] == b"\x89PNG\r\n\x1a\n"


def test_save_writes_a_checked_board_file(server, board):
    srv, out = server
    data = board.to_json()
    data["slots"]["3"] = [250, 270]
    req = urllib.request.Request(_url(srv, "/save"), data=json.dumps(data).encode(),
                                 method="POST")
    assert urllib.request.urlopen(req).status == 200
    assert load_board(out).slots["3"] == (250.0, 270.0)


def test_bad_board_is_not_saved(server, board):
    srv, out = server
    data = board.to_json()
    del data["falls"]
    req = urllib.request.Request(_url(srv, "/save"), data=json.dumps(data).encode(),
                                 method="POST")
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(req)
    assert err.value.code == 400 and "missing falls" in err.value.read().decode()
    assert not out.exists()
