"""The look of this table's pieces, learned from the pictures the game confirmed.

>>> looks = PieceLooks()
>>> looks.learn([SeenCanoe("red", "3", 4.1), SeenCanoe("red", "D", 3.5)],
...             {"red": [("3", None), ("D", None)]})
2
>>> looks.empty_texture("red")
3.8

Every confirmed state labels the canoes in its picture: a canoe of a player seen on a
place where that player's canoes are all empty is an empty hull, so how uneven its
middle looked (its shading and gloss under this lamp, in units of sensor noise) is what
an empty hull of that colour looks like here; one where they all carry a violet gem
shows how a violet gem in a canoe looks here. A gem's facets and colour are then judged
against those, not against a threshold tuned to one renderer or calibration photos
taken in the glare of a lamp. Only pictures the game confirmed
by itself are learned from; one whose reading the players had to correct is not (the
caller's rule: ``companion.camera.TableCamera``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from statistics import median
from typing import Any

import numpy as np

from companion.rules import GEMS

from .middle_looks import (
    EMPTY,
    LOOK_FAR,
    LOOK_MARGIN,
    LOOK_SPREAD,
    PALE_CLEAR,
    PALE_ENOUGH,
    PALE_SPREAD,
    PALE_UNSURE,
    nearest,
    paler_than_empty,
)
from .mismatch import shows_hull
from .seen_canoes import SeenCanoe
from .sighting import UNKNOWN
from .take_looks import TAKES_PRIOR, TakeLooks, share, sightings

# Looks of the last this-many empty hulls a colour are kept: the light drifts (a lamp
# switched on, daylight fading), and the newest pictures follow it.
KEEP = 24
# Fewer samples than this say nothing yet.
ENOUGH = 2
# How often a carried gem shows starts as if it had shown this many times more: one
# picture that missed a gem does not yet say that gems of its colour hide here.
SHOWN_PRIOR = 2
# ... but a clear gem shows its hull through it: it starts as seen once and missed once.
CLEAR_SHOWN_PRIOR = (1, 1)
# Each colour's start (sightings, misses) where it is not SHOWN_PRIOR's (sightings only):
# a colour that starts with misses is listed before the table has seen one.
SHOWN_PRIORS = {"clear": CLEAR_SHOWN_PRIOR}
# One gem seen in a canoe of a confirmed state already says more about its colour here
# than the calibration photos (a lamp's glare on them, another light).
ENOUGH_GEMS = 1
# Which canoe of a shared disc holds its one gem is judged from what this table's camera
# read on such discs, starting from what the tuned worlds' games showed (40 shared
# discs with one gem, none read with the gem in the other canoe: ``worlds_gems.py``),
# counted as 20 read right and one read swapped: two swaps in a table's first few such
# discs outweigh it.
SHARED_PRIOR = (20, 1)
# A gem this table's camera read in another colour is counted against as many readings
# of it, right or not, as if this many more had been right: one picture's misread does
# not yet make it this camera's habit. A confusion read fewer than ENOUGH times is not
# listed (``misread``).
MISREAD_PRIOR = 2


class PieceLooks(TakeLooks):
    """What the pieces looked like at this table: empty hulls of each colour, gems in
    canoes, gems in their deposits."""

    def __init__(self) -> None:
        super().__init__()
        self._empty: dict[str, deque[float]] = {}
        # The gems seen in canoes, by colour; and by colour and the hull's colour (a gem
        # is translucent: the hull under it shows through).
        self._gems: dict[str, deque[tuple[float, float, float]]] = {}
        self._gems_in: dict[tuple[str, str], deque[tuple[float, float, float]]] = {}
        self._piles: dict[str, deque[tuple[float, float, float]]] = {}
        self._shown: dict[str, deque[bool]] = {}
        # What carried gems were read as, by colour: another gem's colour, or the gem's
        # own (read right, or not as another colour: unseen, unknown, the hull through).
        self._reads: dict[str, deque[str]] = {}
        self._in_empty: deque[str | None] = deque(maxlen=KEEP * 2)
        # How the middles of canoes on the river looked (``GemEvidence.look``), by hull
        # colour and the gem the state says they carried (None: empty).
        self._middles: dict[tuple[str, str | None], deque[tuple[float, ...]]] = {}
        # Shared discs with one gem among their canoes: read right (True) or with the
        # gem in another canoe (False); and the ones of the state last learned from,
        # each counted once however many pictures show it.
        self._shared: deque[bool] = deque(maxlen=KEEP * 2)
        self._shared_now: set[tuple[str, frozenset[tuple[str, str | None]]]] = set()

    def gem_colour(self, gem: str, in_canoe: bool = False, hull: str | None = None
                   ) -> np.ndarray | None:
        """How a `gem` looks here (BGR, light-corrected): as gems of that colour looked
        in canoes of confirmed pictures (the median of the recent ones), in `hull`s of
        that colour if any was seen; else (unless `in_canoe`) as their pile in the
        deposit looked; None before any was seen. A gem is translucent: the hull under
        it shows through, so a violet gem looks pink in a green canoe and grey in a
        yellow one, and its look in the same colour of hull is the one to go by."""
        own = self._gems_in.get((gem, hull)) if hull is not None else None
        sources = (own, self._gems.get(gem)) if in_canoe else (own, self._gems.get(gem),
                                                               self._piles.get(gem))
        for seen in sources:
            if seen and len(seen) >= ENOUGH_GEMS:
                return np.median(np.array(seen, dtype=np.float64), axis=0)
        return None

    def pile_colour(self, gem: str) -> np.ndarray | None:
        """How a pile of `gem`s looks here (BGR, light-corrected: the median of the
        recent confirmed ones), None before one was seen."""
        seen = self._piles.get(gem)
        return np.median(np.array(seen, dtype=np.float64), axis=0) if seen else None

    def learn_pile(self, gem: str, colour: tuple[float, float, float]) -> None:
        """A deposit holding only `gem`s showed them in this colour (a confirmed state
        says what lies in each deposit: the setup, 7 of a colour in each)."""
        self._piles.setdefault(gem, deque(maxlen=KEEP)).append(colour)

    def shown(self) -> dict[str, float]:
        """How often a gem of each colour was seen in the canoes carrying it in the
        recent confirmed pictures (a share, from 0 to 1, counting SHOWN_PRIOR sightings
        more): the colours of gems that were in canoes of them only. Clear gems show
        their hull's colour through them and hide far more often than red ones: not
        seeing one tells less (``FitWeights.shown``); so clear is always listed,
        starting as seen every other time (SHOWN_PRIORS)."""
        gems = {gem for gem, seen in self._shown.items() if seen} | set(SHOWN_PRIORS)
        return {gem: share(self._shown.get(gem, ()), SHOWN_PRIORS.get(gem, (SHOWN_PRIOR, 0)))
                for gem in sorted(gems)}

    def invented(self) -> dict[str, float]:
        """The gems read in canoes that carried none in the recent confirmed pictures
        (on the river; not of the hull's own colour), each with the share of those
        canoes it was read in: a gem of such a colour seen where a move puts none is
        likelier this camera's misread than a load no rule allows.

        Clear, once this table reads it from paleness (``pale_gem``), is always among
        them, at least as if the next empty canoe were read so: a clear gem has no
        colour of its own, and a hull's gloss paler than any seen yet reads as one."""
        seen = [gem for gem in self._in_empty if gem is not None]
        shares = {gem: seen.count(gem) / len(self._in_empty) for gem in set(seen)}
        if any(len(v) >= PALE_ENOUGH for (_, gem), v in self._middles.items() if gem is None):
            shares["clear"] = max(shares.get("clear", 0.0), 1 / (len(self._in_empty) + 1))
        return dict(sorted(shares.items()))

    def misread(self) -> dict[str, dict[str, float]]:
        """The colours this table's camera read carried gems as, other than their own
        (on the river; at least ENOUGH times in the recent confirmed pictures), each
        with the share of that gem's readings it was (MISREAD_PRIOR counted as read
        right): {gem: {read as: share}}. A violet gem in a blue hull may read clear
        under one lamp every other time; a gem of that colour loaded and read so is
        this camera's habit, not a gem of the other colour loaded where none lies."""
        out: dict[str, dict[str, float]] = {}
        for gem, reads in sorted(self._reads.items()):
            others = {read: reads.count(read) for read in set(reads) if read != gem}
            shares = {read: n / (len(reads) + MISREAD_PRIOR)
                      for read, n in sorted(others.items()) if n >= ENOUGH}
            if shares:
                out[gem] = shares
        return out

    def swapped(self) -> float:
        """How often this table's camera read the one gem of a shared disc in the wrong
        canoe (a canoe of another player on the slot seen with a gem, the carrier seen
        empty), as a share of the shared discs it read either way, SHARED_PRIOR
        included: a thief ends on its victim's slot (R-STEAL-1), and which of two
        touching canoes holds a gem is what a picture tells least well."""
        right, wrong = SHARED_PRIOR
        return (self._shared.count(False) + wrong) / (len(self._shared) + right + wrong)

    def pale_gem(self, player: str, pale: float | None) -> str | None:
        """What the paleness of a canoe's middle (of `player`'s colour, on the river)
        says: "clear" when it is paler than this table's empty hulls of that colour
        look, by PALE_CLEAR of their spreads; "unknown" when unsure; None when it says
        nothing (an empty hull's paleness, or too few hulls seen yet)."""
        return paler_than_empty(self._middles.get((player, None)), pale)

    def clear_look(self, player: str, look: tuple[float, ...] | None) -> str | None:
        """What a plain middle's whole look (``GemEvidence.look``: nothing in it unlike
        its hull) says of a clear gem in a canoe of `player`'s colour, once this table
        has shown both its empty hulls (PALE_ENOUGH) and clear gems (ENOUGH) in them:
        "clear" when it is nearer the clear gems' look (``middle_looks.nearest``),
        "unknown" when about as near both, None when nearer the empty hulls' or when it
        cannot say.
        Paleness alone (``pale_gem``) points one way; under a glossy lamp an empty
        hull's gloss is paler than the gem that covers it, and only the looks this table
        confirmed say which way its clear gems lie."""
        return self._plain_look(player, "clear", look)

    def own_look(self, player: str, look: tuple[float, ...] | None) -> str | None:
        """As ``clear_look``, of a gem of the hull's own colour (a yellow gem in a
        yellow hull): its facets (``GemReader._faceted``) show under some lamps only;
        its look as this table confirmed it tells it under others."""
        return self._plain_look(player, player, look)

    def _plain_look(self, player: str, gem: str, look: tuple[float, ...] | None
                    ) -> str | None:
        empty = self._middles.get((player, None))
        shown = self._middles.get((player, gem))
        if look is None or not empty or not shown or len(empty) < PALE_ENOUGH \
                or len(shown) < ENOUGH:
            return None
        said = nearest(look, {None: empty, gem: shown})
        return None if said == EMPTY else said

    def middle_gem(self, player: str, look: tuple[float, ...] | None) -> str | None:
        """The gem whose look in `player`'s hulls here a canoe's middle (``look``) is
        nearest, among those this table has shown (EMPTY for an empty hull), "unknown"
        when two are about as near; None when it has no opinion: fewer than two looks
        learned for this hull colour (an empty one among them), or the middle near none
        of them (``middle_looks.nearest``)."""
        if look is None:
            return None
        known = {gem: seen for (hull, gem), seen in self._middles.items()
                 if hull == player and len(seen) >= ENOUGH}
        if len(known) < 2 or None not in known:
            return None
        return nearest(look, known)

    def empty_texture(self, player: str) -> float | None:
        """How uneven an empty hull of `player`'s colour looks here (the median of the
        recent confirmed ones), None before ENOUGH were seen."""
        seen = self._empty.get(player)
        if not seen or len(seen) < ENOUGH:
            return None
        return float(median(seen))

    def to_json(self) -> dict[str, Any]:
        """All it learned, as JSON (what ``from_json`` reads): a restarted camera goes
        on from it (``companion.vision.resume``)."""
        def rows(seen: Iterable[Any]) -> list[Any]:
            return [[round(float(v), 4) for v in x] if isinstance(x, tuple)
                    else round(float(x), 4) for x in seen]

        def by_hull(part: Mapping[Any, deque[Any]], hull_first: bool
                    ) -> dict[str, dict[str, list[Any]]]:
            out: dict[str, dict[str, list[Any]]] = {}
            for key, seen in part.items():
                hull, gem = key if hull_first else key[::-1]
                out.setdefault(str(hull), {})[gem or EMPTY] = rows(seen)
            return out

        return {"empty": {p: rows(v) for p, v in self._empty.items()},
                "gems": {g: rows(v) for g, v in self._gems.items()},
                "gems_in": by_hull(self._gems_in, False),
                "middles": by_hull(self._middles, True),
                "piles": {g: rows(v) for g, v in self._piles.items()},
                "shown": {g: list(v) for g, v in self._shown.items()},
                "reads": {g: list(v) for g, v in self._reads.items()},
                "in_empty": list(self._in_empty), "shared": list(self._shared),
                # (The shared discs the last picture counted: not counted again while
                # they stay as they are, after a restart too.)
                "shared_now": sorted([place, sorted([p, g or EMPTY] for p, g in there)]
                                     for place, there in self._shared_now),
                **self._takes_json()}

    @classmethod
    def from_json(cls, data: Any) -> PieceLooks:
        """What ``to_json`` wrote; ValueError (or KeyError, TypeError, AttributeError)
        if it is not."""
        def keep(seen: Iterable[Any], size: int = 0) -> deque[Any]:
            """Numbers (`size` 0) or colours and looks of `size` numbers each."""
            if not all(len(x) == size if size else not isinstance(x, list) for x in seen):
                raise ValueError(f"a look of other than {size or 1} numbers")
            return deque((tuple(float(v) for v in x) if size else float(x) for x in seen),
                         maxlen=KEEP)

        looks = cls()
        looks._empty = {str(p): keep(v) for p, v in data["empty"].items()}
        looks._gems = {str(g): keep(v, 3) for g, v in data["gems"].items()}
        looks._gems_in = {(str(g), str(h)): keep(v, 3) for h, part in data["gems_in"].items()
                          for g, v in part.items()}
        looks._middles = {(str(h), None if g == EMPTY else str(g)): keep(v, len(LOOK_SPREAD))
                          for h, part in data["middles"].items() for g, v in part.items()}
        looks._piles = {str(g): keep(v, 3) for g, v in data["piles"].items()}
        looks._shown = {str(g): sightings(v, bool) for g, v in data["shown"].items()}
        # (Kept since the thirty-third session: a table kept before has none yet.)
        looks._reads = _reads(data.get("reads", {}))
        looks._in_empty = sightings(data["in_empty"], str, type(None), maxlen=KEEP * 2)
        looks._shared = sightings(data["shared"], bool, maxlen=KEEP * 2)
        looks._shared_now = {(str(place), frozenset((str(p), None if g == EMPTY else str(g))
                                                    for p, g in there))
                             for place, there in data.get("shared_now", ())}
        looks._read_takes(data)
        return looks

    def learn(self, seen: Iterable[SeenCanoe],
              canoes: Mapping[str, Sequence[tuple[str, str | None]]]) -> int:
        """Learn from a picture whose state is known (`canoes`: the state's canoes by
        player, as (place, gem)); returns how many canoes it learned from. A canoe
        teaches only where the state's canoes of its player there all carry the same
        (a canoe cannot be told from its twin)."""
        seen = list(seen)
        learned = 0
        for canoe in seen:
            there = [gem for place, gem in canoes.get(canoe.player, ()) if place == canoe.place]
            if not there or len(set(there)) != 1:
                continue  # not this player's place, or which canoe is which is unsure
            gem = there[0]
            if canoe.place not in ("D", "F"):
                middles = self._middles.setdefault((canoe.player, gem), deque(maxlen=KEEP))
                # A canoe that stayed where it lay is read again from its cached middle:
                # the same sighting, however many pictures show it, is learned once (a
                # gem missed once while its canoe stays is one miss, not one a picture
                # of it).
                if canoe.look is None or canoe.look not in middles:
                    if gem is None:
                        # (A gem of the hull's own colour or one read as unknown is no
                        # claim of a gem.)
                        self._in_empty.append(None if canoe.gem in (canoe.player, UNKNOWN)
                                              else canoe.gem)
                    else:
                        # (A clear gem read as its hull's colour did not show; nor is
                        # it read in another colour.)
                        through = shows_hull(canoe.player, gem, canoe.gem)
                        self._shown.setdefault(gem, deque(maxlen=KEEP)).append(
                            canoe.gem is not None and not through)
                        if not _beside_gems(canoe, canoes):
                            other = canoe.gem not in (None, UNKNOWN) and not through
                            self._reads.setdefault(gem, deque(maxlen=KEEP)).append(
                                str(canoe.gem) if other else gem)
                    if canoe.look is not None:
                        middles.append(canoe.look)
            if gem is None and canoe.texture is not None:
                self._empty.setdefault(canoe.player, deque(maxlen=KEEP)).append(canoe.texture)
                learned += 1
            elif gem is not None and canoe.core is not None:
                self._gems.setdefault(gem, deque(maxlen=KEEP)).append(canoe.core)
                self._gems_in.setdefault((gem, canoe.player), deque(maxlen=KEEP)).append(
                    canoe.core)
                learned += 1
        self._learn_shared(seen, canoes)
        return learned

    def _learn_shared(self, seen: list[SeenCanoe],
                      canoes: Mapping[str, Sequence[tuple[str, str | None]]]) -> None:
        """Count the state's shared discs holding one gem (each player's canoe there one
        only, so each reading names its canoe) that this picture read either way: the gem
        in its canoe and none claimed in the others (right), or the carrier seen empty
        and another claimed to hold one (swapped). A gem of a hull's own colour or read
        as unknown claims nothing."""
        slots: dict[str, list[tuple[str, str | None]]] = {}
        for player, held in canoes.items():
            for place, gem in held:
                if place not in ("D", "F"):
                    slots.setdefault(place, []).append((player, gem))
        now = set()
        for place, there in slots.items():
            players = [p for p, _ in there]
            if len(there) < 2 or len(set(players)) != len(players) \
                    or sum(gem is not None for _, gem in there) != 1:
                continue
            key = (place, frozenset(there))
            if key in self._shared_now:
                now.add(key)
                continue
            read = {c.player: c.gem for c in seen if c.place == place}
            if set(read) != set(players):
                continue  # a canoe not seen there: the picture says nothing of the gem
            now.add(key)
            carrier = next(p for p, gem in there if gem is not None)
            claimed = any(read[p] not in (None, p, UNKNOWN) for p in players if p != carrier)
            if read[carrier] is not None and not claimed:
                self._shared.append(True)
            elif read[carrier] is None and claimed:
                self._shared.append(False)
        self._shared_now = now


def _reads(data: Any) -> dict[str, deque[str]]:
    """``reads`` read back from JSON: each gem's readings, gems named; ValueError when
    it is not."""
    if not isinstance(data, dict) or any(
            gem not in GEMS or not isinstance(reads, list) or any(r not in GEMS for r in reads)
            for gem, reads in data.items()):
        raise ValueError("'reads' must map gems to lists of the gems each was read as")
    return {gem: deque(reads, maxlen=KEEP) for gem, reads in data.items()}


def _beside_gems(canoe: SeenCanoe, canoes: Mapping[str, Sequence[tuple[str, str | None]]]
                 ) -> bool:
    """Whether a canoe of another player on the same slot carries a gem in the state: a
    gem read in this canoe may be that one, read in its neighbour (``swapped``)."""
    return any(place == canoe.place and gem is not None
               for player, held in canoes.items() if player != canoe.player
               for place, gem in held)


__all__ = ["CLEAR_SHOWN_PRIOR", "EMPTY", "ENOUGH", "ENOUGH_GEMS", "KEEP", "LOOK_FAR",
           "LOOK_MARGIN", "LOOK_SPREAD", "MISREAD_PRIOR", "PALE_CLEAR", "PALE_ENOUGH",
           "PALE_SPREAD", "PALE_UNSURE", "SHOWN_PRIOR", "SHOWN_PRIORS", "TAKES_PRIOR", "PieceLooks"]
