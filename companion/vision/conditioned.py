"""Recognition conditioned on the state: what the picture before a move tells about the
picture after it.

>>> changed = changed_places(vision.detector, before.corrected, after.corrected)  # doctest: +SKIP
>>> seen = condition(after.observation, game, changed)                           # doctest: +SKIP
>>> infer(game, seen)                                                             # doctest: +SKIP

The table knows the exact state before a move and has a stable picture of it, confirmed
by the game. A place whose pixels did not change between that picture and the one after
still holds what the state says, whatever its print or its light make the reading of
it: only the places that changed are taken from the reading after, and the inference
compares them with what each legal outcome puts there. Both pictures are the light-
corrected board images (board millimetres), so they compare pixel for pixel even if the
light changed a little between them; a camera that moved between them gives a different
homography, which the caller checks (``same_view``).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from companion.rules import SLOTS

from .expected import expected_observation

if TYPE_CHECKING:
    from companion.rules import Game, State

    from .detect import Detector
    from .locate import Location

# A pixel of the corrected board image changed when one of its channels moved more than
# this (the light-corrected scale, marker paper = 225): well above sensor noise after
# the detector's smoothing, well below a canoe or gem against the river.
PIXEL_CHANGE = 40
# A place changed when at least this share of a gem's area changed in it: the smallest
# piece that can come or go is a gem.
GEM_SHARE = 0.5
# Two pictures are of the same view when the board's corners moved less than this many
# pixels between them.
SAME_VIEW_PX = 3.0

WEATHER = "weather"


def changed_places(detector: Detector, before: np.ndarray, after: np.ndarray,
                   places: Iterable[str] | None = None) -> set[str]:
    """The places (slots, "D", "F", and "weather" for the cloud's track) whose pixels
    changed between two light-corrected board images of the same board and camera."""
    if before.shape != after.shape:
        raise ValueError("the two pictures are not of the same board at the same scale")
    b, g, r = cv2.split(cv2.absdiff(before, after))
    diff = cv2.max(cv2.max(b, g), r) > PIXEL_CHANGE  # (numpy's max over channels is slow)
    enough = GEM_SHARE * detector.gem_px
    wanted = set(places) if places is not None else None
    return {place for place, idx in _place_pixels(detector).items()
            if (wanted is None or place in wanted)
            and np.count_nonzero(diff[idx]) >= enough}


def _place_pixels(detector: Detector) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each place's pixels (and the weather track's), worked out once per detector."""
    cached = getattr(detector, "_conditioned_places", None)
    if cached is None:
        cached = {place: np.nonzero(mask & detector.valid)
                  for place, mask in detector.place_mask.items()}
        inner = [idx for idx, _ in detector._weather.values()]
        cached[WEATHER] = (np.concatenate([i[0] for i in inner]),
                           np.concatenate([i[1] for i in inner]))
        detector._conditioned_places = cached  # type: ignore[attr-defined]
    return cached


def condition(observation: Mapping[str, Any], before: State | Game | Mapping[str, Any],
              changed: Iterable[str]) -> dict[str, Any]:
    """The observation with every place that did not change holding what the state
    before has there (its disc and canoes; the cloud unless its track changed). A copy:
    the observation given is not modified."""
    changed = set(changed)
    known = expected_observation(before)
    out = copy.deepcopy(dict(observation))
    for slot in SLOTS:
        if slot not in changed:
            out["slots"][slot] = copy.deepcopy(known["slots"][slot])
    for place, key in (("D", "dock"), ("F", "falls")):
        if place not in changed:
            out[key] = copy.deepcopy(known[key])
    if WEATHER not in changed:
        out["weather"] = known["weather"]
    return out


def changed_readings(before: Mapping[str, Any], after: Mapping[str, Any]) -> set[str]:
    """The places whose reading differs between two observations (vision.md) of the
    same camera: what the pixels cannot tell when only readings are at hand."""
    out = {slot for slot in SLOTS
           if _place(before["slots"][slot]) != _place(after["slots"][slot])}
    for place, key in (("D", "dock"), ("F", "falls")):
        if _canoes(before[key]) != _canoes(after[key]):
            out.add(place)
    if before.get("weather") != after.get("weather"):
        out.add(WEATHER)
    return out


def _canoes(items: Iterable[Mapping[str, Any]]) -> list[tuple[str, str]]:
    return sorted((c["player"], c.get("gem") or "") for c in items)


def _place(slot: Mapping[str, Any]) -> tuple[bool, list[tuple[str, str]]]:
    return (slot.get("disc", True) is not False, _canoes(slot.get("canoes", [])))


def same_view(a: Location, b: Location) -> bool:
    """Whether two locations of the board are of one camera position (the board's
    corners, as the homographies put them, moved less than SAME_VIEW_PX)."""
    corners = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]) * 500.0
    pa = _project(np.linalg.inv(a.homography), corners)
    pb = _project(np.linalg.inv(b.homography), corners)
    return float(np.abs(pa - pb).max()) < SAME_VIEW_PX


def _project(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.c_[pts, np.ones(len(pts))] @ h.T
    return p[:, :2] / p[:, 2:3]


__all__ = ["PIXEL_CHANGE", "GEM_SHARE", "SAME_VIEW_PX", "WEATHER", "changed_places",
           "changed_readings", "condition", "same_view"]
