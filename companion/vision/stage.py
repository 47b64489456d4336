"""What every stage of the ``Detector`` reads: the board file, the table's colours, the
scale and size of the straightened board image, and the light meter. ``Detector``
sets them once (``Detector.__init__``); each stage class inherits them from here."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .board import Board
    from .light import LightMeter
    from .looks import PieceLooks
    from .profile import ColourProfile


class Stage:
    board: Board
    profile: ColourProfile
    scale: float  # pixels of the straightened image per board millimetre
    shape: tuple[int, int]
    light: LightMeter
    looks: PieceLooks  # this table's learned look of its pieces
