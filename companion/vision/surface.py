"""The empty board's own look, cell by cell, and the things over it that reach in from
beyond its edge (an arm).

>>> surface = Surface(board, profile, px_per_mm=0.8)
>>> arm = surface.reaching_in(corrected)      # (rows, cols) bool, cells of SHADE_CELL_MM

The hands test of ``detect`` judges colours by class, and a hand can have a class the
board shows right there: a pale hand over the dock's print, a brown one over the bank.
Against the board's look at that very place, learned from the calibration photos, it
stands out: its chromaticity is not the print's, and it is smooth where the print is
striped. Pieces differ from the board too, but an arm is the only thing that comes in
over the board's edge, so only departures joined to the edge and reaching in count,
or a departure too big for pieces where no piece may lie.

Two thresholds (a hysteresis): cells that depart a little are joined to those that
depart plainly, so an arm is followed across a print whose colour is close to its own.
What the camera's white balance leaves on the whole board (the light correction
interpolates the marker paper's white between the corners, and a clipped paper makes
that interpolation a little wrong) is a smooth tilt of all the chromaticities: it is
fitted robustly and taken out first.
"""

from __future__ import annotations

import cv2
import numpy as np

from .board import Board
from .markers import PAPER_MARGIN
from .profile import SHADE_CELL_MM, ColourProfile

PLAIN = 0.05      # chromaticity distance of a cell plainly unlike the board there
SLIGHT = 0.025    # ... slightly unlike it (joined to a plain one, it is the same thing)
SMOOTHER = 0.7    # a cell this much smoother than the board's print there is covered
PRINT = 4.0       # texture (grey-level spread) from which a print counts as textured
REACH_MM = 30.0   # an arm reaches at least this far in over the board's edge
AWAY_MM2 = 1500.0  # this much unlike the board where no piece can lie is no piece either
# A cell changed since a clear picture of the same view when its pixels moved this many
# grey levels on average: an arm or a hand moves them by 40 and more, a still view's
# noise by one or two.
FRESH = 15.0
TILT_KEEP = 70    # percent of cells (the most board-like) the white-balance tilt is fitted to
# A cell the calibration photos never showed bare is learned from the confirmed pictures
# that show it bare, once this many did (their median: one shadow or glint is outvoted).
BARE_ENOUGH = 3


# A pixel of the corrected board image changed when its colour moved more than this
# (the distance in B, G, R; the light-corrected scale, marker paper = 225): well above
# sensor noise after the detector's smoothing, well below a canoe or gem against the
# river. The distance, not the most changed channel: a blue hull leaving blue water
# moves every channel, none by much (the tuned g111 e18 with the setup calibration:
# 22 pixels of 7L's box over 40 in one channel, 106 in the distance; a quiet part of
# the board none over 10 in either). (The print's agreement across a knock, ``views``,
# and a canoe's bow beside a pile still hold the most changed channel to it.)
PIXEL_CHANGE = 40


def largest_change(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per pixel of two BGR images of one size, how far its most changed channel moved
    (uint8)."""
    return channel_most(cv2.absdiff(a, b))


def channel_most(delta: np.ndarray) -> np.ndarray:
    """Per pixel of an absolute BGR difference (``cv2.absdiff``), its largest channel."""
    blue, green, red = cv2.split(delta)
    return cv2.max(cv2.max(blue, green), red)  # (numpy's max over channels is slow)


def colour_moved(delta: np.ndarray, by: float) -> np.ndarray:
    """Per pixel of an absolute BGR difference (``cv2.absdiff``), whether its colour
    moved more than `by` (the distance in B, G and R)."""
    d = delta.astype(np.float32)
    return np.asarray(np.einsum("ijk,ijk->ij", d, d) > by * by)


def fresh(img: np.ndarray, reference: np.ndarray, side: int) -> np.ndarray:
    """Cells (rows, cols) of `side` pixels whose mean change between a light-corrected
    board image and a reference of the same view is over FRESH grey levels (the
    largest channel's)."""
    rows, cols = img.shape[0] // side, img.shape[1] // side
    most = largest_change(img[:rows * side, :cols * side], reference[:rows * side, :cols * side])
    mean = cv2.resize(most, (cols, rows), interpolation=cv2.INTER_AREA)
    return np.asarray(mean > FRESH)


def cell_px(px_per_mm: float) -> int:
    """The side in pixels of a SHADE_CELL_MM cell at a resolution (even)."""
    return max(2, 2 * int(round(SHADE_CELL_MM * px_per_mm / 2)))


def cell_look(img: np.ndarray, side: int) -> tuple[np.ndarray, np.ndarray]:
    """Per cell of `side` pixels of a light-corrected board image (uint8 BGR): the
    r and g chromaticity of its mean colour (rows, cols, 2) and the spread (standard
    deviation) of its grey level (rows, cols)."""
    rows, cols = img.shape[0] // side, img.shape[1] // side
    x = img[:rows * side, :cols * side]
    colour = cv2.resize(x, (cols, rows), interpolation=cv2.INTER_AREA).astype(np.float32)
    lum = cv2.cvtColor(x, cv2.COLOR_BGR2GRAY).astype(np.float32)
    moments = cv2.resize(cv2.merge([lum, lum * lum]), (cols, rows),
                         interpolation=cv2.INTER_AREA)
    total = colour.sum(axis=2) + 3.0
    chroma = np.dstack([(colour[..., 2] + 1.0) / total, (colour[..., 1] + 1.0) / total])
    spread = np.sqrt(np.maximum(moments[..., 1] - moments[..., 0] ** 2, 0.0))
    return chroma, spread


class Surface:
    """Finds things reaching in over the board's edge in light-corrected board images of
    one board, against the profile's board_chroma and board_texture."""

    def __init__(self, board: Board, profile: ColourProfile, px_per_mm: float,
                 places: np.ndarray | None = None) -> None:
        """`places`: a mask of the board image (px_per_mm) where pieces may lie."""
        if profile.board_chroma is None or profile.board_texture is None:
            raise ValueError("the colour profile does not know the empty board's look "
                             "(recalibrate the profile)")
        self.cell_px = cell_px(px_per_mm)
        h = int(round(board.size_mm[1] * px_per_mm))
        w = int(round(board.size_mm[0] * px_per_mm))
        rows, cols = h // self.cell_px, w // self.cell_px
        self.shape = (rows, cols)
        self._chroma = cv2.resize(profile.board_chroma.astype(np.float32), (cols, rows),
                                  interpolation=cv2.INTER_NEAREST)
        self._texture = cv2.resize(profile.board_texture.astype(np.float32), (cols, rows),
                                   interpolation=cv2.INTER_NEAREST)
        self._printed = np.nan_to_num(self._texture, nan=0.0) > PRINT
        cell_mm = self.cell_px / px_per_mm
        gy, gx = np.mgrid[0:rows, 0:cols]
        x0, y0 = gx * cell_mm, gy * cell_mm
        # The marker paper and its black squares are not the board.
        paper = np.zeros((rows, cols), bool)
        half = board.markers.size_mm * (0.5 + PAPER_MARGIN) + 1
        for cx, cy in board.markers.centres_mm.values():
            paper |= (x0 + cell_mm > cx - half) & (x0 < cx + half) & \
                     (y0 + cell_mm > cy - half) & (y0 < cy + half)
        self._paper = paper
        self._known = np.isfinite(self._chroma).all(axis=2) & ~paper
        self._known_at = np.flatnonzero(self._known)
        edge = np.zeros((rows, cols), bool)
        edge[0, :] = edge[-1, :] = edge[:, 0] = edge[:, -1] = True
        self._edge = edge & ~paper
        self._cell_mm2 = cell_mm * cell_mm
        self._off_places = np.ones((rows, cols), bool)
        if places is not None:
            c = self.cell_px
            cut = places[:rows * c, :cols * c].reshape(rows, c, cols, c)
            self._off_places[:cut.shape[0], :cut.shape[2]] = ~cut.any(axis=(1, 3))
        self._away = self._off_places & self._known
        self._bare: dict[int, list[tuple[float, float, float]]] = {}
        self._inward_mm = np.minimum(np.minimum(gx, cols - 1 - gx),
                                     np.minimum(gy, rows - 1 - gy)) * cell_mm
        u, v = x0 / board.size_mm[0], y0 / board.size_mm[1]
        self._tilt = np.stack([np.ones_like(u), u, v, u * v], axis=-1).reshape(-1, 4)

    def unknown(self) -> np.ndarray:
        """The cells (rows, cols) whose look is not known yet (no calibration photo
        showed them bare), the marker paper not counted."""
        return ~self._known & ~self._paper

    def learn(self, img: np.ndarray, bare: np.ndarray) -> int:
        """Learn from a light-corrected board image whose `bare` cells (rows, cols) show
        the board with nothing on it (a confirmed picture: the state says where its
        pieces lie) the look of the cells no calibration photo showed bare: the dock
        under the set-up canoes, the cloud's place in the layout. A cell counts once
        BARE_ENOUGH pictures showed it. Returns how many cells became known."""
        new = bare[:self.shape[0], :self.shape[1]] & self.unknown()
        if not new.any():
            return 0
        chroma, texture = cell_look(img, self.cell_px)
        rows, cols = self.shape
        learned = 0
        for r, c in zip(*np.nonzero(new), strict=True):
            seen = self._bare.setdefault(int(r) * cols + int(c), [])
            seen.append((float(chroma[r, c, 0]), float(chroma[r, c, 1]), float(texture[r, c])))
            if len(seen) < BARE_ENOUGH:
                continue
            red, green, spread = np.median(np.array(seen), axis=0)
            self._chroma[r, c] = (red, green)
            self._texture[r, c] = spread
            self._known[r, c] = True
            del self._bare[int(r) * cols + int(c)]
            learned += 1
        if learned:
            self._printed = np.nan_to_num(self._texture, nan=0.0) > PRINT
            self._known_at = np.flatnonzero(self._known)
            self._away = self._off_places & self._known
        return learned

    def like_board(self, departure: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        """The cells (rows, cols) known to look as the board does there (``departure``:
        not unlike it, slightly or plainly, nor smoother than its print)."""
        dist, smooth = departure
        return self._known & (dist <= SLIGHT) & ~smooth

    def departs(self, mask: np.ndarray, departure: tuple[np.ndarray, np.ndarray]) -> float:
        """The share of the known cells under a mask of the board image (same
        resolution) that are unlike the board there (1.0 when none is known)."""
        rows, cols = self.shape
        c = self.cell_px
        cut = mask[:rows * c, :cols * c]
        cells = np.zeros((rows, cols), bool)
        cells[:cut.shape[0] // c, :cut.shape[1] // c] = cut[:cut.shape[0] // c * c,
                                                            :cut.shape[1] // c * c] \
            .reshape(cut.shape[0] // c, c, cut.shape[1] // c, c).any(axis=(1, 3))
        cells &= self._known
        if not cells.any():
            return 1.0
        dist, smooth = departure
        unlike = (dist > SLIGHT) | smooth
        return float(np.count_nonzero(unlike & cells)) / float(np.count_nonzero(cells))

    def departure(self, img: np.ndarray, unseen: np.ndarray | None = None
                  ) -> tuple[np.ndarray, np.ndarray]:
        """How far each cell's chromaticity is from the board's there (the white
        balance's tilt taken out; 0 where the board is not known), and which cells
        are much smoother than the print there. `unseen`: cells the camera's frame
        does not reach (wholly or in part): they depart from nothing and tilt nothing."""
        chroma, texture = cell_look(img, self.cell_px)
        rows, cols = self.shape
        delta = (chroma[:rows, :cols] - self._chroma).reshape(-1, 2).astype(np.float64)
        known = self._known_at
        if unseen is not None:
            known = known[~unseen.ravel()[known]]
        if len(known) >= 8:
            fit = known[::2]  # a tilt of four numbers: every other cell is plenty
            tilt, dk = self._tilt[fit], delta[fit]
            use = np.ones(len(fit), bool)
            keep = len(fit) * TILT_KEEP // 100
            for _ in range(3):
                a = tilt[use]
                coef = np.linalg.solve(a.T @ a + 1e-9 * np.eye(4), a.T @ dk[use])
                r = dk - tilt @ coef
                resid = r[:, 0] * r[:, 0] + r[:, 1] * r[:, 1]
                use = resid <= np.partition(resid, keep)[keep]
            delta = delta - self._tilt @ coef
        dist: np.ndarray = np.zeros(rows * cols)
        dist[known] = np.hypot(delta[known, 0], delta[known, 1])
        dist = dist.reshape(rows, cols)
        smooth = self._printed & ~self._paper & (texture[:rows, :cols]
                                                 < SMOOTHER * self._texture)
        if unseen is not None:
            smooth &= ~unseen
        return dist, smooth

    def reaching_in(self, img: np.ndarray,
                    departure: tuple[np.ndarray, np.ndarray] | None = None,
                    pieces: tuple[np.ndarray, np.ndarray] | None = None,
                    fresh: np.ndarray | None = None,
                    unseen: np.ndarray | None = None) -> np.ndarray:
        """Cells (rows, cols) of things over the board that are no pieces: unlike the
        board there and joined to its edge, reaching at least REACH_MM in; or unlike it
        over more than AWAY_MM2 where no piece may lie (an arm whose way in over a
        print of its own colour was not seen). `departure`: ``departure(img)`` if
        already computed; `pieces`: (cells mostly of a piece's colour, those and the
        cells around them): a piece, its shadow and blur are unlike the board and
        explained, so they neither join a thing to the edge nor make it plainly unlike
        (a canoe on the dock near the board's edge is no arm; an arm is unlike the board
        away from the pieces too); `fresh`: the cells that changed since a picture known
        to be clear (``fresh``): a thing that was in it already is the table's, not an
        arm (a print or a light the board's learned look does not know), so only a
        changed cell makes a thing plainly unlike the board. `unseen`: the cells the
        camera's frame does not reach (as given to ``departure``): a thing that meets
        them comes in from off the picture, as from off the board (where the frame cuts
        the board's rim, its edge cells are unseen)."""
        dist, smooth = departure if departure is not None else self.departure(img)
        slight = ((dist > SLIGHT) | smooth)
        plain = dist > PLAIN
        if fresh is not None:
            plain &= fresh
        if pieces is not None:
            slight &= ~pieces[0]
            plain &= ~pieces[1]
        slight = slight.astype(np.uint8)
        n, parts = cv2.connectedComponents(slight, connectivity=8)
        out = np.zeros(self.shape, bool)
        if n <= 1:
            return out
        ids = np.arange(1, n)
        edge = self._edge
        if unseen is not None:
            edge = edge | (cv2.dilate(unseen.astype(np.uint8), np.ones((3, 3), np.uint8))
                           .astype(bool) & ~unseen)
        on_edge = np.isin(ids, parts[edge])
        has_plain = np.isin(ids, parts[plain])
        reach = np.zeros(n)
        np.maximum.at(reach, parts.ravel(), self._inward_mm.ravel())
        away = np.bincount(parts[self._away & plain], minlength=n)[1:] * self._cell_mm2
        arm = has_plain & ((on_edge & (reach[1:] >= REACH_MM)) | (away >= AWAY_MM2))
        for i in ids[arm]:
            out |= parts == i
        return out


__all__ = ["BARE_ENOUGH", "FRESH", "PIXEL_CHANGE", "Surface", "cell_look", "cell_px",
           "channel_most", "colour_moved", "fresh", "largest_change"]
