"""What the disagreements between a legal event and the picture amount to: slips a
camera makes (a canoe hidden among others, a gem of a neighbouring colour, a pile not
seen to change) or something the picture shows that the event does not explain. The
inference's status (``candidates``) is decided from them."""

from __future__ import annotations

from collections.abc import Sequence

from .fit import Mismatch

# How far from a perfect fit an event may be and still be taken. A picture is read with
# slips the rules cannot mean: a canoe not seen (no canoe leaves the game: it is hidden
# among others on a disc) is taken; a gem of a neighbouring colour is asked about (it
# may be a misread, or a gem loaded where that colour does not lie). A gem where none
# should be, or a canoe where none should be, is never a slip: nothing fits; unless the
# canoe is one more than the player's two (``Mismatch.phantom``). Past TOLERANCE an
# event is only asked about, and only when nothing the picture shows contradicts it (its
# every disagreement something not seen: ``_benign``; or, beside those, slips costing no
# more than TOLERANCE): the referee flags what it sees, not what it misses; and when no
# other event comes near, it is taken (``Inference.settled``). Costs are FitWeights': a
# canoe not seen 2, a gem of the wrong colour 0.25.
TOLERANCE = 2.0
# What two pictures saw change, or not, against an event: a place stirred, a canoe's
# cargo kept or changed by its look (``fit_changes``). Slips to ask about: something
# came or went that the reading did not make out, or a canoe nudged into the gloss.
LOOKS = ("kept", "changed")
LOOKED = ("stirred", *LOOKS)


def slips(mismatches: Sequence[Mismatch]) -> str | None:
    """What the disagreements of the best fit amount to: "none" (a perfect fit),
    "hidden" (only canoes not seen, and gems a canoe carried before the event seen in
    another colour or not at all: ``_benign``), "misread" (those, gems of another
    colour and one gem not seen: a clear gem on a pale hull, one in glare; and any gems
    read in the neighbour's canoe on a shared disc, ``_swapped``, or clear gems read as
    their hulls, ``Mismatch.hull_through``), "stirred" (only
    things not seen, and places whose pixels changed that the event leaves as they were,
    or canoes whose look says otherwise than the event of their cargo: ``LOOKED``), or None
    (something the picture shows that the event does not explain; two gems it loads or
    steals unseen at once are likelier another move)."""
    if not mismatches:
        return "none"
    if all(_benign(m) for m in mismatches):
        return "hidden"
    if all(_benign(m) or m.kind in LOOKED for m in mismatches):
        return "stirred"
    swapped = _swapped(mismatches)
    given = {id(m) for _, m in swapped}
    # A gem read in the neighbour's canoe was seen, not missed; a clear gem read as its
    # hull was read as one reads.
    lost = {id(m) for m, _ in swapped}
    # (A gem the canoe carried, not seen, is no sign of another move: ``_benign``.)
    if sum(m.unseen_gem and id(m) not in lost and not m.hull_through and not _benign(m)
           for m in mismatches) <= 1 and \
            all(_slip(m) or id(m) in given for m in mismatches):
        return "misread"
    return None


def _slip(m: Mismatch) -> bool:
    """A disagreement a camera's slip explains: a canoe not seen, one seen beyond the
    two a player has, a gem not seen, a gem of another colour, a deposit's pile nudged
    (or a gem put back where it lay), a place nudged or a canoe's look against its
    cargo (``LOOKED``), a gem seen in an empty canoe of a colour this table's camera is
    known to read in empty canoes, or in a canoe the event emptied of a gem of another
    colour, or one gem read in both canoes of a shared disc (``Mismatch.doubled``), or
    in the mover's canoe where the picture saw no gem leave a pile or a canoe
    (``Mismatch.unsourced``), or where a bystander's canoe beside it lost that gem
    (``Mismatch.beside``)."""
    return m.kind in ("missing", "deposit", *LOOKED) or m.phantom or m.misread_colour \
        or m.unseen_gem or (m.kind == "cargo" and (m.invented or m.emptied or m.doubled
                                                   or m.unsourced or m.beside))


def _taken_seen(m: Mismatch) -> bool:
    """A pile the event leaves as it was that the picture saw a gem taken from
    (``Sighting.deposits_taken``: where it lay, its colour before and the print after).
    A nudged pile shifts its gems; one gone went into a canoe, the only legal way: an
    event that puts it in none is not offered as one whose gem hid (``Inference.best``;
    it may still score near enough to be asked about)."""
    return m.kind == "deposit" and m.expected is None and m.gem is not None


def _key(score: float) -> float:
    return round(score, 6)


def _swapped(mismatches: Sequence[Mismatch]) -> list[tuple[Mismatch, Mismatch]]:
    """Pairs of disagreements one gem read in the wrong canoe of a shared disc explains:
    a canoe seen without the gem it should carry, and another canoe on the same slot
    seen with a gem where it should be empty (its colour read or not). Two canoes on one
    disc touch, and a thief ends on its victim's slot (R-STEAL): which of them holds the
    gem is what a picture tells least well."""
    given = [m for m in mismatches if m.gem_in_empty]
    pairs, used = [], set()
    for lost in (m for m in mismatches if m.unseen_gem):
        assert isinstance(lost.expected, tuple)
        for m in given:
            assert isinstance(m.expected, tuple) and isinstance(m.seen, tuple)
            if id(m) not in used and m.expected[0] == lost.expected[0]:
                pairs.append((lost, m))
                used.add(id(m))
                break
    return pairs


def _put_hid(m: Mismatch) -> bool:
    """A pile the event puts a gem on that the picture did not see change. Unlike a take
    (``_pile_hid``) it counts against the event: among several that fit, the pile
    tells. But when no other event comes near, the gem left its canoe and the unload is
    the only legal way it went: a gem laid on a heap of its own colour may look like
    the heap. (Not a gem seen taken from a pile where the event takes none of its
    colour: that was seen.)"""
    return m.kind == "deposit" and m.expected is not None and m.seen is None \
        and not m.taken


def _pile_hid(m: Mismatch) -> bool:
    """A pile the event takes a gem from that the picture did not see change: one
    translucent gem gone from among its like may leave a pile looking the same, so this
    is no evidence that the event did not happen. (A gem put on a pile lies on top of
    it, whatever its colour (R-GEM-3): not seen, it is taken as not put there
    (``_put_hid``), though a clear one seldom shows: ``benchmarks/worlds_piles.py``, 8 of
    the tuned games' 15 puts seen, 1 of their 7 clear ones. A pile seen to change where
    the event leaves it is evidence too: a gem's whole area changed.) Unless this table's
    camera has seen gems of those colours leave their piles again and again
    (``Mismatch.shows``): then a pile not seen to change says none left it."""
    return _take_unseen(m) and not m.shows


def _take_unseen(m: Mismatch) -> bool:
    """A pile the event takes gems from that the picture did not see change."""
    return m.kind == "deposit" and m.expected is not None and m.seen is None and m.taken


def _benign(m: Mismatch) -> bool:
    """A disagreement that cannot mean another move: a canoe not seen, a disc not seen
    (every slot holds one at rest whatever the event, R-SETUP-2, R-RIVER-2: one not seen
    lies under the canoes piled on it, or in glare), a canoe seen
    beyond the two a player has (``Mismatch.phantom``) but not where the event takes one
    away (``Mismatch.stayed``: the move may not have happened), a gem the canoe
    carried before seen in another colour or not seen (the picture before showed it;
    a gem leaves its canoe only by a move that says so, and such an event is scored
    too: when it is the one that happened, it fits better); a loaded gem so, when the
    picture saw the deposits change as the event says (``Mismatch.vouched``); a canoe
    of a colour no one at the table plays (no event moves it: a misread, such as a
    canoe's shadow on pale water read as a blue hull, or a canoe left out of the box)."""
    return m.kind in ("missing", "disc", "player") or (m.phantom and not m.stayed) or (
        _rode(m) and (m.misread_colour or m.unseen_gem))


def _rode(m: Mismatch) -> bool:
    """A gem read in another colour that cannot be one taken where the rules give
    none: one the canoe carried before (``Mismatch.carried``; not one it steals: the
    thief's canoe did not carry it), or one loaded from a pile the picture saw change
    as the event says (``Mismatch.vouched``)."""
    return m.vouched or m.carried


def _habit(m: Mismatch) -> bool:
    """A gem read in a colour this table's camera has read gems of its colour as, again
    and again, in pictures the game confirmed (``Mismatch.habit``): a gem loaded where
    the other colour does not lie, a move no rule allows, is far rarer than the misread
    this camera is known to make."""
    return m.misread_colour and m.habit


__all__ = ["TOLERANCE", "slips"]
