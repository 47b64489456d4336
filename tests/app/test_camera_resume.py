"""A restarted companion goes on where its camera left off (companion.vision.resume): the
first view after a restart is compared with the last picture of the game as it stood,
not judged from itself alone, and the table's learned looks survive; a resume point of
another state, another profile, or a damaged one is not used, and nothing is lost."""

from __future__ import annotations

import json
import logging

import numpy as np
import pytest

from companion.app import Table
from companion.camera import TableCamera
from companion.store import Store
from companion.vision.locate import Location
from companion.vision.looks import EMPTY, KEEP, PieceLooks
from companion.vision.resume import POINT, ResumePoint
from companion.vision.seen_canoes import SeenCanoe

from .test_camera import PhysicalBoard, physical_copy, watch

BLUE_LAUNCHES = {"event": "turn", "player": "blue",
                 "canoes": [{"from": "D", "to": "4", "post": ["load:clear"]}]}


def dealt(path) -> Table:
    """A table on a real SQLite file whose three players have shown their cards."""
    table = Table(Store(path))
    table.new_game(["blue", "green", "yellow"])
    for player, card in [("blue", 6), ("green", "cloud"), ("yellow", 5)]:
        table.choose(player, card)
    table.reveal()
    return table


@pytest.fixture
def played(tmp_path):
    """A table whose camera saw blue's move, then the companion stopped: the store's
    path, the board on the table (as the camera, which stays where it is, photographs
    it), and what the camera had learned."""
    path = tmp_path / "games.sqlite3"
    table = dealt(path)
    physical = PhysicalBoard(physical_copy(table))
    camera = TableCamera(table, physical, settle_s=0.2)
    watch(camera, 4)
    physical.game.apply(BLUE_LAUNCHES)
    assert "applied" in watch(camera)
    learned = camera.vision.detector.looks.to_json()
    table.store.close()
    return path, physical, learned


def restarted(path, physical) -> tuple[Table, TableCamera, list]:
    """The companion started again on the same store: the table resumed, a new camera
    (a new vision, nothing learned) whose judged views are recorded."""
    table = Table(Store(path))
    assert table.resume()
    camera = TableCamera(table, physical, settle_s=0.2)
    judged = []
    observe = table.observe

    def spy(seen, **how):
        judged.append(seen)
        return observe(seen, **how)

    table.observe = spy
    return table, camera, judged


def test_the_first_view_after_a_restart_is_compared_with_the_picture_before(played):
    path, physical, learned = played
    table, camera, judged = restarted(path, physical)
    assert watch(camera, 4) == ["same"]
    # (Only a view compared with a picture before says which places changed: none.)
    assert judged[0]["places_changed"] == []
    assert camera.vision.detector.looks.to_json() == learned
    physical.game.apply({"event": "turn", "player": "green", "cloud": "up"})
    assert "applied" in watch(camera)
    assert table.game.state.weather == 1


def test_after_a_move_typed_while_it_was_off_only_the_looks_are_taken_up(played):
    path, physical, learned = played
    table = Table(Store(path))
    table.resume()
    table.play_turn({"event": "turn", "player": "green", "cloud": "up"}, source="table")
    table.store.close()
    physical.game.apply({"event": "turn", "player": "green", "cloud": "up"})
    table, camera, judged = restarted(path, physical)
    assert watch(camera, 4) == ["same"]
    assert "places_changed" not in judged[0]      # judged from the picture alone
    # ... and learned from, after what the camera had learned before the restart.
    now = camera.vision.detector.looks.to_json()
    assert learned["empty"] and all(now["empty"][player][:len(seen)] == seen
                                    for player, seen in learned["empty"].items())


def test_looks_learned_with_another_colour_profile_are_not_taken_up(played, monkeypatch):
    path, physical, _ = played
    monkeypatch.setattr("companion.vision.observer.Vision.profile_print", "recalibrated")
    table, camera, judged = restarted(path, physical)
    assert watch(camera, 4) == ["same"]
    assert "places_changed" not in judged[0]
    assert camera.vision.detector.looks.empty_texture("blue") is None


@pytest.mark.parametrize("damage", ["{not json", '{"version": 1, "key": "x"}', ""])
def test_a_damaged_resume_point_is_said_and_the_camera_starts_afresh(played, damage, caplog):
    path, physical, _ = played
    folder = path.with_suffix(".camera")   # beside the games it belongs to
    (folder / POINT).write_text(damage)
    table, camera, judged = restarted(path, physical)
    with caplog.at_level(logging.WARNING):
        assert watch(camera, 4) == ["same"]
    assert "starting afresh" in caplog.text
    assert "places_changed" not in judged[0]
    assert ResumePoint.load(folder) is not None   # the camera's next picture saved anew


def test_a_point_whose_picture_is_not_the_one_it_names_is_not_used(tmp_path):
    point = ResumePoint("k", np.full((8, 8, 3), 7, np.uint8), np.eye(3), [], {}, None, "p")
    point.save(tmp_path)
    other = ResumePoint("k", np.full((8, 8, 3), 9, np.uint8), np.eye(3), [], {}, None, "p")
    other.save(tmp_path / "other")
    (tmp_path / "other" / "picture.png").replace(tmp_path / "picture.png")
    assert ResumePoint.load(tmp_path) is None
    assert ResumePoint.load(tmp_path / "nothing here") is None


def test_the_slots_empty_looks_are_taken_up_where_canoes_now_lie(tmp_path):
    from companion.rules import Game
    from companion.vision.memory import BoardMemory
    from companion.vision.observer import Vision
    from companion.vision.resume import keep, resume, state_key

    game = Game(["blue", "green", "yellow"])
    before, after = Vision(), Vision()
    memory = BoardMemory(before.detector)
    shape = before.detector.shape
    bare = np.random.default_rng(1).integers(0, 255, (*shape, 3), dtype=np.uint8)
    memory.slots.learn(bare, game.state)            # every slot empty at the setup
    game.state.put_canoes("blue", [("4", None), ("D", None)])
    key = state_key(7, game.state)
    keep(tmp_path, key, before, memory, np.zeros((*shape, 3), np.uint8),
         Location(np.eye(3), 4, False, {}), [])
    again = BoardMemory(after.detector)
    assert resume(tmp_path, key, after, again, game.state)
    assert again.slots.known()
    assert np.array_equal(again.slots.looks["4"], memory.slots.looks["4"])
    assert np.array_equal(after.locator.last.homography, np.eye(3))   # where it was


def test_a_point_whose_slots_looks_are_not_the_ones_it_names_is_not_used(tmp_path):
    look = np.full((5, 5, 3), 3, np.uint8)
    ResumePoint("k", np.zeros((8, 8, 3), np.uint8), np.eye(3), [], {}, None, "p",
                {"4": look}).save(tmp_path)
    assert ResumePoint.load(tmp_path).slots["4"].tolist() == look.tolist()
    (tmp_path / "slots.npz").write_bytes(b"PK not a zip")
    assert ResumePoint.load(tmp_path) is None


@pytest.mark.parametrize("where", [np.zeros((3, 3)), np.full((3, 3), np.nan), np.eye(2)])
def test_a_point_whose_board_place_is_no_homography_is_not_used(tmp_path, where):
    ResumePoint("k", np.zeros((8, 8, 3), np.uint8), where, [], {}, None, "p").save(tmp_path)
    assert ResumePoint.load(tmp_path) is None


def test_a_point_whose_canoe_looks_have_other_sizes_is_not_used(tmp_path):
    ResumePoint("k", np.zeros((8, 8, 3), np.uint8), np.eye(3),
                [SeenCanoe("red", "4", 5.0, look=(0.5, 0.1))], {}, None, "p").save(tmp_path)
    assert ResumePoint.load(tmp_path) is None


def test_everything_the_looks_learned_round_trips_and_judges_alike():
    looks = PieceLooks()
    state = {"green": [("4", None)], "blue": [("5", "violet"), ("2", None)],
             "red": [("6L", None)], "yellow": [("6L", "yellow")]}
    for k in range(KEEP + 3):
        looks.learn([SeenCanoe("green", "4", 5.0 + k % 3, look=(0.3 + k % 2 / 100, 0, 0, 0)),
                     SeenCanoe("blue", "5", 6.0, core=(120.0, 40.0, 90.0), gem="violet",
                               look=(0.2, 0.5 + k / 1000, 0.1, 0.0)),
                     SeenCanoe("blue", "2", 6.0, gem=None if k % 2 else "clear",
                               look=(0.5, 0.1, 0.0, k / 1000)),
                     SeenCanoe("red", "6L", 4.0, gem="blue"),
                     SeenCanoe("yellow", "6L", 4.0, gem="yellow")], state)
        looks.learn_take("violet", k % 4 != 0, 1.0 + k % 3 / 10)
    looks.learn_pile("violet", (100.0, 30.0, 80.0))
    again = PieceLooks.from_json(json.loads(json.dumps(looks.to_json())))
    assert again.to_json() == looks.to_json()
    assert again.to_json()["middles"]["green"].keys() == {EMPTY}
    assert again.empty_texture("green") == looks.empty_texture("green")
    assert again.shown() == looks.shown() and again.invented() == looks.invented()
    assert again.swapped() == looks.swapped() and again.takes_shown() == looks.takes_shown()
    assert again.two_taken("violet", 2.3) and not again.two_taken("violet", 1.1)
    assert again.middle_gem("blue", (0.2, 0.51, 0.1, 0.0)) == "violet"
    assert again.middle_gem("blue", (0.5, 0.1, 0.0, 0.01)) == EMPTY
    assert np.array_equal(again.pile_colour("violet"), looks.pile_colour("violet"))
    # The shared disc on 6L, counted already, is not counted again while it stays so.
    shared = again.to_json()["shared"]
    again.learn([SeenCanoe("red", "6L", 4.0), SeenCanoe("yellow", "6L", 4.0, gem="yellow")],
                state)
    assert again.to_json()["shared"] == shared


@pytest.mark.parametrize("damage", [
    {"empty": {"red": ["dark"]}},                        # a texture that is no number
    {"shown": {"clear": [3]}},                           # a sighting that is no yes/no
    {"in_empty": [True]},                                # a gem named by no colour
    {"takes": {"clear": ["yes"]}},                       # a take neither seen nor not
    {"gems": None},
    {"gems": {"violet": [[1.0, 2.0]]}},                 # a colour of two numbers
    {"middles": {"red": {"empty": [[0.5, 0.1, 0.0]]}}},  # a look of three
])
def test_damaged_looks_are_refused(damage):
    data = {**PieceLooks().to_json(), **damage}
    with pytest.raises((ValueError, KeyError, TypeError, AttributeError)):
        PieceLooks.from_json(data)


def test_a_folder_that_cannot_be_written_is_said_and_the_game_goes_on(tmp_path, caplog):
    table = dealt(tmp_path / "games.sqlite3")
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("")
    physical = PhysicalBoard(physical_copy(table))
    camera = TableCamera(table, physical, settle_s=0.2, resume_dir=blocked)
    with caplog.at_level(logging.WARNING):
        assert watch(camera, 4) == ["same"]
        physical.game.apply(BLUE_LAUNCHES)
        assert "applied" in watch(camera)
    assert "camera resume point not saved" in caplog.text


def test_a_camera_calibrated_after_resuming_learns_the_looks_anew(played, tmp_path):
    from .test_camera_calibrate import calibrate_while_watching

    path, physical, _ = played
    table, camera, _ = restarted(path, physical)
    assert watch(camera, 4) == ["same"]
    camera.profile_path = tmp_path / "profile.json"
    assert "kept" in calibrate_while_watching(camera)
    assert camera.vision.detector.looks.to_json()["empty"] == {}   # a new vision
    assert watch(camera, 4) == ["same"]
    assert camera.vision.detector.looks.to_json()["empty"]         # learned from that view


def test_a_new_game_starts_from_no_looks(played):
    path, physical, learned = played
    table = Table(Store(path))
    table.new_game(["blue", "green", "yellow"])
    physical.game = physical_copy(table)
    camera = TableCamera(table, physical, settle_s=0.2)
    assert watch(camera, 4) == ["same"]
    # Green's two canoes on the dock, learned from the new game's setup alone (taken
    # up, the old game's would come first).
    now = camera.vision.detector.looks.to_json()
    assert len(now["empty"]["green"]) < len(learned["empty"]["green"])


def test_the_point_lies_beside_the_games_it_belongs_to(tmp_path):
    assert TableCamera(Table(Store(tmp_path / "club.sqlite3")), PhysicalBoard(None)
                       ).resume_dir == tmp_path / "club.camera"
    assert TableCamera(Table(Store(":memory:")), PhysicalBoard(None)).resume_dir is None
