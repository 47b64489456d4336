"""Judging and applying a numbered-card turn: which canoes act (R-WHICH), paddle points
(R-PTS), direction (R-MOVE), gems (R-GEM), stealing (R-STEAL) and landing (R-LAND).

Everything here works on a :class:`State` the caller owns (a copy while judging).
"""

from __future__ import annotations

from itertools import permutations

from .errors import IllegalEvent
from .events import ANY, CanoeAction, Turn
from .geometry import DEPOSIT_AT, DEPTH, PLACES, branch_of, path_steps
from .messages import canoe as canoe_field
from .messages import spot
from .state import Canoe, State

_STEPS = {(a, b): path_steps(a, b) for a in PLACES for b in PLACES}


def check_which(state: State, player: str, turn: Turn) -> None:
    """R-WHICH-1 … R-WHICH-4: the listed canoes are the ones that must or may act."""
    canoes = state.canoes[player]
    places = [at for at, _ in canoes]
    docked = places.count("D")
    river = len(places) - docked - places.count("F")
    listed = [a.origin for a in turn.canoes]
    listed_dock = listed.count("D")
    listed_river = len(listed) - listed_dock - listed.count("F")
    afloat = tuple(at for at in places if at not in ("D", "F"))
    if "F" in listed:
        raise IllegalEvent.of("R-WHICH-4", "which.falls", ("F",), player=player)
    if river == 2 and listed_river < 2:
        raise IllegalEvent.of("R-WHICH-3", "which.both_river", afloat, player=player)
    if docked == 2 and listed_dock != 1:
        raise IllegalEvent.of("R-WHICH-1", "which.both_dock", ("D",), player=player)
    if docked == 1 and river == 1 and listed_river < 1:
        raise IllegalEvent.of("R-WHICH-2", "which.river_first", afloat, player=player)
    if docked + river == 1 and not listed:
        raise IllegalEvent.of("R-WHICH-4", "which.last_launch" if docked else "which.last_act",
                              afloat or ("D",), player=player)


def _assignments(canoes: list[Canoe], actions: tuple[CanoeAction, ...]) -> list[list[int]]:
    """Ways to pair each action with a distinct canoe of the player (by `from`/`gem`).
    Identical canoes give identical results: each distinct pairing comes once."""
    fits = [[i for i, (at, gem) in enumerate(canoes)
             if at == a.origin and (a.gem == ANY or gem == a.gem)] for a in actions]
    if len(actions) == 1:
        perms = [[i] for i in fits[0]]
    elif len(actions) == 2:
        perms = [[i, j] for i in fits[0] for j in fits[1] if i != j]
    else:
        perms = [list(p) for p in permutations(range(len(canoes)), len(actions))
                 if all(p[k] in fits[k] for k in range(len(actions)))]
    if len(perms) < 2:
        return perms
    seen, unique = set(), []
    for perm in perms:
        sig = tuple(canoes[i] for i in perm)
        if sig not in seen:
            seen.add(sig)
            unique.append(perm)
    return unique


def apply_number_turn(state: State, player: str, value: int, turn: Turn) -> None:
    """Judge and apply a numbered-card turn on `state` (in place).

    Raises IllegalEvent with the most specific rule; `state` is then unusable, so the
    caller passes a copy.
    """
    check_which(state, player, turn)
    canoes = list(state.canoes[player])
    options = _assignments(canoes, turn.canoes)
    if not options:
        raise _missing_canoe(player, canoes, turn.canoes)
    first_error: IllegalEvent | None = None
    for perm in options:
        trial = state.evolve() if len(options) > 1 else state
        moved = list(canoes)
        at: tuple[str, ...] = ()
        try:
            for i, action in zip(perm, turn.canoes, strict=True):
                at = (moved[i][0], action.destination)  # where the refused move is
                moved[i] = apply_action(trial, player, moved[i], value, action)
            trial.put_canoes(player, moved)
        except IllegalEvent as exc:
            exc.places = exc.places or tuple(dict.fromkeys(at))
            first_error = first_error or exc
            continue
        if trial is not state:
            _adopt(state, trial)
        return
    assert first_error is not None
    raise first_error


def _adopt(state: State, trial: State) -> None:
    state.canoes, state.camps, state.deposits = trial.canoes, trial.camps, trial.deposits


def _missing_canoe(player: str, canoes: list[Canoe],
                   actions: tuple[CanoeAction, ...]) -> IllegalEvent:
    """The turn names a canoe the player does not have (or one canoe twice). The rule
    cited is the one of R-WHICH that says which of *their* canoes act here."""
    have = [spot(*c) for c in canoes]
    for n, action in enumerate(actions):
        if not any(c[0] == action.origin and action.gem in (ANY, c[1]) for c in canoes):
            if action.origin == "D" and any(a.to == "D" for a in actions[:n]):
                return IllegalEvent.of("R-LAND-3", "land.stays", ("D",), player=player)
            gem = None if action.gem == ANY else action.gem
            return IllegalEvent.of(_which_rule(canoes), "turn.no_canoe", (action.origin,),
                                   player=player, spot=spot(action.origin, gem), have=have)
    return IllegalEvent.of("R-WHICH-5", "turn.same_canoe",
                           tuple(dict.fromkeys(a.origin for a in actions)), player=player)


def _which_rule(canoes: list[Canoe]) -> str:
    """The R-WHICH rule naming the canoes that act for a player with `canoes`."""
    places = [at for at, _ in canoes]
    if "F" in places:
        return "R-WHICH-4"
    if places.count("D") == 2:
        return "R-WHICH-1"
    return "R-WHICH-2" if "D" in places else "R-WHICH-3"


def apply_action(state: State, player: str, canoe: Canoe, value: int,
                 action: CanoeAction) -> Canoe:
    """One canoe's move; returns the canoe as it ends. Updates deposits, camps, victims."""
    origin, gem = canoe
    dest = action.destination
    who = canoe_field(player, origin, gem)
    if origin == "F":
        raise IllegalEvent.of("R-WHICH-4", "which.falls", player=player)
    key = (origin, dest)
    steps = _STEPS[key] if key in _STEPS else path_steps(origin, dest)
    if steps is None:
        raise IllegalEvent.of("R-MOVE-4", "move.branches", who=who, dest=dest)
    if origin == "D" and steps == 0:
        raise IllegalEvent.of("R-MOVE-5", "move.launch", who=who)
    upstream = DEPTH[dest] < DEPTH[origin]
    pre, post = action.pre, action.post
    ops = pre + post
    if value == 1 and ops:
        raise IllegalEvent.of("R-PTS-3", "pts.card_one", who=who)
    for here, place in ((pre, origin), (post, dest)):
        if here and place not in DEPOSIT_AT:
            raise IllegalEvent.of("R-GEM-2", "gem.no_deposit", who=who, place=place)
    if pre and post:
        if _loads_before_unload(ops):
            raise IllegalEvent.of("R-GEM-5", "gem.loaded_unload", who=who)
        raise IllegalEvent.of("R-GEM-4", "gem.one_end", who=who)

    loaded_now = False
    unloaded: str | None = None
    empty_while_moving = gem is None
    for here, place, start in ((pre, origin, True), (post, dest, False)):
        for op in here:
            deposit = DEPOSIT_AT[place]
            if op == "unload":
                if loaded_now:
                    raise IllegalEvent.of("R-GEM-5", "gem.loaded_unload", who=who)
                if gem is None:
                    raise IllegalEvent.of("R-GEM-3", "gem.nothing_to_unload", who=who)
                if "no-same-colour-unload" in state.variants and gem == deposit:
                    raise IllegalEvent.of("R-GEM-3", "gem.same_colour_unload", who=who,
                                          gem=gem, deposit=deposit)
                state.put_gem(deposit, gem)
                unloaded, gem = gem, None
            else:
                want = op[5:]
                if gem is not None:
                    raise IllegalEvent.of("R-GEM-1", "gem.already_loaded", who=who, gem=gem)
                if unloaded == want:
                    raise IllegalEvent.of("R-GEM-4", "gem.same_colour_back", who=who, gem=want)
                if not state.deposits.get(deposit, {}).get(want):
                    if _carried_here(state, place, want):
                        raise IllegalEvent.of("R-GEM-6", "gem.no_passing", who=who,
                                              deposit=deposit, gem=want)
                    raise IllegalEvent.of("R-GEM-3", "gem.deposit_empty", who=who,
                                          deposit=deposit, gem=want)
                state.take_gem(deposit, want)
                gem, loaded_now = want, True
        if start:
            empty_while_moving = gem is None

    cost = steps + 2 * len(ops)
    if cost > value:
        raise IllegalEvent.of("R-PTS-1", "pts.too_far", who=who, target=dest, cost=cost,
                              value=value)
    if cost < value and not (steps and dest in ("D", "F")):
        raise IllegalEvent.of("R-PTS-2", "pts.unspent", who=who, left=value - cost,
                              value=value)

    if dest == "D" and gem is not None:  # R-LAND-2
        state.land_gem(player, gem)
        gem = None
    elif dest == "F" and gem is not None:  # R-MOVE-6, R-RIVER-4
        state.return_gem(gem)
        gem = None

    if action.steal is not None:
        gem = _steal(state, player, who, action, steps, upstream, empty_while_moving, gem)
    elif "mandatory-steal" in state.variants and upstream and steps and \
            empty_while_moving and not action.post and _victims(state, player, dest):
        raise IllegalEvent.of("R-STEAL-4", "steal.mandatory", who=who, dest=dest)
    return dest, gem


def _loads_before_unload(ops: tuple[str, ...]) -> bool:
    loaded = False
    for op in ops:
        if op != "unload":
            loaded = True
        elif loaded:
            return True
    return False


def _carried_here(state: State, place: str, gem: str) -> bool:
    return any(c == (place, gem) for cs in state.canoes.values() for c in cs)


def _victims(state: State, player: str, place: str) -> list[tuple[str, str]]:
    """(victim, gem) of every other player's loaded canoe on `place` (R-STEAL-1)."""
    return [(p, g) for p in state.players if p != player
            for at, g in state.canoes[p] if at == place and g is not None]


def _loaded_canoes(state: State, player: str) -> list[tuple[str, str, str]]:
    return [(player, at, g) for at, g in state.canoes[player] if g is not None]


def _passed(origin: str, dest: str, place: str) -> bool:
    """Whether a move from origin to dest passes over `place` (not ending there)."""
    if place in ("D", "F"):
        return False
    lo, hi = sorted((DEPTH[origin], DEPTH[dest]))
    side = branch_of(origin) or branch_of(dest)
    return lo < DEPTH[place] < hi and branch_of(place) in (None, side)


def _steal(state: State, player: str, who: dict[str, str | None], action: CanoeAction, steps: int,
           upstream: bool, empty_while_moving: bool, gem: str | None) -> str:
    victim, _, loot = (action.steal or "").partition(":")
    dest = action.destination
    if victim == player:
        raise IllegalEvent.of("R-STEAL-3", "steal.own", player=player)
    if not upstream or not steps:
        raise IllegalEvent.of("R-STEAL-1", "steal.downstream" if steps else "steal.not_moved",
                              who=who)
    if any(op == "unload" for op in action.post):
        raise IllegalEvent.of("R-STEAL-3", "steal.after_unload", who=who)
    if not empty_while_moving:
        raise IllegalEvent.of("R-STEAL-1", "steal.carried", who=who)
    if gem is not None:
        raise IllegalEvent.of("R-GEM-1", "gem.two_gems", who=who)
    if victim not in state.players:
        raise IllegalEvent.of("R-STEAL-1", "steal.not_playing", victim=victim)
    loaded = [g for p, g in _victims(state, player, dest) if p == victim]
    if loot:
        loaded = [g for g in loaded if g == loot]
    if not loaded and any(_passed(action.origin, dest, at) for p, at, g in
                          _loaded_canoes(state, victim) if not loot or g == loot):
        raise IllegalEvent.of("R-STEAL-3", "steal.passed", who=who, victim=victim)
    if not loaded:
        if loot:
            raise IllegalEvent.of("R-STEAL-1", "steal.no_gem_colour", victim=victim,
                                  dest=dest, gem=loot)
        raise IllegalEvent.of("R-STEAL-1", "steal.no_gem", victim=victim, dest=dest)
    if len(set(loaded)) > 1:
        raise IllegalEvent.of("R-STEAL-2", "steal.choose", victim=victim, gem=loaded[0],
                              gem2=loaded[1], dest=dest)
    taken = loaded[0]
    robbed = list(state.canoes[victim])
    robbed[robbed.index((dest, taken))] = (dest, None)
    state.put_canoes(victim, robbed)
    return taken
