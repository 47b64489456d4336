"""What the camera saw, checked: an observation (vision.md) read into a ``Sighting``,
with one clear line (``ObservationError``) for whatever is malformed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.rules import (
    GEMS,
    PLACES,
    PLAYER_COLOURS,
    SLOTS,
    WEATHER_TRACK,
)
from companion.rules.state import canoe_key

from .expected import Canoe

UNKNOWN = "unknown"  # the vision's word for a cargo it is not sure of


class ObservationError(ValueError):
    """An observation that is not in the form of vision.md, or not usable (not stable)."""


class InferenceError(ValueError):
    """Inference asked for in a game state where it makes no sense (wrong phase, card)."""


@dataclass(frozen=True)
class Sighting:
    """An observation reduced to what inference compares: canoes by player colour as
    (place, gem) with places named as in rules.md (D, 1 … 7R, F), the weather (None when
    not reported) and the slots where no disc was seen."""

    canoes: dict[str, list[Canoe]]
    weather: int | None
    no_disc: tuple[str, ...] = ()
    # The deposits whose pile changed since the picture before (by pixels), None when
    # not known (one picture alone cannot tell).
    deposits_changed: frozenset[str] | None = None
    # The places (slots, D, F) whose pixels changed since the picture before, None when
    # not known.
    places_changed: frozenset[str] | None = None
    # The places of ``places_changed`` whose change is all the spill of changes centred
    # on other places (a canoe that left or reached a neighbouring slot reaching over),
    # with those places.
    places_spilled: Mapping[str, frozenset[str]] | None = None
    # How often a gem of each colour that a canoe carried was seen in it in this
    # table's confirmed pictures (gem: share, 0 to 1); a colour not listed counts as
    # always seen.
    gems_shown: Mapping[str, float] | None = None
    # The gems read in canoes that carried none in this table's confirmed pictures
    # (gem: share of those canoes).
    gems_invented: Mapping[str, float] | None = None
    # The deposits a gem was seen taken from, with that gem (deposit -> gem: its pixels
    # looked like the gem before the move and like the print after), None when not
    # known (one picture alone cannot tell).
    deposits_taken: Mapping[str, str] | None = None
    # How often this table's camera read the one gem of a shared disc in the wrong
    # canoe (``PieceLooks.swapped``), None when not known.
    gems_swapped: float | None = None
    # How often a gem of each colour taken from a deposit was seen leave its pile in
    # this table's confirmed moves (gem: share, 0 to 1; ``PieceLooks.takes_shown``); a
    # colour not listed is not known to show.
    takes_shown: Mapping[str, float] | None = None
    # The deposits of ``deposits_taken`` two of that gem were seen leave: from two
    # places of the pile apart (``piles_taken.two_apart``), or changing more of it than
    # one does at this table (``PieceLooks.two_taken``).
    deposits_taken_two: frozenset[str] | None = None
    # The canoes (player, slot) that stayed on their slot looking as they did in the
    # picture before, and those that look far other (``cargo_looks``): a cargo kept,
    # a cargo changed. None when not known.
    cargo_kept: frozenset[tuple[str, str]] | None = None
    cargo_changed: frozenset[tuple[str, str]] | None = None
    # The deposits of ``deposits_taken`` whose pile changed only where gems were taken
    # (``piles_taken.taken_only``): no gem was seen put there. None when not known.
    deposits_taken_only: frozenset[str] | None = None
    # The colours this table's camera read carried gems as, other than their own, in
    # its confirmed pictures (``PieceLooks.misread``): gem -> {read as: share of that
    # gem's readings}. None when not known.
    gems_misread: Mapping[str, Mapping[str, float]] | None = None
    # Per deposit whose pile changed, the coloured gems of which the picture shows no
    # sign put there (``piles_taken.puts_unseen``). None when not known.
    deposits_put_unseen: Mapping[str, frozenset[str]] | None = None

    def of(self, player: str) -> list[Canoe]:
        return self.canoes.get(player, [])

    @property
    def gems_seen_taken(self) -> frozenset[str]:
        """The colours of the gems the picture saw taken from their piles
        (``deposits_taken``): each went into a canoe, the only legal way it left."""
        return frozenset((self.deposits_taken or {}).values())


def _fail(message: str) -> ObservationError:
    return ObservationError(f"bad observation: {message}")


def _read_canoe(item: Any, where: str) -> tuple[str, str | None]:
    if not isinstance(item, Mapping):
        raise _fail(f"a canoe {where} must be an object, not {item!r}")
    player = item.get("player")
    if player not in PLAYER_COLOURS:
        raise _fail(f"canoe {where} has unknown player colour {player!r} "
                    f"(expected one of {', '.join(PLAYER_COLOURS)})")
    gem = item.get("gem")
    if gem is not None and gem != UNKNOWN and gem not in GEMS:
        raise _fail(f"{player}'s canoe {where} carries unknown gem {gem!r} "
                    f"(expected one of {', '.join(GEMS)}, null or \"unknown\")")
    return player, gem


def read_observation(observation: Mapping[str, Any] | Sighting) -> Sighting:
    """Check an observation dict (vision.md) and reduce it to a :class:`Sighting`.

    Raises :class:`ObservationError` with one line naming what is wrong; an unstable
    view (``"stable": false``) is refused, since nothing may be inferred from it."""
    if isinstance(observation, Sighting):
        return observation
    if not isinstance(observation, Mapping):
        raise _fail(f"expected a JSON object, not {type(observation).__name__}")
    if observation.get("stable", True) is False:
        unseen = observation.get("out_of_view")
        if isinstance(unseen, list) and unseen:
            raise ObservationError("the observation is not stable: part of the board is out "
                                   f"of the picture ({', '.join(map(str, unseen))}); aim the "
                                   "camera at the whole board")
        raise ObservationError("the observation is not stable (a hand over the board or a "
                               "piece still moving); wait for a stable view")
    slots = observation.get("slots")
    if not isinstance(slots, Mapping):
        raise _fail("missing 'slots', an object with one entry per slot")
    for name in slots:
        if name not in SLOTS:
            raise _fail(f"unknown slot {name!r} (expected {', '.join(SLOTS)})")
    canoes: dict[str, list[Canoe]] = {}
    no_disc = []
    for slot in SLOTS:
        if slot not in slots:
            raise _fail(f"slot {slot} is missing from 'slots'")
        entry = slots[slot]
        if not isinstance(entry, Mapping) or not isinstance(entry.get("canoes", []), list):
            raise _fail(f"slot {slot} must be an object with a 'canoes' list")
        if entry.get("disc", True) is False:
            no_disc.append(slot)
        for item in entry.get("canoes", []):
            player, gem = _read_canoe(item, f"on slot {slot}")
            canoes.setdefault(player, []).append((slot, gem))
    for key, place in (("dock", "D"), ("falls", "F")):
        items = observation.get(key, [])
        if not isinstance(items, list):
            raise _fail(f"'{key}' must be a list of canoes")
        for item in items:
            player, gem = _read_canoe(item, f"in '{key}'")
            canoes.setdefault(player, []).append((place, gem))
    weather = observation.get("weather")
    if weather is not None and (isinstance(weather, bool) or weather not in WEATHER_TRACK):
        raise _fail(f"weather {weather!r} is not on the track "
                    f"({', '.join(f'{w:+d}' for w in WEATHER_TRACK)})")
    changed = observation.get("deposits_changed")
    if changed is not None and (not isinstance(changed, list)
                                or any(name not in GEMS for name in changed)):
        raise _fail(f"'deposits_changed' must be a list of deposits "
                    f"({', '.join(GEMS)}), not {changed!r}")
    stirred = observation.get("places_changed")
    if stirred is not None and (not isinstance(stirred, list)
                                or any(place not in PLACES for place in stirred)):
        raise _fail(f"'places_changed' must be a list of places (D, 1 … 7R, F), "
                    f"not {stirred!r}")
    shown, invented, takes = (_shares(observation, key)
                              for key in ("gems_shown", "gems_invented", "takes_shown"))
    swapped = observation.get("gems_swapped")
    if swapped is not None and (isinstance(swapped, bool) or not isinstance(swapped, int | float)
                                or not 0 <= swapped <= 1):
        raise _fail(f"'gems_swapped' must be a share from 0 to 1, not {swapped!r}")
    taken = observation.get("deposits_taken")
    if taken is not None and (not isinstance(taken, Mapping) or any(
            name not in GEMS or gem not in GEMS for name, gem in taken.items())):
        raise _fail(f"'deposits_taken' must map deposits ({', '.join(GEMS)}) to the gem "
                    f"seen taken from each, not {taken!r}")
    two = observation.get("deposits_taken_two")
    if two is not None and (not isinstance(two, list)
                            or any(name not in (taken or {}) for name in two)):
        raise _fail(f"'deposits_taken_two' must list deposits of 'deposits_taken', "
                    f"not {two!r}")
    only = observation.get("deposits_taken_only")
    if only is not None and (not isinstance(only, list)
                             or any(name not in (taken or {}) for name in only)):
        raise _fail(f"'deposits_taken_only' must list deposits of 'deposits_taken', "
                    f"not {only!r}")
    unput = observation.get("deposits_put_unseen")
    if unput is not None and (not isinstance(unput, Mapping) or any(
            name not in GEMS or not isinstance(gems, list) or any(g not in GEMS for g in gems)
            for name, gems in unput.items())):
        raise _fail(f"'deposits_put_unseen' must map deposits ({', '.join(GEMS)}) to lists "
                    f"of gems, not {unput!r}")
    kept, altered = (_by_player(observation, key) for key in ("cargo_kept", "cargo_changed"))
    misread = observation.get("gems_misread")
    # (A share of 1 would cost the misread nothing: a gem never read as itself is no
    # habit anyone learns, PieceLooks.misread counting some readings as right.)
    if misread is not None and (not isinstance(misread, Mapping) or any(
            gem not in GEMS or not isinstance(reads, Mapping) or gem in reads
            or any(isinstance(v, int | float) and v >= 1 for v in reads.values())
            for gem, reads in misread.items())):
        raise _fail(f"'gems_misread' must map gems ({', '.join(GEMS)}) to the other gems "
                    f"each was read as, with shares below 1, not {misread!r}")
    return Sighting({p: sorted(c, key=canoe_key) for p, c in canoes.items()}, weather,
                    tuple(no_disc), None if changed is None else frozenset(changed),
                    None if stirred is None else frozenset(stirred),
                    _spilled(observation, stirred), shown, invented,
                    None if taken is None else dict(taken),
                    None if swapped is None else float(swapped), takes,
                    None if two is None else frozenset(two), kept, altered,
                    None if only is None else frozenset(only),
                    None if misread is None else {gem: _shares(misread, gem, "'gems_misread'")
                                                  or {} for gem in misread},
                    None if unput is None else {name: frozenset(gems)
                                                for name, gems in unput.items()})


def _spilled(observation: Mapping[str, Any], changed: list[str] | None
             ) -> dict[str, frozenset[str]] | None:
    """``places_spilled``: changed places mapped to the places they spilled from."""
    spilled = observation.get("places_spilled")
    if spilled is None:
        return None
    if not isinstance(spilled, Mapping) or any(
            place not in (changed or ()) or not isinstance(sources, list)
            or any(source not in PLACES or source == place for source in sources)
            for place, sources in spilled.items()):
        raise _fail(f"'places_spilled' must map places of 'places_changed' to lists of "
                    f"other places, not {spilled!r}")
    return {place: frozenset(sources) for place, sources in spilled.items()}


def _by_player(observation: Mapping[str, Any], key: str) -> frozenset[tuple[str, str]] | None:
    """A field listing places by player (``cargo_kept``, ``cargo_changed``), as
    (player, place) pairs."""
    places = observation.get(key)
    if places is None:
        return None
    if not isinstance(places, Mapping) or any(
            player not in PLAYER_COLOURS or not isinstance(where, list)
            or any(place not in SLOTS for place in where) for player, where in places.items()):
        raise _fail(f"'{key}' must map player colours to lists of slots (1 … 7R), "
                    f"not {places!r}")
    return frozenset((player, place) for player, where in places.items() for place in where)


def _shares(observation: Mapping[str, Any], key: str, within: str = ""
            ) -> dict[str, float] | None:
    """A field mapping gems to shares from 0 to 1 (``gems_shown``, ``gems_invented``,
    ``takes_shown``; a gem's reads of ``gems_misread``, `within` it)."""
    shares = observation.get(key)
    if shares is None:
        return None
    if not isinstance(shares, Mapping) or any(
            gem not in GEMS or isinstance(share, bool) or not isinstance(share, int | float)
            or not 0 <= share <= 1 for gem, share in shares.items()):
        raise _fail(f"'{key}'{' in ' + within if within else ''} must map gems "
                    f"({', '.join(GEMS)}) to shares from 0 to 1, not {shares!r}")
    return {gem: float(share) for gem, share in shares.items()}


__all__ = ["UNKNOWN", "ObservationError", "InferenceError", "Sighting", "read_observation"]
