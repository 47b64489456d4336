"""The camera's first look at a game under way (started with nothing kept of it, or
calibrated anew, and nothing seen move over the board since): one picture cannot tell
a move made while it was not watching from its own slips, so it plays and flags
nothing. What the phase's events fit is asked about; anything else is taken as the game
stands, named in the feed, and the next move is compared with that picture."""

from __future__ import annotations

import dataclasses

import numpy as np

from companion.app import Table
from companion.camera import TableCamera, _Calibration
from companion.store import Store

from ..tables import AT_THE_RIVER, play_rounds
from .test_camera import PhysicalBoard, physical_copy, watch
from .test_camera_resume import BLUE_LAUNCHES, dealt


class CloudElsewhere(PhysicalBoard):
    """The board with the cloud where the game does not have it (`cloud`: its step), as
    a slip of the camera's reading would show it: no turn of blue's (card 6) moves it."""

    def __init__(self, game, cloud: int | None = None) -> None:
        super().__init__(game)
        self.cloud = cloud

    def read(self) -> np.ndarray:
        key = (self.game.state.key(), self.cloud)
        if key != self.shown:
            self.shown, self.n = key, self.n + 1
            state = self.game.state
            if self.cloud is not None:
                state = dataclasses.replace(state, weather=self.cloud)
            self.frame = self.renderer.render(state, seed=self.n).image
        return self.frame


def first_camera(table: Table, source: PhysicalBoard) -> TableCamera:
    """A camera that begins watching a game under way and has kept nothing of it."""
    return TableCamera(table, source, settle_s=0.2, resume_dir=None)


def feed(table: Table) -> dict:
    return table.store.feed(table.game_id, 1)[-1]


def test_a_first_look_no_move_explains_is_taken_as_the_game_stands(tmp_path):
    table = dealt(tmp_path / "games.sqlite3")
    board = CloudElsewhere(physical_copy(table), cloud=2)
    camera = first_camera(table, board)
    assert watch(camera, 4) == ["taken"]
    assert table.game.state.weather == 0 and table.game.to_move == "blue"  # nothing played
    note = feed(table)
    assert (note["kind"], note["ok"], note["status"]) == ("camera", True, "taken")
    assert "the cloud" in note["message"]
    # Its differences are slips no move explains: it teaches where it agrees.
    assert camera.memory.slots.known()
    # That picture is the game as it stands: blue's move is read against it, the cloud
    # (which did not change) as the game has it.
    board.game.apply(BLUE_LAUNCHES)
    assert "applied" in watch(camera)
    assert table.game.events[-1].to_json() == BLUE_LAUNCHES


def test_a_view_after_the_camera_saw_something_move_is_judged_as_any(tmp_path):
    table = dealt(tmp_path / "games.sqlite3")
    board = CloudElsewhere(physical_copy(table))
    camera = first_camera(table, board)
    assert watch(camera, 1) == []          # a frame, the view not yet settled
    board.cloud = 2                        # the view changes: something moved
    assert watch(camera, 4) == ["flagged"]


def test_a_move_made_before_the_camera_began_watching_is_asked_about(tmp_path):
    table = dealt(tmp_path / "games.sqlite3")
    physical = PhysicalBoard(physical_copy(table))
    physical.game.apply(BLUE_LAUNCHES)
    camera, events = first_camera(table, physical), len(table.game.events)
    assert watch(camera, 4) == ["ambiguous"]
    assert len(table.game.events) == events              # nothing played
    asked = feed(table)
    assert "D-4+clear" in asked["choices"]
    assert "begun watching" in asked["message"]
    # Blue's canoe may lie on 4 in that picture: no slot's empty look is learned from it.
    assert camera.memory.picture is not None and not camera.memory.slots.looks
    # The players tap it: the game goes on, and the camera's picture shows it.
    answer = asked["answers"][asked["choices"].index("D-4+clear")]
    assert table.play_turn(answer["move"], source="table").ok
    physical.game.apply({"event": "turn", "player": "green", "cloud": "up"})
    assert "applied" in watch(camera)
    assert table.game.state.weather == 1


def test_R_RIVER_2_a_river_pushed_before_the_camera_began_watching_is_asked_about(tmp_path):
    table = play_rounds(Table(Store(tmp_path / "games.sqlite3")), AT_THE_RIVER)
    physical = PhysicalBoard(physical_copy(table))
    physical.game.apply({"event": "river", "branches": ["L", "L"]})
    camera = first_camera(table, physical)
    assert watch(camera, 4) == ["ambiguous"]
    assert table.game.phase == "river"                    # nothing played
    asked = feed(table)
    answer = asked["answers"][0]
    assert table.move_river(answer["steps"], answer["branches"]).ok
    assert table.game.state.canoes == physical.game.state.canoes


def test_the_view_a_calibration_learned_from_is_taken_as_the_game_without_a_question(
        tmp_path):
    table = dealt(tmp_path / "games.sqlite3")
    board = CloudElsewhere(physical_copy(table))
    camera = first_camera(table, board)
    camera.profile_path = tmp_path / "profile.json"
    camera._calibration = _Calibration()
    assert watch(camera, 2) == []                  # its first still view teaches the colours
    assert camera._calibration is None and camera.profile_path.exists()
    # The new colours' first still view is that same view: the game as it stands,
    # whatever they read in it, and the next move is compared with it.
    observed = []
    observe = table.observe
    table.observe = lambda seen, **how: observed.append(how) or observe(seen, **how)
    assert watch(camera, 4) == ["same"] and observed == []
    assert camera.memory.picture is not None
    board.game.apply(BLUE_LAUNCHES)
    assert "applied" in watch(camera)


def test_after_a_calibration_a_view_that_changed_is_a_first_look_again(tmp_path):
    table = dealt(tmp_path / "games.sqlite3")
    board = CloudElsewhere(physical_copy(table))
    camera = first_camera(table, board)
    camera.profile_path = tmp_path / "profile.json"
    assert watch(camera, 4) == ["same"]
    camera._calibration = _Calibration()
    assert watch(camera, 1) == []
    table.play_turn(BLUE_LAUNCHES, source="table")   # typed while the view settles
    board.game.apply(BLUE_LAUNCHES)
    board.cloud = 2                                  # ... and the cloud read otherwise
    assert watch(camera, 4) == ["taken"]


def test_a_first_look_at_a_game_over_changes_nothing(tmp_path):
    from ..tables import play_to_the_end

    table = play_to_the_end(Table(Store(tmp_path / "games.sqlite3")))
    assert table.game.is_over
    events = len(table.game.events)
    board = CloudElsewhere(physical_copy(table), cloud=(table.game.state.weather + 1) % 3)
    camera = first_camera(table, board)
    assert watch(camera, 4) == ["ignored"]
    assert len(table.game.events) == events


def test_a_first_look_before_the_river_is_pushed_asks_nothing(tmp_path):
    # The river's push fits the view no better than nothing moved (the cloud misread
    # aside): "0 steps" is no question to put to the players.
    table = play_rounds(Table(Store(tmp_path / "games.sqlite3")), AT_THE_RIVER)
    board = CloudElsewhere(physical_copy(table), cloud=2)
    camera = first_camera(table, board)
    assert watch(camera, 4) == ["taken"]
    assert table.game.phase == "river" and not feed(table).get("choices")
