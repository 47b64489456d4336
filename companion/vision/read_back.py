"""The calibration's read-back: the photos a profile was learned from, read with it
and compared with what lies on them, in words a person at the table can act on."""

from __future__ import annotations

from collections import Counter

from companion.rules import SLOTS

from .detect import Reading
from .known import KnownBoard


def misreadings(missed: Counter[tuple[str, str | None]],
                extra: Counter[tuple[str, str | None]]) -> list[str]:
    """What a place's reading got wrong, in words: a canoe of the same colour read
    with another gem is its gem misread; the others were not seen, or seen where
    none lies."""
    said = []
    extra = extra.copy()
    for player, gem in missed.elements():
        other = next((c for c in extra.elements() if c[0] == player), None)
        if other is not None:
            extra[other] -= 1
            said.append(f"the {player} canoe's {gem or 'no'} gem read as "
                        f"{other[1] or 'none'}")
        else:
            said.append(f"a {player} canoe not seen")
    said += [f"a {player} canoe seen, none lies there" for player, _ in extra.elements()]
    return said


def read_back(readings: list[Reading], known: KnownBoard) -> list[str]:
    """The photos a profile was learned from, read with it (`readings`, in order): a
    line for each place where a photo does not show the canoes `known` puts there (a
    canoe not seen, one seen that is not there, a gem read otherwise) and a last line
    counting what was read right. The one state the profile can be checked against
    before play: a table whose light makes a canoe's shadow a blue hull, or hides a hull
    in glare, says so here, where the person calibrating can still move the lamp."""
    lines = []
    right = total = 0
    for number, reading in enumerate(readings, 1):
        obs = reading.observation
        places = [(f"slot {slot}", obs["slots"][slot]["canoes"], known.river.get(slot, ()))
                  for slot in SLOTS]
        places += [("the dock", obs["dock"], known.dock), ("the falls", obs["falls"], known.falls)]
        for place, seen_there, there in places:
            seen = Counter((c["player"], c["gem"]) for c in seen_there)
            put = Counter(there)
            total += sum(put.values())
            right += sum((seen & put).values())
            if seen != put:
                lines.append(f"read back: photo {number}: {place}: "
                             + "; ".join(misreadings(put - seen, seen - put)))
    if total:
        lines.append(f"read back: {right} of {total} canoes (and their gems) read as the "
                     "photos show them" + ("" if right == total else
                                           " (a canoe's shadow, glare on a hull or a print "
                                           "in a piece's colour; more even light helps)"))
    return lines


__all__ = ["misreadings", "read_back"]
