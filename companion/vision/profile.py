"""The colour profile: what each kind of piece (and the board under it) looks like on
this table, learned from pixels at known places, never from hard-coded thresholds.

>>> from companion.vision.profile_file import load_profile
>>> profile = load_profile()                     # the default, calibration/profile.json
>>> labels = profile.classify(normalised_bgr)    # one class index per pixel
>>> profile.names[labels[0, 0]]
'water'

Colours are taken after the light correction of ``companion.vision.light`` (the marker
paper is the white reference), so a profile learned in one light holds in another. Each
class is a Gaussian in (r, g chromaticity, log brightness); brightness varies the most
under shadows, chromaticity the least. Classifying a pixel is one look-up in a 64³
table built from the Gaussians when the profile is loaded.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from companion import paths
from companion.rules.geometry import GEMS, PLAYER_COLOURS

from .cloud import TrackLooks
from .disc_looks import DiscLooks

# The packaged default; profile_file.load_profile() reads the table's own learned one
# first.
DEFAULT_PROFILE = paths.packaged(paths.PROFILE)
VERSION = 1

CANOE_CLASSES = tuple(f"canoe:{c}" for c in PLAYER_COLOURS)
GEM_CLASSES = tuple(f"gem:{g}" for g in GEMS)
PIECE_CLASSES = CANOE_CLASSES + GEM_CLASSES + ("cloud",)
# Classes that are the board itself (anything named "board:..." is too).
GROUND_CLASSES = ("water", "disc")
# The water in a canoe's shadow, where the table's lamp casts one the camera sees
# (``learn_board.canoe_shadow_pixels``). It is no pixel's label: like a gem's, its colour
# overlaps pieces' (a dark hull, a violet gem). A blob of a hull's colour is measured
# against it, as against the board's own classes (``likelier``): a shadow is no hull.
SHADOW = "shadow"
NONE = 255  # label of a pixel that matches no class

# A pixel is "none" when even its best class is further than this (squared Mahalanobis
# distance; the chi-square 99.99% point for 3 degrees of freedom).
REJECT_D2 = 21.1
# Smallest spread a class may have (feature units): one photo cannot show all the noise
# a camera makes.
MIN_SIGMA = (0.012, 0.012, 0.06)
LEVELS = 64  # per channel in the look-up table
GROUND_CELL_MM = 8.0
SHADE_CELL_MM = 10.0


class ProfileError(ValueError):
    """A colour profile that cannot be used; one-line message."""


def features(bgr: np.ndarray) -> np.ndarray:
    """(…, 3) BGR values -> (…, 3) features: r and g chromaticity, log brightness."""
    x = np.asarray(bgr, np.float64)
    s = x.sum(axis=-1) + 3.0
    return np.stack([(x[..., 2] + 1) / s, (x[..., 1] + 1) / s, np.log(s / 3)], axis=-1)


@dataclass
class ColourClass:
    mean: np.ndarray      # feature mean
    cov: np.ndarray       # feature covariance
    bgr: np.ndarray       # mean colour (light-corrected BGR), for local references

    # Every pixel judged is measured against the same few classes: their inverse and
    # log-determinant are worked out once.
    @cached_property
    def inverse(self) -> np.ndarray:
        return np.linalg.inv(self.cov)

    @cached_property
    def log_det(self) -> float:
        return math.log(np.linalg.det(self.cov))

    def to_json(self) -> dict[str, Any]:
        return {"mean": [round(float(v), 6) for v in self.mean],
                "cov": [[round(float(v), 8) for v in row] for row in self.cov],
                "bgr": [round(float(v), 2) for v in self.bgr]}


@dataclass
class ColourProfile:
    """Gaussian colour classes plus the sizes of the pieces as the camera sees them."""

    classes: dict[str, ColourClass]
    # How big pieces look, mm² of their colour: "canoe" (a hull's pixels), "canoe_box"
    # (the rectangle around a hull), "canoe_long_mm" and "canoe_short_mm" (its sides),
    # "gem", "cloud".
    sizes_mm2: dict[str, float] = field(default_factory=dict)
    source: str = ""
    # Where on the board each class of the board itself was seen in calibration: a
    # board-class colour elsewhere is something in the way (a hand the colour of the
    # dock's print); and where the print itself took a piece's class there, away from
    # every place (no hand). Cells of GROUND_CELL_MM; None when unknown.
    ground_map: dict[str, np.ndarray] | None = None
    # How bright the empty board is in each SHADE_CELL_MM cell, in calibration light
    # (NaN where the layout's pieces hid it): what a shadow is measured against.
    board_luma: np.ndarray | None = None
    # The empty board's look per SHADE_CELL_MM cell: median r, g chromaticity (rows,
    # cols, 2) and brightness spread (rows, cols); what a hand is told apart by.
    board_chroma: np.ndarray | None = None
    board_texture: np.ndarray | None = None
    # The weather track's positions as seen bare in calibration (where the cloud is read
    # from); None when unknown.
    track: TrackLooks | None = None
    # How each slot's ring looks with its disc and without one (``disc_looks``); None
    # when unknown.
    discs: DiscLooks | None = None
    # How uneven a hull on the river looks at this table (``canoes.hull_spread``: the
    # median of the calibration layout's hulls): a canoe's shadow is far smoother than
    # a hull, whose rim, inside and gem catch the light. None when unknown.
    hull_spread: float | None = None
    # What the calibration photos did not show that it learned from the others instead,
    # a line each (for the person calibrating; not saved).
    notes: list[str] = field(default_factory=list, repr=False, compare=False)
    _lut: np.ndarray | None = field(default=None, repr=False)

    @property
    def names(self) -> list[str]:
        return list(self.classes)

    def index(self, name: str) -> int:
        return self.names.index(name)

    def ground(self) -> list[int]:
        """Indices of the classes that are the board (water, disc, printed board)."""
        return [i for i, n in enumerate(self.names)
                if n in GROUND_CLASSES or n.startswith("board:")]

    # -- classifying ------------------------------------------------------------------------

    def lut(self) -> np.ndarray:
        """The 64³ look-up table: class index (or NONE) for each quantised BGR colour.

        Gems are left out: they are small, their colours bleed into their canoe's, and
        a broad gem class would claim water and board. A gem is judged where it can
        only be, in the middle of a canoe (``Detector``), against ``score``. SHADOW is
        left out too: it is only what a blob of a hull's colour is measured against
        (``likelier``)."""
        if self._lut is None:
            step = 256 // LEVELS
            v = np.arange(LEVELS) * step + step / 2 - 0.5
            b, g, r = np.meshgrid(v, v, v, indexing="ij")
            cells = np.stack([b, g, r], axis=-1).reshape(-1, 3)
            pixels = [i for i, n in enumerate(self.names)
                      if n not in GEM_CLASSES and n != SHADOW]
            labels, _ = self.score(cells, only=pixels)
            self._lut = labels.astype(np.uint8)
        return self._lut

    def score(self, bgr: np.ndarray, only: list[int] | None = None) -> tuple[np.ndarray,
                                                                               np.ndarray]:
        """Best class (index, NONE if rejected) and its squared distance for each of
        (N, 3) light-corrected BGR colours; `only` limits the candidate classes."""
        f = features(bgr)
        names = self.names
        which = range(len(names)) if only is None else only
        best = np.full(len(f), np.inf)
        best_d2 = np.full(len(f), np.inf)
        label = np.full(len(f), NONE, np.int32)
        for i in which:
            c = self.classes[names[i]]
            d2 = squared_distance(f, c)
            cost = d2 + c.log_det
            better = cost < best
            best[better] = cost[better]
            best_d2[better] = d2[better]
            label[better] = i
        label[best_d2 > REJECT_D2] = NONE
        return label, best_d2

    def likelier(self, bgr: np.ndarray, name: str) -> float:
        """How much likelier (N, 3) light-corrected BGR colours are of class `name` than
        of the board (water, discs, print, and the water in a canoe's shadow where this
        table's lamp casts one): the median over them of twice the log of the likelihood
        ratio against the likeliest board class. A patch the classifier gives to a
        piece's colour by a hair (dark water for a blue hull, a shadowed disc for a brown
        one) scores near 0; a hull, in any light the profile was learned in, scores far
        above."""
        if len(bgr) == 0:
            return 0.0
        f = features(np.asarray(bgr, np.float64).reshape(-1, 3))
        cost = {n: _cost(f, self.classes[n]) for n in self.names
                if n in (name, SHADOW) or n in GROUND_CLASSES or n.startswith("board:")}
        own = cost.pop(name)
        board = np.min(np.stack(list(cost.values())), axis=0)
        return float(np.median(board - own))

    def classify(self, bgr: np.ndarray) -> np.ndarray:
        """Class index per pixel of a light-corrected uint8 BGR image."""
        q = bgr >> 2
        # (Built in place, one channel at a time: a third less time than at once.)
        idx = q[..., 0].astype(np.int32) << 12
        idx |= q[..., 1].astype(np.int32) << 6
        idx |= q[..., 2]
        return self.lut()[idx]

    # -- learning, saving --------------------------------------------------------------------

    @classmethod
    def learn(cls, samples: Mapping[str, np.ndarray], sizes_mm2: Mapping[str, float],
              source: str = "") -> ColourProfile:
        """A profile from light-corrected BGR pixel samples per class name ((N, 3) each).
        A class's outliers (beyond the 99% spread) are dropped before the final fit."""
        classes: dict[str, ColourClass] = {}
        for name, px in samples.items():
            px = np.asarray(px, np.float64).reshape(-1, 3)
            if len(px) < 8:
                raise ProfileError(f"too few pixels of {name} to learn its colour "
                                   f"({len(px)}); is the piece where the layout says?")
            classes[name] = _fit(px)
        return cls(classes, dict(sizes_mm2), source)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "version": VERSION, "source": self.source,
            "space": "light-corrected BGR; features r, g chromaticity and log brightness",
            "sizes_mm2": {k: round(v, 1) for k, v in self.sizes_mm2.items()},
            "classes": {n: c.to_json() for n, c in self.classes.items()}}
        if self.ground_map:
            shape = next(iter(self.ground_map.values())).shape
            data["ground_map"] = {
                "cell_mm": GROUND_CELL_MM, "shape": list(shape),
                "classes": {n: np.packbits(m.ravel()).tobytes().hex()
                            for n, m in self.ground_map.items()}}
        if self.board_luma is not None:
            data["board_luma"] = {
                "cell_mm": SHADE_CELL_MM,
                "rows": _rows(self.board_luma, 1)}
        if self.board_chroma is not None and self.board_texture is not None:
            data["board_surface"] = {
                "cell_mm": SHADE_CELL_MM,
                "r": _rows(self.board_chroma[..., 0], 4),
                "g": _rows(self.board_chroma[..., 1], 4),
                "texture": _rows(self.board_texture, 1)}
        if self.track is not None:
            data["weather_track"] = self.track.to_json()
        if self.discs is not None:
            data["disc_looks"] = self.discs.to_json()
        if self.hull_spread is not None:
            data["hull_spread"] = round(self.hull_spread, 4)
        return data

    def save(self, path: str | Path) -> None:
        """Write the profile; all at once (a power cut leaves the old file or the new,
        never half of one: the table reads it at every start)."""
        path = Path(path)
        part = path.with_name(path.name + ".part")
        with open(part, "w", encoding="utf-8") as f:
            f.write(json.dumps(self.to_json(), indent=1) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(part, path)


def _rows(grid: np.ndarray, digits: int) -> list[list[float | None]]:
    return [[None if np.isnan(v) else round(float(v), digits) for v in row] for row in grid]


def _fit(px: np.ndarray) -> ColourClass:
    f = features(px)
    keep = np.ones(len(f), bool)
    mean, cov = _moments(f)
    for _ in range(2):
        d = f - mean
        inside = np.einsum("ni,ij,nj->n", d, np.linalg.inv(cov), d) < 11.34  # chi² 99%
        if inside.sum() < 8:
            break
        keep = inside
        mean, cov = _moments(f[keep])
    return ColourClass(mean, cov, np.median(px[keep], axis=0))


def squared_distance(f: np.ndarray, c: ColourClass) -> np.ndarray:
    """The squared Mahalanobis distance of features `f` from class `c`."""
    d = f - c.mean
    d2: np.ndarray = np.einsum("ni,ij,nj->n", d, c.inverse, d)
    return d2


def _cost(f: np.ndarray, c: ColourClass) -> np.ndarray:
    """Minus twice the log-likelihood of features `f` under class `c` (up to a constant
    shared by all classes): what ``score`` compares."""
    return squared_distance(f, c) + c.log_det


def _moments(f: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    mean = f.mean(axis=0)
    cov = np.cov(f, rowvar=False) if len(f) > 1 else np.zeros((3, 3))
    cov = cov + np.diag(np.square(MIN_SIGMA))
    return mean, cov


__all__ = ["CANOE_CLASSES", "GEM_CLASSES", "PIECE_CLASSES", "GROUND_CLASSES", "NONE", "SHADOW",
           "ColourClass", "ColourProfile", "ProfileError", "DEFAULT_PROFILE", "GROUND_CELL_MM",
           "SHADE_CELL_MM", "VERSION", "features", "squared_distance"]
