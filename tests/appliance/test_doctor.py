"""`companion doctor`: one line per thing a table needs, saying what to fix; exit 0
when nothing FAILs. Cameras here are a folder of rendered photos or the simulated one."""

import json
import os
import subprocess
import sys
import time

import cv2
import numpy as np
import pytest

from companion import paths
from companion.doctor import (
    FAIL,
    OK,
    SKIP,
    WARN,
    check_address,
    check_calibration,
    check_camera,
    check_disk,
    check_hardware,
    check_store,
)
from companion.rules import Game
from companion.vision.board import load_board
from companion.vision.render import Nuisance, Renderer


def by_what(findings):
    return {f.what: f for f in findings}


@pytest.fixture(scope="module")
def photo():
    game = Game(["red", "blue", "green"], start="red")
    return Renderer(load_board(), size=(1280, 720)).render(
        game.state, seed=3, nuisance=Nuisance.mild()).image


def folder_of(tmp_path, image, name="shots"):
    folder = tmp_path / name
    folder.mkdir()
    for i in range(2):
        cv2.imwrite(str(folder / f"{i}.png"), image)
    return str(folder)


def test_a_folder_of_board_photos_is_a_camera_that_sees_the_board(tmp_path, photo):
    found = by_what(check_camera(folder_of(tmp_path, photo), frames=2))
    assert found["camera"].status == OK and "1280x720" in found["camera"].says
    assert found["board seen"].status == OK and "4 of 4 markers" in found["board seen"].says
    assert found["light"].status == OK and found["focus"].status == OK


def test_a_view_without_the_board_fails_and_says_to_show_the_markers(tmp_path):
    blank = np.full((720, 1280, 3), 128, np.uint8)
    found = by_what(check_camera(folder_of(tmp_path, blank), frames=2))
    assert found["board seen"].status == FAIL
    assert "0 of 4 markers" in found["board seen"].says
    assert "markers" in found["board seen"].says


def test_a_dark_table_is_a_warning_to_light_it(tmp_path, photo):
    found = by_what(check_camera(folder_of(tmp_path, (photo * 0.2).astype(np.uint8)), 2))
    assert found["light"].status == WARN and "too dark" in found["light"].says


def test_a_blurred_camera_is_a_warning_to_focus_it(tmp_path, photo):
    blurred = cv2.GaussianBlur(photo, (0, 0), 4)
    found = by_what(check_camera(folder_of(tmp_path, blurred), 2))
    assert found["focus"].status == WARN and "lens" in found["focus"].says


def test_no_camera_at_all_fails_in_one_line(tmp_path):
    found = check_camera(str(tmp_path / "nowhere.png"))
    assert [f.status for f in found] == [FAIL] and "no such file" in found[0].says


def test_packaged_calibration_is_a_warning_to_calibrate_this_table():
    found = by_what(check_calibration())
    assert found["board file"].status == WARN
    assert "companion calibrate board" in found["board file"].says


def test_the_tables_own_recent_calibration_is_ok(xdg):
    config_dir, _ = xdg
    config_dir.mkdir(parents=True)
    for name in (paths.BOARD, paths.PROFILE):
        (config_dir / name).write_bytes(paths.packaged(name).read_bytes())
    statuses = {f.what: f.status for f in check_calibration()}
    assert statuses == {"board file": OK, "colour profile": OK}


def test_an_old_calibration_and_a_profile_older_than_its_board_are_warnings(xdg):
    config_dir, _ = xdg
    config_dir.mkdir(parents=True)
    for name in (paths.BOARD, paths.PROFILE):
        (config_dir / name).write_bytes(paths.packaged(name).read_bytes())
    year_ago = time.time() - 365 * 86400
    os.utime(config_dir / paths.PROFILE, (year_ago, year_ago))
    found = check_calibration()
    assert [f.status for f in found if f.what == "colour profile"] == [WARN, WARN]
    assert any("older than the board file" in f.says for f in found)


def test_a_broken_board_file_fails_naming_the_file(xdg):
    config_dir, _ = xdg
    config_dir.mkdir(parents=True)
    (config_dir / paths.BOARD).write_text("{")
    found = by_what(check_calibration())
    assert found["board file"].status == FAIL
    assert str(config_dir / paths.BOARD) in found["board file"].says


def test_off_a_pi_the_led_strip_fails_with_the_reason_leds_check_gives():
    found = by_what(check_hardware())
    assert found["LED strip"].status == FAIL
    assert "not a Raspberry Pi" in found["LED strip"].says
    assert found["buttons"].status == FAIL


def test_a_strip_configured_as_simulated_is_ok(xdg):
    config_dir, _ = xdg
    config_dir.mkdir(parents=True)
    data = json.loads(paths.packaged(paths.LEDS).read_text())
    data["strip"]["backend"] = "simulated"
    data["buttons"] = {"river": None, "undo": None, "next": None}
    (config_dir / paths.LEDS).write_text(json.dumps(data))
    found = by_what(check_hardware())
    assert found["LED strip"].status == OK and found["buttons"].status == OK


def test_no_hardware_skips_the_strip_and_buttons():
    assert {f.status for f in check_hardware(skip=True)} == {SKIP}


@pytest.mark.parametrize("address", [None, "127.0.1.1"])
def test_an_address_phones_cannot_reach_fails(address):
    found = check_address(None, 8000, lan=lambda: address)
    assert found[0].status == FAIL


def test_a_loopback_public_url_fails_and_a_lan_one_is_ok():
    assert check_address("http://localhost:8000/", 8000)[0].status == FAIL
    good = check_address(None, 8000, lan=lambda: "192.168.1.20")[0]
    assert good.status == OK and "http://192.168.1.20:8000/" in good.says


def test_the_store_is_opened_and_a_file_that_is_not_sqlite_fails(tmp_path):
    assert check_store(tmp_path / "games.sqlite3")[0].status == OK
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all" * 100)
    found = check_store(junk)[0]
    assert found.status == FAIL and str(junk) in found.says


def test_free_disk_is_measured(tmp_path):
    found = check_disk(tmp_path / "games.sqlite3")[0]
    assert found.status in (OK, WARN, FAIL) and "MB on" in found.says


def run_doctor(*args, cwd):
    return subprocess.run([sys.executable, "-m", "companion", "doctor", *args],
                          capture_output=True, text=True, cwd=cwd, timeout=300)


def test_doctor_exits_0_when_the_table_is_ready(tmp_path):
    result = run_doctor("--camera", "sim", "--no-hardware", "--frames", "2", "--public-url",
                        "http://192.168.1.20:8000/", "--database",
                        str(tmp_path / "g.sqlite3"), cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[-1].startswith("ready")
    assert all(line.split()[0] in (OK, WARN, SKIP) for line in lines[:-1])


def test_doctor_exits_1_and_says_what_to_fix(tmp_path):
    result = run_doctor("--camera", "sim", "--no-hardware", "--frames", "2", "--public-url",
                        "http://127.0.0.1:8000/", "--database", str(tmp_path / "g.sqlite3"),
                        cwd=tmp_path)
    assert result.returncode == 1
    assert "FAIL  phones' address: http://127.0.0.1:8000/ is a loopback address" \
        in result.stdout
    assert result.stdout.splitlines()[-1].startswith("not ready: 1 thing to fix")
