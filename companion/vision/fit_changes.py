"""How well an event fits what two pictures show changed: the deposits whose pile
changed, the places whose pixels changed and the canoes whose cargo looks kept or
changed (``Sighting.deposits_changed``, ``Sighting.places_changed``,
``Sighting.cargo_kept``), as disagreements (``Mismatch``) of kinds "deposit",
"stirred", "kept" and "changed"; and what a picture that saw no gem leave anywhere, or
saw one leave the canoe beside, says of a gem seen where the event puts none
(``unsourced``, ``beside``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from itertools import combinations, product
from typing import TYPE_CHECKING

from companion.rules import PLACES

from .expected import Canoe
from .fit import DEFAULT_WEIGHTS, FitWeights, Mismatch
from .sighting import Sighting
from .turn_gems import load_sources

if TYPE_CHECKING:
    from companion.rules import Turn

# A pile not seen to change where an event takes gems of colours this table's camera has
# seen leave their piles at least this often (``Sighting.takes_shown``: five takes seen
# in a row, or nearly every one since) is evidence that the event did not happen, as a
# gem put on a pile not seen is (``Mismatch.shows``); else a take that may hide.
TAKES_SEEN = 0.85


def changed_piles(before: Mapping[str, Mapping[str, int]],
                  after: Mapping[str, Mapping[str, int]]) -> set[str]:
    """The deposits whose pile differs between two states' deposits (by deposit, gem:
    count)."""
    return {name for name in set(before) | set(after)
            if {g: n for g, n in before.get(name, {}).items() if n}
            != {g: n for g, n in after.get(name, {}).items() if n}}


def deposit_mismatches(before: Mapping[str, Mapping[str, int]],
                       after: Mapping[str, Mapping[str, int]], seen: Sighting,
                       weights: FitWeights = DEFAULT_WEIGHTS) -> list[Mismatch]:
    """The deposits whose pile an event changes (`before` and `after` its piles, by
    deposit) where the picture saw none change, and the other way round; and those it
    changes where the picture saw a gem taken that the event does not take
    (``Sighting.deposits_taken``; a pile the event leaves as it was names the gem seen
    taken from it too); and those it puts a gem on whose pile the picture saw change
    only where gems were taken (``Sighting.deposits_taken_only``), or a coloured gem on
    a pile seen to change with no sign of it (``Sighting.deposits_put_unseen``). Nothing
    when the picture cannot tell (``Sighting.deposits_changed`` None)."""
    if seen.deposits_changed is None:
        return []
    changes = changed_piles(before, after)
    taken = seen.deposits_taken or {}

    def takes_seen(name: str) -> bool:
        """Whether the event takes the gem seen taken from the pile."""
        return after.get(name, {}).get(taken[name], 0) < before.get(name, {}).get(taken[name], 0)

    # A gem seen taken from a pile the event changes otherwise: another gem taken from
    # it (the other colour of a deposit holding two), or one put on it instead.
    other = [Mismatch("deposit", None, name, name, weights.deposit, gem=taken[name])
             for name in sorted(taken) if name in changes and not takes_seen(name)]
    # A pile seen to change as two of its gems taken do, where the event takes one
    # gem and puts none: the other canoe loaded there too.
    other += [Mismatch("deposit", None, name, name, weights.deposit, two=True)
              for name in sorted(seen.deposits_taken_two or ())
              if name in changes and one_taken(before.get(name, {}), after.get(name, {}))]
    # A pile seen changed only as its gem taken changes it, where the event takes that
    # gem and puts another on it too (a canoe unloading where the other loads): as a
    # gem put on a pile not seen to change (``slips._put_hid``). (Where the event takes
    # none of that gem, the take seen already tells against it, above.)
    only = {name for name in seen.deposits_taken_only or ()
            if name in changes and takes_seen(name)
            and put_gems(before.get(name, {}), after.get(name, {}))}
    # The same where the event puts a coloured gem on a pile seen to change with no sign
    # of that gem's tint (``Sighting.deposits_put_unseen``), though no take was named
    # there (a clear gem taken changes its pile faintly).
    unseen = seen.deposits_put_unseen or {}
    only |= {name for name in unseen if name in changes and name in seen.deposits_changed
             and set(put_gems(before.get(name, {}), after.get(name, {}))) & unseen[name]}
    other += [Mismatch("deposit", None, name, None, weights.deposit, put=True)
              for name in sorted(only)]
    return ([Mismatch("deposit", None, name, None, weights.deposit,
                      taken=sum(after.get(name, {}).values()) < sum(before.get(name, {}).values()),
                      shows=_shows(before.get(name, {}), after.get(name, {}), seen))
             for name in sorted(changes - seen.deposits_changed)]
            + [Mismatch("deposit", None, None, name, weights.deposit, gem=taken.get(name))
               for name in sorted(seen.deposits_changed - changes)] + other)


def taken_gems(before: Mapping[str, int], after: Mapping[str, int]) -> dict[str, int]:
    """The gems a change of one pile took from it (gem -> how many); none when it holds
    as many gems after as before (a gem put there, or none moved)."""
    if sum(after.values()) >= sum(before.values()):
        return {}
    return {gem: n - after.get(gem, 0) for gem, n in before.items() if after.get(gem, 0) < n}


def put_gems(before: Mapping[str, int], after: Mapping[str, int]) -> dict[str, int]:
    """The gems a change of one pile put on it (gem -> how many more)."""
    return {gem: n - before.get(gem, 0) for gem, n in after.items() if n > before.get(gem, 0)}


def one_taken(before: Mapping[str, int], after: Mapping[str, int]) -> bool:
    """Whether a pile's change took one gem from it and put none on it."""
    return sum(before.values()) - sum(after.values()) == 1 and \
        all(n <= before.get(gem, 0) for gem, n in after.items())


def _shows(before: Mapping[str, int], after: Mapping[str, int], seen: Sighting) -> bool:
    """Whether every gem an event takes from a pile is of a colour this table's camera
    has seen leave its piles at least TAKES_SEEN of the times."""
    shown = seen.takes_shown or {}
    return all(shown.get(gem, 0.0) >= TAKES_SEEN for gem in taken_gems(before, after))


def stirred_mismatches(before: Mapping[str, Sequence[Canoe]],
                       after: Mapping[str, Sequence[Canoe]], seen: Sighting,
                       weights: FitWeights = DEFAULT_WEIGHTS,
                       touched: Iterable[str] = ()) -> list[Mismatch]:
    """The places whose pixels the picture saw change where an event leaves every
    canoe and gem as it was (`before` and `after` its canoes, by player): something
    came or went there that the event does not explain (a canoe put down that the
    camera did not make out); and the other way round, the places where the event puts
    or takes a canoe (or a gem) that did not change at all (a canoe coming or going
    changes far more than a gem's area of them). Nothing when the picture cannot tell
    (``Sighting.places_changed`` None). `touched`: the places the event's canoes left
    or reached: their pixels changing is explained even when the event leaves the same
    pieces there (two canoes of a player trading places); not changing, they may look
    as before. A place whose change is all the spill of a touched place's
    (``Sighting.places_spilled``: a hull or its shadow reaching over) is explained
    too."""
    if seen.places_changed is None:
        return []
    touched = set(touched)
    spilled = seen.places_spilled or {}

    def content(canoes: Mapping[str, Sequence[Canoe]], place: str) -> list[tuple[str, str]]:
        return sorted((p, gem or "") for p, cs in canoes.items() for at, gem in cs
                      if at == place)

    out = []
    for place in PLACES:
        was, now = content(before, place), content(after, place)
        if place in seen.places_changed and was == now and place not in touched \
                and not touched & spilled.get(place, frozenset()):
            out.append(Mismatch("stirred", None, None, place, weights.stirred))
        elif place not in seen.places_changed and was != now \
                and not _loaded_gems_seen_taken(was, now, seen.gems_seen_taken):
            out.append(Mismatch("stirred", None, place, None, weights.stirred))
    return out


def _loaded_gems_seen_taken(was: list[tuple[str, str]], now: list[tuple[str, str]],
                            seen_taken: frozenset[str]) -> bool:
    """Whether all that changes at a place is gems loaded into canoes that stay there,
    each of a colour the picture saw taken from its pile: a gem is a small part of a
    place's pixels, a clear one on a pale hull hardly changes them, and where it went
    is the only legal way it left the pile (as a loaded gem not seen in its canoe costs
    nothing then, ``Mismatch.vouched``)."""
    lost, gained = Counter(was) - Counter(now), Counter(now) - Counter(was)
    return sorted(p for p, _ in was) == sorted(p for p, _ in now) \
        and all(not gem for _, gem in lost) and all(gem in seen_taken for _, gem in gained)


def _held(canoes: Mapping[str, Sequence[Canoe]], player: str, place: str) -> list[str | None]:
    return sorted((gem for at, gem in canoes.get(player, ()) if at == place), key=str)


def disputed(outcomes: Iterable[Mapping[str, Sequence[Canoe]]], seen: Sighting
             ) -> set[tuple[str, str]]:
    """The canoes whose look the picture judged (``Sighting.cargo_kept``,
    ``Sighting.cargo_changed``) that the legal events do not all leave with the same
    cargo (`outcomes`: each event's canoes, by player): only there does the look tell
    events apart. (A look that changed where every event leaves the cargo as it was is
    the lamp's gloss on a nudged canoe, not a move.)"""
    judged = set(seen.cargo_kept or ()) | set(seen.cargo_changed or ())
    outcomes = list(outcomes)
    return {(player, place) for player, place in judged
            if len({tuple(_held(canoes, player, place)) for canoes in outcomes}) > 1}


def _alike(player: str, a: str | None, b: str | None) -> bool:
    """Whether two cargos of a canoe of `player`'s colour may look alike: empty, a
    clear gem (the hull shows through it) and a gem of the hull's own colour (told
    from the empty hull only by its facets) differ too little for a look to tell."""
    return {a, b} <= {None, "clear", player}


def cargo_mismatches(before: Mapping[str, Sequence[Canoe]],
                     after: Mapping[str, Sequence[Canoe]], seen: Sighting,
                     weights: FitWeights = DEFAULT_WEIGHTS, mover: str | None = None,
                     judged: Iterable[tuple[str, str]] | None = None) -> list[Mismatch]:
    """The canoes of players other than the `mover` that the picture saw keep their
    look (``Sighting.cargo_kept``) where the event changes their cargo (to one that
    looks otherwise: ``_alike``), and those it saw look far other
    (``Sighting.cargo_changed``) where the event leaves it as it was (`before` and
    `after` its canoes, by player): a theft's victim, or not. (The mover's own canoes
    load and unload where the piles tell, and one that leaves a place may be replaced
    by its twin, a little elsewhere on the disc.) `judged`: the canoes judged
    (``disputed``; None: all)."""
    judged = None if judged is None else set(judged)

    def told(player: str, place: str) -> tuple[list[str | None], list[str | None]] | None:
        if player == mover or (judged is not None and (player, place) not in judged):
            return None
        was = _held(before, player, place)
        return (was, _held(after, player, place)) if len(was) == 1 else None

    out = []
    for player, place in sorted(seen.cargo_kept or ()):
        pair = told(player, place)
        if pair is not None and len(pair[1]) == 1 and pair[0] != pair[1] \
                and not _alike(player, pair[0][0], pair[1][0]):
            out.append(Mismatch("kept", player, (place, pair[1][0]), (place, pair[0][0]),
                                weights.look))
    for player, place in sorted(seen.cargo_changed or ()):
        pair = told(player, place)
        if pair is not None and pair[0] == pair[1]:
            out.append(Mismatch("changed", player, (place, pair[0][0]), None, weights.look))
    return out


def unsourced(found: Sequence[Mismatch], seen: Sighting, mover: str,
              before: Mapping[str, Sequence[Canoe]], put: Iterable[Canoe] = ()
              ) -> list[Mismatch]:
    """`found` (an event's disagreements) with the gems seen in `mover`'s canoes where
    the event leaves them empty marked ``Mismatch.unsourced``, when no legal event puts
    that gem there (`put`: the canoes, (place, gem), the legal events give the mover),
    the picture, compared with the one before, saw no pile change and no gem taken
    (``Sighting.deposits_changed``, ``Sighting.deposits_taken``), and no canoe that may
    have held a gem of that colour without it (`before`: the canoes before the event,
    by player). A gem comes into a canoe only from a deposit (R-GEM-3) or from a
    victim's canoe (R-STEAL-1); where the picture shows neither, the camera reading a
    gem into an empty hull is likelier than a load no rule allows (the gems stage named
    a gem, the hull's own colour included, in 7.7 % of the tuned worlds' empty river
    canoes and 18.8 % of the untuned ones', ``benchmarks/worlds_gems.py``). A picture
    not compared with the one before says nothing of the piles: nothing is marked."""
    if seen.deposits_changed is None or seen.deposits_changed or seen.gems_seen_taken:
        return list(found)
    # Where such a gem may have come from: a canoe seen without a gem the event has it
    # carry, the mover's own gems (one it was to unload may still be aboard), and any other
    # player's canoe not seen as it lay (a victim no legal turn robs is not scored).
    sources = {m.expected[1] for m in found if m.unseen_gem and isinstance(m.expected, tuple)}
    sources |= {gem for _, gem in before.get(mover, ()) if gem}
    sources |= {gem for player, canoes in before.items() if player != mover
                for _, gem in Counter(canoes) - Counter(seen.of(player)) if gem}
    put = set(put)
    return [replace(m, unsourced=True)
            if m.player == mover and m.gem_in_empty and isinstance(m.seen, tuple)
            and m.seen[1] not in sources and m.seen not in put else m
            for m in found]


def beside(found: Sequence[Mismatch], seen: Sighting, mover: str, lost: Iterable[Mismatch]
           ) -> list[Mismatch]:
    """`found` (an event's disagreements) with each gem seen in `mover`'s canoe where the
    event leaves it empty marked ``Mismatch.beside`` when a canoe on that slot, of a
    player no legal event robs, carried a gem of that colour before and is seen without
    it (`lost`: the disagreements on pieces no event changes, ``fit._unexplained``; the
    gems they miss, ``Mismatch.unseen_gem``, are the ones taken here; none where this
    table's camera reads shared discs right, ``candidates.swaps_rare``). Each such loss
    accounts for one gem. Which of two touching canoes holds a gem is what a picture
    tells least well, whoever's they are (``slips._swapped``). Not where the picture
    says more: a pile of that colour changed, or a gem of it seen taken, where the event
    leaves it as it was (its "deposit" disagreements in `found`: a load no rule allows),
    or the bystander's canoe looking far other than before (its gem gone: a theft no
    rule allows, ``Sighting.cargo_changed``)."""
    piles = {m.gem if m.gem else m.seen for m in found if m.kind == "deposit"
             and (m.gem or m.expected is None)}
    spare = Counter(m.expected for m in lost if m.unseen_gem and isinstance(m.expected, tuple)
                    and (m.player, m.expected[0]) not in (seen.cargo_changed or ()))
    out = []
    for m in found:
        if m.player == mover and m.gem_in_empty and isinstance(m.seen, tuple) \
                and m.seen[1] not in piles and spare[m.seen] > 0:
            spare[m.seen] -= 1
            m = replace(m, beside=True)
        out.append(m)
    return out


def vouched_loads(turn: Turn, missed: Sequence[Mismatch], seen: Sighting) -> list[Mismatch]:
    """Of a turn's loaded gems the picture did not show in their canoes (`missed`, the
    mover's: ``Mismatch.expected`` a (place, gem) the turn loads), those the piles seen
    to change as the turn says account for: as many as the pile was seen to lose (one;
    two where ``Sighting.deposits_taken_two`` says so), less the turn's other loads from
    it that are not missed (shown in their canoes, or landed at the dock with them,
    R-LAND-2). Two violets loaded from one deposit, one read violet and the other
    clear, are no more two violets than a violet and a blue whose pile showed no take.
    Which twin's gem the picture missed no picture tells: the reading kindest to the
    turn is taken."""
    source: dict[Canoe, list[str]] = {}
    for place, gem, deposit in load_sources(turn):
        # (A gem loaded by a canoe that goes over the falls goes back to the deposit of
        # its colour, R-RIVER-4: not shown, not missed. Left out, kindly to the turn:
        # from another colour's deposit it took some of that pile's change, unless the
        # turn unloaded it there first; in none of 141 sampled did the other canoe load
        # that colour from there.)
        if deposit and place != "F":
            source.setdefault((place, gem), []).append(deposit)
    # (A missed gem beyond the turn's loads there is one a canoe carried: no pile's.)
    ordered = sorted(missed, key=lambda m: not m.unseen_gem)
    unseen = Counter(m.expected for m in ordered if m.expected in source)
    two = frozenset(seen.deposits_taken_two or ())
    best: tuple[int, Counter[Canoe]] = (-1, Counter())
    keys = sorted(unseen)
    # (Loads none of whose kind was missed show, whichever twin the picture missed.)
    showing = Counter(pile for key in set(source) - set(keys) for pile in source[key])
    for pick in product(*(combinations(range(len(source[k])), min(unseen[k], len(source[k])))
                          for k in keys)):
        shown = Counter(showing)
        hidden: dict[str, list[Canoe]] = {}
        for key, chosen in zip(keys, pick, strict=True):
            for i, pile in enumerate(source[key]):
                if i in chosen:
                    hidden.setdefault(pile, []).append(key)
                else:
                    shown[pile] += 1
        counts: Counter[Canoe] = Counter()
        for pile, keys_hidden in hidden.items():
            room = max(0, (2 if pile in two else 1) - shown[pile])
            counts.update(keys_hidden[:room])
        if counts.total() > best[0]:
            best = (counts.total(), counts)
    left = best[1]
    out = []
    for m in ordered:
        if isinstance(m.expected, tuple) and left[m.expected] > 0:
            left[m.expected] -= 1
            out.append(m)
    return out


def stolen_seen_leave(turn: Turn, before: Mapping[str, Sequence[Canoe]],
                      found: list[Mismatch], seen: Sighting) -> list[Mismatch]:
    """`found`, with the gem the thief stole vouched for where the picture saw it leave
    the victim's canoe: the gem left the victim, and the thief's canoe on that disc is
    the only legal place it went (R-STEAL-1), as a gem seen taken from a pile went into
    a canoe (``Mismatch.vouched``). Not showing in the thief's canoe, it costs nothing
    where the victim's canoe looked far other than before (``Sighting.cargo_changed``).
    Read there in another colour, it is vouched for by that, or by the victim's canoes
    there all seen looking empty (but for a clear gem or one of the victim's hull
    colour, which look so in its canoe): the colour of the loot is the victim's gem,
    which the picture before showed, not a gem taken where that colour does not lie."""
    out = list(found)
    for action in turn.canoes:
        if action.steal is None:
            continue
        victim, _, loot = action.steal.partition(":")
        place = action.destination
        loot = loot or next((gem for at, gem in before.get(victim, ()) if at == place and gem), "")
        changed = (victim, place) in (seen.cargo_changed or ())
        # Every canoe of the victim's there seen (twins: the one seen empty may be the
        # other), each empty or as its own hull; a clear gem, or one of the hull's own
        # colour, looks so in its canoe, and says nothing.
        there = [gem for at, gem in seen.of(victim) if at == place]
        had = sum(at == place for at, _ in before.get(victim, ()))
        robbed = changed or (loot not in ("clear", victim) and 0 < len(there) == had
                             and all(gem in (None, victim) for gem in there))
        for k, m in enumerate(out):
            if m.player != turn.player or m.expected != (place, loot) or m.vouched:
                continue
            if changed and m.unseen_gem:
                out[k] = replace(m, vouched=True, cost=0.0)
                break
            if robbed and m.misread_colour:
                out[k] = replace(m, vouched=True)
                break
    return out


__all__ = ["TAKES_SEEN", "beside", "cargo_mismatches", "changed_piles", "deposit_mismatches",
           "disputed", "one_taken", "put_gems", "stirred_mismatches", "stolen_seen_leave",
           "taken_gems", "unsourced"]
