"""A table's own files live in the XDG directories and win over the packaged defaults,
which every install carries (companion.paths)."""

import json
from pathlib import Path

import pytest

from companion import paths
from companion.cli import main
from companion.hardware import load_config
from companion.store import default_path
from companion.vision.board import load_board
from companion.vision.profile_file import load_profile


def test_the_package_carries_the_default_board_profile_leds_and_marker_sheet():
    for name in (paths.BOARD, paths.PROFILE, paths.LEDS, paths.MARKERS):
        assert paths.packaged(name).is_file(), name
    assert paths.packaged(paths.BOARD).parent == Path(paths.__file__).resolve().parent / \
        "calibration"


def test_without_own_files_the_packaged_defaults_are_read(xdg):
    assert paths.board_file() == paths.packaged(paths.BOARD)
    assert load_board().name == "niagara-standard"
    assert paths.settings_file() is None
    assert load_config().source == str(paths.packaged(paths.LEDS))


def test_the_tables_own_board_file_wins_without_flags(xdg):
    config_dir, _ = xdg
    config_dir.mkdir(parents=True)
    data = json.loads(paths.packaged(paths.BOARD).read_text())
    data["name"] = "our-table"
    (config_dir / "board.json").write_text(json.dumps(data))
    assert paths.board_file() == config_dir / "board.json"
    assert load_board().name == "our-table"


def test_a_broken_own_profile_is_named_in_the_error(xdg):
    config_dir, _ = xdg
    config_dir.mkdir(parents=True)
    (config_dir / "profile.json").write_text("{")
    try:
        load_profile()
    except ValueError as exc:
        assert str(config_dir / "profile.json") in str(exc)
    else:
        raise AssertionError("a broken profile was accepted")


def test_games_live_in_the_xdg_data_directory(xdg):
    _, data_dir = xdg
    assert default_path() == data_dir / "companion.sqlite3"


def test_a_relative_xdg_value_is_ignored_as_the_spec_says(monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/dir")
    assert paths.config_dir() == Path.home() / ".config" / "niagara-companion"


@pytest.fixture
def quick_learning(monkeypatch):
    """Learning a profile takes seconds and is tested in tests/vision: here the
    packaged profile stands for what was learned, as only where it goes is tested."""
    from companion.vision import learn
    monkeypatch.setattr(learn, "synthetic_profile",
                        lambda board: load_profile(paths.packaged(paths.PROFILE)))


def test_calibrate_profile_writes_the_tables_own_profile_by_default(xdg, quick_learning,
                                                                    tmp_path, monkeypatch):
    config_dir, _ = xdg
    monkeypatch.chdir(tmp_path)
    assert main(["calibrate", "profile", "--synthetic"]) == 0
    assert (config_dir / "profile.json").is_file()
    assert paths.profile_file() == config_dir / "profile.json"
    load_profile()


def test_calibrate_profile_out_still_wins(xdg, quick_learning, tmp_path, monkeypatch):
    config_dir, _ = xdg
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "mine.json"
    assert main(["calibrate", "profile", "--synthetic", "--out", str(out)]) == 0
    assert out.is_file() and not (config_dir / "profile.json").exists()
