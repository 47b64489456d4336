"""What every stage of the ``Detector`` reads: the board file, the table's colours, the
scale and size of the straightened board image, and the light meter; and what the
stages read from each other. ``Detector`` sets them once (``Detector.__init__``, and the
board's fixed masks in ``BoardMasks._build_masks``; the straighten stage keeps the last
frame's light correction, the gems stage its cache); each stage class inherits their
declarations from here, so that what one stage reads of another's is typed."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

if TYPE_CHECKING:
    from .board import Board
    from .disc_looks import DiscLooks
    from .gem_model import GemModel
    from .light import LightMeter
    from .looks import PieceLooks
    from .profile import ColourProfile
    from .surface import Surface

class GemRead(NamedTuple):
    """What the gems stage reads of one canoe (``GemReader._gem``)."""

    gem: str | None          # None for an empty canoe, a gem colour, or "unknown"
    texture: float | None    # how faceted its middle is (None: not measured)
    # The colour of its part least like the hull, when something stood out there.
    core: tuple[float, float, float] | None
    look: tuple[float, ...] | None  # how its middle looks (``GemEvidence.look``)


class GemEvidence(NamedTuple):
    """What the middle of a canoe shows (``GemReader.gem_evidence``), colours in the
    canoe's own light."""

    unlike: float            # how much of a gem's area is unlike the hull
    hull: np.ndarray         # the hull's colour (BGR)
    core: np.ndarray         # the colour of the most unlike part
    texture: float           # how uneven the middle's brightness is, in sensor noise
    middle: np.ndarray       # the middle's mean colour
    # How the middle looks against its hull, what ``looks`` learns a gem's look by:
    # the saturation of its palest tenth over the hull's (a clear gem throws white light
    # off its facets, the hull under it keeps its colour), then its mean chromaticity
    # less the hull's (blue, green, red; times LOOK_CHROMA). Ratios, so a shadow or a
    # dimmer lamp leaves them alone.
    look: tuple[float, float, float, float]

    @property
    def pale(self) -> float:
        return self.look[0]


class Stage:
    board: Board
    profile: ColourProfile
    scale: float  # pixels of the straightened image per board millimetre
    shape: tuple[int, int]
    light: LightMeter
    looks: PieceLooks  # this table's learned look of its pieces
    gem_model: GemModel | None  # the gems in canoes on the river (None: the hand rules)
    _gem_colours: dict[str, np.ndarray]  # each gem's colour at this table (the profile's)

    # From the profile (``Detector.__init__``).
    _canoe_idx: dict[str, int]  # canoe colour -> its class index
    _gem_idx: dict[str, int]    # gem colour -> its class index
    _water: int                 # the water's class index
    _is_canoe: np.ndarray       # (256,) bool: class indices of a canoe colour
    _pieces: np.ndarray         # (256,) bool: class indices that are not the board
    _ground_bit: np.ndarray     # (256,) uint32: class index -> its bit in ``_allowed``
    _allowed: np.ndarray | None  # per pixel at the hands' resolution: board bits allowed
    _piece_bit: np.ndarray      # (256,) uint32: class index -> its bit in ``_printed``
    _printed: np.ndarray | None  # ... piece classes the print itself shows there
    canoe_px: float             # a canoe's area in pixels
    gem_px: float               # a gem's area in pixels
    canoe_box: float            # the area of the rectangle around a canoe, in pixels
    _close: np.ndarray          # structuring elements (cv2.getStructuringElement)
    _solid: np.ndarray
    _solid_small: np.ndarray
    _shade_ref: np.ndarray | None  # the empty board's brightness per shade cell
    _shade_cell: int            # the side of a shade cell in pixels (with _shade_ref)
    surface: Surface | None     # the empty board's own look, if the profile knows it
    disc_looks: DiscLooks | None  # the slots' looks with and without a disc
    _contrasts: dict[str, float]  # the last frame's ``disc_contrasts``
    _river_cells: np.ndarray    # surface cells all within canoe_area (with surface)
    _deposit_cells: np.ndarray  # surface cells touching a deposit (with surface)

    # The board's fixed masks (``BoardMasks._build_masks``).
    valid: np.ndarray           # where pieces are looked for (bool)
    edge: np.ndarray            # the band along the board's edge (bool)
    deposit_mask: np.ndarray    # the deposits (uint8, 1 inside)
    canoe_area: np.ndarray      # where canoes may lie (bool)
    place_mask: dict[str, np.ndarray]  # each place's pixels (bool)
    _annulus: dict[str, tuple[np.ndarray, np.ndarray]]  # each slot's ring (ys, xs)
    _outside: dict[str, tuple[np.ndarray, np.ndarray]]  # the water around it (ys, xs)
    _outside_box: tuple[int, int, int, int]  # (y0, y1, x0, x1) around all of those
    # each weather position: its middle and the ring around it, (ys, xs) each
    _weather: dict[int, tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]]
    # all the slots' rings: (y0, y1, x0, x1) around them, ys, xs, each slot's (start, end)
    _rings: tuple[tuple[int, int, int, int], np.ndarray, np.ndarray, list[tuple[int, int]]]
    _water_probe: tuple[np.ndarray, np.ndarray]  # where this frame's water is sampled
    _valid_small: np.ndarray    # valid, edge, canoe_area at the hands' resolution
    _edge_small: np.ndarray
    _canoe_area_small: np.ndarray
    _inward_small: np.ndarray   # mm from the board's edge, at the hands' resolution

    # Kept from frame to frame.
    _gain: np.ndarray | None    # the last frame's light (and shadow) correction
    # the middles last read (GemReader._evidence_cached)
    _gem_cache: dict[tuple[str, int, int], tuple[np.ndarray, GemEvidence | None]]
    _gem_zones: tuple[float, float, int, np.ndarray, np.ndarray, np.ndarray] | None
