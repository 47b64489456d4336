"""The table page offers, at a game's start, to learn the table's colours from the
camera's view of the set-up board (issue 10: calibration from the setup): the camera
thread learns them from a still view, saves them as the table's profile and sees with
them from then on."""

from __future__ import annotations

import json
import threading

import pytest

from companion.app import Table
from companion.camera import TableCamera
from companion.camera_sources import SimulatedCamera
from companion.store import Store
from companion.vision.profile import ProfileError
from companion.vision.profile_file import load_profile
from companion.web import create_app

from .test_camera import PhysicalBoard, physical_copy, watch


@pytest.fixture
def fresh(tmp_path) -> Table:
    table = Table(Store(tmp_path / "games.sqlite3"))
    table.new_game(["blue", "green", "yellow"])
    return table


def calibrate_while_watching(camera: TableCamera, frames: int = 40) -> dict:
    """Ask for a calibration (as the page does, from another thread) while the camera
    steps; what it answered."""
    said: dict = {}

    def ask() -> None:
        try:
            said["kept"] = camera.calibrate(timeout=60)
        except (ProfileError, TimeoutError) as exc:
            said["error"] = exc

    asking = threading.Thread(target=ask)
    asking.start()
    for _ in range(frames):
        if not asking.is_alive():
            break
        camera.step()
        asking.join(timeout=0.05)
    asking.join(timeout=60)
    return said


def test_the_set_up_board_teaches_the_camera_this_tables_colours(fresh, tmp_path):
    camera = TableCamera(fresh, SimulatedCamera(fresh), settle_s=0.2)
    camera.profile_path = tmp_path / "profile.json"
    before = camera.vision.profile
    said = calibrate_while_watching(camera)
    assert said == {"kept": ["canoe:brown", "canoe:red"]}  # not at this table
    learned = load_profile(camera.profile_path)
    assert "the table page" in learned.source
    assert camera.vision.profile is not before
    assert learned.classes["canoe:blue"].bgr.tolist() == \
        camera.vision.profile.classes["canoe:blue"].bgr.tolist()
    # It goes on seeing the game with the colours it learned.
    assert watch(camera, 4) == ["same"]
    for player, card in [("blue", 6), ("green", "cloud"), ("yellow", 5)]:
        fresh.choose(player, card)
    fresh.reveal()
    fresh.play_turn("D-4+clear")
    assert watch(camera, 4) == ["same"]


def test_a_view_that_does_not_show_the_game_teaches_nothing(fresh, tmp_path):
    physical = physical_copy(fresh)
    # On the board, a blue canoe already on 4; the table's game has both on the dock.
    physical.state.put_canoes("blue", [("D", None), ("4", None)])
    camera = TableCamera(fresh, PhysicalBoard(physical), settle_s=0.2)
    camera.profile_path = tmp_path / "profile.json"
    before = camera.vision.profile
    said = calibrate_while_watching(camera)
    assert "dock: 1 of the 2 blue canoes" in str(said["error"])
    assert not camera.profile_path.exists()
    assert camera.vision.profile is before


def test_the_table_page_offers_it_at_the_start_and_answers_without_a_camera(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "companion.sqlite3")})
    table = app.extensions["companion.table"]
    client = app.test_client()
    client.get(f"/table?key={table.table_key}")
    assert client.post("/api/table/new", json={"players": ["blue", "green", "yellow"]}
                       ).status_code == 200
    reply = client.post("/api/table/calibrate", json={})
    assert reply.status_code == 409 and reply.json["error"] == "no camera is watching the board"
    camera = TableCamera(table, SimulatedCamera(table), settle_s=0.2)
    camera.profile_path = tmp_path / "profile.json"
    app.extensions["companion.camera"] = camera
    assert client.get("/api/table").json["camera"]["calibrate"] is True
    camera.status = {"source": "simulated", "state": "lost"}   # answered at once, not in 30 s
    assert client.post("/api/table/calibrate", json={}).status_code == 409
    camera.status = {"source": "simulated", "state": "starting"}
    camera.start()
    try:
        reply = client.post("/api/table/calibrate", json={})
    finally:
        camera.stop()
    assert reply.status_code == 200, reply.json
    assert reply.json["kept"] == ["canoe brown", "canoe red"]
    assert json.loads(camera.profile_path.read_text())["version"] == 1
    # Once the game is under way, the page no longer offers it.
    for player, card in [("blue", 6), ("green", "cloud"), ("yellow", 5)]:
        table.choose(player, card)
    table.reveal()
    assert client.get("/api/table").json["camera"]["calibrate"] is False
    app.extensions["companion.table"].store.close()
