"""Judging a canoe's middle by the looks this table learned of its hulls' middles
(``looks.PieceLooks``: per hull colour, how they looked empty and with each gem).

>>> empty = [(0.80, 0.0, 0.0, 0.0), (0.82, 0.0, 0.0, 0.0), (0.78, 0.0, 0.0, 0.0)]
>>> paler_than_empty(empty, 0.40), paler_than_empty(empty, 0.79)
('clear', None)
>>> nearest((0.5, 0.6, -0.5, 0.0), {None: empty, "violet": [(0.5, 0.6, -0.5, 0.0)] * 2})
'violet'

A look (``GemEvidence.look``) is ratios against the canoe's own hull (how pale the
middle's palest part is, which way its mean colour leaves the hull's), so a shadow or a
dimmer lamp leaves it alone; how far apart two looks are is judged in units of this
table's own spread of each, never of a threshold tuned to one renderer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from .sighting import UNKNOWN
from .take_looks import robust

# A clear gem is told by how pale a canoe's middle is against this table's empty hulls
# of that colour on the river (the dock's print is another background: its hulls are not
# taken). How pale an empty hull's middle looks varies from slot to slot as the lamp's
# gloss moves over it, so the judgement is in units of that spread, robustly measured.
PALE_ENOUGH = 3     # empty hulls on the river seen before a clear gem is judged at all
PALE_SPREAD = 0.06  # the least spread taken for them (pale is a ratio of saturations)
PALE_CLEAR = 3.0    # spreads paler than their median: a clear gem
PALE_UNSURE = 2.0   # ... between this and PALE_CLEAR: unsure
# Once a hull colour's middles were seen empty and with a gem (two of each at least), a
# middle in which something stands out that no gem's colour names, or a plain one once
# clear gems were among them (``PieceLooks.clear_look``), is judged by the look it is
# nearest: its distance to each in units of that look's own spread (per measure, never
# below LOOK_SPREAD), the nearest taken when it is LOOK_MARGIN nearer than the next, and
# only when within LOOK_FAR of it (else it is no look this table has shown: the colour
# rules judge it).
LOOK_SPREAD = (PALE_SPREAD, 0.1, 0.1, 0.1)
LOOK_MARGIN = 1.0
LOOK_FAR = 4.0
# ``nearest``'s (and ``PieceLooks.middle_gem``'s) word for an empty canoe (None there
# means it has no opinion).
EMPTY = "empty"


def paler_than_empty(empty: Iterable[tuple[float, ...]] | None, pale: float | None
                     ) -> str | None:
    """What the paleness of a canoe's middle says against the looks of this table's
    empty hulls of its colour on the river (`empty`): "clear" when paler than their
    median by PALE_CLEAR of their spreads; "unknown" when by PALE_UNSURE; None when it
    says nothing (an empty hull's paleness, or fewer than PALE_ENOUGH hulls seen)."""
    seen = list(empty or ())
    if pale is None or len(seen) < PALE_ENOUGH:
        return None
    centre, spread = robust(np.array([look[0] for look in seen]), PALE_SPREAD)
    paler = float((centre - pale) / spread)
    if paler > PALE_CLEAR:
        return "clear"
    return UNKNOWN if paler > PALE_UNSURE else None


def nearest(look: tuple[float, ...], known: Mapping[str | None, Iterable[tuple[float, ...]]]
            ) -> str | None:
    """Of two or more learned looks (by gem, None for an empty hull), the one a middle's
    `look` is nearest, its distance to each in units of that look's own spread (per
    measure, never below LOOK_SPREAD): EMPTY or the gem when it is LOOK_MARGIN nearer
    than the next, "unknown" when not, None when it lies farther than LOOK_FAR from
    every one (no look this table has shown)."""
    here = np.array(look, dtype=np.float64)
    far = []
    for gem, seen in known.items():
        centre, spread = robust(np.array(list(seen), dtype=np.float64), np.array(LOOK_SPREAD))
        far.append((float(np.linalg.norm((here - centre) / spread)), gem))
    far.sort(key=lambda f: f[0])
    (closest, gem), (second, _) = far[0], far[1]
    if closest > LOOK_FAR:
        return None
    if second - closest <= LOOK_MARGIN:
        return UNKNOWN
    return EMPTY if gem is None else gem


__all__ = ["EMPTY", "LOOK_FAR", "LOOK_MARGIN", "LOOK_SPREAD", "PALE_CLEAR", "PALE_ENOUGH",
           "PALE_SPREAD", "PALE_UNSURE", "nearest", "paler_than_empty"]
