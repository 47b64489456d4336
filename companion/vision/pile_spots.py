"""A gem taken from a pile, or put on one, seen as a spot: a gem-sized patch of the
pile's change standing out of the change around it.

>>> spotted(over, reach, gem_width=9)       # doctest: +SKIP
True

``pile_changes`` counts a pile's pixels that changed by more than a threshold (so many
grey levels over the pictures' noise). A clear gem on a grey print changes its pixels
by less than that: its soft edge, a highlight or two. Averaged over a gem's disc,
though, its change stands out of the change around it. That is the question asked
here, in units of that surrounding change. The change around is sensor noise, the
camera's JPEG blocks over a pile's sharp edges, and a neighbour's shading. The units
are measured in the ring around each spot, not fixed, so the same test holds for a
noisy sensor and a clean one, a blue pile whose JPEG blocks ring and a grey one that
lies flat. (The ring is measured on the disc-averaged change, as the spot is, and it
may reach off the pile: a spot must stand out of whatever lies around it, a canoe
come beside the pile included.)
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

# A spot is a gem's when its disc's mean change is this many ring spreads above the
# ring's median. The spread is the ring's 90th percentile less its median: a spot
# among changes like it is no gem's. Measured on the tuned games' consecutive stable
# frames (one frame each, read with the layout calibration: 2,825 deposit pairs): of
# 2,620 piles no move changed, none reached 7 (the highest 6.9, a violet pile's JPEG
# ringing); of 72 clear gems taken, 60 reached 8. Through ``benchmarks/worlds_piles.py``
# the clear takes seen went from 41 to 58 of 72, all takes from 153 to 175 of 190, and
# still no pile was seen to change that did not.
SPOT_SPREADS = 8.0
# ... and a disc's mean change of this many grey levels at least, or of as many as the
# caller asks: ``pile_changes`` asks for what a faint gem's patch must change (FAINT of
# its threshold, which grows with the pictures' noise: 5.2 levels in a table's still
# view, a mean of many frames). Such views agree so well that any change stands out of
# their ring: a change come in from beside a pile changed a disc at its corner by 4.1
# levels (the tuned g113, a red pile no move touched), which the caller's 5.2 keeps
# out; a clear gem taken changes one by 10-16 (the middle half of the tuned takes).
SPOT_LEVELS = 4.0
# The ring: from one gem width to this many, around the spot's centre.
RING_WIDTHS = 2.5
# ... its spread, at least this many grey levels (two pictures may agree everywhere but
# where the gem was).
RING_FLOOR = 0.3
# The strongest spots looked at per pile: two gems taken, and one or two highlights.
SPOTS = 4


def spotted(over: np.ndarray, reach: np.ndarray, gem_width: int,
            least: float = SPOT_LEVELS) -> bool:
    """Whether a pile's change holds a gem's spot. `over`: per pixel of a box around
    the pile, its change less the change around it (grey levels, as
    ``pile_changes.pile_changes`` measures it); `reach`: where a gem of the pile may lie
    in that box (bool); `gem_width`: a gem's width in pixels (odd); `least`: the
    least mean change of a spot's disc, in grey levels (never below SPOT_LEVELS)."""
    if not reach.any():
        return False
    mean = cv2.filter2D(over.astype(np.float32), -1, _disc_mean(gem_width),
                        borderType=cv2.BORDER_REPLICATE)
    ring_y, ring_x = _ring(gem_width)
    # (A spot is looked at where its change is highest within a gem's width, and that
    # within the pile's reach: a change that grows on beyond the reach, a canoe's bow or
    # shadow come near, is not the pile's.)
    highest = mean >= cv2.dilate(mean, np.ones((gem_width, gem_width), np.uint8))
    looked = np.where(reach & highest, mean, -np.inf)
    h, w = mean.shape
    least = max(least, SPOT_LEVELS)
    for _ in range(SPOTS):
        y, x = np.unravel_index(int(np.argmax(looked)), looked.shape)
        peak = float(looked[y, x])
        if peak < least:
            return False
        ys, xs = ring_y + y, ring_x + x
        inside = (ys >= 0) & (ys < h) & (xs >= 0) & (xs < w)
        around = mean[ys[inside], xs[inside]]
        middle = float(np.median(around))
        spread = float(np.percentile(around, 90)) - middle + RING_FLOOR
        if (peak - middle) / spread >= SPOT_SPREADS:
            return True
        # (The next spot is at least a gem's width away from this one.)
        looked[max(0, y - gem_width):y + gem_width + 1,
               max(0, x - gem_width):x + gem_width + 1] = -np.inf
    return False


@lru_cache(maxsize=8)
def _disc_mean(gem_width: int) -> np.ndarray:
    """The kernel of a mean over a gem's disc (read-only: shared by every call)."""
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (gem_width, gem_width)
                                     ).astype(np.float32)
    kernel = disc / disc.sum()
    kernel.flags.writeable = False
    return kernel


@lru_cache(maxsize=8)
def _ring(gem_width: int) -> tuple[np.ndarray, np.ndarray]:
    """The offsets (dy, dx) of the ring around a spot: from one gem width to
    RING_WIDTHS of them."""
    r = int(np.ceil(RING_WIDTHS * gem_width))
    dy, dx = np.mgrid[-r:r + 1, -r:r + 1]
    far = np.hypot(dy, dx)
    ring = (far >= gem_width) & (far <= RING_WIDTHS * gem_width)
    out = dy[ring], dx[ring]
    for offsets in out:
        offsets.flags.writeable = False  # (shared by every call: ``lru_cache``)
    return out


__all__ = ["RING_WIDTHS", "SPOT_LEVELS", "SPOT_SPREADS", "spotted"]
