"""Seeing the board: from a camera frame to the observation of shared/spec/vision.md.

>>> import cv2
>>> from companion.vision import Vision
>>> vision = Vision()                          # calibration/board.json + profile.json
>>> obs = vision.observe(cv2.imread("tests/fixtures/vision/board_mild.jpg"))
>>> obs["markers"], obs["weather"], obs["slots"]["1"]["canoes"]
(4, 1, [])

The pieces, each usable alone:

- ``board``      the board file: every place the vision looks at, in board millimetres
- ``markers``    ArUco markers on OpenCV 4.6 and 4.7+, and the printable marker sheet
- ``locate``     the homography from the four markers, kept while some are covered
- ``light``      the marker paper as white reference: light level, tint, gradients
- ``profile``    the learned colour classes (no hard-coded thresholds) and their sizes
- ``learn``      learning a profile from photos of the calibration layout
- ``detect``     one frame to an observation: canoes, gems, discs, weather, hands
- ``surface``    the empty board's own look per cell, and what over it is not a piece
- ``observer``   ``Vision``: all of it for a stream, with stability
- ``sources``    frames from a Pi camera, a USB camera, a video, photos, the renderer
- ``render``     the synthetic camera that paints a game state (tests, benchmarks, demo)
- ``calibrate_web``  the board calibration page (``companion calibrate board``)
- ``cli``        ``companion vision detect|watch|render|markers``, ``companion calibrate``
"""

from .board import Board, BoardError, load_board
from .observer import Vision
from .profile import ColourProfile, ProfileError, load_profile
from .render import Hand, Nuisance, Renderer, Shot
from .sources import CameraLost, FrameSource, ImageFiles, SourceError, open_source

__all__ = ["Board", "BoardError", "CameraLost", "ColourProfile", "FrameSource", "Hand",
           "ImageFiles", "Nuisance", "ProfileError", "Renderer", "Shot", "SourceError",
           "Vision", "load_board", "load_profile", "open_source"]
