"""Where the cloud stands on the weather track, told from the bare track as calibrated.

A calibration photo shows the cloud on a known position and the other positions bare,
printed as this board has them. Each bare position's look is kept as a small grey
square (``TrackLooks``, saved in the colour profile). Reading a frame, every one of them
is compared with its look at calibration, the board around it brought to the same
brightness (so the light may change): the cloud covers the one that differs by more
than noise and uneven light do. When none differs, the cloud is where it stood at
calibration. Two or more differing is not the cloud alone (a hand, something put down
on the track): the track does not tell then. Something put down on a bare position
while the cloud stands where it was calibrated reads as the cloud there: that position
is the only one covered. (The cloud's own look is no help: players put it down any way
round, and where it stood at calibration it hid that position's print.)

Without learned looks (an older profile) the detector falls back to brightness: the
position whose middle is much whiter than around it.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import cv2
import numpy as np

from .board import Board, weather_key
from .locate import Location

PX_PER_MM = 2.0        # the track is read at this resolution, straight from the frame
RADIUS_MM = 10.0       # what the cloud may cover of a position: this circle
OUTER_MM = 14.0        # a position's look: the square around it, board around the circle
SHIFT_MM = 3.0         # how far the found board may be off at the track
RING_LEVEL = 160.0     # the board around a position is brought to this grey level
# A bare position whose grey levels differ from its calibrated look by more than this
# (root mean square, the board around it at RING_LEVEL) is covered. The same print seen
# again differs by sensor noise and uneven light: under 8 in every world and light of the
# tests and benchmarks; the cloud on it, by 20 and more in most.
COVERED = 12.0
# ... and so is one that differs this many times more than every other position of the
# same frame does: a cloud as pale as the print under it (w111's, 7-11 where the bare
# positions of its frames differ by 2) stands out from the frame's own noise all the
# same. On the tuned worlds' stills the most any bare position stood out from the next
# when the cloud covered none was 1.6 times (hand frames included); the cloud, 3.5
# times and more outside w106 (whose cloud in grey is its print's twin: 1.5-2.6).
STANDS_OUT = 3.0


def _side() -> int:
    return int(round(2 * OUTER_MM * PX_PER_MM))


def track_patch(image: np.ndarray, location: Location, centre: tuple[float, float],
                half_mm: float) -> np.ndarray:
    """The grey square of side 2 * half_mm (board mm) around a board point, straight
    from a camera frame at PX_PER_MM."""
    patch = location.patch(image, centre, half_mm, PX_PER_MM, cv2.INTER_AREA)
    return patch if patch.ndim == 2 else cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)


@dataclass
class TrackLooks:
    """The weather positions seen bare at calibration, the cloud on `cloud_on`: each a
    grey square of side 2 * OUTER_MM at PX_PER_MM, the board around it at RING_LEVEL."""

    cloud_on: int
    looks: dict[int, np.ndarray] = field(default_factory=dict)

    @classmethod
    def learn(cls, board: Board, shots: Sequence[tuple[np.ndarray, Location]],
              weather: int) -> TrackLooks | None:
        """From calibration photos (each with where the board is) showing the cloud on
        `weather`. None without a photo."""
        if not shots:
            return None
        looks: dict[int, list[np.ndarray]] = {}
        for image, location in shots:
            for value, centre in board.weather_mm.items():
                if value != weather:
                    looks.setdefault(value, []).append(_levelled(
                        track_patch(image, location, centre, OUTER_MM)))
        return cls(weather, {v: np.clip(np.mean(p, axis=0), 0, 255).astype(np.uint8)
                             for v, p in looks.items()})

    def to_json(self) -> dict[str, Any]:
        return {"px_per_mm": PX_PER_MM, "outer_mm": OUTER_MM,
                "cloud_on": weather_key(self.cloud_on),
                "looks": {weather_key(v): _png(p) for v, p in sorted(self.looks.items())}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TrackLooks:
        """Raises ValueError (or KeyError, TypeError, AttributeError) for anything but
        `to_json`'s shape at this module's resolution."""
        if data["px_per_mm"] != PX_PER_MM or data["outer_mm"] != OUTER_MM:
            raise ValueError("another resolution")
        looks = {int(k): _unpng(v) for k, v in data["looks"].items()}
        cloud_on = int(data["cloud_on"])
        if cloud_on in looks:
            raise ValueError("the cloud's position was not bare")
        return cls(cloud_on, looks)


def _levelled(patch: np.ndarray) -> np.ndarray:
    """A position's square with the board around it brought to RING_LEVEL."""
    out = patch.astype(np.float32)
    out *= RING_LEVEL / max(float(np.median(out[_ring()])), 1.0)
    return out


@cache
def _ring() -> np.ndarray:
    """The part of a position's square outside its circle: the board around it."""
    n = _side()
    yy, xx = np.mgrid[0:n, 0:n]
    centre = n / 2.0 - 0.5
    return np.hypot(xx - centre, yy - centre) > RADIUS_MM * PX_PER_MM


def _png(patch: np.ndarray) -> str:
    ok, data = cv2.imencode(".png", patch)
    if not ok:
        raise ValueError("cannot encode a track look")
    return base64.b64encode(data.tobytes()).decode("ascii")


def _unpng(text: str) -> np.ndarray:
    raw = np.frombuffer(base64.b64decode(text, validate=True), np.uint8)
    patch = cv2.imdecode(raw, cv2.IMREAD_GRAYSCALE)
    if patch is None or patch.shape != (_side(), _side()):
        raise ValueError("not a track look")
    return patch


class CloudFinder:
    """Tells where the cloud stands in camera frames of one board, from its TrackLooks."""

    def __init__(self, board: Board, looks: TrackLooks) -> None:
        self.board = board
        self.cloud_on = looks.cloud_on
        # The middle of each look, SHIFT_MM less than the cloud's circle all round: a
        # window of the circle still holds it whole when the board is found a little off.
        a = int(round((OUTER_MM - RADIUS_MM + SHIFT_MM) * PX_PER_MM))
        self._looks = {v: p[a:-a, a:-a].astype(np.float32) for v, p in looks.looks.items()}

    def differences(self, image: np.ndarray, location: Location) -> dict[int, float]:
        """Per position seen bare at calibration: how its grey levels differ from that
        look (root mean square, at the best shift within SHIFT_MM)."""
        out = {}
        a = int(round((OUTER_MM - RADIUS_MM) * PX_PER_MM))
        for value, look in self._looks.items():
            patch = _levelled(track_patch(image, location, self.board.weather_mm[value],
                                          OUTER_MM))
            least = float(cv2.matchTemplate(patch[a:-a, a:-a], look, cv2.TM_SQDIFF).min())
            out[value] = float(np.sqrt(max(least, 0.0) / look.size))
        return out

    def where(self, image: np.ndarray, location: Location) -> int | None:
        """The weather value the cloud stands on, None when the track does not tell (the
        cloud in a hand, something else on the track)."""
        differ = self.differences(image, location)
        covered = [v for v, d in differ.items() if d > COVERED or (len(differ) > 1 and d > (
            STANDS_OUT * max(e for u, e in differ.items() if u != v)))]
        if not covered:
            return self.cloud_on
        return covered[0] if len(covered) == 1 else None


__all__ = ["COVERED", "STANDS_OUT", "CloudFinder", "TrackLooks", "track_patch"]
