"""Calibrating from a photo of a known state (vision.md, "Learning a table's colours"):
`companion calibrate profile PHOTO --state LOG_OR_SNAPSHOT`, a freshly set-up game
included, so a table calibrates by photographing its own setup."""

from __future__ import annotations

import json
import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.rules import Game
from companion.rules.random_play import random_position
from companion.vision.dock_canoes import find_dock_canoes
from companion.vision.known import PILE_LEAST, KnownBoard, PlaceError
from companion.vision.learn import _straight, layout_state, learn_profile, not_shown
from companion.vision.observer import Vision
from companion.vision.profile import ProfileError
from companion.vision.render import Nuisance, Renderer, with_levels

from ..frames import turned_off

FIVE = ["blue", "green", "yellow", "red", "brown"]
THREE = ["red", "yellow", "brown"]


def _canoes(observation: dict) -> list[tuple[str, str]]:
    """Every canoe seen, by place and colour."""
    out = [(slot, c["player"]) for slot, v in observation["slots"].items() for c in v["canoes"]]
    out += [(place, c["player"]) for place in ("dock", "falls") for c in observation[place]]
    return sorted(out)


def _setup(players: list[str]) -> dict:
    return Game(players).state.snapshot()


@pytest.fixture(scope="module")
def setup_photo(renderer) -> np.ndarray:
    return renderer.render(_setup(FIVE), seed=3, nuisance=Nuisance.mild()).image


@pytest.fixture(scope="module")
def setup_profile(board, setup_photo, profile):
    """Learned from one photo of a set-up five-player game."""
    return learn_profile(board, [setup_photo], known=KnownBoard.of_snapshot(_setup(FIVE)),
                         base=profile)


def test_R_SETUP_3_every_canoe_on_the_dock_is_found_with_its_colour(board, setup_photo,
                                                                   profile):
    img, _ = _straight(board, setup_photo, 1.0, None)
    found, bare = find_dock_canoes(img, board, [p for p in FIVE for _ in (1, 2)])
    assert sorted(c.player for c in found) == sorted(FIVE * 2)
    for canoe in found:
        colour = np.median(img[canoe.hull], axis=0).astype(np.uint8)[None, None]
        assert profile.names[profile.classify(colour)[0, 0]] == f"canoe:{canoe.player}"
    # The print left bare lies on the dock, away from every canoe, and is a good part of it.
    dock = np.zeros(bare.shape, np.uint8)
    cv2.fillPoly(dock, [np.round(np.asarray(board.dock)).astype(np.int32)], 1)
    assert not (bare & (dock == 0)).any()
    assert np.count_nonzero(bare) > 0.3 * np.count_nonzero(dock)
    for canoe in found:
        assert not bare[canoe.hull].any()


@pytest.mark.parametrize("painted", [
    {"red": (205, 92, 102)},                         # a red hull the table's light shows pink
    {"brown": (129, 68, 49)},                        # a brown halfway to red in hue
])
def test_R_SETUP_3_canoes_whose_colours_stray_from_the_nominal_are_found_with_theirs(
        board, renderer, monkeypatch, painted):
    """A table's canoes are not vision.md's nominal colours: a hull is told by the hue it
    shares with one of them and by how the colours on the dock differ from each other,
    not by the chromaticity nearest a nominal colour (a pink red lies nearer brown's)."""
    import companion.vision.pieces_paint as paint
    monkeypatch.setattr(paint, "CANOE_RGB", {**paint.CANOE_RGB, **painted})
    photo = Renderer(board).render(_setup(THREE), seed=5, nuisance=Nuisance.mild()).image
    img, _ = _straight(board, photo, 1.0, None)
    found, _ = find_dock_canoes(img, board, [p for p in THREE for _ in (1, 2)])
    assert sorted(c.player for c in found) == sorted(THREE * 2)
    for canoe in found:
        seen = np.median(img[canoe.hull], axis=0)[::-1]
        nearest = min(THREE, key=lambda p: np.linalg.norm(
            seen / seen.sum() - np.divide(paint.CANOE_RGB[p], sum(paint.CANOE_RGB[p]))))
        assert nearest == canoe.player, (canoe.player, seen)


def test_R_SETUP_3_the_docks_own_look_is_learned_between_the_canoes_set_up_on_it(
        board, setup_profile, profile):
    """The set-up canoes cover the dock but not all of it: the cells between them teach
    the dock's look (a canoe coming home is then told from the print), as the layout,
    which leaves the dock empty, teaches it."""
    from companion.vision.profile import SHADE_CELL_MM

    rows, cols = setup_profile.board_texture.shape
    on_dock = np.zeros((rows, cols), np.uint8)
    cv2.fillPoly(on_dock, [np.round(np.asarray(board.dock) / SHADE_CELL_MM).astype(np.int32)], 1)
    dock = on_dock.astype(bool) & np.isfinite(profile.board_texture)
    learned = dock & np.isfinite(setup_profile.board_texture)
    assert learned.sum() >= 0.2 * dock.sum(), (learned.sum(), dock.sum())
    chroma = np.abs(setup_profile.board_chroma[learned] - profile.board_chroma[learned])
    assert np.median(chroma) < 0.01, np.median(chroma)
    texture = np.abs(setup_profile.board_texture[learned] - profile.board_texture[learned])
    assert np.median(texture) < 0.25 * np.median(profile.board_texture[learned])


def test_a_profile_learned_from_the_setup_reads_as_well_as_one_from_the_layout(
        board, renderer, profile):
    """Two photos of a set-up game against two of the calibration layout in the same
    lights: positions of whole games read as well (one canoe of slack in 60)."""
    lights = (3, 7)
    from_setup = learn_profile(
        board, [renderer.render(_setup(FIVE), seed=s, nuisance=Nuisance.mild()).image
                for s in lights], known=KnownBoard.of_snapshot(_setup(FIVE)), base=profile)
    from_layout = learn_profile(
        board, [renderer.render(layout_state(), seed=s, nuisance=Nuisance.mild(),
                                missing_discs=("7R",)).image for s in lights])
    right = {"setup": 0, "layout": 0}
    total = 0
    shots = [renderer.render(random_position(random.Random(k)).state.snapshot(), seed=50 + k,
                             nuisance=Nuisance.mild()) for k in range(8)]
    for name, learned in (("setup", from_setup), ("layout", from_layout)):
        vision = Vision(board, learned)
        for shot in shots:
            truth, seen = _canoes(shot.truth), _canoes(vision.observe(shot.image) or {
                "slots": {}, "dock": [], "falls": []})
            right[name] += sum(min(truth.count(c), seen.count(c)) for c in set(truth))
            total += len(truth) if name == "setup" else 0
    assert right["setup"] >= right["layout"] - 1, right
    assert right["setup"] >= 0.95 * total, (right, total)


def test_R_SETUP_1_gem_colours_are_learned_from_the_deposits_piles(setup_profile, profile):
    # Each pile's colour has the hue of its gem (its strongest channel), not its print's.
    for gem in ("red", "blue", "yellow", "violet"):
        hue = np.argmax(setup_profile.classes[f"gem:{gem}"].bgr)
        assert hue == np.argmax(profile.classes[f"gem:{gem}"].bgr), gem


def test_colours_not_at_the_table_are_kept_from_the_base_profile(board, renderer, profile):
    photo = renderer.render(_setup(THREE), seed=4, nuisance=Nuisance.mild()).image
    known = KnownBoard.of_snapshot(_setup(THREE))
    assert not_shown(known) == ["canoe:blue", "canoe:green"]
    learned = learn_profile(board, [photo], known=known, base=profile)
    assert np.array_equal(learned.classes["canoe:blue"].bgr, profile.classes["canoe:blue"].bgr)
    assert not np.array_equal(learned.classes["canoe:red"].bgr, profile.classes["canoe:red"].bgr)
    with pytest.raises(PlaceError, match="canoe blue"):
        learn_profile(board, [photo], known=known)


def test_the_layout_is_one_known_board_among_others():
    layout = KnownBoard.layout()
    snap = KnownBoard.of_snapshot({**layout_state(), "canoes": layout_state()["canoes"]})
    assert snap.lone_canoes() == layout.lone_canoes()
    assert layout.no_disc == ("7R",) and snap.no_disc == ()
    assert not_shown(layout) == []


def test_a_pile_teaches_its_colour_only_when_it_is_one_colour_and_big_enough():
    known = KnownBoard.of_snapshot({"canoes": {}, "weather": 0, "deposits": {
        "red": {"red": PILE_LEAST}, "blue": {"blue": PILE_LEAST - 1},
        "clear": {"clear": 5, "violet": 1}}})
    assert known.piles() == {"red": "red"}


def test_a_malformed_state_is_refused_in_one_line():
    for snap in ({"canoes": {"red": ["D"]}}, {"canoes": {"red": []}, "weather": "high"},
                 {"canoes": {"red": []}, "deposits": {"red": {"red": "seven"}}}):
        with pytest.raises(ProfileError, match="not a game-log.md snapshot"):
            KnownBoard.of_snapshot(snap)


def test_a_state_with_an_unknown_colour_is_refused():
    with pytest.raises(ProfileError, match="unknown canoe colour 'pink'"):
        KnownBoard.of_snapshot({"canoes": {"pink": [{"at": "D", "gem": None}]}})
    with pytest.raises(ProfileError, match="unknown gem 'ruby'"):
        KnownBoard.of_snapshot({"canoes": {"red": [{"at": "3", "gem": "ruby"}]}})


# -- the command (vision.md's exit codes) ---------------------------------------------------

@pytest.fixture(scope="module")
def files(tmp_path_factory, setup_photo, renderer):
    d = tmp_path_factory.mktemp("calibrate-state")
    cv2.imwrite(str(d / "setup.png"), setup_photo)
    (d / "setup.jsonl").write_text(json.dumps(Game(FIVE).setup.to_json()) + "\n")
    cv2.imwrite(str(d / "layout.png"), renderer.render(
        layout_state(), seed=5, nuisance=Nuisance.mild(), missing_discs=("7R",)).image)
    cv2.imwrite(str(d / "blank.png"), np.full((720, 1280, 3), 128, np.uint8))
    return d


def test_calibrate_profile_from_a_photo_of_the_setup_writes_the_profile(files: Path, capsys):
    out = files / "profile.json"
    code = main(["calibrate", "profile", str(files / "setup.png"), "--state",
                 str(files / "setup.jsonl"), "--out", str(out)])
    assert code == 0, capsys.readouterr().err
    assert "(state: " in json.loads(out.read_text())["source"]


def test_calibrate_profile_with_an_unreadable_state_exits_2(files: Path, capsys):
    code = main(["calibrate", "profile", str(files / "setup.png"), "--state",
                 str(files / "nowhere.jsonl"), "--out", str(files / "x.json")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "nowhere.jsonl" in err and len(err.splitlines()) == 1


def test_calibrate_profile_without_the_board_in_the_photo_exits_3(files: Path, capsys):
    code = main(["calibrate", "profile", str(files / "blank.png"), "--state",
                 str(files / "setup.jsonl"), "--out", str(files / "x.json")])
    err = capsys.readouterr().err.strip()
    assert code == 3 and "markers" in err and len(err.splitlines()) == 1


def test_calibrate_profile_from_a_photo_with_part_of_the_board_out_of_it_exits_3(
        files: Path, board, renderer, capsys):
    # (The board's look would be learned from the streaks where the photo ends.)
    shot = renderer.render(_setup(FIVE), seed=4, nuisance=Nuisance.mild())
    cv2.imwrite(str(files / "turned.png"), turned_off(shot, board, 0.45))
    code = main(["calibrate", "profile", str(files / "turned.png"), "--state",
                 str(files / "setup.jsonl"), "--out", str(files / "x.json")])
    err = capsys.readouterr().err.strip()
    assert code == 3 and "out of the picture" in err and len(err.splitlines()) == 1
    assert not (files / "x.json").exists()


def test_calibrate_profile_when_the_photo_does_not_show_the_state_exits_4(files: Path, capsys):
    # The photo shows the calibration layout (an empty dock); the log says a set-up game.
    code = main(["calibrate", "profile", str(files / "layout.png"), "--state",
                 str(files / "setup.jsonl"), "--out", str(files / "x.json")])
    err = capsys.readouterr().err.strip()
    assert code == 4 and err.startswith("companion calibrate profile: dock:"), err
    assert not (files / "x.json").exists()


def test_a_state_with_every_slot_taken_keeps_the_disc_and_water_from_the_base(
        board, renderer, profile):
    slots = ["1", "2", "3", "4", "5", "6L", "6R", "7L", "7R", "1"]
    canoes: dict = {p: [] for p in FIVE}
    for k, slot in enumerate(slots):
        canoes[FIVE[k % 5]].append({"at": slot, "gem": None})
    snap = {"canoes": canoes, "weather": 0, "deposits": {}}
    photo = renderer.render(snap, seed=8, nuisance=Nuisance.mild()).image
    learned = learn_profile(board, [photo], known=KnownBoard.of_snapshot(snap), base=profile)
    assert np.array_equal(learned.classes["disc"].bgr, profile.classes["disc"].bgr)
    assert not np.array_equal(learned.classes["canoe:red"].bgr, profile.classes["canoe:red"].bgr)



def _dock_hidden_by_the_setup(board, setup_profile):
    """A camera calibrated from the setup, and the cells of the dock its set-up canoes
    hid from the calibration photo."""
    vision = Vision(board, setup_profile, settle=1)
    surface = vision.detector.surface
    side = surface.cell_px
    dock = np.zeros(surface.shape, np.uint8)
    cv2.fillPoly(dock, [np.round(np.asarray(board.dock) * vision.detector.scale / side)
                        .astype(np.int32)], 1)
    hidden = dock.astype(bool) & surface.unknown()
    assert hidden.sum() >= 20, "the set-up canoes hid part of the dock"
    return vision, hidden


def _first_round(moves: int) -> Game:
    game = Game(FIVE)
    game.apply({"event": "cards", "cards": {p: n for n, p in enumerate(FIVE, start=1)}})
    for n in range(1, moves + 1):
        game.push_san(f"D-{n}")
    return game


# One still camera in one light (as in test_memory).
STILL = with_levels(Nuisance.mild(), light=(1.0, 1.0), gradient=0.0, shadows=0,
                    white_balance=0.0, glare=0.0)


def test_R_SETUP_3_the_dock_under_the_set_up_canoes_is_learned_once_pictures_show_it_bare(
        board, renderer, setup_profile):
    """The set-up canoes hid part of the dock from the calibration photo. As the canoes
    leave, the confirmed pictures show it: once BARE_ENOUGH of them did, its look is the
    board's there (the dock's print, not something unlike the board)."""
    from companion.vision.memory import BoardMemory
    from companion.vision.surface import BARE_ENOUGH, SLIGHT

    vision, hidden = _dock_hidden_by_the_setup(board, setup_profile)
    surface = vision.detector.surface
    memory = BoardMemory(vision.detector)
    for n in range(1, 6):
        game = _first_round(n)
        vision.observe(renderer.render(game, seed=40, nuisance=STILL, camera=40).image)
        memory.confirm(vision.last_reading.corrected, vision.last_location, game.state)
        learned = hidden & ~surface.unknown()
        if n < BARE_ENOUGH:
            assert not learned.any(), n
    assert learned.sum() >= 0.2 * hidden.sum(), (learned.sum(), hidden.sum())
    dist, smooth = surface.departure(vision.last_reading.corrected)
    like = (dist <= SLIGHT) & ~smooth
    assert like[learned].mean() >= 0.9, like[learned].mean()


def test_a_confirmed_picture_teaches_nothing_of_the_board_its_frame_does_not_reach(
        board, renderer, setup_profile):
    """The pictures of the test above, the dock's side of them out of the camera's frame
    (``Reading.unseen``): there it shows streaks, not the board, and nothing is learned."""
    from companion.vision.memory import BoardMemory
    from companion.vision.surface import BARE_ENOUGH

    vision, hidden = _dock_hidden_by_the_setup(board, setup_profile)
    surface = vision.detector.surface
    memory = BoardMemory(vision.detector)
    for n in range(1, BARE_ENOUGH + 3):
        game = _first_round(n)
        vision.observe(renderer.render(game, seed=40, nuisance=STILL, camera=40).image)
        unseen = np.zeros(surface.shape, bool)
        unseen[:np.nonzero(hidden)[0].max() + 1] = True  # the rows down to the dock's end
        memory.confirm(vision.last_reading.corrected, vision.last_location, game.state,
                       unseen=unseen)
    assert not (hidden & ~surface.unknown()).any()


def test_R_SETUP_3_a_confirmed_picture_teaches_nothing_of_the_dock_under_its_canoes(
        board, renderer, setup_profile):
    """Pictures of one state, its five canoes left on the dock: the cells between them
    are learned, those under them never."""
    from companion.vision.memory import BoardMemory
    from companion.vision.surface import BARE_ENOUGH

    vision, hidden = _dock_hidden_by_the_setup(board, setup_profile)
    surface = vision.detector.surface
    memory = BoardMemory(vision.detector)
    game = _first_round(5)
    for frame in range(BARE_ENOUGH + 1):
        vision.observe(renderer.render(game, seed=41, nuisance=STILL, camera=41,
                                       frame=frame).image)
        memory.confirm(vision.last_reading.corrected, vision.last_location, game.state)
    learned = hidden & ~surface.unknown()
    found, _ = find_dock_canoes(vision.last_reading.corrected, board, FIVE,
                                vision.detector.scale)
    under = np.zeros(surface.shape, bool)
    for canoe in found:
        ys, xs = canoe.hull
        under[ys // surface.cell_px, xs // surface.cell_px] = True
    assert learned.any() and under.sum() >= 5
    assert not (learned & under).any()


def test_the_canoes_of_a_dock_that_did_not_change_are_found_once(
        board, renderer, setup_profile, monkeypatch):
    """Finding the dock's canoes is the costliest part of learning from a confirmed
    picture: while the dock's pixels and its canoes stay as they were, they lie where
    they lay; a canoe leaving it has them found again."""
    import companion.vision.memory as memory_module
    from companion.vision.memory import BoardMemory
    from companion.vision.surface import BARE_ENOUGH

    found = []
    real = memory_module.dock_cover
    monkeypatch.setattr(memory_module, "dock_cover", lambda *a: found.append(1) or real(*a))
    vision, _ = _dock_hidden_by_the_setup(board, setup_profile)
    memory = BoardMemory(vision.detector)
    games = [_first_round(4)] * (BARE_ENOUGH + 1) + [_first_round(5)]
    for frame, game in enumerate(games):
        vision.observe(renderer.render(game, seed=41, nuisance=STILL, camera=41,
                                       frame=frame).image)
        memory.confirm(vision.last_reading.corrected, vision.last_location, game.state)
    assert len(found) == 2
