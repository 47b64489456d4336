"""Every distinct legal turn of a player with a card: the engine's perft.

The generator builds each canoe's options directly from the rules (section 5), then
combines the two canoes in both orders (R-WHICH-5) and keeps one turn per distinct
resulting state. It is written for speed and checked against the judge in
:mod:`.canoes` by the tests (every generated turn is legal; every legal turn found by
brute force is generated).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from .events import ANY, CanoeAction, Card, Turn
from .geometry import (
    DEPOSIT_AT,
    DEPTH,
    GEMS,
    PLACES,
    WEATHER_TRACK,
    downstream_targets,
    upstream_target,
)
from .state import Canoe, State, canoe_key

Deposits = dict[str, dict[str, int]]
Deltas = tuple[tuple[tuple[str, str], int], ...]


def _net(*parts: Deltas) -> Deltas:
    """Sum deposit changes, dropping what cancels out."""
    if len(parts) == 2:
        a, b = parts
        if not a or not b:
            return a or b
    total: dict[tuple[str, str], int] = {}
    for part in parts:
        for k, n in part:
            total[k] = total.get(k, 0) + n
    return tuple(sorted((k, n) for k, n in total.items() if n))


class Outcome(NamedTuple):
    """What a turn changes: the player's canoes at the end, net deposit changes, gems
    landed in the camp, and canoes robbed (victim, place, gem)."""

    canoes: tuple[Canoe, ...]
    deposits: tuple[tuple[tuple[str, str], int], ...]
    camp: tuple[str, ...]
    robbed: tuple[tuple[str, str, str], ...]


class Option(NamedTuple):
    """One canoe's move and what it changes. The move's :class:`CanoeAction` is built
    only for the options a caller keeps (:meth:`act`)."""

    origin: str
    to: str | None
    pre: tuple[str, ...]
    post: tuple[str, ...]
    steal: str | None
    end: Canoe
    deltas: Deltas  # net change of the deposits: ((deposit, gem), +n/-n), sorted
    camp: str | None  # gem landed in the camp
    robbed: tuple[str, str, str] | None  # (victim, place, gem)

    def act(self, gem: str | None = ANY) -> CanoeAction:
        """The move as a turn lists it; `gem` names the canoe when the player's two
        canoes share a place but not a cargo."""
        return CanoeAction(self.origin, self.to, self.pre, self.post, self.steal, gem)

    @property
    def action(self) -> CanoeAction:
        return self.act()


_LOAD: dict[str, tuple[str, ...]] = {g: (f"load:{g}",) for g in GEMS}
_UNLOAD: tuple[str, ...] = ("unload",)
_UNLOAD_LOAD: dict[str, tuple[str, ...]] = {g: ("unload", f"load:{g}") for g in GEMS}
# A canoe that does nothing before its move: as (ops, gem after, deltas), by its gem.
_NO_OPS: dict[str | None, list[tuple[tuple[str, ...], str | None, Deltas]]] = {
    g: [((), g, ())] for g in (None, *GEMS)}
# Where a move of n steps from a place can end (R-MOVE-2, R-LAND-1, R-MOVE-6).
_DOWN: dict[tuple[str, int], list[str]] = {
    (p, n): downstream_targets(p, n) for p in PLACES[:-1] for n in range(1, 7)}
_UP: dict[tuple[str, int], str] = {
    (p, n): upstream_target(p, n) for p in PLACES[1:-1] for n in range(1, 7)}


def _post_ends(origin: str, value: int) -> list[tuple[int, str]]:
    """(ops, place) for a move that ends with 1 or 2 ops: every place at a deposit that
    the points left after the ops reach, downstream then upstream (R-GEM-2)."""
    out: list[tuple[int, str]] = []
    for nops in (1, 2):
        steps = value - 2 * nops
        if steps < 1:
            break
        ends = downstream_targets(origin, steps)
        if origin != "D" and DEPTH[origin] > steps:
            ends = [*ends, upstream_target(origin, steps)]
        out.extend((nops, dest) for dest in ends if dest in DEPOSIT_AT)
    return out


_POST_ENDS: dict[tuple[str, int], list[tuple[int, str]]] = {
    (p, n): _post_ends(p, n) for p in PLACES[:-1] for n in range(1, 7)}


def _op_choices(deposits: Deposits, place: str, gem: str | None, value: int,
                variants: frozenset[str]) -> list[tuple[tuple[str, ...], str | None, Deltas]]:
    """(ops, gem after, deposit deltas) for the ops a canoe can do at one end (R-GEM)."""
    out: list[tuple[tuple[str, ...], str | None, Deltas]] = [((), gem, ())]
    deposit = DEPOSIT_AT.get(place)
    if deposit is None or value < 2:  # R-GEM-2, R-PTS-3
        return out
    pile = deposits.get(deposit)
    if gem is None:
        if pile:
            for g in sorted(pile):
                if pile[g]:
                    out.append((_LOAD[g], g, (((deposit, g), -1),)))
        return out
    if "no-same-colour-unload" in variants and gem == deposit:
        return out
    unloaded = (deposit, gem)
    out.append((_UNLOAD, None, ((unloaded, 1),)))
    if value >= 4 and pile:  # R-GEM-4: unload then load another colour
        for g in sorted(pile):
            if pile[g] and g != gem:
                loaded = (deposit, g)
                deltas = ((unloaded, 1), (loaded, -1)) if gem < g else \
                    ((loaded, -1), (unloaded, 1))
                out.append((_UNLOAD_LOAD[g], g, deltas))
    return out


def _loaded_at(state: State, player: str) -> dict[str, list[tuple[str, str]]]:
    """(victim, gem) of the other players' loaded canoes, by place (R-STEAL-1)."""
    out: dict[str, list[tuple[str, str]]] = {}
    for p in state.players:
        if p != player:
            for at, g in state.canoes[p]:
                if g is not None:
                    here = out.setdefault(at, [])
                    if (p, g) not in here:
                        here.append((p, g))
    return out


def canoe_options(state: State, deposits: Deposits, player: str, canoe: Canoe,
                  value: int) -> list[Option]:
    """Every legal move of one canoe with `value` points, on the given deposits."""
    origin, gem = canoe
    variants = state.variants
    out: list[Option] = []
    add = out.append
    launch = origin == "D"
    starts = _op_choices(deposits, origin, gem, value, variants) \
        if value > 1 and origin in DEPOSIT_AT else _NO_OPS[gem]
    loaded_at = None
    for pre, gem1, d1 in starts:
        rest = value - 2 * len(pre)
        if rest < 0:
            continue
        if rest == 0:
            if pre:  # R-MOVE-7: no movement, all points on loading/unloading
                add(Option(origin, None, pre, (), None, (origin, gem1), d1, None, None))
            continue
        # Downstream (R-MOVE-2 picks the branch). From the dock only this way.
        # A move with no ops at its end: landing, falling, plain, or ending in a theft.
        for dest in _DOWN[origin, rest]:
            if dest == "F":  # R-MOVE-6, R-RIVER-4: the gem goes back
                add(Option(origin, dest, pre, (), None, ("F", None),
                           _net(d1, (((gem1, gem1), 1),)) if gem1 else d1, None, None))
            else:
                add(Option(origin, dest, pre, (), None, (dest, gem1), d1, None, None))
        if not launch:
            dest = _UP[origin, rest]
            if dest == "D":  # R-LAND-1, R-LAND-2
                add(Option(origin, dest, pre, (), None, ("D", None), d1, gem1, None))
            else:
                victims = None
                if gem1 is None:  # R-STEAL-1: upstream and empty
                    if loaded_at is None:
                        loaded_at = _loaded_at(state, player)
                    victims = loaded_at.get(dest)
                if not victims or "mandatory-steal" not in variants:  # R-STEAL-4
                    add(Option(origin, dest, pre, (), None, (dest, gem1), d1, None, None))
                if victims:
                    for p, g in victims:
                        several = sum(1 for pp, _ in victims if pp == p) > 1
                        add(Option(origin, dest, pre, (), f"{p}:{g}" if several else p,
                                   (dest, g), d1, None, (p, dest, g)))
        if pre:
            continue
        # Ops at the end of the move (R-GEM-2), so fewer points go to moving.
        for nops, dest in _POST_ENDS[origin, value]:
            for post, gem2, d2 in _op_choices(deposits, dest, gem, value, variants):
                if len(post) == nops:
                    add(Option(origin, dest, (), post, None, (dest, gem2), d2, None, None))
    return out


def apply_to_deposits(deposits: Deposits, option: Option) -> Deposits:
    """The deposits after `option`, as new piles where it changes them."""
    if not option.deltas:
        return deposits
    out = dict(deposits)
    for (d, g), n in option.deltas:
        pile = out[d] = dict(out.get(d, ()))
        pile[g] = pile.get(g, 0) + n
    return out


def play_options(state: State, player: str, moves: Sequence[tuple[int, Option]]) -> None:
    """Make on `state` the moves of the player's canoes (by index in their canoe list)
    that :func:`canoe_options` listed, in the order they were listed, the second on the
    deposits and canoes the first left: what the judge would do with the turn they
    form, without judging it again. Replaces what it changes (see State.evolve)."""
    canoes = list(state.canoes[player])
    deposits = state.deposits
    for i, option in moves:
        canoes[i] = option.end
        for (d, g), n in option.deltas:
            pile = deposits[d] = dict(deposits.get(d, ()))
            left = pile.get(g, 0) + n
            if left:
                pile[g] = left
            else:
                del pile[g]
        if option.camp is not None:  # R-LAND-2
            state.land_gem(player, option.camp)
        if option.robbed is not None:  # R-STEAL-1
            victim, place, gem = option.robbed
            theirs = list(state.canoes[victim])
            theirs[theirs.index((place, gem))] = (place, None)
            state.put_canoes(victim, theirs)
    state.put_canoes(player, canoes)


def robbed_state(state: State, robbed: tuple[str, str, str]) -> State:
    victim, place, gem = robbed
    trial = State(players=state.players, start=state.start, variants=state.variants,
                  canoes=dict(state.canoes))
    canoes = list(state.canoes[victim])
    canoes[canoes.index((place, gem))] = (place, None)
    trial.canoes[victim] = canoes
    return trial


def _two(a: Any, b: Any) -> tuple[Any, ...]:  # sorted tuple of the non-empty of two values
    if a and b:
        return (a, b) if a <= b else (b, a)
    return (a,) if a else (b,) if b else ()


def legal_turns(state: State, player: str, card: Card) -> list[Turn]:
    """Every legal turn of `player` playing `card`, one per distinct resulting state."""
    return [turn for turn, _ in turn_outcomes(state, player, card)]


def turn_outcomes(state: State, player: str, card: Card) -> list[tuple[Turn, Outcome]]:
    """Every distinct legal turn with what it changes (for policies and previews)."""
    if card == "cloud":  # R-WEATHER-1
        same = Outcome(tuple(state.canoes[player]), (), (), ())
        turns = []
        if state.weather < WEATHER_TRACK[-1]:
            turns.append((Turn(player, cloud="up"), same))
        if state.weather > WEATHER_TRACK[0]:
            turns.append((Turn(player, cloud="down"), same))
        return turns
    value = int(card)
    canoes = list(state.canoes[player])
    twins = canoes[0][0] == canoes[1][0] and canoes[0][1] != canoes[1][1]

    def act(option: Option, canoe: Canoe) -> CanoeAction:
        return option.act(canoe[1]) if twins else option.act()

    docked = [i for i, c in enumerate(canoes) if c[0] == "D"]
    river = [i for i, c in enumerate(canoes) if c[0] not in ("D", "F")]
    results: dict[Outcome, Turn] = {}

    def record(ends: list[Canoe], options: tuple[Option, ...],
               actions: tuple[CanoeAction, ...]) -> None:
        e0, e1 = ends
        pair = (e0, e1) if canoe_key(e0) <= canoe_key(e1) else (e1, e0)
        if len(options) == 1:
            (o,) = options
            key = Outcome(pair, o.deltas, (o.camp,) if o.camp else (),
                          (o.robbed,) if o.robbed else ())
        else:
            a, b = options
            camp = _two(a.camp, b.camp)
            robbed = _two(a.robbed, b.robbed)
            key = Outcome(pair, _net(a.deltas, b.deltas), camp, robbed)
        if key not in results:
            results[key] = Turn(player, actions)

    base = state.deposits
    if len(river) == 2 or (len(river) == 1 and len(docked) == 1):
        # R-WHICH-3 / R-WHICH-2: the river canoe(s) act, in either order (R-WHICH-5);
        # with one on the dock, launching it too is optional.
        pairs = [(river[0], river[1]), (river[1], river[0])] if len(river) == 2 else \
            [(river[0], docked[0]), (docked[0], river[0])]
        if len(river) == 1:
            i = river[0]
            for o in canoe_options(state, base, player, canoes[i], value):
                ends = list(canoes)
                ends[i] = o.end
                record(ends, (o,), (act(o, canoes[i]),))
        cache: dict[tuple[Any, ...], list[Option]] = {}
        for n, (a, b) in enumerate(pairs):
            for oa in canoe_options(state, base, player, canoes[a], value):
                ckey = (a, oa.deltas, oa.robbed)
                obs = cache.get(ckey)
                if obs is None:
                    deps = apply_to_deposits(base, oa)
                    seen = robbed_state(state, oa.robbed) if oa.robbed else state
                    obs = cache[ckey] = canoe_options(seen, deps, player, canoes[b], value)
                    if n == 1 and not (oa.deltas or oa.robbed):
                        # After a move that changes nothing shared, the other canoe sees
                        # the start position: pairs of two such moves were found in the
                        # first order already.
                        obs = cache[ckey] = [o for o in obs if o.deltas or o.robbed]
                for ob in obs:
                    ends = list(canoes)
                    ends[a], ends[b] = oa.end, ob.end
                    record(ends, (oa, ob), (act(oa, canoes[a]), act(ob, canoes[b])))
    elif docked or river:
        # R-WHICH-1 (one of two docked canoes) and R-WHICH-4 (the last canoe).
        i = (river or docked)[0]
        for o in canoe_options(state, base, player, canoes[i], value):
            ends = list(canoes)
            ends[i] = o.end
            record(ends, (o,), (act(o, canoes[i]),))
    else:
        results[Outcome(tuple(canoes), (), (), ())] = Turn(player, ())
    return [(turn, outcome) for outcome, turn in results.items()]
