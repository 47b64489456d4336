"""Evidence: what is over the board (a hand, an arm, a sleeve), so that nothing is read
next to it and the view is not stable.

Blobs that are not board nor pieces (no known colour, or a colour of the board where the
board never shows it) and reach in over the board's edge, or are big and mostly of no
known colour, are something in the way; so is what departs from the empty board's own
look there (``surface.Surface``).
"""

from __future__ import annotations

import cv2
import numpy as np

from .profile import (
    GROUND_CELL_MM,
    NONE,
)
from .stage import Stage
from .thresholds import (
    BARE_MM2,
    HAND_STEP,
    PLAIN_UNLIKE,
    REACH_MM,
)


class HandFinder(Stage):
    """The hands stage of ``Detector`` (its state lives on the detector: see
    ``Detector.__init__``)."""

    def _build_allowed(self) -> None:
        """Per pixel (at the hands' resolution): bits of the board classes that may
        show there; and of the piece classes the print itself shows there, away from
        every place (``learn_board.ground_map``)."""
        assert self.profile.ground_map is not None
        names = self.profile.names
        step = HAND_STEP
        h, w = self.shape
        ys, xs = np.mgrid[step // 2:h:step, step // 2:w:step]
        allowed = np.zeros(ys.shape, np.uint32)
        printed = np.zeros(ys.shape, np.uint32)
        board_bits = piece_bits = 0
        for name, m in self.profile.ground_map.items():
            if name not in names:
                continue
            idx = names.index(name)
            piece = bool(self._pieces[idx])
            bit = piece_bits if piece else board_bits
            if bit >= 32:
                continue
            cy = np.clip((ys / self.scale / GROUND_CELL_MM).astype(int), 0, m.shape[0] - 1)
            cx = np.clip((xs / self.scale / GROUND_CELL_MM).astype(int), 0, m.shape[1] - 1)
            there = np.where(m[cy, cx], np.uint32(1 << bit), np.uint32(0))
            if piece:
                self._piece_bit[idx] = 1 << bit
                printed |= there
                piece_bits += 1
            else:
                self._ground_bit[idx] = 1 << bit
                allowed |= there
                board_bits += 1
        self._allowed = allowed
        self._printed = printed

    def _hands(self, labels: np.ndarray, fresh: np.ndarray | None = None) -> np.ndarray:
        """Pixels of things over the board (a hand and its arm), looked for at half the
        resolution: blobs not of the board that reach in from its edge, or that are
        mostly of no colour the profile knows. `fresh`: the pixels that changed since a
        picture known to be clear; a blob with none of them was in it already: it is
        the table's (a print the profile does not know), not a hand."""
        step = HAND_STEP
        small = labels[step // 2::step, step // 2::step]
        # Pixels of no known colour count only in patches: thin lines of them are where
        # two known colours blur into each other.
        odd = small == NONE
        if self._allowed is not None:
            # A colour of the board where the board never shows it: something in the way.
            # In a glaring room clipped colours drift from one print to another where
            # the pieces lie, so there it is not trusted; elsewhere it still is (a pale
            # hand in such light has its brightness taken out as if it were light, and
            # then looks like the dock's print).
            bit = self._ground_bit[small]
            misplaced = (bit != 0) & ((bit & self._allowed) == 0)
            if self.light.saturated:
                misplaced &= ~self._canoe_area_small
            odd |= misplaced
        unknown = cv2.morphologyEx(odd.astype(np.uint8), cv2.MORPH_OPEN, self._solid_small)
        # Thin lines of a piece's colour are not in the way either: where two prints meet
        # (grass and earth), their blur can take a canoe's colour class, and such a line
        # may run in from the board's edge. A hand, a finger, a canoe are thicker.
        piece = self._pieces[small]
        if self._printed is not None:
            # (Nor is a patch of the print that takes a piece's colour class here.)
            piece &= (self._piece_bit[small] & self._printed) == 0
        pieces = cv2.morphologyEx(piece.astype(np.uint8), cv2.MORPH_OPEN,
                                  self._solid_small).astype(bool)
        foreign = ((pieces | unknown.astype(bool)) & self._valid_small)
        n, cc, stats, _ = cv2.connectedComponentsWithStats(foreign.astype(np.uint8),
                                                           connectivity=8)
        blocked_small = np.zeros(small.shape, np.uint8)
        big = 0.5 * self.canoe_px / step ** 2
        new = None if fresh is None else fresh[step // 2::step, step // 2::step]
        for i in range(1, n):
            x, y, w, h, area = stats[i]
            if area < big:
                continue  # a speck: no hand, and too small to hide a canoe
            sub = cc[y:y + h, x:x + w] == i
            if new is not None and not (new[y:y + h, x:x + w] & sub).any():
                continue
            if (self._edge_small[y:y + h, x:x + w] & sub).any() and \
                    self._inward_small[y:y + h, x:x + w][sub].max() >= REACH_MM:
                blocked_small[y:y + h, x:x + w][sub] = 1  # reaches in from off the board
                continue
            unknown_px = np.count_nonzero(odd[y:y + h, x:x + w][sub])
            if unknown_px > max(3 * self.canoe_px / step ** 2, 0.5 * area):
                blocked_small[y:y + h, x:x + w][sub] = 1  # a sleeve, a phone
        blocked = np.zeros(self.shape, np.uint8)
        if blocked_small.any():
            up = np.repeat(np.repeat(blocked_small, step, axis=0), step, axis=1)
            blocked[:up.shape[0], :up.shape[1]] = up[:self.shape[0], :self.shape[1]]
        return blocked

    def _canoe_share(self, canoe: np.ndarray) -> np.ndarray:
        """Per surface cell (rows, cols), the share of its pixels of a canoe's colour."""
        assert self.surface is not None
        rows, cols = self.surface.shape
        c = self.surface.cell_px
        return cv2.resize(canoe[:rows * c, :cols * c].astype(np.uint8) * 255, (cols, rows),
                          interpolation=cv2.INTER_AREA) / 255.0

    def _piece_cells(self, share: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Surface cells mostly of a canoe's colour (`share`: ``_canoe_share``); those,
        the cells around them (its shadow and blur, which depart from the board too) and
        the deposits' cells (a pile a gem was put on or taken from has changed: a deposit
        at the board's edge would otherwise pass for something reaching in)."""
        cells = share >= 0.5
        around = cv2.dilate(cells.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
        return cells, around | self._deposit_cells

    def _unexplained(self, share: np.ndarray, departure: tuple[np.ndarray, np.ndarray],
                     fresh: np.ndarray | None = None) -> np.ndarray:
        """Surface cells of something big where canoes lie that is plainly unlike the
        board there but shows no canoe's colour: an arm down the river in a light that
        gives it the colour class of a print (it entered over a print of its own colour,
        so it is not seen joined to the board's edge). `fresh`: as for
        ``Surface.reaching_in``, only cells changed since a clear picture count."""
        assert self.surface is not None
        c = self.surface.cell_px
        bare = (departure[0] > PLAIN_UNLIKE) & self._river_cells & (share < 0.05)
        if fresh is not None:
            bare &= fresh
        n, parts, stats, _ = cv2.connectedComponentsWithStats(bare.astype(np.uint8),
                                                              connectivity=8)
        out = np.zeros(share.shape, bool)
        for i in range(1, n):
            if stats[i, cv2.CC_STAT_AREA] * (c / self.scale) ** 2 >= BARE_MM2:
                out |= parts == i
        return out


__all__ = ["HandFinder"]
