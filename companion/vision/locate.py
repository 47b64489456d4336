"""Finding the board in a frame: the four ArUco markers give the homography from
image pixels to board millimetres.

>>> locator = BoardLocator(board)
>>> where = locator.locate(gray)          # None: the board is not in view
>>> where.markers, where.kept             # markers seen now; True = an earlier homography
(4, False)

Once the board was found, later frames look for each marker only near where it was
(fast), and a frame with some markers covered keeps the last good homography as long
as the markers still seen lie where that homography puts them: the camera has not moved.
When they lie elsewhere, seen by a camera that only turned (a knock, a corner turned
out of the picture), the last homography turned to fit them finds the board again, from
two markers as well as three (``turned``).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .board import Board
from .markers import MarkerFinder
from .turned import turned_homography

# The camera counts as not moved while the markers seen lie within this of where the
# last homography puts them (mm on the board; marker corners are found to ~0.3 px).
MOVED_MM = 3.0
# A marker "looks as it did" when its view correlates at least this well with the view
# when it was last found (1 = identical; a shift of a third of a cell drops below).
SAME_MARKER = 0.85
TEMPLATE_PX = 32
# Three markers (twelve corners) are enough for a fresh homography (vision.md).
FIT_MARKERS = 3
# A fresh homography is accepted only if it maps every corner to within this (mm).
FIT_MM = 4.0
# After a knock the markers seen find the board again (``turned``) if the last
# homography, turned, maps their corners to within this (mm): with three unknowns to
# eight corners or more found to ~0.3 px, a camera that only turned fits them to about
# a millimetre (1.2 mm at most on the 3-D worlds' frames, knocked as worlds_games knocks
# them); most cameras that also moved fit them worse (then three markers fit afresh).
TURNED_FIT_MM = 2.0


@dataclass
class Location:
    """Where the board is in one frame."""

    homography: np.ndarray          # image px -> board mm (3x3)
    markers: int                    # markers found in this frame
    kept: bool                      # the homography is an earlier frame's
    seen: dict[int, np.ndarray]     # marker id -> its 4 corners in the image

    def to_board(self, points: np.ndarray) -> np.ndarray:
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def patch(self, image: np.ndarray, centre_mm: tuple[float, float], half_mm: float,
              px_per_mm: float, interpolation: int = cv2.INTER_LINEAR) -> np.ndarray:
        """The square of side 2 * half_mm around a board point, straightened from the
        frame itself at px_per_mm (sharper than the board image, for small things)."""
        p = px_per_mm
        n = int(round(2 * half_mm * p))
        shift = np.array([[p, 0, (half_mm - centre_mm[0]) * p],
                          [0, p, (half_mm - centre_mm[1]) * p], [0, 0, 1]])
        return cv2.warpPerspective(image, shift @ self.homography, (n, n),
                                   flags=interpolation, borderMode=cv2.BORDER_REPLICATE)


class BoardLocator:
    """Tracks the board's homography over a stream of frames from one camera."""

    def __init__(self, board: Board, finder: MarkerFinder | None = None) -> None:
        self.board = board
        self.finder = finder or MarkerFinder(board.markers.dictionary)
        # (Where the markers found say a missing one must be, in a board found afresh.)
        self.closer = finder or MarkerFinder(board.markers.dictionary, correcting=True)
        self._mm = {i: np.array(board.markers.corners_mm(i), np.float64)
                    for i in board.markers.centres_mm}
        self.last: Location | None = None
        self._templates: dict[int, np.ndarray] = {}

    def reset(self) -> None:
        """Forget the last homography (the camera was moved on purpose)."""
        self.last = None
        self._templates = {}

    def _marker_view(self, gray: np.ndarray, h: np.ndarray, marker: int) -> np.ndarray:
        """A marker (with a little of its paper) as the homography sees it: a small
        square image, brightness-normalised."""
        mm = self._mm[marker]
        side = mm[1, 0] - mm[0, 0]
        margin = 0.15 * side
        px = TEMPLATE_PX / (side + 2 * margin)
        to_tpl = np.array([[px, 0, -(mm[0, 0] - margin) * px],
                           [0, px, -(mm[0, 1] - margin) * px], [0, 0, 1]]) @ h
        view = cv2.warpPerspective(gray, to_tpl, (TEMPLATE_PX, TEMPLATE_PX),
                                   flags=cv2.INTER_LINEAR).astype(np.float32)
        view -= view.mean()
        return view / max(float(np.linalg.norm(view)), 1e-6)

    def _unchanged(self, gray: np.ndarray) -> bool:
        """All markers still look as they did when last found (normalised correlation),
        so the last homography holds without looking for them again."""
        if not self._templates or self.last is None:
            return False
        h = self.last.homography
        return all(float((self._marker_view(gray, h, i) * t).sum()) >= SAME_MARKER
                   for i, t in self._templates.items())

    def locate(self, gray: np.ndarray) -> Location | None:
        """The board's location in a grey frame, or None if it cannot be found."""
        if gray.ndim == 3:
            gray = cv2.cvtColor(gray, cv2.COLOR_BGR2GRAY)
        if self.last is not None and self._unchanged(gray):
            # Every marker looks as it did where it was: the camera has not moved.
            return Location(self.last.homography, len(self.last.seen), False, self.last.seen)
        seen = self._track(gray) if self.last is not None else {}
        if len(seen) < len(self._mm):
            seen = {**self._find(gray), **seen}
        seen = {i: c for i, c in seen.items() if i in self._mm}
        if self.last is not None and FIT_MARKERS <= len(seen) < len(self._mm) \
                and self._agrees(self.last.homography, seen, MOVED_MM):
            # A marker covered on a still camera: the last homography holds.
            return Location(self.last.homography, len(seen), True, seen)
        if len(seen) >= FIT_MARKERS:
            # The camera moved with a marker out of sight: knocked, it only turned, and
            # the last homography turned keeps the board's far corner where a lens's
            # distortion takes one fitted afresh to three corners astray (up to 16 mm).
            h = self._turned(gray, seen) if self.last is not None and \
                len(seen) < len(self._mm) else None
            if h is None:
                h = self._fit(seen)
            if h is not None:
                if self.last is not None and self._agrees(self.last.homography, seen, 0.25):
                    h = self.last.homography  # still camera: keep the picture steady
                return self._found(gray, h, seen)
        if self.last is not None and seen and self._agrees(self.last.homography, seen, MOVED_MM):
            return Location(self.last.homography, len(seen), True, seen)
        if self.last is not None and len(seen) == 2:
            # The camera moved with only two markers in the picture (knocked, a corner
            # turned out of it): the board as the last homography turned to fit them.
            h = self._turned(gray, seen)
            if h is not None:
                return self._found(gray, h, seen)
        if self.last is not None and seen:
            self.last = None  # the camera moved while markers were covered
        return None

    def _found(self, gray: np.ndarray, h: np.ndarray, seen: dict[int, np.ndarray]
               ) -> Location:
        """The board found afresh through `h`: the last location from now on."""
        self.last = Location(h, len(seen), False, seen)
        # Only markers seen are remembered as they look: a covered one would be
        # remembered as the hand over it.
        self._templates = {i: self._marker_view(gray, h, i) for i in seen}
        return self.last

    def _turned(self, gray: np.ndarray, seen: dict[int, np.ndarray]) -> np.ndarray | None:
        assert self.last is not None
        corners = sorted(seen)
        return turned_homography(self.last.homography,
                                 np.concatenate([seen[i] for i in corners]),
                                 np.concatenate([self._mm[i] for i in corners]),
                                 (gray.shape[1], gray.shape[0]), TURNED_FIT_MM)

    def _find(self, gray: np.ndarray) -> dict[int, np.ndarray]:
        seen = {i: c for i, c in self.finder.find(gray).items() if i in self._mm}
        # The markers found say where the others must be: look there closer (a small,
        # blurred or glaring marker is often found at twice the size, with one misread
        # cell put right); and, finding the board afresh, again when that found one,
        # from the fit with it (two markers say little of where the far corners lie).
        # On a camera followed from frame to frame, a marker missing is mostly covered
        # and the last homography holds: it is looked for once, strictly.
        fresh = self.last is None
        finder = self.closer if fresh else self.finder
        while 2 <= len(seen) < len(self._mm):
            h = self._fit(seen)
            if h is None:
                break
            closer = {**seen, **self._look_closer(gray, np.linalg.inv(h),
                                                  [i for i in self._mm if i not in seen],
                                                  finder)}
            # Found at twice the size, a marker's corners are less sure: one that
            # leaves no fit with the others is not taken (the others still fit).
            if len(closer) == len(seen) or (len(seen) >= FIT_MARKERS
                                            and self._fit(closer) is None):
                break
            seen = closer
            if not fresh:
                break
        return seen

    def _look_closer(self, gray: np.ndarray, inv: np.ndarray, ids: list[int],
                     finder: MarkerFinder) -> dict[int, np.ndarray]:
        found: dict[int, np.ndarray] = {}
        h_img, w_img = gray.shape[:2]
        for i in ids:
            pts = cv2.perspectiveTransform(self._mm[i].reshape(-1, 1, 2), inv).reshape(-1, 2)
            lo, hi = pts.min(axis=0), pts.max(axis=0)
            pad = 0.5 * (hi - lo).max() + 8
            x0, y0 = int(max(lo[0] - pad, 0)), int(max(lo[1] - pad, 0))
            x1, y1 = int(min(hi[0] + pad, w_img)), int(min(hi[1] + pad, h_img))
            if x1 - x0 < 8 or y1 - y0 < 8:
                continue
            crop = cv2.resize(gray[y0:y1, x0:x1], None, fx=2, fy=2,
                              interpolation=cv2.INTER_CUBIC)
            # (dst None: OpenCV makes a new array; its stubs want one passed)
            crop = cv2.normalize(crop, None, 0, 255, cv2.NORM_MINMAX)  # type: ignore[call-overload]
            got = finder.find(crop)
            if i in got:
                found[i] = (got[i] + 0.5) / 2 - 0.5 + np.array([x0, y0], np.float32)
        return found

    def _track(self, gray: np.ndarray) -> dict[int, np.ndarray]:
        """Look for each marker near where it was last."""
        assert self.last is not None
        inv = np.linalg.inv(self.last.homography)
        h_img, w_img = gray.shape[:2]
        seen: dict[int, np.ndarray] = {}
        for i, mm in self._mm.items():
            pts = cv2.perspectiveTransform(mm.reshape(-1, 1, 2), inv).reshape(-1, 2)
            lo, hi = pts.min(axis=0), pts.max(axis=0)
            pad = 0.6 * (hi - lo).max() + 12
            x0, y0 = int(max(lo[0] - pad, 0)), int(max(lo[1] - pad, 0))
            x1, y1 = int(min(hi[0] + pad, w_img)), int(min(hi[1] + pad, h_img))
            if x1 - x0 < 16 or y1 - y0 < 16:
                continue
            found = self.finder.find(gray[y0:y1, x0:x1])
            if i in found:
                seen[i] = found[i] + np.array([x0, y0], np.float32)
        return seen

    def _fit(self, seen: dict[int, np.ndarray]) -> np.ndarray | None:
        src = np.concatenate([seen[i] for i in sorted(seen)]).astype(np.float64)
        dst = np.concatenate([self._mm[i] for i in sorted(seen)])
        h, _ = cv2.findHomography(src, dst, 0)
        if h is None or not np.all(np.isfinite(h)):
            return None
        err = np.linalg.norm(cv2.perspectiveTransform(src.reshape(-1, 1, 2), h).reshape(-1, 2)
                             - dst, axis=1)
        return h if err.max() <= FIT_MM else None

    def _agrees(self, h: np.ndarray, seen: dict[int, np.ndarray], tol_mm: float) -> bool:
        for i, corners in seen.items():
            mm = cv2.perspectiveTransform(corners.reshape(-1, 1, 2).astype(np.float64),
                                          h).reshape(-1, 2)
            if np.abs(mm - self._mm[i]).max() > tol_mm:
                return False
        return True


__all__ = ["BoardLocator", "Location", "MOVED_MM"]
