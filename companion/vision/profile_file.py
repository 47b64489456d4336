"""Reading a colour profile file (``profile.ColourProfile``, which writes it): every
part checked, and anything damaged a ProfileError of one line naming it.

>>> profile = load_profile()        # the table's own, else the packaged one
>>> parse_profile(profile.to_json(), "upload.json").names == profile.names
True
>>> parse_profile({"classes": {}, "version": 1}, "upload.json")
Traceback (most recent call last):
...
companion.vision.profile.ProfileError: colour profile upload.json: missing classes canoe:brown, ...
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from companion import paths

from .cloud import TrackLooks
from .disc_looks import DiscLooks
from .profile import (
    GROUND_CELL_MM,
    GROUND_CLASSES,
    PIECE_CLASSES,
    SHADE_CELL_MM,
    VERSION,
    ColourClass,
    ColourProfile,
    ProfileError,
)


def load_profile(path: str | Path | None = None) -> ColourProfile:
    """Read a profile file (default: the table's own, else the packaged one; see
    companion.paths); ProfileError if unusable."""
    path = Path(path) if path is not None else paths.profile_file()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ProfileError(f"colour profile {path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ProfileError(f"colour profile {path}: cannot read it ({exc})") from None
    except json.JSONDecodeError as exc:
        raise ProfileError(f"colour profile {path}: not valid JSON (line {exc.lineno})") \
            from None
    return parse_profile(data, str(path))


def parse_profile(data: Any, where: str = "profile") -> ColourProfile:
    def fail(msg: str) -> ProfileError:
        return ProfileError(f"colour profile {where}: {msg}")

    if not isinstance(data, dict) or not isinstance(data.get("classes"), dict):
        raise fail("must be a JSON object with \"classes\"")
    if data.get("version") != VERSION:
        raise fail(f"version {data.get('version')!r} is not {VERSION}")
    classes: dict[str, ColourClass] = {}
    for name, c in data["classes"].items():
        try:
            mean = np.array(c["mean"], np.float64).reshape(3)
            cov = np.array(c["cov"], np.float64).reshape(3, 3)
            bgr = np.array(c["bgr"], np.float64).reshape(3)
        except (KeyError, TypeError, ValueError):
            raise fail(f"class {name}: needs mean [3], cov [3x3] and bgr [3]") from None
        if not np.all(np.isfinite(cov)) or np.linalg.det(cov) <= 0:
            raise fail(f"class {name}: covariance is not positive definite")
        classes[name] = ColourClass(mean, cov, bgr)
    missing = [n for n in PIECE_CLASSES + GROUND_CLASSES if n not in classes]
    if missing:
        raise fail(f"missing classes {', '.join(missing)}")
    sizes = data.get("sizes_mm2", {})
    for key in ("canoe", "canoe_box", "canoe_long_mm", "canoe_short_mm", "gem", "cloud"):
        value = sizes.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            raise fail(f"sizes_mm2.{key} must be a positive number")
    def section(key: str, cell_mm: float, read: Any) -> Any:
        """A gridded part of the profile, read by `read`; None when absent."""
        part = data.get(key)
        if part is None:
            return None
        try:
            if part["cell_mm"] != cell_mm:
                raise ValueError
            return read(part)
        except (KeyError, TypeError, ValueError):
            raise fail(f"{key} is damaged (recalibrate the profile)") from None

    ground_map = section("ground_map", GROUND_CELL_MM, _ground_map)
    board_luma = section("board_luma", SHADE_CELL_MM, lambda part: _grid(part["rows"]))
    chroma, texture = section("board_surface", SHADE_CELL_MM, _surface) or (None, None)
    def optional(key: str, read: Any) -> Any:
        """A part of the profile read by `read`; None when absent."""
        if data.get(key) is None:
            return None
        try:
            return read(data[key])
        except (AttributeError, KeyError, TypeError, ValueError):
            raise fail(f"{key} is damaged (recalibrate the profile)") from None

    track = optional("weather_track", TrackLooks.from_json)
    discs = optional("disc_looks", DiscLooks.from_json)
    hull_spread = optional("hull_spread", _positive)
    return ColourProfile(classes, {k: float(v) for k, v in sizes.items()},
                         str(data.get("source", "")), ground_map, board_luma, chroma, texture,
                         track, discs, hull_spread)


def _positive(value: Any) -> float:
    """A positive finite number (ValueError otherwise)."""
    x = float(value)
    if not math.isfinite(x) or x <= 0:
        raise ValueError(value)
    return x


def _grid(rows: Any) -> np.ndarray:
    grid = np.array([[np.nan if v is None else float(v) for v in row] for row in rows],
                    np.float32)
    if grid.ndim != 2:
        raise ValueError
    return grid


def _ground_map(part: dict[str, Any]) -> dict[str, np.ndarray]:
    shape = tuple(int(v) for v in part["shape"])
    return {n: np.unpackbits(np.frombuffer(bytes.fromhex(h), np.uint8))
            [:shape[0] * shape[1]].reshape(shape).astype(bool)
            for n, h in part["classes"].items()}


def _surface(part: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    chroma = np.stack([_grid(part["r"]), _grid(part["g"])], axis=-1)
    texture = _grid(part["texture"])
    if texture.shape != chroma.shape[:2]:
        raise ValueError
    return chroma, texture


__all__ = ["load_profile", "parse_profile"]
