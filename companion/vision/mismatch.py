"""One disagreement between the board an event should leave and the board seen
(``Mismatch``): its kind, its cost, what a camera's slip could explain of it, and the
line the referee shows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .expected import Canoe
from .sighting import UNKNOWN


def _describe(player: str, gem: str | None) -> str:
    if gem is None:
        return f"{player}'s empty canoe"
    if gem == UNKNOWN:
        return f"{player}'s canoe"
    return f"{player}'s canoe with {gem}"


def place_name(place: str) -> str:
    """A place as people name it: "the dock", "below the falls", "4"."""
    return {"D": "the dock", "F": "below the falls"}.get(place, place)


def _on(place: str) -> str:
    return place_name(place) if place == "F" else f"on {place_name(place)}"


def _weather(value: int | None) -> str:
    return "unknown" if value is None else f"{value:+d}"


@dataclass(frozen=True)
class Mismatch:
    """One disagreement between the expected and the seen board.

    kind: ``cargo`` (right place, other gem), ``moved`` (seen on another place),
    ``missing`` (not seen), ``extra`` (seen, not expected), ``weather``, ``disc`` (no
    disc seen in a slot), ``player`` (a canoe of a colour that is not playing),
    ``deposit`` and ``stirred`` (a pile or a place changed, or not, against the event),
    ``kept`` and ``changed`` (a canoe that stayed looks as before, or far other,
    against the event: ``cargo_looks``).

    expected, seen: a canoe (place, gem), a weather value (``weather``), the slot
    (``disc``: seen) or the deposit's name (``deposit``), or None."""

    kind: str
    player: str | None
    expected: Canoe | int | str | None
    seen: Canoe | int | str | None
    cost: float = 0.0
    # The expected gem is one a canoe carried before the event (not loaded or stolen by
    # it, ``turn_gems.gains``): the picture before showed it, confirmed by the game,
    # and it travels with its canoe.
    carried: bool = False
    # The expected gem was loaded from a deposit whose pile the picture saw change as
    # the event says, by as many gems as this and the loads from it that show: the
    # load was seen there, if not in the canoe.
    vouched: bool = False
    # The expected gem was loaded from a deposit whose pile the picture saw change as
    # the event says, whether or not the change accounts for it (``vouched``: as many
    # loads as the pile was seen to lose, ``fit_changes.vouched_loads``). Enough to
    # keep an event among those asked about (``candidates._asked``) and to play it when
    # no other comes near (``Inference.settled``); not to play it over another.
    pile_changed: bool = False
    # A deposit the event only takes gems from (kind "deposit"): a pile smaller by a gem
    # of its own colour, which may look as it did (a gem put on a pile usually shows);
    # ``shows`` when this table's camera has seen takes of those colours leave their
    # piles again and again (``fit_changes.TAKES_SEEN``): then not seen, none left.
    taken: bool = False
    shows: bool = False
    # A canoe seen (kind "extra") beyond all the player has: every player has two
    # canoes all game (R-SETUP-3; one over the falls stays on F, R-RIVER-4), so no move,
    # legal or not, makes a third; one seen is the camera's (a print, a shadow, a rim
    # read as a hull). Which of the extras it is, is the pairing's.
    phantom: bool = False
    # A phantom seen where the event takes one of the player's canoes away: it may be the
    # canoe that did not leave (the move's new place misread instead), so it is a slip
    # to ask about, not one that cannot mean another move; unless the picture saw the
    # canoe go (``_vacated``).
    stayed: bool = False
    # A gem seen where the event puts none, of a colour this table's camera has read in
    # canoes that carried none (``FitWeights.invented``).
    invented: bool = False
    # A gem seen in a canoe of the player to move where no legal event puts it, in a
    # picture that saw no pile change and no canoe that may have held a gem of that
    # colour without it (``fit_changes.unsourced``): a gem comes into a canoe only from a
    # deposit (R-GEM-3) or a victim (R-STEAL-1), so the camera's reading is likelier
    # than a load no rule allows. A slip to ask about, never one that settles the turn.
    unsourced: bool = False
    # A gem seen in a canoe of the player to move where the event leaves it empty, of the
    # colour a canoe beside it on that slot carried before and is seen without, of a
    # player no legal event robs (``fit_changes.beside``): the one gem of a shared disc
    # read in the other canoe, as ``slips._swapped`` pairs a scored player's loss with
    # it; or a theft no rule allows (R-STEAL-1, R-STEAL-3), which the picture tells no
    # better. A slip to ask about, never one that settles the turn.
    beside: bool = False
    # A gem seen in a canoe of a player who does not move that the event empties (a
    # theft's victim), of another colour than the one it carried (``_was_other``): the
    # old gem misread or the empty hull misread, costing as a misread colour.
    emptied: bool = False
    # A gem seen in a canoe the event leaves empty, on a slot where the event puts that
    # gem in another canoe and it is seen there too (``fit._doubled``): one gem read in
    # both canoes of a shared disc. One reading is the camera's; which, the picture
    # tells no better than which canoe of a shared disc holds a gem (``slips._swapped``).
    doubled: bool = False
    # A deposit (kind "deposit") a gem of this colour was seen taken from, where the
    # event takes none of it (``Sighting.deposits_taken``): expected the deposit when
    # the event changes its pile otherwise, None when it leaves it as it was.
    gem: str | None = None
    # A deposit (kind "deposit") whose pile changed as two gems taken change it at this
    # table, where the event takes one (``Sighting.deposits_taken_two``).
    two: bool = False
    # A deposit (kind "deposit") the event puts a gem on, whose pile the picture saw
    # change only where gems were taken (``Sighting.deposits_taken_only``): as a gem put
    # on a pile not seen to change, not put there.
    put: bool = False
    # A gem seen in another colour (``misread_colour``) that this table's camera has read
    # gems of the expected colour as, again and again, in its confirmed pictures
    # (``FitWeights.misread``): its habit, not a sign of another gem.
    habit: bool = False

    @property
    def misread_colour(self) -> bool:
        """A gem seen where a gem should be, of another colour (and in the right place);
        not a clear gem read as its hull (``shows_hull``): that one was not seen."""
        return (self.kind == "cargo" and isinstance(self.expected, tuple)
                and isinstance(self.seen, tuple) and self.expected[1] is not None
                and self.seen[1] is not None and not self.hull_through)

    @property
    def gem_in_empty(self) -> bool:
        """A gem seen in a canoe the event leaves empty (in the right place)."""
        return (self.kind == "cargo" and isinstance(self.expected, tuple)
                and isinstance(self.seen, tuple) and self.expected[1] is None
                and bool(self.seen[1]))

    @property
    def unseen_gem(self) -> bool:
        """A canoe seen empty where it should carry a gem (in the right place): a gem
        hides more easily than one appears (a clear gem on a pale hull, one in glare).
        So is a clear gem read as the hull's own colour (``shows_hull``)."""
        return (self.kind == "cargo" and isinstance(self.expected, tuple)
                and isinstance(self.seen, tuple) and self.expected[1] is not None
                and (self.seen[1] is None or self.hull_through))

    @property
    def hull_through(self) -> bool:
        """A clear gem read as the hull's own colour (``shows_hull``): not seen, yet read
        as such a gem reads: no more a sign of another move than a misread colour."""
        return (self.kind == "cargo" and isinstance(self.expected, tuple)
                and isinstance(self.seen, tuple)
                and shows_hull(self.player, self.expected[1], self.seen[1]))

    @property
    def places(self) -> tuple[str, ...]:
        """The places (or "weather") this disagreement concerns, expected first."""
        if self.kind == "weather":
            return ("weather",)
        if self.kind == "deposit":
            return (f"{self.expected or self.seen} deposit",)
        if self.kind == "stirred":
            return (str(self.expected or self.seen),)
        out = [c[0] for c in (self.expected, self.seen) if isinstance(c, tuple)]
        return tuple(dict.fromkeys(out))

    @property
    def message(self) -> str:
        exp, seen = self.expected, self.seen
        if self.kind == "weather":
            assert not isinstance(exp, tuple | str) and not isinstance(seen, tuple | str)
            return f"the cloud should be on {_weather(exp)}, seen on {_weather(seen)}"
        if self.kind == "disc":
            return f"no disc seen in slot {seen}"
        if self.kind == "stirred":
            if exp:
                return f"a canoe should have come to or left {exp}, which did not change"
            return f"something came or went on {seen}, which the move leaves as it was"
        if self.kind == "deposit":
            if self.two:
                return f"two gems were seen taken from the {exp} deposit, " \
                       "the move takes one"
            if self.gem and exp:
                return f"a {self.gem} gem was seen taken from the {exp} deposit, " \
                       "the move takes none of that colour there"
            if self.gem:
                return f"a {self.gem} gem was seen taken from the {seen} deposit, " \
                       "the move takes none from it"
            if self.put:
                return f"a gem should have been put in the {exp} deposit, " \
                       "only a gem taken from it was seen"
            if exp:
                return f"a gem should have been taken from or put in the {exp} deposit, " \
                       "its pile did not change"
            return f"the {seen} deposit's pile changed, no gem should have left or joined it"
        assert self.player is not None
        if self.kind == "player":
            assert isinstance(seen, tuple)
            return f"{self.player} canoe seen {_on(seen[0])}, but {self.player} is not playing"
        if self.kind == "cargo":
            assert isinstance(exp, tuple) and isinstance(seen, tuple)
            should = f"carry {exp[1]}" if exp[1] else "be empty"
            got = f"with {seen[1]}" if seen[1] else "empty"
            if self.hull_through:
                got = "empty (a clear gem shows its hull through it)"
            return f"{self.player}'s canoe {_on(exp[0])} should {should}, seen {got}"
        if self.kind == "kept":
            assert isinstance(exp, tuple) and isinstance(seen, tuple)
            should = f"carry {exp[1]}" if exp[1] else "be empty"
            return f"{self.player}'s canoe {_on(exp[0])} should {should}, " \
                   "it looks as it did before the move"
        if self.kind == "changed":
            assert isinstance(exp, tuple)
            should = f"still carry {exp[1]}" if exp[1] else "still be empty"
            return f"{self.player}'s canoe {_on(exp[0])} should {should}, " \
                   "it looks other than before the move"
        if self.kind == "moved":
            assert isinstance(exp, tuple) and isinstance(seen, tuple)
            text = f"{_describe(self.player, exp[1])} should be {_on(exp[0])}, " \
                   f"seen {_on(seen[0])}"
            if not same_gem(exp[1], seen[1]):
                text += f" {'with ' + seen[1] if seen[1] else 'empty'}"
            return text
        if self.kind == "missing":
            assert isinstance(exp, tuple)
            return f"{_describe(self.player, exp[1])} should be {_on(exp[0])}, not seen"
        assert isinstance(seen, tuple)
        if self.phantom and not self.stayed:
            return f"{_describe(self.player, seen[1])} seen {_on(seen[0])} is one more than " \
                   f"{self.player}'s two: a misread"
        return f"{_describe(self.player, seen[1])} seen {_on(seen[0])} should not be there"

    def to_json(self) -> dict[str, Any]:
        def side(value: Canoe | int | str | None) -> Any:
            if isinstance(value, tuple):
                return {"at": value[0], "gem": value[1]}
            return value

        return {"kind": self.kind, "player": self.player, "expected": side(self.expected),
                "seen": side(self.seen), "message": self.message}


def same_gem(a: str | None, b: str | None) -> bool:
    """Two gems that may be one: equal, or either not made out."""
    return a == b or a == UNKNOWN or b == UNKNOWN


def shows_hull(player: str | None, expected: str | None, seen: str | None) -> bool:
    """Whether a canoe of `player`'s colour that should carry `expected` was read with
    the hull's own colour where a clear gem should be: a clear gem has no colour of its
    own, the hull shows through it, and an empty hull reads so too (``fit._fits_gem``).
    The picture saw no gem there, not a gem of another colour."""
    return expected == "clear" and seen is not None and seen == player


__all__ = ["Mismatch", "place_name", "same_gem", "shows_hull"]
