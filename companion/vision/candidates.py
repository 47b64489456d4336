"""The ranked events an inference ends with (``Candidate``) and what it says about them
(``Inference``: exact, ambiguous or none; the closest events; a one-line summary)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Self

from companion.rules import Buyback, Game, River, Turn

from .expected import Canoe
from .fit import Mismatch, place_diff
from .not_shown import unseen_only
from .sighting import UNKNOWN, Sighting
from .slips import (
    LOOKS,
    TOLERANCE,
    _benign,
    _habit,
    _key,
    _pile_hid,
    _put_hid,
    _rode,
    _slip,
    _swapped,
    _take_unseen,
    _taken_seen,
    slips,
)

STATUSES = ("exact", "ambiguous", "none")

# Events scoring within this of the best are too close to tell apart: ask the players.
MARGIN = 0.7
# A perfect fit is not certain when another event differs from it only by one gem the
# picture did not show (a gem hides more easily than one appears): ask.
HIDDEN_GEM = 1.0
# A gem read in the neighbour's canoe of a shared disc is a slip to ask about until this
# table's camera has shown that it reads such discs right: the share of them it read
# swapped (``Sighting.gems_swapped``, its prior included) at most this. Then a theft
# (or none) is taken from which canoe the gem is seen in (R-STEAL-1). Not when the
# victim's canoe is read with a clear gem still (``_clear_stayed``): an empty hull's
# gloss reads as one (the hand rules' "clear" was right 51 times of 140 on the tuned
# worlds' river canoes), and the victim lay still where it was read with its gem (the
# tuned g114 e39 and g115 e33 with the setup calibration: the theft-less turn was
# applied).
SWAPS_RARE = 0.1


@dataclass(frozen=True)
class Candidate:
    """One legal event, what it should leave on the table and how well that fits."""

    event: Turn | River | tuple[Buyback, ...]
    score: float
    mismatches: tuple[Mismatch, ...]
    text: str
    # What the diff is drawn from: the expected canoes of the scored players.
    expected: Mapping[str, Sequence[Canoe]] = field(default_factory=dict, repr=False,
                                                    compare=False)
    seen: Sighting | None = field(default=None, repr=False, compare=False)
    players: tuple[str, ...] = field(default=(), repr=False, compare=False)
    weather: int | None = field(default=None, repr=False, compare=False)
    # How candidates are ordered; equal ranks tie. Default: the score alone.
    rank: tuple = field(default=(), repr=False, compare=False)
    # Where the event's canoes end with a gem they did not carry before it (loaded or
    # stolen): (place, gem). Such a gem may hide from the picture after.
    gains: frozenset[tuple[str, str]] = field(default=frozenset(), repr=False,
                                              compare=False)

    @property
    def order(self) -> tuple:
        return self.rank or (_key(self.score),)

    @property
    def diff(self) -> list[dict[str, Any]]:
        """Slot by slot, what differs from the picture (empty when it fits)."""
        if not self.mismatches or self.seen is None:
            return []
        return place_diff(self.expected, self.seen, self.mismatches, self.players,
                          self.weather)

    def to_json(self) -> dict[str, Any]:
        if isinstance(self.event, tuple):
            event: Any = [e.to_json() for e in self.event]
        else:
            event = self.event.to_json()
        return {"event": event, "text": self.text, "score": round(self.score, 3),
                "diff": self.diff}


@dataclass(frozen=True)
class Inference:
    """The answer: a status, the ranked candidates, and differences outside the move.

    ``best`` holds the candidates tied at the best score: the one event when
    ``exact``, the ones to ask the players about when ``ambiguous``, the closest
    legal events when ``none``."""

    status: str
    candidates: tuple[Candidate, ...]
    unexplained: tuple[Mismatch, ...] = ()

    @property
    def best(self) -> tuple[Candidate, ...]:
        if not self.candidates:
            return ()
        first = self.candidates[0]
        if self.status == "ambiguous" and _key(first.score) > 0:
            # Not a tie of perfect fits: every event too close to the best to tell; when
            # the best needs a gem unseen, also those that need one more (a gem hides),
            # but not one that leaves a pile the picture saw a gem taken from.
            if any(m.unseen_gem for m in first.mismatches):
                near = tuple(c for c in self.candidates
                             if _key(c.score - first.score) <= HIDDEN_GEM
                             and all(_slip(m) and not _taken_seen(m) for m in c.mismatches)
                             or c.score < first.score + MARGIN)
            else:
                near = tuple(c for c in self.candidates if c.score < first.score + MARGIN)
            if any(m.misread_colour and not _benign(m) for m in first.mismatches):
                # A gem of the best read in another colour: as near is an event only
                # its takes not seen keep further (``_pile_hid``): the misread may be of
                # its gem, its pile's change missed (the tuned g113's violet and blue).
                near += tuple(c for c in self.candidates if c not in near
                              and _piles_aside(c) < first.score + MARGIN
                              and all(_slip(m) and not _taken_seen(m) for m in c.mismatches))
            return near + tuple(c for c in _gem_may_hide(self.candidates) if c not in near)
        tied = tuple(c for c in self.candidates if c.order == first.order)
        if self.status == "ambiguous":
            # and those as good but for slips that cannot mean another move, or that
            # differ from it only where the picture read a gem "unknown"
            benign = tuple(c for c in self.candidates if c.order != first.order
                           and c.score < first.score + MARGIN
                           and (_asked(c) == "hidden" or _unsure_between(first, c)))
            hide = tuple(c for c in _gem_may_hide(self.candidates) if c not in benign)
            return tied + benign + hide
        return tied

    @property
    def score(self) -> float | None:
        return self.candidates[0].score if self.candidates else None

    @property
    def diff(self) -> list[dict[str, Any]]:
        """Slot-by-slot diff against the closest candidate (empty when it fits)."""
        return self.candidates[0].diff if self.candidates else []

    def settled(self: Self) -> Self:
        """This answer, with a question that would offer one event only, and that only
        for things the picture did not show, taken as that event: every disagreement of
        it is something not seen (``_benign``: canoes hidden, gems it carried before or
        loaded from a pile seen to change), however many, and no other event explains
        the picture as nearly, not even by a gem that hid. Nothing seen contradicts it,
        and asking the players to confirm it would only make them press a button. A gem
        the event loads (or steals) seen in another colour is still asked about: it may
        be a misread, or a gem taken where that colour does not lie (a move no rule
        allows); not a gem the canoe carried before (it rode with its canoe, R-GEM-6;
        nothing is loaded in the river's phase, R-RIVER-5), nor one from a pile seen to
        change as the event says (``slips._rode``; here also one the change may not
        account for: ``Mismatch.pile_changed``), nor one read in a colour this table's
        camera is known to read gems of its colour as (``slips._habit``). Not when
        the picture shows changes the event does not explain (others' canoes moved;
        others' canoes not seen, or seen beyond the two they have, are only slips; so is
        a gem seen in an empty canoe that no legal event puts there, ``_made_up``). The
        same for a gem the event loads that this table's camera often misses, not shown,
        when the pile it came from was not seen to change either (``unseen_only``): the
        card played leaves no other event near, and nothing seen says the gem stayed
        behind. For
        the river, the events are the pushes of the round's speed (R-RIVER-1): others
        fitting as well are not the players' to choose (``RiverInference.best``)."""
        if self.status != "ambiguous" or not self.candidates \
                or not all(_benign(m) or self._made_up(m) for m in self.unexplained):
            return self
        best = self.best
        if len(best) != 1 or best[0] is not self.candidates[0] \
                or any(m.misread_colour and not (_rode(m) or _habit(m) or m.pile_changed)
                       for m in best[0].mismatches):
            return self
        # (Alone, a pile seen to change as the event says stands for every gem it loads
        # there, ``Mismatch.pile_changed``: no other event comes near the picture.)
        made_up = [m for m in best[0].mismatches if self._made_up(m)]
        fit = replace(best[0], score=best[0].score - sum(m.cost for m in made_up),
                      mismatches=tuple(replace(m, vouched=True) if m.pile_changed else m
                                       for m in best[0].mismatches if m not in made_up))
        if not fit.mismatches or slips(fit.mismatches) == "hidden" or unseen_only(fit):
            return replace(self, status="exact")
        return self

    def _made_up(self, m: Mismatch) -> bool:
        """A gem seen in a canoe where the state has none and no legal event of the
        player to move puts it (none of the candidates), of a colour this table's camera
        reads in empty canoes (``Mismatch.invented``; in the canoe of a player who does
        not move, any: no one loads in another's turn, R-GEM-6). No move explains it:
        the camera's reading, as a clear gem read in a hull's gloss."""
        if m.kind != "cargo" or not m.invented or not isinstance(m.seen, tuple):
            return False
        return m.seen not in placed(self.candidates, m.player or "")

    def closest(self, n: int = 3) -> tuple[Candidate, ...]:
        return self.candidates[:n]

    def to_json(self, candidates: int = 5) -> dict[str, Any]:
        return {"status": self.status, "summary": self.summary,
                "best": [c.to_json() for c in self.best],
                "candidates": [c.to_json() for c in self.candidates[:candidates]],
                "unexplained": [m.to_json() for m in self.unexplained]}

    @property
    def summary(self) -> str:
        """One line for people: the answer, or what to ask, or what is wrong."""
        best = self.best
        if not best:
            return "nothing to compare"
        if self.status == "exact":
            return best[0].text
        names = " | ".join(c.text for c in best[:6]) + (" | …" if len(best) > 6 else "")
        kinds = {m.kind for c in best for m in c.mismatches}
        if self.status == "ambiguous" and kinds != {"missing"}:
            return f"{len(best)} fit the picture equally: {names}; ask the players"
        if kinds == {"missing"}:
            lost = sorted({m.player or "" for c in best for m in c.mismatches})
            return (f"{' and '.join(lost)}: a canoe is not seen; {len(best)} legal "
                    f"move{'s' if len(best) > 1 else ''} fit the rest: {names}")
        problems = "; ".join(m.message for m in best[0].mismatches)
        return f"no legal move fits; closest {best[0].text}: {problems}"

    def __str__(self) -> str:
        lines = [f"{self.status}: {self.summary}"]
        lines += [f"  also: {m.message}" for m in self.unexplained]
        return "\n".join(lines)


def placed(candidates: Iterable[Candidate], player: str) -> set[Canoe]:
    """The canoes, (place, gem), some of `candidates` leave `player` with: a gem seen
    in one of them is a legal event's, whatever the others make of it."""
    return {canoe for c in candidates for canoe in c.expected.get(player, ())}


def _status(candidates: Sequence[Candidate]) -> str:
    """exact: one event fits perfectly, or with canoes hidden only (TOLERANCE) and by
    MARGIN ahead of the next (or with canoes looking against it, ``LOOKS``, when it is
    more than TOLERANCE ahead even charged them); ambiguous: several fit as well (or
    too nearly), or the best only with gems of another colour or places stirred, or
    only with more hidden (or stirred) than TOLERANCE, or with more hidden and slips
    within it; none: nothing fits (beyond TOLERANCE, piles not seen to change and
    canoes hidden not counted)."""
    if not candidates:
        return "none"
    first = candidates[0]
    tied = [slips(c.mismatches) for c in candidates if c.order == first.order]
    # Among events that fit equally well, one a camera's slip explains is enough to ask.
    if all(kind is None for kind in tied):
        return "none"
    # Piles the event takes from that the picture did not see change tell events apart,
    # but they are nothing the picture shows against it (``_take_unseen``, even of a
    # colour this table's camera sees leave its piles): a move is not flagged for them.
    shown = first.score - sum(m.cost for m in first.mismatches if _take_unseen(m))
    runner = next((c for c in candidates[1:] if c.order != first.order), None)
    clear = runner is None or runner.score >= first.score + MARGIN
    if _key(shown) > TOLERANCE:
        # (Nor for what they make of its slips: canoes hidden and a pile unchanged is
        # still only what the picture did not show; and with no other event near, nor a
        # gem it puts on a pile that did not show it: the unload is the only legal way
        # the gem left its canoe, as ``unseen_only`` takes it.)
        kept = [m for m in first.mismatches
                if not _take_unseen(m) and not (clear and _put_hid(m))]
        kind = slips(kept)
        # Nor for canoes hidden that carry a camera's slip beyond TOLERANCE: what the
        # picture shows against the event is the slip (a gem it loads or steals read in
        # another colour), no more than a slip alone.
        against = sum(m.cost for m in kept if not _benign(m))
        if kind == "misread" and _key(against) <= TOLERANCE:
            return "ambiguous"
        return "ambiguous" if {"hidden", "stirred"} & {*tied, kind} else "none"
    if len(tied) > 1:
        return "ambiguous"
    kind = tied[0]
    if kind in ("none", "hidden") and _gem_may_hide(candidates):
        return "ambiguous"
    if kind == "none":
        # A runner whose every disagreement is a slip that cannot mean another move
        # (``_benign``) fits as well as a perfect fit: ask. So does one that puts
        # another gem in a canoe the picture could not make out: the fit is perfect
        # there only because "unknown" fits any gem.
        return "exact" if clear or (runner is not None
                                    and _asked(runner) != "hidden"
                                    and not _unsure_between(first, runner)) \
            else "ambiguous"
    if kind == "stirred" and all(m.kind in LOOKS or _benign(m) for m in first.mismatches) \
            and (runner is None or _key(runner.score - first.score) > TOLERANCE):
        # A canoe's look against itself tells near events apart; it does not overrule
        # the rest of the picture where that says more against every other event than a
        # picture's slips do (TOLERANCE), charged the look. (A crowded disc's canoes
        # shift as another joins them, and their middles with them: 1 of 127 canoes
        # that kept their cargo on a slot others came to looked changed in the tuned
        # games.)
        return "exact"
    return "exact" if clear and kind == "hidden" else "ambiguous"


def _piles_aside(candidate: Candidate) -> float:
    """An event's score but for the piles it takes from that the picture did not see
    change (``_pile_hid``: no evidence that it did not happen)."""
    return candidate.score - sum(m.cost for m in candidate.mismatches if _pile_hid(m))


def _asked(other: Candidate) -> str | None:
    """What the disagreements of an event after the best amount to (``slips``), a gem
    it loads misread from a pile seen to change as it says counted as vouched for, even
    where the gems the canoes show may account for that change
    (``Mismatch.pile_changed``). Two loads from one deposit, one gem seen, the other
    read in the colour of a gem the best loads there instead, the pile not seen lose
    two: the event is asked about beside the best. (The best itself is not let off so:
    the tuned g113 played a violet pair, one read clear, for the violet and blue that
    one violet pile change stood for.)"""
    return slips([replace(m, vouched=True) if m.pile_changed else m
                  for m in other.mismatches])


def _unsure_between(first: Candidate, other: Candidate) -> bool:
    """Whether two events differ in the gems they leave in some player's canoes on a
    place where the picture saw a canoe of theirs whose gem it could not make out
    (``UNKNOWN``): there it tells them apart by nothing it saw. (On the tuned worlds with
    knocks, a thief's canoe read so made a theft of a clear gem and no theft fit alike
    but for the victim's hull read as still carrying it, and no theft was played.)"""
    seen = first.seen
    if seen is None:
        return False
    for player, canoes in seen.canoes.items():
        for place in {at for at, gem in canoes if gem == UNKNOWN}:
            gems = [sorted((g or "" for at, g in c.expected.get(player, ()) if at == place))
                    for c in (first, other)]
            # (Canoes of theirs there in other numbers: a difference the picture shows.)
            if len(gems[0]) == len(gems[1]) and gems[0] != gems[1]:
                return True
    return False


def _gem_may_hide(candidates: Sequence[Candidate]) -> tuple[Candidate, ...]:
    """The events after the best fit that differ from it only by gems they put in a
    canoe (loaded or stolen) that the picture did not show, up to HIDDEN_GEM more, or
    by piles they change that it did not see change (``_pile_hid``), or by a gem read
    in the neighbour's canoe on a shared disc or in both (``Mismatch.doubled``: the
    event that happened may be the one the doubled reading counts against), unless
    this table's camera is known to read those right (``SWAPS_RARE``), or by a clear
    gem read still in a theft's victim (``_clear_stayed``). (A gem a canoe
    already carried, seen gone, was taken: the picture before showed it; not seeing a
    colour this table's camera often misses costs less, ``FitWeights.shown``.)"""
    first = candidates[0]
    out = []
    for c in candidates[1:]:
        if c.order == first.order:
            continue
        rare = swaps_rare(c.seen)
        mover = c.event.player if isinstance(c.event, Turn) else None
        pairs = [pair for pair in _swapped(c.mismatches)
                 if not rare or _clear_stayed(pair[1], mover)]
        swapped = {id(m) for pair in pairs for m in pair}
        doubled = [m for m in c.mismatches if m.doubled and (not rare or _clear_stayed(m, mover))]
        still = [m for m in c.mismatches if _clear_stayed(m, mover)
                 and id(m) not in swapped and m not in doubled]
        hiding = [m.unseen_gem and m.expected in c.gains or _pile_hid(m) or id(m) in swapped
                  or m in doubled or m in still for m in c.mismatches]
        # A pile not seen to change and a gem seen in the neighbour's canoe (or in both,
        # or a clear one still where it lay) are what hides, not further slips: only the
        # gem itself counts against HIDDEN_GEM.
        extra = c.score - first.score - sum(m.cost for m in c.mismatches if _pile_hid(m)) \
            - sum(given.cost for _, given in pairs) - sum(m.cost for m in doubled + still)
        if _key(extra) <= HIDDEN_GEM and any(hiding) \
                and all(h or _benign(m) for h, m in zip(hiding, c.mismatches, strict=True)):
            out.append(c)
    return tuple(out)


def _clear_stayed(m: Mismatch, mover: str | None) -> bool:
    """A clear gem seen in the canoe of a player who did not move, where the turn
    leaves it empty: a theft's victim, robbed of a clear gem, read as it was. Its canoe
    lay still under the same lamp, and an empty hull's gloss reads as a clear gem; so
    however well this table's camera reads shared discs (``SWAPS_RARE``), the theft
    may have happened. (Not the thief's canoe read with clear where the victim's reads
    none: that one came and went.)"""
    return mover is not None and m.kind == "cargo" and m.gem_in_empty \
        and m.player != mover and isinstance(m.seen, tuple) and m.seen[1] == "clear"


def swaps_rare(seen: Sighting | None) -> bool:
    """Whether this table's camera has shown that it reads right which canoe of a
    shared disc holds its gem (``SWAPS_RARE``): then a gem seen in a canoe is taken to
    be there."""
    return seen is not None and seen.gems_swapped is not None \
        and seen.gems_swapped <= SWAPS_RARE


def scratch_copy(game: Game) -> Game:
    """A game in the same state with no history, to try events on: inference never
    changes the caller's game, not even for a moment (a web thread may be reading it)."""
    trial = Game.from_setup(game.setup)
    trial.state = game.state.copy()
    return trial


__all__ = ["HIDDEN_GEM", "MARGIN", "STATUSES", "SWAPS_RARE", "Candidate", "Inference",
           "placed", "scratch_copy", "swaps_rare"]
