"""Where the companion's files are: the defaults shipped in the package, and the table's
own files in the user's config and data directories (XDG base directories).

>>> board_file()  # doctest: +SKIP
PosixPath('/home/pi/.config/niagara-companion/board.json')

(the table's calibrated board file, else the packaged one)

A table's own files (written by ``companion calibrate``, or put there by hand):

    $XDG_CONFIG_HOME/niagara-companion/   (default ~/.config/niagara-companion/)
        board.json  profile.json  leds.json  settings.toml
    $XDG_DATA_HOME/niagara-companion/     (default ~/.local/share/niagara-companion/)
        companion.sqlite3  (the games)

A file missing there is read from the package's defaults (``companion/calibration/``,
which in a checkout is a link to the repository's ``calibration/`` folder, and in a
built wheel a copy of it), so a fresh install runs from any directory without flags.
Nothing here creates a directory: the writers do, when they write.
"""

from __future__ import annotations

import os
from pathlib import Path

APP_DIR = "niagara-companion"
PACKAGED = Path(__file__).resolve().parent / "calibration"

BOARD = "board.json"
PROFILE = "profile.json"
LEDS = "leds.json"
MARKERS = "markers.svg"
SETTINGS = "settings.toml"
DATABASE = "companion.sqlite3"


def _xdg(variable: str, fallback: str) -> Path:
    # The XDG spec says a relative value is invalid and must be ignored.
    value = os.environ.get(variable, "")
    base = Path(value) if value and os.path.isabs(value) else Path.home() / fallback
    return base / APP_DIR


def config_dir() -> Path:
    """The table's own settings and calibration: $XDG_CONFIG_HOME/niagara-companion."""
    return _xdg("XDG_CONFIG_HOME", ".config")


def data_dir() -> Path:
    """The table's games: $XDG_DATA_HOME/niagara-companion."""
    return _xdg("XDG_DATA_HOME", ".local/share")


def packaged(name: str) -> Path:
    """A default file shipped inside the package (board.json, profile.json, leds.json,
    markers.svg, gem_model.json)."""
    return PACKAGED / name


def table_file(name: str) -> Path:
    """The table's own copy of `name` if it has one, else the packaged default."""
    own = config_dir() / name
    return own if own.is_file() else packaged(name)


def board_file() -> Path:
    return table_file(BOARD)


def profile_file() -> Path:
    return table_file(PROFILE)


def leds_file() -> Path:
    return table_file(LEDS)


def settings_file() -> Path | None:
    """The table's settings (TOML, read by ``companion serve``), or None if it has none."""
    own = config_dir() / SETTINGS
    return own if own.is_file() else None


def database_file() -> Path:
    return data_dir() / DATABASE


__all__ = ["config_dir", "data_dir", "packaged", "table_file", "board_file",
           "profile_file", "leds_file", "settings_file", "database_file"]
