"""The detector's thresholds, in one place (millimetres of the board, shares of an
area, chromaticity distances). Each says what it is for; they were tuned on the
project's own renderer, so a change here is measured with benchmarks/vision_accuracy.py.
"""

from __future__ import annotations

EDGE_BAND_MM = (3.0, 8.0)   # the band inside the board's edge an arm must cross
CLEAR_OF_EDGE_MM = 3.0      # pixels nearer the edge than this are not looked at
HULL_D2 = 11.34             # a pixel is unlike its hull beyond this (chi-square 99%, 3 dof)
CLOUD_CONTRAST = 0.08       # the cloud's place is this much brighter (relative) than others
SHADE_MM = 15.0             # shadows are taken out at this scale (Gaussian sigma)
SMOOTH_MM = 3.0             # the board image is averaged over this much (box filter)
HAND_STEP = 2               # hands are looked for at this fraction of the resolution
CLOSE_MM = 3.0              # gaps in a hull this small are mended
REACH_MM = 30.0             # an arm reaches at least this far in over the board's edge
HAND_COLOUR_PX = 0.3        # a hand showing this much (canoe areas) of a canoe colour
PLAIN_UNLIKE = 0.1          # a surface cell this unlike the board there is not the board
BARE_MM2 = 6000.0           # that much of it where canoes lie, with no canoe's colour: an arm
CROWD_SOLID = 0.55          # an arm of a canoe's colour fills this share of its outline
CROWD_UNLIKE = 0.5          # share of a big canoe-coloured blob unlike the board: an arm
NEAR_HAND_MM = 12.0         # canoes touching this band around a hand are not read
RIM_MM = 3.5                # a canoe's dark edge or shadow is thinner than this
UNKNOWN_MM = 5.0            # patches of unknown colour thinner than this are blur
ALONG_FLOW = 0.9            # a canoe's middle lies this close to its disc's, along the flow
ONE_CANOE = (1.4, 1.8)      # one hull is at most this long and wide (canoe lengths, widths)
# A hull's pixels are this much likelier of its colour than of the board (median, twice
# the log-likelihood ratio, ColourProfile.likelier): less is water or a shadow.
HULL_LIKELIER = 2.5
# A canoe shows at least this share of the hull area the profile measured: that area
# takes in the shading round a hull that its colour class claims on the layout photos,
# and a hull cut by its gem, its highlights or a neighbour's rim shows a third of it.
HULL_SHOWS = 0.35
SOLID = 0.65                # one hull fills at least this share of its convex outline
TWO_CANOES = 1.6            # a blob this many canoe widths wide (or lengths long) is two
TWO_HULLS = 1.5             # ... if it has this many hulls' pixels
SIDE_BY_SIDE = 0.8          # canoe widths between the middles of two canoes side by side
ON_TOP = 0.5                # two hulls' middles nearer than this (widths) are one canoe
# A hull on the river less uneven than this share of this table's layout hulls
# (``ColourProfile.hull_spread``) is a canoe's shadow on water of the hull's colour: the
# tuned worlds' river hulls lie at 0.38 of it and up, w106's shadows at 0.15-0.32.
SMOOTHEST = 1 / 3
CACHE_MM = 3.0              # a canoe within this of where it was is the same canoe
# The mean grey-level change where a canoe's gem lies (``gems``: its disc at the middle)
# that is only noise. A still view's picture is the mean of its settle frames: with the
# noisiest tuned world's sensor (sigma 6.5 levels) two of them differ by about 2 there,
# and 79% of the middles kept across the tuned games' views changed by less. Of those
# that changed by 4 to 12, one in six (26 of 163) measured again no longer looked as
# they had (``cargo_looks.KEPT``); with 12, tuned g101-g108 had two more turns asked.
# Measuring every middle afresh gives what 4 gives, at 11 ms more per decided view.
SAME_MIDDLE = 4.0
DISC_SEEN = 0.05            # share of a disc's ring that must show to tell it from water
DISC_APART = 0.02           # chromaticity distance below which two rings look alike
GEM_PX_PER_MM = 3.0         # gems are read at this resolution, from the camera frame
GEM_CORE = 0.2              # share of a gem's area taken as its colour
GEM_TEXTURE = 6.0           # a faceted middle's brightness spreads this many times the noise
# A middle is faceted when it is this many times as uneven as empty canoes of the same
# colour looked at this table (a 3-D hull's shading and gloss are uneven too).
FACETED_OVER_EMPTY = 1.6
# Until then, against the median of one picture's plain middles, when it shows this many.
PLAIN_ENOUGH = 3
GEM_UNLIKE = 0.3            # share of a gem's area unlike the hull: less is an empty canoe
GEM_FILL = 0.3              # a gem's colour makes at least this share of the canoe's middle
GEM_ANGLE = 35.0            # degrees: how far a gem's colour may point off its class
GEM_MARGIN = 3.0            # degrees: how much nearer the best gem must be than the next
# A canoe's middle mixes its gem's colour with the hull's: on the way from the hull's
# colour to the gem's, the middle's part least like the hull (``GemEvidence.core``) lies
# at most this far, the gem's own colour being 1 (on the tuned stills 19 in 20 true
# gems' cores lie within 1.12-1.18; blur leaves most short of 1, the median 0.78).
GEM_BEYOND = 1.15
PALEST = 10                 # a canoe's middle's palest part: this fraction (1/10) of it
LOOK_CHROMA = 10.0          # a middle's chromaticity shift, scaled near its paleness's range


def _odd(px: float) -> int:
    """A kernel size: the odd number of pixels nearest to px, at least 3."""
    return max(3, 2 * int(round(px / 2)) + 1)


__all__ = [
    "SMOOTHEST",
    "EDGE_BAND_MM",
    "CLEAR_OF_EDGE_MM",
    "HULL_D2",
    "CLOUD_CONTRAST",
    "SHADE_MM",
    "SMOOTH_MM",
    "HAND_STEP",
    "CLOSE_MM",
    "REACH_MM",
    "HAND_COLOUR_PX",
    "PLAIN_UNLIKE",
    "BARE_MM2",
    "CROWD_SOLID",
    "CROWD_UNLIKE",
    "NEAR_HAND_MM",
    "RIM_MM",
    "UNKNOWN_MM",
    "ALONG_FLOW",
    "ONE_CANOE",
    "SOLID",
    "HULL_LIKELIER",
    "HULL_SHOWS",
    "TWO_CANOES",
    "TWO_HULLS",
    "SIDE_BY_SIDE",
    "ON_TOP",
    "CACHE_MM",
    "SAME_MIDDLE",
    "DISC_SEEN",
    "DISC_APART",
    "GEM_PX_PER_MM",
    "GEM_CORE",
    "GEM_TEXTURE",
    "FACETED_OVER_EMPTY",
    "PLAIN_ENOUGH",
    "GEM_UNLIKE",
    "GEM_FILL",
    "GEM_ANGLE",
    "GEM_MARGIN",
    "GEM_BEYOND",
    "PALEST",
    "LOOK_CHROMA",
]
