"""How well what was seen fits what an event would leave on the board: canoes paired
with the expected ones at the least cost (``FitWeights``), and the places that differ
(``Mismatch``: ``mismatch``; ``place_diff``) for the referee's "put it back" advice."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from companion.rules import (
    PLACES,
)
from companion.rules.geometry import DEPTH, path_steps
from companion.rules.state import canoe_key

from .expected import Canoe
from .mismatch import Mismatch, same_gem, shows_hull
from .sighting import Sighting


@dataclass(frozen=True)
class FitWeights:
    """The cost of each kind of disagreement. `place` plus `distance` per slot step
    stays below `missing` + `extra`, so a canoe seen on a wrong place is matched as
    moved (and the fix says where it belongs) rather than as lost plus found."""

    cargo: float = 1.0
    # A gem seen where a gem is expected, of another colour: a misread far likelier
    # than a gem there or not (gems of neighbouring hues blur into one another).
    colour: float = 0.25
    place: float = 3.0
    distance: float = 0.1
    missing: float = 2.0
    extra: float = 2.0
    weather: float = 3.0
    # A deposit whose pile changed where the event leaves it as it was, or the other
    # way round: more than MARGIN apart, so it tells two otherwise equal events apart;
    # a slip to ask about (a pile nudged by a hand), never a move flagged.
    deposit: float = 1.0
    # A place whose pixels changed where the event leaves it as it was, or the other
    # way round: as a deposit.
    stirred: float = 1.0
    # A canoe that stayed on its place looking as it did where the event changes its
    # cargo, or looking far other where the event leaves it (``cargo_looks``): as a
    # place stirred, a slip to ask about (a canoe nudged into the lamp's gloss), never a
    # move flagged.
    look: float = 1.0
    # How often a gem of each colour a canoe carries shows in a picture of this table,
    # (gem, share) (``Sighting.gems_shown``): not seeing a gem that often hides tells
    # little, so it costs `cargo` times the share (a colour not listed: always shows).
    shown: tuple[tuple[str, float], ...] = ()
    # The gems this table's camera has read in canoes that carried none
    # (``Sighting.gems_invented``): one of them seen where an event puts none is a slip
    # to ask about (``Mismatch.invented``), not a load no rule allows.
    invented: tuple[str, ...] = ()
    # The colours this table's camera read carried gems as, other than their own
    # (``Sighting.gems_misread``), (gem, read as, share of its readings): a gem read so
    # costs `colour` less that share, and is this camera's habit (``Mismatch.habit``).
    misread: tuple[tuple[str, str, float], ...] = ()

    def unseen(self, gem: str) -> float:
        """The cost of a canoe seen empty where it should carry `gem`."""
        for name, share in self.shown:
            if name == gem:
                return self.cargo * share
        return self.cargo

    def recoloured(self, gem: str, read: str) -> float:
        """The cost of a canoe seen with `read` where it should carry `gem` (another
        colour, not the hull's through a clear gem)."""
        return self.colour * (1 - (self._misread_share(gem, read) or 0.0))

    def habit(self, gem: str | None, read: str | None) -> bool:
        """Whether this table's camera has read gems of colour `gem` as `read`."""
        return self._misread_share(gem, read) is not None

    def _misread_share(self, gem: str | None, read: str | None) -> float | None:
        return next((share for name, seen, share in self.misread
                     if (name, seen) == (gem, read)), None)


DEFAULT_WEIGHTS = FitWeights()


ASHORE = ("D", "F")


def _fits_gem(player: str, expected: str | None, seen: str | None) -> bool:
    """Whether a gem seen in a canoe of `player` is what was expected. A gem of the
    hull's own colour is told from the empty hull only by its facets, which a hull's own
    shading and gloss mimic under some lamps: seen where an empty canoe is expected, it
    is no evidence against it (nor for it: the event with the gem fits as well)."""
    return same_gem(expected, seen) or (expected is None and seen == player)


def _steps_between(a: str, b: str) -> int:
    steps = path_steps(a, b)
    if steps is None:  # 6L/7L to 6R/7R: up through the fork and down again
        steps = DEPTH[a] - DEPTH["5"] + DEPTH[b] - DEPTH["5"]
    return steps


def _pair_cost(player: str, exp: Canoe, seen: Canoe, w: FitWeights,
               had: frozenset[Canoe] = frozenset(), sealed: bool = False) -> float:
    cost = 0.0
    if exp[0] != seen[0]:
        cost += w.place + w.distance * _steps_between(exp[0], seen[0])
    elif exp[0] in ASHORE:
        # A canoe on the dock or below the falls is empty by the rules: a landing's gem
        # goes to camp (R-LAND-2), a falling canoe loses its own (R-RIVER-4). A gem
        # seen in it there tells nothing of the move: a misread, or a gem not yet
        # taken out.
        return cost
    if not _fits_gem(player, exp[1], seen[1]):
        if shows_hull(player, exp[1], seen[1]):
            # A clear gem not seen, as the hull shows through it: no dearer than a
            # colour misread (which the hull's colour is likelier than, for a gem with
            # no colour of its own), less where this table's camera often misses
            # clear gems. (Whether that settles a question is ``not_shown.unseen_only``'s, by
            # the share alone.)
            cost += min(w.colour, w.unseen("clear"))
        elif exp[1] is not None and seen[1] == player and not w.habit(exp[1], seen[1]):
            # The middle read as the hull's own colour where a gem of another colour
            # should lie: an empty hull reads so too (``_fits_gem``), and a clear gem
            # (``shows_hull``). That is weaker evidence of the gem than a reading of a
            # third colour, which only a gem gives: it costs halfway from a misread to a
            # gem not seen. (Of the tuned worlds' stills, the 4 middles read wrongly as
            # their hull's colour were all of empty canoes, none of a gem.) (No habit:
            # the misread costs `colour` in full.)
            cost += max(w.colour, (w.colour + w.unseen(exp[1])) / 2)
        elif exp[1] is not None and seen[1] is not None:
            cost += w.recoloured(exp[1], seen[1])
        elif exp[1] is not None:
            cost += w.unseen(exp[1])
        elif exp[0] == seen[0] and (sealed or _was_other(exp[0], seen[1], had)):
            cost += w.colour
        else:
            cost += w.cargo
    return cost


def _was_other(place: str, gem: str | None, had: frozenset[Canoe]) -> bool:
    """Whether the event takes a gem other than `gem` from one of the player's canoes
    on `place` (`had`: the gems it leaves them fewer of, where they lay before it): a
    gem seen there now in a canoe the event leaves empty (a theft's victim) is that gem
    misread or the emptied hull misread; the picture tells the two apart no better than
    it tells a misread gem's colour."""
    return any(at == place and old is not None and old != gem for at, old in had)


def _injections(n_exp: int, n_seen: int) -> list[tuple[int | None, ...]]:
    """Each expected canoe paired with a distinct seen one, or with none."""
    out: list[tuple[int | None, ...]] = [()]
    for _ in range(n_exp):
        out = [(*p, j) for p in out for j in [*range(n_seen), None]
               if j is None or j not in p]
    return out


@lru_cache(maxsize=8192)
def _best_pairing(player: str, expected: tuple[Canoe, ...], seen: tuple[Canoe, ...],
                  weights: FitWeights, had: frozenset[Canoe] = frozenset(),
                  sealed: bool = False) -> tuple[float, tuple[int | None, ...]]:
    """The cheapest pairing of `player`'s expected with seen canoes and its cost. Ties go
    to the pairing listed first, which pairs before it leaves unpaired."""
    costs = [[_pair_cost(player, e, c, weights, had, sealed) for c in seen]
             for e in expected]
    best: tuple[float, tuple[int | None, ...]] | None = None
    for pairing in _injections(len(expected), len(seen)):
        paired = [j for j in pairing if j is not None]
        cost = sum(costs[i][j] if j is not None else weights.missing
                   for i, j in enumerate(pairing))
        cost += weights.extra * (len(seen) - len(paired))
        if best is None or cost < best[0] - 1e-9:
            best = (cost, pairing)
    assert best is not None
    return best


def match_canoes(player: str, expected: Sequence[Canoe], seen: Sequence[Canoe],
                 weights: FitWeights = DEFAULT_WEIGHTS,
                 loaded: Iterable[Canoe] | None = None,
                 before: Sequence[Canoe] | None = None,
                 robbed: bool = False,
                 changed: frozenset[str] | None = None) -> tuple[float, list[Mismatch]]:
    """The cheapest way to explain one player's seen canoes by the expected ones:
    (cost, the disagreements). A player's canoes look alike, so any pairing may do.
    `expected` is all the player's canoes: a canoe seen beyond their count is one no
    move made (``Mismatch.phantom``); one where the event takes one of them away may be
    that canoe, still there (``Mismatch.stayed``; `before`: the player's canoes before
    the event, None: the event moves none).
    `loaded`: the (place, gem) of this player's canoes whose gem the event brings into
    them (loads, or steals: ``turn_gems.gains``); every other expected gem was carried
    before it (None: not known, none counts as carried).
    `robbed`: the player does not move in the event, so a gem it takes from their canoes
    is stolen (``Mismatch.emptied``); the mover's own canoe may load a gem of another
    colour where it unloaded one (R-GEM-4): a gem seen there is no misread.
    `changed`: the places whose pixels the picture saw change (``_vacated``)."""
    exp = tuple(sorted(expected, key=canoe_key))
    got = tuple(sorted(seen, key=canoe_key))
    if exp == got:
        return 0.0, []
    # The gems the event steals from this player's canoes, where they lay before it.
    gone = Counter(g for _, g in before or () if g) - Counter(g for _, g in exp if g)
    had = frozenset(c for c in before or () if robbed and c[1] is not None and gone[c[1]])
    # A gem comes into a canoe only by its own player's move (R-RIVER-5, R-GEM-6): in
    # the canoes of a player who does not move and loses no gem to a thief (every
    # player in the river's phase), a gem seen where the canoe is empty is the camera's,
    # as a colour misread is.
    sealed = robbed and not +gone
    cost, pairing = _best_pairing(player, exp, got, weights, had, sealed)
    costs = [None if j is None else _pair_cost(player, e, got[j], weights, had, sealed)
             for e, j in zip(exp, pairing, strict=True)]
    fresh = _fresh(exp, Counter(loaded or ()), costs)
    found = []
    for k, (e, j) in enumerate(zip(exp, pairing, strict=True)):
        if j is None:
            found.append(Mismatch("missing", player, e, None, weights.missing))
            continue
        c = costs[k]
        if c:
            carried = loaded is not None and e[1] is not None and k not in fresh
            invented = e[1] is None and (got[j][1] in weights.invented
                                         or (sealed and e[0] == got[j][0]))
            found.append(Mismatch("cargo" if e[0] == got[j][0] else "moved", player, e,
                                  got[j], c, carried, invented=invented,
                                  emptied=e[1] is None and e[0] == got[j][0]
                                  and _was_other(e[0], got[j][1], had),
                                  habit=weights.habit(e[1], got[j][1])))
    extras = [c for j, c in enumerate(got) if j not in pairing]
    beyond = len(got) - len(exp)  # seen canoes no player's canoe can be
    left = _vacated(before, exp, changed)
    found += [Mismatch("extra", player, None, c, weights.extra, phantom=k < beyond,
                       stayed=k < beyond and c[0] in left)
              for k, c in enumerate(extras)]
    return cost, found


def _fresh(expected: Sequence[Canoe], loaded: Counter[Canoe],
           costs: Sequence[float | None]) -> set[int]:
    """Which of a player's expected canoes hold the gems the event brings (`loaded`, by
    (place, gem)): where twins end on one place with the same gem, one carried and one
    loaded or stolen, which is which no picture tells, and the state vouches for both
    gems: the twin seen as expected is taken as the new one, so that a misread of the
    other is one of a gem it carried (``Mismatch.carried``)."""
    left = Counter(loaded)
    out = set()
    for k in sorted(range(len(expected)), key=lambda k: costs[k] != 0):
        if left[expected[k]] > 0:
            left[expected[k]] -= 1
            out.add(k)
    return out


def _vacated(before: Sequence[Canoe] | None, after: Sequence[Canoe],
             changed: frozenset[str] | None = None) -> set[str]:
    """The places where an event leaves fewer of a player's canoes than it found: a
    phantom there may be the canoe that never left (``Mismatch.stayed``). Not a place
    the picture saw change when it saw every place the event brings the player's
    canoes to change too (`changed`: ``Sighting.places_changed``): something left there
    and something came where the canoe goes, and what is read there now is the print
    the canoe hid, or its neighbour's shadow."""
    if before is None:
        return set()
    had = Counter(at for at, _ in before)
    has = Counter(at for at, _ in after)
    left = {place for place, n in had.items() if n > has[place]}
    came = has - had
    if changed is not None and came and all(place in changed for place in came):
        left -= changed
    return left


def table_weights(seen: Sighting, weights: FitWeights = DEFAULT_WEIGHTS) -> FitWeights:
    """`weights` with what this table's camera showed (``Sighting.gems_shown``,
    ``Sighting.gems_invented``, ``Sighting.gems_misread``): how often each gem shows in
    its canoe, the gems read in empty ones, and the colours gems were read as."""
    if not (seen.gems_shown or seen.gems_invented or seen.gems_misread):
        return weights
    return replace(weights, shown=tuple(sorted((seen.gems_shown or {}).items())),
                   invented=tuple(sorted(seen.gems_invented or ())),
                   misread=tuple(sorted((gem, read, share)
                                        for gem, reads in (seen.gems_misread or {}).items()
                                        for read, share in reads.items())))


def compare(expected: Mapping[str, Sequence[Canoe]], seen: Sighting,
            players: Iterable[str], weights: FitWeights = DEFAULT_WEIGHTS,
            weather: int | None = None,
            loaded: Mapping[str, Iterable[Canoe]] | None = None,
            before: Mapping[str, Sequence[Canoe]] | None = None
            ) -> tuple[float, list[Mismatch]]:
    """Score `players`' canoes (and the weather, when given) of an expected board
    against a sighting: (total cost, disagreements). `loaded`: by player, the (place,
    gem) of the canoes whose gem the event loads or steals; the other gems rode their
    canoes from the state before (None: not known). A gem that often hides at this
    table costs less unseen (``Sighting.gems_shown``)."""
    weights = table_weights(seen, weights)
    total, found = 0.0, []
    for player in players:
        cost, diffs = match_canoes(player, expected[player], seen.of(player), weights,
                                   None if loaded is None else loaded.get(player, ()),
                                   None if before is None else before.get(player, ()),
                                   robbed=loaded is not None and player not in loaded,
                                   changed=seen.places_changed)
        total += cost
        found += diffs
    found = _doubled(expected, seen, found)
    if weather is not None and seen.weather is not None and seen.weather != weather:
        total += weights.weather
        found.append(Mismatch("weather", None, weather, seen.weather, weights.weather))
    return total, found


def _doubled(expected: Mapping[str, Sequence[Canoe]], seen: Sighting,
             found: list[Mismatch]) -> list[Mismatch]:
    """`found`, with each gem seen in a canoe the event leaves empty marked
    ``Mismatch.doubled`` where that gem is seen on the slot more often than the event
    puts it there, and the event puts it there at least once: a thief and its victim
    on one disc both read with the stolen gem, or a loaded canoe and its neighbour."""
    want = Counter(c for canoes in expected.values() for c in canoes if c[1] is not None)
    got = Counter(c for player in expected for c in seen.of(player) if c[1] is not None)
    return [replace(m, doubled=True)
            if m.gem_in_empty and isinstance(m.seen, tuple) and 0 < want[m.seen] < got[m.seen]
            else m for m in found]


def _canoe_json(player: str, gem: str | None) -> dict[str, Any]:
    return {"player": player, "gem": gem}


def place_diff(expected: Mapping[str, Sequence[Canoe]], seen: Sighting,
               mismatches: Sequence[Mismatch], players: Sequence[str],
               weather: int | None = None) -> list[dict[str, Any]]:
    """The disagreements slot by slot, in board order (D, 1 … 7R, F, then the weather):
    for each place concerned, the canoes of `players` that should be there and those
    seen, and what is wrong — what a referee shows so the table can put it right."""
    touched = {p for m in mismatches for p in m.places}
    out: list[dict[str, Any]] = []
    for place in PLACES:
        if place not in touched:
            continue
        out.append({
            "place": place,
            "expected": [_canoe_json(p, g) for p in players for at, g in expected[p]
                         if at == place],
            "seen": [_canoe_json(p, g) for p in players for at, g in seen.of(p)
                     if at == place],
            "problems": [m.message for m in mismatches if place in m.places],
        })
    for m in mismatches:
        if m.kind == "deposit":
            out.append({"place": m.places[0], "expected": None, "seen": None,
                        "problems": [m.message]})
    if "weather" in touched:
        out.append({"place": "weather", "expected": weather, "seen": seen.weather,
                    "problems": [m.message for m in mismatches if m.kind == "weather"]})
    return out


def _unexplained(before: Mapping[str, Sequence[Canoe]], seen: Sighting,
                 players: Sequence[str], scored: Iterable[str],
                 weather: int | None, weights: FitWeights) -> list[Mismatch]:
    """Differences on pieces that no candidate changes: other players' canoes against
    the state before, colours not in the game, the weather, missing discs. Every gem in
    those canoes rode there before the event (no one loads in another's turn): a misread
    or unseen one is a slip (``Mismatch.carried``)."""
    scored = set(scored)
    _, found = compare(before, seen, [p for p in players if p not in scored], weights,
                       weather, loaded={})
    for player, canoes in seen.canoes.items():
        if player not in players:
            found += [Mismatch("player", player, None, c) for c in canoes]
    found += [Mismatch("disc", None, None, slot) for slot in seen.no_disc]
    return found


__all__ = ["FitWeights", "DEFAULT_WEIGHTS", "Mismatch", "match_canoes", "compare",
           "place_diff"]
