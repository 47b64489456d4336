"""Events whose every disagreement with the picture is something it did not show (a
gem that hid, a pile whose take it missed) or a misread this table's camera is known
to make. Such an event, alone near the picture, is played, not asked about
(``Inference.settled``); when the pieces lie as before, it is what the camera referee
asks about, or plays (``CameraReferee._hidden_load``). (Turns that leave every piece as
it lay are ``inference.unseen_turns``.)"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.rules import Turn

from .fit import DEFAULT_WEIGHTS, Mismatch, table_weights
from .sighting import Sighting
from .slips import TOLERANCE, _benign, _habit, _key, _pile_hid, _put_hid, _take_unseen

if TYPE_CHECKING:
    from .candidates import Candidate

# A gem not seen costing at most this (``FitWeights.shown``: cargo times the share of
# such gems this table's camera showed) is of a colour it misses about every other time.
OFTEN_HIDDEN = 0.5


def _hid_cost(m: Mismatch, seen: Sighting | None) -> float:
    """What a gem not seen says against its event: its cost; for a clear gem read as
    its hull (costing no more than a colour misread, to rank events), the share of
    clear gems this table's camera showed (all, when not known): a camera that shows
    them well, reading the hull, says none is there."""
    if not m.hull_through:
        return m.cost
    return (DEFAULT_WEIGHTS if seen is None else table_weights(seen)).unseen("clear")


def unseen_only(candidate: Candidate) -> bool:
    """Every disagreement of an event is something the picture did not show, or a gem
    read as this camera is known to misread it (``_habit``): canoes
    hidden, gems carried before and read in another colour or not at all, at most one
    gem loaded that hid, of a colour this table's camera often misses (a clear gem on a
    pale hull, or read as its hull: ``FitWeights.shown``, ``_hid_cost``), piles it
    takes from not seen to change (of any colour when every gem it loads is seen in its
    canoe, in a colour this camera is known to read it as too: ``_habit``); or, instead
    of that gem, one gem it puts on a pile that did not show it (``_put_hid``). (A gem
    the camera shows well, not seen, says it is not there.)"""
    rest = [m for m in candidate.mismatches if not _benign(m)]
    hid = [m for m in rest if m.unseen_gem]
    puts = [m for m in rest if _put_hid(m)]
    # Every gem the event loads seen where it put it: the piles it took them from are
    # the slip, even of colours this table's camera sees leave their piles (the gem in
    # the canoe came from there: the only legal way it got in).
    seen_loads = not hid and not puts
    return _key(candidate.score) <= TOLERANCE and len(hid) + len(puts) <= 1 \
        and all(_key(_hid_cost(m, candidate.seen)) <= OFTEN_HIDDEN for m in hid) \
        and all(m.unseen_gem or _habit(m) or _pile_hid(m) or _put_hid(m)
                or (seen_loads and _take_unseen(m)) for m in rest)


def loads_unseen(candidate: Candidate, piles_unseen: bool) -> bool:
    """Whether a turn disagrees with the picture only by gems it loads that the picture
    did not show in their canoes (``Mismatch.unseen_gem``: a gem of the hull's own
    colour, a clear one), at least one; with `piles_unseen`, also by piles it takes
    from that did not show the take (``_pile_hid``). What the camera referee asks
    about, or plays, when the pieces lie as before (``CameraReferee._hidden_load``)."""
    return isinstance(candidate.event, Turn) \
        and any(m.unseen_gem for m in candidate.mismatches) \
        and all(m.unseen_gem or (piles_unseen and _pile_hid(m)) for m in candidate.mismatches)


__all__ = ["OFTEN_HIDDEN", "loads_unseen", "unseen_only"]
