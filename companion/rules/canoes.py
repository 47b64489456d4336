"""Judging and applying a numbered-card turn: which canoes act (R-WHICH), paddle points
(R-PTS), direction (R-MOVE), gems (R-GEM), stealing (R-STEAL) and landing (R-LAND).

Everything here works on a :class:`State` the caller owns (a copy while judging).
"""

from __future__ import annotations

from itertools import permutations

from .errors import IllegalEvent
from .events import ANY, CanoeAction, Turn
from .geometry import DEPOSIT_AT, DEPTH, PLACES, branch_of, path_steps
from .state import Canoe, State


def _where(canoe: Canoe) -> str:
    place, gem = canoe
    where = {"D": "on the dock", "F": "below the falls"}.get(place, f"on {place}")
    return f"{where} with {gem}" if gem else where


_STEPS = {(a, b): path_steps(a, b) for a in PLACES for b in PLACES}


class _Who:
    """"blue's canoe on 4 with clear", written only when a message needs it."""

    __slots__ = ("player", "canoe")

    def __init__(self, player: str, canoe: Canoe) -> None:
        self.player, self.canoe = player, canoe

    def __str__(self) -> str:
        return f"{self.player}'s canoe {_where(self.canoe)}"

    __format__ = object.__format__


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
        raise IllegalEvent("R-WHICH-4", f"{player}'s canoe below the falls cannot act; "
                           "buy it back in phase I", ("F",))
    if river == 2 and listed_river < 2:
        raise IllegalEvent("R-WHICH-3", f"both of {player}'s canoes are in the river, "
                           "so both must act", afloat)
    if docked == 2 and listed_dock != 1:
        raise IllegalEvent("R-WHICH-1", f"both of {player}'s canoes are on the dock: "
                           "exactly one of them must be launched", ("D",))
    if docked == 1 and river == 1 and listed_river < 1:
        raise IllegalEvent("R-WHICH-2", f"{player}'s canoe in the river must act; "
                           "launching the one on the dock is optional", afloat)
    if docked + river == 1 and not listed:
        raise IllegalEvent("R-WHICH-4", f"{player} has one canoe left and it must "
                           + ("be launched" if docked else "act"), afloat or ("D",))


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
    have = " and ".join(_where(c) for c in canoes)
    for n, action in enumerate(actions):
        if not any(c[0] == action.origin and action.gem in (ANY, c[1]) for c in canoes):
            if action.origin == "D" and any(a.to == "D" for a in actions[:n]):
                return IllegalEvent("R-LAND-3", f"{player}'s canoe that landed this turn "
                                    "stays on the dock until the next turn", ("D",))
            what = action.origin if action.gem == ANY else f"{action.origin} with {action.gem}"
            return IllegalEvent("R-TURN-1", f"{player} has no canoe on {what} "
                                f"(the canoes are {have})", (action.origin,))
    return IllegalEvent("R-TURN-1", f"{player} lists the same canoe twice",
                        tuple(dict.fromkeys(a.origin for a in actions)))


def apply_action(state: State, player: str, canoe: Canoe, value: int,
                 action: CanoeAction) -> Canoe:
    """One canoe's move; returns the canoe as it ends. Updates deposits, camps, victims."""
    origin, gem = canoe
    dest = action.destination
    who = _Who(player, canoe)
    if origin == "F":
        raise IllegalEvent("R-WHICH-4", f"{who} cannot act; buy it back in phase I")
    key = (origin, dest)
    steps = _STEPS[key] if key in _STEPS else path_steps(origin, dest)
    if steps is None:
        raise IllegalEvent("R-MOVE-4", f"{who} cannot reach {dest}: between the branches "
                           "the only way is up through 5 and down again")
    if origin == "D" and steps == 0:
        raise IllegalEvent("R-MOVE-5", f"{who} must be launched into the river (D to 1 "
                           "and on), or left off the turn")
    upstream = DEPTH[dest] < DEPTH[origin]
    pre, post = action.pre, action.post
    ops = pre + post
    if value == 1 and ops:
        raise IllegalEvent("R-PTS-3", f"a card 1 can never load or unload ({who})")
    for here, place in ((pre, origin), (post, dest)):
        if here and place not in DEPOSIT_AT:
            raise IllegalEvent("R-GEM-2", f"{who} cannot load or unload on "
                               f"{place}: no deposit is reached from there")
    if pre and post:
        if _loads_before_unload(ops):
            raise IllegalEvent("R-GEM-5", f"{who}: a gem loaded this turn cannot be "
                               "unloaded in the same turn")
        raise IllegalEvent("R-GEM-4", f"{who}: loading and unloading happen together at "
                           "one end of the move, both at the start or both at the end")

    loaded_now = False
    unloaded: str | None = None
    empty_while_moving = gem is None
    for here, place, start in ((pre, origin, True), (post, dest, False)):
        for op in here:
            deposit = DEPOSIT_AT[place]
            if op == "unload":
                if loaded_now:
                    raise IllegalEvent("R-GEM-5", f"{who}: a gem loaded this turn "
                                       "cannot be unloaded in the same turn")
                if gem is None:
                    raise IllegalEvent("R-GEM-3", f"{who} carries no gem to unload")
                if "no-same-colour-unload" in state.variants and gem == deposit:
                    raise IllegalEvent("R-GEM-3", f"{who}: with no-same-colour-unload a "
                                       f"{gem} gem may not go into the {deposit} deposit")
                state.put_gem(deposit, gem)
                unloaded, gem = gem, None
            else:
                want = op[5:]
                if gem is not None:
                    raise IllegalEvent("R-GEM-1", f"{who} already carries {gem}; only an "
                                       "empty canoe can load")
                if unloaded == want:
                    raise IllegalEvent("R-GEM-4", f"{who} unloaded {want} and cannot load "
                                       "the same colour back in the same move")
                if not state.deposits.get(deposit, {}).get(want):
                    if _carried_here(state, place, want):
                        raise IllegalEvent("R-GEM-6", f"{who}: canoes never pass gems to "
                                           f"each other; the {deposit} deposit has no "
                                           f"{want} gem")
                    raise IllegalEvent("R-GEM-3", f"the {deposit} deposit has no {want} gem "
                                       f"to load ({who})")
                state.take_gem(deposit, want)
                gem, loaded_now = want, True
        if start:
            empty_while_moving = gem is None

    cost = steps + 2 * len(ops)
    if cost > value:
        raise IllegalEvent("R-PTS-1", f"{who} cannot reach {_target(dest)}: it needs {cost} "
                           f"points, the card gives {value}")
    if cost < value and not (steps and dest in ("D", "F")):
        raise IllegalEvent("R-PTS-2", f"{who} leaves {value - cost} of {value} points "
                           "unspent; only a canoe that lands or goes over the falls may")

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
        raise IllegalEvent("R-STEAL-4", f"{who} ends on {dest} beside a loaded canoe and, "
                           "with mandatory-steal, must steal")
    return dest, gem


def _target(place: str) -> str:
    return {"D": "the dock", "F": "the falls"}.get(place, place)


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


def _steal(state: State, player: str, who: _Who, action: CanoeAction, steps: int,
           upstream: bool, empty_while_moving: bool, gem: str | None) -> str:
    victim, _, loot = (action.steal or "").partition(":")
    dest = action.destination
    if victim == player:
        raise IllegalEvent("R-STEAL-3", f"{player} cannot steal from their own canoe")
    if not upstream or not steps:
        how = "moved downstream" if steps else "did not move"
        raise IllegalEvent("R-STEAL-1", f"{who} {how}; only a canoe moving upstream "
                           "may steal")
    if any(op == "unload" for op in action.post):
        raise IllegalEvent("R-STEAL-3", f"{who} unloaded at the end of its move and "
                           "cannot steal after that")
    if not empty_while_moving:
        raise IllegalEvent("R-STEAL-1", f"{who} carried a gem while moving; only an empty "
                           "canoe may steal")
    if gem is not None:
        raise IllegalEvent("R-GEM-1", f"{who} would carry two gems; a canoe carries at most one")
    if victim not in state.players:
        raise IllegalEvent("R-STEAL-1", f"{victim} is not playing in this game")
    loaded = [g for p, g in _victims(state, player, dest) if p == victim]
    if loot:
        loaded = [g for g in loaded if g == loot]
    if not loaded and any(_passed(action.origin, dest, at) for p, at, g in
                          _loaded_canoes(state, victim) if not loot or g == loot):
        raise IllegalEvent("R-STEAL-3", f"{who} only passed {victim}'s loaded canoe; a canoe "
                           f"steals only where its move ends")
    if not loaded:
        what = f"a {loot} gem" if loot else "a gem"
        raise IllegalEvent("R-STEAL-1", f"no canoe of {victim} on {dest} carries {what} "
                           "to steal")
    if len(set(loaded)) > 1:
        raise IllegalEvent("R-STEAL-2", f"{victim} has canoes with {' and '.join(loaded)} "
                           f"on {dest}: name the gem to steal, e.g. \"{victim}:{loaded[0]}\"")
    taken = loaded[0]
    robbed = list(state.canoes[victim])
    robbed[robbed.index((dest, taken))] = (dest, None)
    state.put_canoes(victim, robbed)
    return taken
