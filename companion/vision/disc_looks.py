"""How each slot looks with its disc and how the river looks without one, at this table.

A transparent disc tints the water under it: the ring inside its rim is darker (or, under
a lamp's reflection, brighter) than the water just outside it, by an amount that depends
on the print under that slot and the light there. So a slot is judged against its own
look with a disc, learned from the calibration photos (and from every confirmed picture:
at rest every slot holds one, R-SETUP-2), and against the look of a slot without a disc
(the calibration layout's 7R). A ring that looks like the water around it, as a slot
without a disc looked here, where its own disc shows plainly, has no disc; where the two
looks are too alike to tell apart, or a look is not known well yet, nothing is said.

>>> looks = DiscLooks()
>>> for _ in range(ENOUGH):
...     looks.learn({"1": 0.78, "2": 0.82}, with_disc=True)
>>> looks.learn({"7R": 0.98}, with_disc=False)
>>> looks.missing("1", 0.97), looks.missing("1", 0.80), looks.missing("3", 0.97)
(True, False, None)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

KEEP = 15        # the last contrasts kept per slot (their median is its look)
# A ring within this of the look without a disc (a ratio of brightnesses) looks like
# it; a slot whose look with its disc lies within twice this of it cannot be told apart
# in one picture (the sensor's noise and a canoe's shadow move a ring by as much). So a
# disc is called missing only on plain evidence: on the tuned worlds' stills a looser
# rule (nearer the look without a disc than its own) found more missing discs but
# called present ones missing too, under a lamp's reflection and beside canoes.
SAME = 0.03
# The pictures a slot's look with its disc is learned from before it is trusted: the
# two calibration photos alone are not enough (on the worlds not used for tuning, their
# looks called present discs missing), with the table's confirmed pictures they are.
ENOUGH = 5


@dataclass
class DiscLooks:
    """Per slot, the contrasts its ring showed with its disc; and those of rings
    without a disc (any slot)."""

    with_disc: dict[str, list[float]] = field(default_factory=dict)
    without: list[float] = field(default_factory=list)

    def learn(self, contrasts: Mapping[str, float], with_disc: bool) -> None:
        """Learn from rings known to hold their disc (or known not to)."""
        for slot, value in contrasts.items():
            if not np.isfinite(value):
                continue
            seen = self.with_disc.setdefault(slot, []) if with_disc else self.without
            seen.append(float(value))
            del seen[:-KEEP]

    def missing(self, slot: str, contrast: float | None) -> bool | None:
        """Has `slot` no disc, its ring showing `contrast`? None when this table's
        looks do not tell."""
        own = self.with_disc.get(slot)
        if contrast is None or not own or len(own) < ENOUGH or not self.without:
            return None
        ref, bare = float(np.median(own)), float(np.median(self.without))
        if abs(ref - bare) < 2 * SAME:
            return None
        off = abs(contrast - bare)
        return off < SAME and off < abs(contrast - ref)

    def to_json(self) -> dict[str, Any]:
        return {"with_disc": {s: [round(v, 4) for v in vs] for s, vs in self.with_disc.items()},
                "without": [round(v, 4) for v in self.without]}

    @classmethod
    def from_json(cls, data: Any) -> DiscLooks:
        """ValueError if `data` is not what ``to_json`` writes."""
        if not isinstance(data, dict) or not isinstance(data.get("with_disc"), dict) \
                or not isinstance(data.get("without"), list):
            raise ValueError("disc looks need 'with_disc' and 'without'")
        return cls({str(s): [float(v) for v in vs][-KEEP:]
                    for s, vs in data["with_disc"].items()},
                   [float(v) for v in data["without"]][-KEEP:])


__all__ = ["ENOUGH", "KEEP", "SAME", "DiscLooks"]
