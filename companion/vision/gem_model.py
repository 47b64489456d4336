"""The gem in a canoe on the river, from one picture: a model fitted on many tables,
weighing what the hand rules (``gems.GemReader``) read.

>>> model = load_gem_model()
>>> model.classes[0], len(model.features)
('none', 29)

The hand rules read a canoe's middle well where they were tuned (the project's 2-D
renderer) and poorly at other tables: on the tuned 3-D worlds they name a gem in a
hull of its own colour that is not there, or a violet gem in a yellow hull as red. This
model weighs the same evidence (``GemEvidence``: the middle against its own hull, and
against this table's calibrated gem colours) as a multinomial logistic regression,
fitted on the canoes of the tuned 3-D worlds and the 2-D renderer
(``tools/train_gem_model.py``, whose ``--evaluate`` reads each 3-D world with a model
fitted without it). Every feature is a ratio or a difference against the canoe's own
hull or the table's own profile, so a lamp's level leaves it alone (its tint the light
meter takes out before, with the marker paper as white). It does not
replace the rules (``weigh``): fitted on the 3-D worlds alone it read the 2-D
renderer's gems far worse than they do, and across tables it cannot tell an empty
hull's pale inside from a clear gem: it never names clear or empty itself.

The model is data (``calibration/gem_model.json``, shipped in the package), read once.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from companion.paths import packaged
from companion.rules.geometry import PLAYER_COLOURS

from .profile import ColourProfile
from .sighting import UNKNOWN
from .stage import GemEvidence

# The gem colours, in the order their features are laid out; "none" is an empty canoe.
GEMS = ("red", "blue", "yellow", "violet", "clear")
NO_GEM = "none"
CLASSES = (NO_GEM, *GEMS)
COLOURED = GEMS[:-1]
# How sure the model must be of a coloured gem to name it, or of none, to gainsay the
# hand rules; and how likely it must find a colour the rules name to let it stand.
SURE = 0.8
PLAUSIBLE = 0.05

FEATURES = (
    "unlike", "log_texture", "pale", "shift_b", "shift_g", "shift_r",
    "core_b", "core_g", "core_r", "middle_b", "middle_g", "middle_r",
    "core_level", "middle_level",
    *(f"{kind}_{gem}" for gem in GEMS for kind in ("angle", "blend")),
    *(f"hull_{player}" for player in PLAYER_COLOURS),
)


def gem_features(evidence: GemEvidence, player: str,
                 gem_colours: Mapping[str, np.ndarray]) -> np.ndarray:
    """The model's inputs for one canoe's middle (``FEATURES``, in order).
    `gem_colours`: each gem's colour at this table (BGR, the profile's), against which
    the direction the middle leaves its hull in is measured."""
    hull = np.asarray(evidence.hull, np.float64)
    core = np.asarray(evidence.core, np.float64)
    middle = np.asarray(evidence.middle, np.float64)
    level = max(float(hull.sum()), 1.0)
    away = core - hull
    towards = np.array([gem_colours[g] for g in GEMS], np.float64) - hull
    along = towards @ away
    cos = along / np.maximum(np.linalg.norm(towards, axis=1) * np.linalg.norm(away), 1e-6)
    out = np.zeros(len(FEATURES))
    out[0] = evidence.unlike
    out[1] = math.log(max(float(evidence.texture), 1e-3))
    out[2:6] = evidence.look
    out[6:9] = away / level
    out[9:12] = (middle - hull) / level
    out[12] = core.sum() / level
    out[13] = middle.sum() / level
    out[14:24:2] = np.arccos(np.clip(cos, -1.0, 1.0)) / math.pi
    out[15:24:2] = along / np.maximum(np.einsum("ij,ij->i", towards, towards), 1e-6)
    if player in PLAYER_COLOURS:
        out[24 + PLAYER_COLOURS.index(player)] = 1.0
    return out


def table_gem_colours(profile: ColourProfile) -> dict[str, np.ndarray]:
    """Each gem's colour at this table, as its profile learned it (what ``gem_features``
    measures a middle against)."""
    return {g: profile.classes[f"gem:{g}"].bgr for g in GEMS}


@dataclass(frozen=True, eq=False)
class GemModel:
    """A multinomial logistic regression over standardised ``FEATURES``."""

    features: tuple[str, ...]
    classes: tuple[str, ...]
    mean: np.ndarray        # (features,)
    scale: np.ndarray       # (features,)
    weights: np.ndarray     # (features, classes)
    bias: np.ndarray        # (classes,)
    about: str = ""         # what it was fitted on

    @cached_property
    def _affine(self) -> tuple[np.ndarray, np.ndarray]:
        """The standardising folded into the weights: logits = x @ A + c."""
        weights = self.weights / self.scale[:, None]
        return weights, self.bias - (self.mean / self.scale) @ self.weights

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """Each class's probability for feature rows `x` ((n, features) or (features,))."""
        weights, bias = self._affine
        z = x @ weights + bias
        z = np.exp(z - z.max(axis=-1, keepdims=True))
        return z / z.sum(axis=-1, keepdims=True)

    def shares(self, x: np.ndarray) -> dict[str, float]:
        """Each class's probability for one feature row, by name."""
        return dict(zip(self.classes, (float(v) for v in self.probabilities(x)),
                        strict=True))

    def to_json(self) -> dict[str, Any]:
        return {"features": list(self.features), "classes": list(self.classes),
                "mean": _rounded(self.mean), "scale": _rounded(self.scale),
                "weights": [_rounded(row) for row in self.weights],
                "bias": _rounded(self.bias), "about": self.about}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GemModel:
        try:
            features = tuple(str(f) for f in data["features"])
            classes = tuple(str(c) for c in data["classes"])
            mean, scale, weights, bias = (np.array(data[k], np.float64)
                                          for k in ("mean", "scale", "weights", "bias"))
            about = str(data.get("about", ""))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"gem model: not a model's fields ({exc!r})") from None
        if features != FEATURES:
            raise ValueError("gem model: its features are not this version's "
                             f"({len(features)} given, {len(FEATURES)} expected)")
        if sorted(classes) != sorted(CLASSES):
            raise ValueError(f"gem model: unknown classes {list(classes)}")
        arrays = (mean, scale, weights, bias)
        for a in arrays:
            a.setflags(write=False)  # (one model is shared by every detector)
        model = cls(features, classes, mean, scale, weights, bias, about)
        if model.weights.shape != (len(features), len(classes)) or \
                model.mean.shape != (len(features),) or model.scale.shape != (len(features),) \
                or model.bias.shape != (len(classes),) or not np.all(model.scale > 0):
            raise ValueError("gem model: its arrays do not fit its features and classes")
        if not all(np.isfinite(a).all() for a in arrays):
            raise ValueError("gem model: it holds numbers that are not finite")
        return model


def _rounded(values: np.ndarray) -> list[float]:
    return [round(float(v), 6) for v in values]


def weigh(ruled: str | None, share: Mapping[str, float]) -> str | None:
    """The gem in a canoe on the river: what the hand rules read (`ruled`: a gem, None
    for none, or "unknown"), weighed by the model's `share` of each class.

    A coloured gem the model is SURE of is that gem where the rules saw none or could not
    tell. A colour the rules named that the model is sure is not there (no gem or a
    clear one), or finds less likely than PLAUSIBLE, is "unknown": a gem claimed where
    none is costs the inference far more than one missed; so is a colour the rules named
    against another the model is sure of. The model never names clear or empty itself,
    and a clear gem the rules saw stays: across tables it cannot tell an empty hull's
    pale inside from a clear gem (this table's own paleness does,
    ``PieceLooks.pale_gem``), and where the rules saw a clear gem the model's colour was
    more often wrong than right.

    >>> weigh(None, {"none": 0.05, "red": 0.0, "blue": 0.9, "yellow": 0.0,
    ...              "violet": 0.05, "clear": 0.0})
    'blue'
    >>> weigh("red", {"none": 0.6, "red": 0.02, "blue": 0.0, "yellow": 0.0,
    ...               "violet": 0.08, "clear": 0.3})
    'unknown'
    """
    if ruled == "clear":
        return ruled
    coloured = max(COLOURED, key=lambda g: share[g])
    if share[coloured] >= SURE:
        return coloured if ruled in (None, UNKNOWN, coloured) else UNKNOWN
    if ruled in (None, UNKNOWN):
        return ruled
    if share[NO_GEM] + share["clear"] >= SURE:
        return UNKNOWN
    return ruled if share.get(str(ruled), 0.0) >= PLAUSIBLE else UNKNOWN


PACKAGED = packaged("gem_model.json")


def load_gem_model(path: str | Path | None = None) -> GemModel:
    """The gem model in `path` (default: the packaged one, read once)."""
    return _packaged() if path is None else _read(Path(path))


@lru_cache(maxsize=1)
def _packaged() -> GemModel:
    return _read(PACKAGED)


def _read(where: Path) -> GemModel:
    try:
        data = json.loads(where.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"gem model {where}: {exc}") from None
    return GemModel.from_json(data)


__all__ = ["CLASSES", "COLOURED", "FEATURES", "GEMS", "NO_GEM", "PLAUSIBLE", "SURE", "GemModel",
           "gem_features", "load_gem_model", "table_gem_colours", "weigh"]
