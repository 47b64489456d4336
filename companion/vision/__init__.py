"""Seeing the board: from a camera frame to the observation of shared/spec/vision.md.

>>> import cv2
>>> from companion.vision import Vision
>>> vision = Vision()                          # calibration/board.json + profile.json
>>> obs = vision.observe(cv2.imread("tests/fixtures/vision/board_mild.jpg"))
>>> obs["markers"], obs["weather"], obs["slots"]["1"]["canoes"]
(4, 1, [])

The pipeline, in stages (each a module with one job and its own tests):

1. Find the board
   - ``board``      the board file: every place the vision looks at, in board millimetres
   - ``markers``    ArUco markers on OpenCV 4.6 and 4.7+, and the printable marker sheet
   - ``locate``     the homography from three or four markers, kept while some are
                    covered; a bumped camera found again
   - ``turned``     a knocked camera only turned: the board from two or three markers
                    and the last homography
2. Straighten and light-correct
   - ``light``      the marker paper as white reference: light level, tint, gradients
   - ``straighten`` the frame into board millimetres, shadows out, colour classes
3. Gather evidence per place (``detect.Detector`` runs them in order)
   - ``masks``      the board's fixed masks: where pieces may lie, rings, weather track
   - ``hands``      what is over the board (no reading next to it; the view not stable)
   - ``surface``    the empty board's own look per cell, and what over it is not a piece
   - ``canoes``     hulls of each canoe colour, judged by shape in millimetres
                    (``hull_inside``: what a hull's outline holds is the hull)
   - ``gems``       the gem in each canoe, against the canoe's own hull
   - ``discs``      the slots' discs and the cloud
   - ``cloud``      the cloud against the bare weather track learned at calibration
   - ``thresholds`` every threshold of these stages, in one place
0. Follow the stream
   - ``settle``     is the view still (its pixels only); the mean of a still view's frames
4. Decide
   - ``detect``     the evidence to an observation (vision.md), one frame
   - ``conditioned``  the picture before a move: unchanged places keep the state, the
                    cloud's move from the track's change (``pile_changes``: which piles
                    a gem left or reached)
   - ``transport``  the river's pushes from where the slots' contents went
   - ``inference``  which legal event explains an observation (``sighting``, ``fit``,
                    ``mismatch``, ``turn_gems``, ``fit_changes``, ``slips``, ``not_shown``,
                    ``candidates``, ``infer_river``, ``infer_buyback``)

The per-table look, as data: ``profile`` (the learned colour classes and sizes;
``profile_file`` reads its file),
``learn`` (learning it from photos of the calibration layout or any known state;
``dock_canoes`` finds the canoes it puts on the dock and alone on a slot,
``piece_sizes`` measures them, ``read_back`` reads the photos back with it), and
``looks`` (what the game's own confirmed pictures taught: empty hulls and gems in
canoes under this light), learned from ``seen_canoes`` (a canoe as one picture
showed it, ``SeenCanoe``, and which of a picture's canoes agree with a state,
``agreeing``).
Around them: ``observer`` (``Vision``: all of it for a stream, with stability),
``sources`` (frames from a Pi camera, a USB camera, a video, photos, the renderer),
``render`` (the synthetic camera that paints a game state; what it paints is in
``pieces_paint`` and ``painting``), ``calibrate_web`` (the
board calibration page), ``cli`` and ``infer_cli`` (``companion vision ...``,
``companion calibrate ...``).
"""

from .board import Board, BoardError, load_board
from .observer import Vision
from .profile import ColourProfile, ProfileError
from .profile_file import load_profile
from .render import Hand, Nuisance, Renderer, Shot
from .sources import CameraLost, FrameSource, ImageFiles, SourceError, open_source

__all__ = ["Board", "BoardError", "CameraLost", "ColourProfile", "FrameSource", "Hand",
           "ImageFiles", "Nuisance", "ProfileError", "Renderer", "Shot", "SourceError",
           "Vision", "load_board", "load_profile", "open_source"]
