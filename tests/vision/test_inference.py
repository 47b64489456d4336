"""Turn inference (phase II): from the state before, the card and the stable observation
after, the legal turn(s) that explain the picture."""

import copy
import functools
import json
import random
from collections import Counter
from dataclasses import replace

import pytest

from companion.rules import GEMS, Game, format_turn, parse_turn
from companion.rules.random_play import random_positions
from companion.vision.candidates import MARGIN
from companion.vision.expected import expected_observation
from companion.vision.fit_changes import beside, changed_piles, one_taken, unsourced
from companion.vision.inference import (
    BuybackInference,
    FitWeights,
    InferenceError,
    ObservationError,
    infer,
    infer_turn,
    match_canoes,
    unseen_turns,
)
from companion.vision.mismatch import Mismatch
from companion.vision.sighting import read_observation
from companion.vision.slips import TOLERANCE, slips
from companion.vision.turn_gems import load_sources


def observe_after(game: Game, turn) -> dict:
    """What a perfect camera sees once `turn` is played; `game` is left unchanged."""
    game.apply(turn)
    try:
        return expected_observation(game)
    finally:
        game.undo()


def positions_in_phase_two(seed: int, count: int) -> list[Game]:
    """The first `count` of `random_positions(random.Random(seed), ...)`, each a copy of
    its own. (Drawn once a seed for the whole module: drawing them is most of its time.)"""
    rng, drawn = _drawn.setdefault(seed, (random.Random(seed), []))
    drawn.extend(random_positions(rng, count - len(drawn)))
    return [game.copy() for game in drawn[:count]]


_drawn: dict[int, tuple[random.Random, list[Game]]] = {}
# The seed of the positions the searches for rarer cases share (each samples its own
# turns from them): drawing one pool, not one a search, keeps the module quick.
POOL = 5


def sample_turns(game: Game, rng: random.Random, at_most: int = 30):
    turns = game.legal_turns()
    return turns if len(turns) <= at_most else rng.sample(turns, at_most)


def state_after(game: Game, turn):
    """The state `turn` leaves; `game` is left as it was."""
    trial = game.copy()
    trial.apply(turn)
    return trial.state


def sampled_turns(seed: int, count: int, rng: random.Random, at_most: int = 30):
    """(position, one of its legal turns) for `count` random positions in phase II."""
    for game in positions_in_phase_two(seed=seed, count=count):
        for turn in sample_turns(game, rng, at_most):
            yield game, turn


def offered(result) -> list:
    """The turns the table plays (exact) or puts to the players (ambiguous)."""
    return result.turns if result.status == "ambiguous" else [result.turn]


def worked_example() -> Game:
    """rules.md section 7: round 1, five players, blue starts."""
    game = Game(["blue", "green", "yellow", "red", "brown"])
    game.apply({"event": "cards", "cards": {"blue": 6, "green": "cloud", "yellow": 5,
                                            "red": 1, "brown": 4}})
    return game


def yellow_loads_violet() -> tuple[Game, object, dict]:
    """The worked example after blue's and green's turns, yellow's "D-3+violet", and
    the perfect picture after it."""
    game = worked_example()
    game.push_san("D-4+clear")
    game.push_san("cloud up")
    turn = parse_turn("D-3+violet", "yellow")
    return game, turn, observe_after(game, turn)


def canoes_on(obs: dict, place: str) -> list:
    """The list of canoes the observation holds for a place (D, a slot, or F)."""
    if place == "D":
        return obs["dock"]
    if place == "F":
        return obs["falls"]
    return obs["slots"][place]["canoes"]


def move(obs: dict, player: str, src: str, dst: str) -> dict:
    """A copy of the observation with one of `player`'s canoes moved from src to dst."""
    obs = copy.deepcopy(obs)
    canoe = next(c for c in canoes_on(obs, src) if c["player"] == player)
    canoes_on(obs, src).remove(canoe)
    canoes_on(obs, dst).append(canoe)
    return obs


def all_canoes(obs: dict):
    for entry in obs["slots"].values():
        yield from entry["canoes"]
    yield from obs["dock"]
    yield from obs["falls"]


# -- perfect pictures ------------------------------------------------------------------

def test_worked_example_launch_and_load_is_inferred_exactly():
    game = worked_example()
    result = infer_turn(game, observe_after(game, parse_turn("D-4+clear", "blue")))
    assert result.status == "exact"
    assert format_turn(result.turn) == "D-4+clear"
    assert result.score == 0 and result.diff == []


def test_every_legal_turn_of_random_states_is_inferred_back_or_listed_as_ambiguous():
    rng = random.Random(5)
    checked = 0
    for game, turn in sampled_turns(1, 40, rng):
        result = infer_turn(game, observe_after(game, turn))
        assert result.status in ("exact", "ambiguous"), (str(game), format_turn(turn))
        assert turn in result.turns
        if result.status == "exact":
            assert result.turn == turn
        checked += 1
    assert checked > 300


def test_ambiguous_turns_give_the_same_picture_but_different_states():
    rng = random.Random(9)
    ambiguous = 0
    for game, turn in sampled_turns(2, 30, rng):
        result = infer_turn(game, observe_after(game, turn))
        if result.status != "ambiguous" or any(c.score for c in result.best):
            continue  # (asked because a gem may hide: see the test below)
        ambiguous += 1
        pictures, states = set(), set()
        for other in result.turns:
            pictures.add(json.dumps(_own_gems_unseen(observe_after(game, other)),
                                    sort_keys=True))
            game.apply(other)
            states.add(game.state.key())
            game.undo()
        assert len(pictures) == 1
        assert len(states) == len(result.turns)
    assert ambiguous > 0


def _own_gems_unseen(observation: dict) -> dict:
    """The picture with every gem of its hull's own colour taken out: a gem the colour
    of its canoe is no evidence against an empty canoe (vision.fit)."""
    for canoe in [c for slot in observation["slots"].values() for c in slot["canoes"]]:
        if canoe["gem"] == canoe["player"]:
            canoe["gem"] = None
    return observation


def test_a_gem_of_the_hulls_own_colour_does_not_tell_it_from_an_empty_canoe():
    game = Game(["yellow", "blue", "green"])
    game.apply({"event": "cards", "cards": {"yellow": 4, "blue": 1, "green": 2}})
    seen = observe_after(game, parse_turn("D-4", "yellow"))
    [canoe] = seen["slots"]["4"]["canoes"]
    canoe["gem"] = "yellow"                 # an empty hull's shading read as facets
    result = infer_turn(game, seen)
    assert result.status == "exact" and format_turn(result.turn) == "D-4"


def test_a_clear_gem_read_as_its_hull_is_a_gem_not_seen_not_another_colour():
    # A clear gem has no colour of its own: the blue hull shows through it. Blue read
    # where only D-4+clear comes near is that gem not made out, not a gem of another
    # colour loaded where none lies. Where this table's camera misses clear gems every
    # other time (as every table starts), the turn is taken; where it shows them well,
    # the hull read says none is there: asked.
    game = worked_example()
    turn = parse_turn("D-4+clear", "blue")
    obs = observe_after(game, turn)
    [canoe] = obs["slots"]["4"]["canoes"]
    canoe["gem"] = "blue"
    obs["gems_shown"] = {"clear": 0.5}
    result = infer_turn(game, obs)
    [cargo] = result.candidates[0].mismatches
    assert cargo.unseen_gem and cargo.hull_through and not cargo.misread_colour
    assert "should carry clear, seen empty" in cargo.message
    assert result.status == "exact" and result.turn == turn
    obs["gems_shown"] = {"clear": 0.9}
    result = infer_turn(game, obs)
    assert result.status == "ambiguous" and result.turns == [turn]


def test_unloading_at_the_start_or_at_the_end_is_ambiguous_as_deposits_are_not_seen():
    game = Game(["blue", "green", "yellow"])
    game.apply({"event": "cards", "cards": {"blue": 5, "green": 1, "yellow": 2}})
    for text in ("D-3+violet", "D-1", "D-2"):
        game.push_san(text)
    game.apply({"event": "river", "steps": 1})
    game.apply({"event": "cards", "cards": {"blue": 3, "green": 2, "yellow": 3}})
    game.push_san("2-4")  # green, then yellow, then blue
    game.push_san("3-6L")
    result = infer_turn(game, observe_after(game, parse_turn("4-3u", "blue")))
    assert result.status == "ambiguous"
    assert sorted(c.text for c in result.best) == ["4-3u", "4u-3"]


def test_inference_leaves_the_game_as_it_was():
    game = positions_in_phase_two(seed=4, count=1)[0]
    before, events = game.snapshot(), list(game.events)
    infer_turn(game, observe_after(game, game.legal_turns()[-1]))
    assert game.snapshot() == before and game.events == events


def test_cloud_turn_is_told_by_the_weather():
    game = worked_example()
    game.push_san("D-4+clear")
    result = infer_turn(game, observe_after(game, parse_turn("cloud up", "green")))
    assert result.status == "exact" and format_turn(result.turn) == "cloud up"


def test_cloud_turn_without_a_weather_reading_is_ambiguous():
    game = worked_example()
    game.push_san("D-4+clear")
    obs = observe_after(game, parse_turn("cloud up", "green"))
    obs["weather"] = None
    result = infer_turn(game, obs)
    assert result.status == "ambiguous"
    assert {format_turn(t) for t in result.turns} == {"cloud up", "cloud down"}


def test_cloud_left_in_place_matches_no_cloud_turn():
    game = worked_example()
    game.push_san("D-4+clear")
    result = infer_turn(game, expected_observation(game))
    assert result.status == "none"
    assert result.diff[-1]["place"] == "weather"
    assert "the cloud should be on" in result.diff[-1]["problems"][0]


def round_two(first: dict[str, int], moves: tuple[str, str, str],
              then: dict[str, int]) -> Game:
    """Blue, green and yellow play round 1 (their `first` cards, then their `moves` in
    that order), the river pushes every canoe one slot (the L branch), and round 2's
    cards (`then`) are revealed."""
    game = Game(["blue", "green", "yellow"])
    game.apply({"event": "cards", "cards": first})
    for text in moves:
        game.push_san(text)
    game.apply({"event": "river", "steps": 1, "branches": ["L"]})
    game.apply({"event": "cards", "cards": then})
    return game


def _green_robs(blue: tuple[int, str], green: tuple[int, str]) -> tuple[Game, object, dict]:
    """Blue loads a gem (card, move), green goes to 5, yellow to 1; the river pushes
    them a slot (green to 6L, blue's canoe past the gem's deposit); green moves first
    in round 2 and robs blue (card, theft): (game, theft, the picture after it)."""
    game = round_two({"blue": blue[0], "green": 5, "yellow": 1}, (blue[1], "D-5", "D-1"),
                     {"blue": 3, "green": green[0], "yellow": 2})
    turn = parse_turn(green[1], "green")
    return game, turn, observe_after(game, turn)


def green_robs_blue() -> tuple[Game, object, dict]:
    """Green's "6L-5xblue" takes blue's clear gem (R-STEAL), and the picture after it
    with green's loot unread."""
    game, turn, obs = _green_robs((6, "D-4+clear"), (1, "6L-5xblue"))
    for canoe in all_canoes(obs):
        if canoe["player"] == "green" and canoe["gem"]:
            canoe["gem"] = "unknown"
    return game, turn, obs


def test_theft_is_told_by_the_robbed_canoe_even_when_the_loot_is_unread():
    game, turn, obs = green_robs_blue()
    result = infer_turn(game, obs)
    assert result.status == "exact" and result.turn == turn


def test_R_STEAL_a_stolen_gem_read_in_another_colour_is_asked_about():
    # The victim's canoe hidden and green's loot read violet: the gem came into green's
    # canoe in this very move, so another colour there may be a gem taken where the
    # rules give none. Asked, not taken, however alone the theft stands.
    game, turn, obs = green_robs_blue()
    place = turn.canoes[0].destination
    obs["slots"][place]["canoes"] = [{"player": "green", "gem": "violet"}]
    result = infer_turn(game, obs)
    assert result.status == "ambiguous"
    assert turn in result.turns


def _green_robs_blues_violet() -> tuple[Game, object, dict]:
    """Green's "6L-4xblue" takes blue's violet gem (R-STEAL), the loot read red in
    green's canoe, at a table whose camera reads shared discs right
    (``Sighting.gems_swapped``)."""
    game, turn, obs = _green_robs((5, "D-3+violet"), (2, "6L-4xblue"))
    for canoe in canoes_on(obs, "4"):
        if canoe["player"] == "green":
            canoe["gem"] = "red"
    obs["gems_swapped"] = 0.0
    return game, turn, obs


def test_R_STEAL_1_a_stolen_gem_read_in_another_colour_is_vouched_for_by_the_robbed_canoe():
    # Blue's canoe seen empty where it carried its violet gem: the gem left it, and
    # green's canoe on that disc is the only legal place it went. The red read there is
    # the loot misread, not a gem taken where none lies: the theft is played.
    game, turn, obs = _green_robs_blues_violet()
    result = infer_turn(game, obs)
    assert (result.status, result.turn) == ("exact", turn)
    # blue's canoe not seen: nothing says the violet gem left it; asked
    obs["slots"]["4"]["canoes"] = [c for c in canoes_on(obs, "4") if c["player"] != "blue"]
    result = infer_turn(game, obs)
    assert (result.status, offered(result)) == ("ambiguous", [turn])


def test_R_STEAL_1_a_robbed_canoe_seen_empty_does_not_vouch_for_a_clear_gem():
    # A clear gem shows its hull through it: blue's canoe read empty may still hold it.
    game, turn, obs = green_robs_blue()
    for canoe in canoes_on(obs, turn.canoes[0].destination):
        if canoe["player"] == "green":
            canoe["gem"] = "violet"
    obs["gems_swapped"] = 0.0
    result = infer_turn(game, obs)
    assert result.status == "ambiguous" and turn in offered(result)


def test_R_GEM_6_of_twins_one_carrying_and_one_new_the_gem_misread_is_the_carried_one():
    # A canoe loads (or steals) a gem and ends beside its twin carrying the same (say
    # "4+clear-3, 6R-3"): which twin holds which no picture tells, and the state vouches
    # for both gems. The one seen as expected is taken as the new one, so the other,
    # read in another colour, is a gem the canoe carried (``Mismatch.carried``): a
    # misread that cannot mean another move, never a gem taken where none lies.
    from companion.vision.expected import canoes_of
    from companion.vision.turn_gems import gain_counts, gains

    rng = random.Random(5)
    tried = 0
    for game, turn in sampled_turns(POOL, 900, rng, at_most=40):
        # (One of the twins new: where the turn brings both, neither carried it.)
        new = gain_counts(turn, canoes_of(game.state))
        after = canoes_of(state_after(game, turn))[turn.player]
        twins = [c for c in set(after) if after.count(c) == 2 and new[c] == 1
                 and c[0] not in ("D", "F")]
        if not twins:
            continue
        place, gem = twins[0]
        obs = observe_after(game, turn)
        # (A colour no legal turn puts there: else the picture shows that turn.)
        legal = {g for c in infer_turn(game, obs).candidates
                 for at, g in gains(c.event, canoes_of(game.state)) if at == place}
        others = [g for g in ("violet", "blue", "yellow", "red")
                  if g not in (gem, turn.player) and g not in legal]
        if not others:
            continue
        mine = [c for c in canoes_on(obs, place) if c["player"] == turn.player]
        mine[0]["gem"] = others[0]
        result = infer_turn(game, obs)
        fit = next(c for c in result.candidates if c.event == turn)
        (misread,) = [m for m in fit.mismatches if m.misread_colour]
        assert misread.carried, format_turn(turn)
        assert result.status != "none" and turn in offered(result)
        tried += 1
    assert tried >= 3


@functools.cache
def _twin_loads(seed: int, count: int) -> tuple:
    """(game, turn, place, gem, other) for sampled turns whose two canoes both load a
    gem of one colour and end on one slot (R-GEM-3: each takes one gem from the
    deposit); `other`, a colour no legal turn puts there (else the picture would show
    that turn). (Kept for the tests that share it: inference leaves a game as it was.)"""
    return tuple(_twin_loads_sampled(seed, count))


def _twin_loads_sampled(seed: int, count: int):
    from companion.vision.expected import canoes_of
    from companion.vision.turn_gems import gain_counts, gains

    rng = random.Random(seed)
    for game, turn in sampled_turns(POOL, count, rng, at_most=60):
        # (Loads, not thefts: a pile's change vouches for loads only.)
        loaded = Counter((place, gem) for place, gem, _ in load_sources(turn))
        both = [c for c, n in loaded.items() if n == 2 and c[0] not in ("D", "F")
                and gain_counts(turn, canoes_of(game.state))[c] == 2]
        if not both:
            continue
        place, gem = both[0]
        legal = {g for t in game.legal_turns() for at, g in gains(t, canoes_of(game.state))
                 if at == place}
        others = [g for g in ("violet", "blue", "yellow", "red", "clear")
                  if g not in (gem, turn.player) and g not in legal]
        if others:
            yield game, turn, place, gem, others[0]


def test_R_GEM_3_twins_that_both_load_one_colour_carried_neither_gem_before():
    # Both canoes of the mover load a violet gem on one slot (the g113 world game):
    # neither carried it, so one read in another colour is a gem misread where the
    # turn loads one, never "a gem it carried" that cannot mean another move.
    tried = 0
    for game, turn, place, _, other in _twin_loads(11, 600):
        obs = observe_after(game, turn)
        mine = [c for c in canoes_on(obs, place) if c["player"] == turn.player]
        mine[0]["gem"] = other
        result = infer_turn(game, obs)
        fit = next(c for c in result.candidates if c.event == turn)
        (misread,) = [m for m in fit.mismatches if m.misread_colour]
        assert not misread.carried, format_turn(turn)
        assert result.status != "exact" or result.turn == turn, format_turn(turn)
        tried += 1
    assert tried >= 3


def _twins_one_pile_seen(read_both: bool):
    """(game, turn, picture, the deposit) for sampled turns whose twins load one
    colour from the one deposit that changes, one twin (or both) read in a colour no
    legal turn puts there, the pile seen change and lose a gem of theirs."""
    for game, turn, place, gem, other in _twin_loads(11, 600):
        trial_state = state_after(game, turn)
        piles = sorted(changed_piles(game.state.deposits, trial_state.deposits))
        if len(piles) != 1:
            continue
        obs = observe_after(game, turn)
        mine = [c for c in canoes_on(obs, place) if c["player"] == turn.player]
        for canoe in mine if read_both else mine[:1]:
            canoe["gem"] = other
        obs |= {"deposits_changed": piles, "deposits_taken": {piles[0]: gem}}
        yield game, turn, obs, piles


def _misreads(game: Game, turn, obs: dict) -> list:
    fit = next(c for c in infer_turn(game, obs).candidates if c.event == turn)
    return [m for m in fit.mismatches if m.misread_colour]


def test_R_GEM_3_one_pile_change_vouches_for_one_of_two_loads_of_its_colour():
    # The deposit was seen lose a gem of the twins' colour, and one twin shows it: the
    # pile's change is that gem's, not the other's too. Only a pile seen lose two
    # (``deposits_taken_two``) vouches for the twin read in another colour.
    tried = 0
    for game, turn, obs, piles in _twins_one_pile_seen(read_both=False):
        (misread,) = _misreads(game, turn, obs)
        assert not misread.vouched and misread.pile_changed, format_turn(turn)
        (misread,) = _misreads(game, turn, obs | {"deposits_taken_two": piles})
        assert misread.vouched, format_turn(turn)
        tried += 1
    assert tried >= 3


def test_R_GEM_3_a_pile_change_vouches_for_as_many_loads_as_it_was_seen_lose():
    # Neither twin shows its gem (both read in another colour) and the deposit was seen
    # lose one gem of theirs: the change vouches for one of them, not both; seen lose
    # two (``deposits_taken_two``), for both.
    tried = 0
    for game, turn, obs, piles in _twins_one_pile_seen(read_both=True):
        for two, vouched in (([], 1), (piles, 2)):
            misread = _misreads(game, turn, obs | {"deposits_taken_two": two})
            assert len(misread) == 2, format_turn(turn)
            assert sum(m.vouched for m in misread) == vouched, format_turn(turn)
            assert all(m.pile_changed for m in misread), format_turn(turn)
        tried += 1
    assert tried >= 3


def _put_at(game: Game, place: str) -> set[str]:
    """The gems some legal turn of the player to move brings into a canoe on `place`."""
    from companion.vision.expected import canoes_of
    from companion.vision.turn_gems import gains

    before = canoes_of(game.state)
    return {g for t in game.legal_turns() for at, g in gains(t, before) if at == place}


def test_R_GEM_3_a_pile_change_a_shown_gem_accounts_for_vouches_for_no_second_one():
    # The tuned g113: red loaded violet on 3 and blue at 6R before going to 3. The
    # camera read the two violet and clear, saw the violet pile change and missed the
    # blue take. The violet shown accounts for the violet pile's change; the turn
    # loading two violets there (a clear one misread) is not played for it: the players
    # are asked, the truth among the choices.
    from companion.vision.expected import canoes_of
    from companion.vision.turn_gems import gain_counts

    tried = pairs = 0
    for game, turn in sampled_turns(POOL, 900, random.Random(13), at_most=60):
        loads = load_sources(turn)
        if len(loads) != 2 or loads[0][0] != loads[1][0] or loads[0][2] == loads[1][2] \
                or loads[0][0] in ("D", "F"):
            continue
        (place, shown, pile), (_, missed, hid) = loads
        put = _put_at(game, place)
        read = next((g for g in GEMS if g not in put), None)
        if read is None:
            continue
        trial_state = state_after(game, turn)
        # (The pile not seen change only gave the gem: nothing was put on it.)
        if not one_taken(game.state.deposits[hid], trial_state.deposits[hid]):
            continue
        obs = observe_after(game, turn)
        mine = [c for c in canoes_on(obs, place)
                if c["player"] == turn.player and c["gem"] == missed]
        mine[0]["gem"] = read
        obs |= {"deposits_changed": sorted(changed_piles(game.state.deposits,
                                                         trial_state.deposits) - {hid}),
                "deposits_taken": {pile: shown}, "deposits_taken_two": []}
        result = infer_turn(game, obs)
        assert turn in offered(result), (format_turn(turn), result.summary)
        tried += 1
        # (Some legal turn loads two of the shown colour there: the one g113 played.)
        pairs += any(gain_counts(t, canoes_of(game.state))[(place, shown)] == 2
                     for t in game.legal_turns())
    assert tried >= 10 and pairs >= 3, (tried, pairs)


@functools.cache
def _one_pile_loads() -> tuple:
    """(game, turn, place, gem, deposit, the gems some legal turn brings there) for
    sampled turns whose two canoes load a gem of one colour from one deposit, on
    slots; the second load's place."""
    out = []
    for game, turn in sampled_turns(POOL, 700, random.Random(17), at_most=60):
        loads = load_sources(turn)
        if len(loads) == 2 and loads[0][1:] == loads[1][1:] \
                and not {loads[0][0], loads[1][0]} & {"D", "F"}:
            out.append((game, turn, *loads[1], _put_at(game, loads[1][0])))
    return tuple(out)


def _one_pile_pairs(pick):
    """(turn, the colour read, the inference) for ``_one_pile_loads``: one gem read in
    the colour `pick(gems some legal turn brings there, the gem, the player)` gives
    (None: the turn is left out), the piles seen change as they do, the take of that
    colour seen, not that the pile lost two."""
    for game, turn, place, gem, pile, put in _one_pile_loads():
        read = pick(put, gem, turn.player)
        if read is None:
            continue
        obs = observe_after(game, turn)
        mine = [c for c in canoes_on(obs, place)
                if c["player"] == turn.player and c["gem"] == gem]
        mine[0]["gem"] = read
        trial_state = state_after(game, turn)
        obs |= {"deposits_changed": sorted(changed_piles(game.state.deposits,
                                                         trial_state.deposits)),
                "deposits_taken": {pile: gem}, "deposits_taken_two": []}
        yield turn, read, infer_turn(game, obs)


def test_R_GEM_3_two_loads_from_one_pile_one_read_as_a_gem_another_turn_brings_is_asked():
    # The gem is read in the colour of one some other legal turn brings there. That
    # turn fits the picture perfectly; the pile's change may be two gems of the one
    # colour all the same: the players are asked, the truth among the choices.
    tried = 0
    for turn, read, result in _one_pile_pairs(
            lambda put, gem, player: min(put - {gem, player}, default=None)):
        assert turn in offered(result), (format_turn(turn), read, result.summary)
        tried += 1
    assert tried >= 10, tried


def test_R_GEM_3_two_loads_from_one_pile_one_misread_are_played_when_nothing_comes_near():
    # The gem is read in a colour no legal turn brings there: a misread, or a gem
    # taken where that colour does not lie. Where no other turn comes near the picture,
    # the pile's change stands for both loads: the turn is played (as one load's is,
    # ``Mismatch.vouched``), never another.
    played = 0
    for turn, read, result in _one_pile_pairs(
            lambda put, gem, player: next((g for g in GEMS if g not in put | {player}),
                                          None)):
        assert turn in offered(result), (format_turn(turn), read, result.summary)
        played += result.status == "exact"
    assert played >= 5, played


def _thefts(seed: int, count: int):
    """(position, a legal theft, the place it ends, the victim, the loot) for `count`
    random positions in phase II."""
    from companion.vision.expected import canoes_of

    rng = random.Random(seed)
    for game, turn in sampled_turns(POOL, count, rng, at_most=60):
        for action in turn.canoes:
            if action.steal and action.destination not in ("D", "F"):
                victim, _, loot = action.steal.partition(":")
                loot = loot or next(g for at, g in canoes_of(game.state)[victim]
                                    if at == action.destination and g)
                yield game, turn, action.destination, victim, loot
                break


@pytest.mark.parametrize("victim_seen", ["as it lies", "hidden", "empty", "as its hull"])
@pytest.mark.parametrize("loot_read", ["unseen", "in another colour"])
def test_R_STEAL_a_theft_whose_loot_is_misread_is_never_flagged_nor_another_move_played(
        victim_seen, loot_read):
    # The loot not seen in the thief's canoe, or read in a colour no legal turn puts
    # there, the victim's canoe seen in every way a picture may show it: the theft is
    # played or asked about, never flagged; no other move is played.
    from companion.vision.expected import canoes_of
    from companion.vision.turn_gems import gains

    tried = 0
    for game, turn, place, victim, loot in _thefts(5, 120):
        obs = observe_after(game, turn)
        mine = [c for c in canoes_on(obs, place) if c["player"] == turn.player
                and c["gem"] == loot]
        if loot_read == "unseen":
            mine[0]["gem"] = None
        else:
            legal = {g for t in game.legal_turns() for at, g in gains(t, canoes_of(game.state))
                     if at == place}
            others = [g for g in ("violet", "blue", "yellow", "red", "clear") if g not in legal]
            if not others:
                continue
            mine[0]["gem"] = others[0]
        robbed = [c for c in canoes_on(obs, place) if c["player"] == victim]
        for canoe in robbed:
            if victim_seen == "hidden":
                canoes_on(obs, place).remove(canoe)
            elif victim_seen != "as it lies":
                # (A hull of a colour no gem has reads empty.)
                canoe["gem"] = victim if victim_seen == "as its hull" and victim in GEMS else None
        result = infer_turn(game, obs)
        assert result.status != "none" and turn in offered(result), format_turn(turn)
        tried += 1
    assert tried >= 10, tried


def test_R_STEAL_1_a_robbed_canoe_read_as_its_hull_does_not_vouch_for_loot_of_its_colour():
    # A gem of the victim's own colour looks in its canoe as the empty hull does: the
    # victim's canoe read so says nothing of whether the gem left, and the thief's canoe
    # read in another colour may hold none. Asked, never taken.
    from companion.vision.expected import canoes_of
    from companion.vision.turn_gems import gains

    tried = 0
    for game, turn, place, victim, loot in _thefts(7, 250):
        if loot != victim:
            continue
        obs = observe_after(game, turn)
        legal = {g for t in game.legal_turns() for at, g in gains(t, canoes_of(game.state))
                 if at == place}
        others = [g for g in ("violet", "blue", "yellow", "red", "clear") if g not in legal]
        if not others:
            continue
        for canoe in canoes_on(obs, place):
            if canoe["player"] == victim:
                canoe["gem"] = victim
        for canoe in canoes_on(obs, place):
            if canoe["player"] == turn.player and canoe["gem"] == loot:
                canoe["gem"] = others[0]
                break
        obs["gems_swapped"] = 0.0
        result = infer_turn(game, obs)
        assert result.status == "ambiguous" and turn in offered(result), format_turn(turn)
        tried += 1
        if tried == 5:
            break
    assert tried == 5


def test_R_STEAL_a_stolen_gem_is_no_gem_the_thiefs_canoe_carried():
    # Green's canoe seen empty after "6L-5xblue": the loot came into it in this very
    # move (``Candidate.gains``), so not seeing it is a gem not seen, not one that rode
    # with its canoe from the picture before (``Mismatch.carried``).
    game, turn, obs = green_robs_blue()
    for canoe in obs["slots"][turn.canoes[0].destination]["canoes"]:
        if canoe["player"] == "green":
            canoe["gem"] = None
    result = infer_turn(game, obs)
    theft = next(c for c in result.candidates if c.event == turn)
    (loot,) = [m for m in theft.mismatches if m.player == "green"]
    assert loot.unseen_gem and not loot.carried
    assert result.status == "ambiguous" and turn in result.turns


def test_R_GEM_3_a_loaded_gem_misread_with_a_canoe_hidden_is_asked_about_never_flagged():
    # Blue's D-4+clear, the clear gem read violet, and blue's other canoe not seen on
    # the dock: the hidden canoe takes the fit beyond TOLERANCE, but what the picture
    # shows against the turn is only the misread. Asked, as the misread alone is.
    game = worked_example()
    turn = parse_turn("D-4+clear", "blue")
    obs = observe_after(game, turn)
    canoes_on(obs, "4")[0]["gem"] = "violet"
    obs["dock"] = [c for c in obs["dock"] if c["player"] != "blue"]
    result = infer_turn(game, obs)
    assert result.candidates[0].score > TOLERANCE
    assert result.status == "ambiguous" and offered(result) == [turn]


def test_R_STEAL_a_robbed_canoe_seen_with_a_gem_of_another_colour_is_asked_about():
    # The victim's canoe read with a violet gem is blue's clear gem misread, or its
    # emptied hull misread: it says nothing of whether the theft happened (nor does the
    # loot, unread). Never "no theft" taken.
    game, turn, obs = green_robs_blue()
    place = turn.canoes[0].destination
    for canoe in obs["slots"][place]["canoes"]:
        if canoe["player"] == "blue":
            canoe["gem"] = "violet"
    assert {c["player"]: c["gem"] for c in obs["slots"][place]["canoes"]} == \
        {"green": "unknown", "blue": "violet"}
    result = infer_turn(game, obs)
    assert result.status == "ambiguous"
    assert turn in result.turns
    assert parse_turn("6L-5", "green") in result.turns


def test_R_STEAL_the_stolen_gem_read_in_both_canoes_of_the_disc_is_asked_about_not_flagged():
    # Green robs blue of the clear gem on 5; the picture reads clear in both canoes of
    # the disc, the thief's and the victim's. One gem is there (no move puts a second):
    # one reading is the camera's, and which the picture tells no better than which
    # canoe of a shared disc holds a gem. Theft or none, the players are asked: nothing
    # is flagged.
    game, turn, obs = green_robs_blue()
    place = turn.canoes[0].destination
    for canoe in obs["slots"][place]["canoes"]:
        canoe["gem"] = "clear"
    result = infer_turn(game, obs)
    assert result.status == "ambiguous"
    assert turn in result.turns and parse_turn("6L-5", "green") in result.turns


def test_R_STEAL_a_gem_read_twice_never_makes_a_theft_that_did_not_happen():
    # A canoe ends empty beside one that carries a gem of its own hull's colour (a
    # yellow gem in a yellow canoe, which the camera tells from the empty hull least
    # well), and the picture reads that gem in the newcomer too. A theft of it fits that
    # picture perfectly, the move made only with a reading too many: the players are
    # asked, the theft is never applied.
    # (The piles as the picture before tells them: else a doubled reading may show a
    # load of that gem just as well.)
    from companion.vision.fit_changes import changed_piles

    rng = random.Random(41)
    tried = 0
    for game, turn in sampled_turns(POOL, 200, rng):
        obs = observe_after(game, turn)
        before = {n: dict(p) for n, p in game.state.deposits.items()}
        game.apply(turn)
        obs["deposits_changed"] = sorted(changed_piles(before, game.state.deposits))
        game.undo()
        for place in {a.destination for a in turn.canoes} - {"D", "F"}:
            on = canoes_on(obs, place)
            mine = [c for c in on if c["player"] == turn.player and c["gem"] is None]
            own = [c for c in on if c["player"] != turn.player and c["gem"] == c["player"]]
            if mine and own:
                mine[0]["gem"] = own[0]["gem"]
                result = infer_turn(game, obs)
                assert result.status != "exact" or result.turn == turn
                tried += 1
                break
    assert tried >= 5


# -- noisy pictures --------------------------------------------------------------------

def test_unknown_gems_never_lose_the_true_turn():
    rng = random.Random(13)
    for game, turn in sampled_turns(6, 15, rng, at_most=12):
        obs = observe_after(game, turn)
        for canoe in all_canoes(obs):
            if rng.random() < 0.5:
                canoe["gem"] = "unknown"
        result = infer_turn(game, obs)
        assert result.status in ("exact", "ambiguous")
        assert turn in result.turns


def test_a_missing_canoe_is_asked_about_with_the_true_turn_among_the_choices():
    # A canoe cannot leave the game: one not seen is hidden (among others on a disc,
    # under a hand's shadow), so the players are asked, never told the move was illegal.
    rng = random.Random(17)
    tried = 0
    for game in positions_in_phase_two(seed=8, count=15):
        player = game.to_move
        for turn in sample_turns(game, rng, at_most=8):
            obs = observe_after(game, turn)
            places = [(s, c) for s, e in obs["slots"].items() for c in e["canoes"]
                      if c["player"] == player]
            if not places:
                continue
            slot, canoe = rng.choice(places)
            obs["slots"][slot]["canoes"].remove(canoe)
            result = infer_turn(game, obs)
            assert result.status in ("exact", "ambiguous")
            assert turn in result.turns
            if result.status == "exact":
                assert result.turn == turn
            assert any("not seen" in p for d in result.diff for p in d["problems"])
            tried += 1
    assert tried > 30


def test_a_misread_bystander_does_not_change_the_answer_but_is_reported():
    game, turn, obs = yellow_loads_violet()
    obs["slots"]["4"]["canoes"][0]["gem"] = "red"  # blue's clear read as red
    result = infer_turn(game, obs)
    assert result.status == "exact" and result.turn == turn
    assert [m.kind for m in result.unexplained] == ["cargo"]
    assert "blue's canoe on 4 should carry clear, seen with red" in \
        result.unexplained[0].message


def test_a_colour_not_in_the_game_and_a_missing_disc_are_reported_apart():
    game5 = Game(["blue", "green", "yellow"])
    game5.apply({"event": "cards", "cards": {"blue": 6, "green": 1, "yellow": 1}})
    obs = observe_after(game5, parse_turn("D-4+clear", "blue"))
    obs["slots"]["2"]["canoes"].append({"player": "brown", "gem": None})
    obs["slots"]["7R"]["disc"] = False
    result = infer_turn(game5, obs)
    assert result.status == "exact"
    messages = [m.message for m in result.unexplained]
    assert messages == ["brown canoe seen on 2, but brown is not playing",
                        "no disc seen in slot 7R"]


# -- pictures no legal turn explains ---------------------------------------------------

def test_a_canoe_pushed_too_far_gives_none_and_a_slot_by_slot_fix():
    game = worked_example()
    game.push_san("D-4+clear")
    game.push_san("cloud up")
    obs = observe_after(game, parse_turn("D-3+violet", "yellow"))
    obs = move(obs, "yellow", "3", "5")  # yellow paddled on to 5 with the violet
    result = infer_turn(game, obs)
    assert result.status == "none"
    # Closest: the right place with the wrong cargo, then the right cargo misplaced.
    assert [c.text for c in result.candidates] == ["D-5", "D-3+violet"]
    assert result.diff == [
        {"place": "5", "expected": [{"player": "yellow", "gem": None}],
         "seen": [{"player": "yellow", "gem": "violet"}],
         "problems": ["yellow's canoe on 5 should be empty, seen with violet"]},
    ]
    assert list(result.candidates[1].diff) == [
        {"place": "3", "expected": [{"player": "yellow", "gem": "violet"}], "seen": [],
         "problems": ["yellow's canoe with violet should be on 3, seen on 5"]},
        {"place": "5", "expected": [], "seen": [{"player": "yellow", "gem": "violet"}],
         "problems": ["yellow's canoe with violet should be on 3, seen on 5"]},
    ]


def test_R_GEM_3_a_gem_no_pile_was_seen_to_lose_is_asked_about_not_flagged():
    # Yellow paddled on to 5 with a violet gem no legal move puts there. Compared with
    # the picture before, the violet pile seen to lose a gem shows a load no rule
    # allows; no pile and no canoe seen to lose one shows no load at all: an empty
    # hull read as violet is likelier, and the players are asked.
    game = worked_example()
    game.push_san("D-4+clear")
    game.push_san("cloud up")
    obs = move(observe_after(game, parse_turn("D-3+violet", "yellow")), "yellow", "3", "5")
    loaded = infer_turn(game, obs | {"deposits_changed": ["violet"]})
    assert loaded.status == "none"
    asked = infer_turn(game, obs | {"deposits_changed": []})
    assert asked.status == "ambiguous"
    assert format_turn(asked.best[0].event) == "D-5"
    assert [m.kind for m in asked.best[0].mismatches] == ["cargo"]


def test_R_STEAL_1_a_gem_a_legal_move_or_a_victim_may_account_for_is_not_unsourced():
    # Yellow's canoe on 3 seen with violet where an event leaves it empty, in a picture
    # that saw no pile change. With nowhere for the gem to come from, it is unsourced;
    # the mover's own gems, a victim's and any legal event's account for it.
    _, _, obs = yellow_loads_violet()
    unchanged = read_observation(obs | {"deposits_changed": []})
    seen_violet = [Mismatch("cargo", "yellow", ("3", None), ("3", "violet"), 1.0)]
    empty = {"yellow": [("D", None), ("D", None)], "red": [("D", None), ("D", None)]}
    assert unsourced(seen_violet, unchanged, "yellow", empty)[0].unsourced
    # The mover carried violet before (a turn that unloads it): it may still be aboard.
    had = empty | {"yellow": [("3", "violet"), ("D", None)]}
    assert not unsourced(seen_violet, unchanged, "yellow", had)[0].unsourced
    # Red's violet canoe on 3 is not seen as it lay: a victim no legal turn robs.
    robbed = empty | {"red": [("3", "violet"), ("D", None)]}
    assert not unsourced(seen_violet, unchanged, "yellow", robbed)[0].unsourced
    # A legal event puts violet there: another event's disagreement, not a gem from
    # nowhere.
    assert not unsourced(seen_violet, unchanged, "yellow", empty, {("3", "violet")})[0].unsourced
    # A picture not compared with the one before says nothing of the piles.
    alone = read_observation(obs)
    assert not unsourced(seen_violet, alone, "yellow", empty)[0].unsourced


def _green_paddles_down_to_blues_violet() -> tuple[Game, object, dict]:
    """Green's "2-4" ends downstream on 4 beside blue's canoe with violet, where no
    legal turn of green's robs blue (R-STEAL-3); the picture after it, compared with the
    one before (no pile changed), reads the violet gem in green's canoe, not blue's."""
    game = round_two({"blue": 5, "green": 1, "yellow": 2}, ("D-3+violet", "D-1", "D-2"),
                     {"blue": 4, "green": 2, "yellow": 5})
    turn = parse_turn("2-4", "green")
    obs = observe_after(game, turn) | {"deposits_changed": []}
    for canoe in canoes_on(obs, "4"):
        canoe["gem"] = "violet" if canoe["player"] == "green" else None
    return game, turn, obs


def test_R_STEAL_3_a_bystanders_gem_read_in_the_movers_canoe_beside_it_is_asked_about():
    # Which of two touching canoes holds a gem is what a picture tells least well. Blue's
    # violet read in green's canoe beside it is asked about, as it is when a legal turn
    # robs blue (``slips._swapped``): not flagged as a theft no rule allows.
    game, turn, obs = _green_paddles_down_to_blues_violet()
    result = infer_turn(game, obs)
    assert (result.status, offered(result)) == ("ambiguous", [turn])
    assert [m.beside for m in result.best[0].mismatches] == [True]


def test_R_STEAL_3_a_theft_after_paddling_downstream_is_flagged_where_swaps_are_rare():
    # At a table whose camera has read which canoe of a shared disc holds its gem right
    # (``SWAPS_RARE``), the picture is taken at its word: green took blue's violet
    # after moving downstream, which no rule allows.
    game, turn, obs = _green_paddles_down_to_blues_violet()
    result = infer_turn(game, obs | {"gems_swapped": 0.0})
    assert result.status == "none"
    assert result.summary == "no legal move fits; closest 2-4: green's canoe on 4 should " \
                             "be empty, seen with violet"


def test_R_STEAL_3_a_gem_beside_is_flagged_where_its_pile_was_seen_to_change():
    # A violet pile seen to lose a gem says the violet in green's canoe was loaded (no
    # rule gives green one here), whatever blue's canoe beside it shows.
    game, turn, obs = _green_paddles_down_to_blues_violet()
    result = infer_turn(game, obs | {"deposits_changed": ["violet"]})
    assert result.status == "none"


def test_a_gem_beside_is_one_a_bystanders_canoe_on_that_slot_lost():
    # Each loss accounts for one gem, of its colour, on its slot, in the mover's canoe.
    _, _, obs = _green_paddles_down_to_blues_violet()
    seen = read_observation(obs)
    seen_violet = Mismatch("cargo", "green", ("4", None), ("4", "violet"), 1.0)
    lost = Mismatch("cargo", "blue", ("4", "violet"), ("4", None), 1.0, carried=True)
    assert beside([seen_violet], seen, "green", [lost])[0].beside
    assert [m.beside for m in beside([seen_violet, seen_violet], seen, "green", [lost])] \
        == [True, False]
    assert not beside([seen_violet], seen, "yellow", [lost])[0].beside
    elsewhere = replace(lost, expected=("5", "violet"), seen=("5", None))
    assert not beside([seen_violet], seen, "green", [elsewhere])[0].beside
    blue = replace(lost, expected=("4", "blue"))
    assert not beside([seen_violet], seen, "green", [blue])[0].beside
    # (A canoe seen with its gem lost nothing.)
    kept = replace(lost, seen=("4", "violet"))
    assert not beside([seen_violet], seen, "green", [kept])[0].beside
    # Not where the picture says more: a violet pile changed, or a violet seen taken,
    # where the event leaves them as they were; or blue's canoe looking far other than
    # before (its gem gone).
    for pile in (Mismatch("deposit", None, None, "violet"),
                 Mismatch("deposit", None, None, "yellow", gem="violet")):
        assert not beside([seen_violet, pile], seen, "green", [lost])[0].beside
    red = Mismatch("deposit", None, None, "red")
    assert beside([seen_violet, red], seen, "green", [lost])[0].beside
    changed = read_observation(obs | {"cargo_changed": {"blue": ["4"]}})
    assert not beside([seen_violet], changed, "green", [lost])[0].beside


def test_an_illegal_load_asks_with_the_turn_with_the_right_place_first():
    game = worked_example()
    obs = observe_after(game, parse_turn("D-4+clear", "blue"))
    obs["slots"]["4"]["canoes"][0]["gem"] = "violet"  # no violet lies at 4
    result = infer_turn(game, obs)
    # A gem of a neighbouring colour may be a misread: the players are asked.
    assert result.status == "ambiguous"
    assert format_turn(result.best[0].event) == "D-4+clear"
    assert result.best[0].mismatches[0].kind == "cargo"
    assert result.diff[0]["problems"] == ["blue's canoe on 4 should carry clear, seen with violet"]


def test_moving_another_players_canoe_gives_none_and_names_both():
    game = worked_example()
    obs = move(expected_observation(game), "green", "D", "4")  # blue moved green's canoe
    result = infer_turn(game, obs)
    assert result.status == "none"
    assert [m.kind for m in result.unexplained] == ["moved"]
    assert "green's empty canoe should be on the dock, seen on 4" in \
        result.unexplained[0].message


def test_wrong_cargo_costs_less_than_wrong_place_and_less_than_lost_and_found():
    weights = FitWeights()
    cargo, _ = match_canoes("blue", [("4", "clear")], [("4", "violet")], weights)
    place, _ = match_canoes("blue", [("4", "clear")], [("5", "clear")], weights)
    far, _ = match_canoes("blue", [("4", "clear")], [("7L", "clear")], weights)
    assert 0 < cargo < place < far < weights.missing + weights.extra


def test_unknown_cargo_matches_any_cargo_and_an_empty_canoe():
    for gem in ("clear", None):
        cost, found = match_canoes("blue", [("4", gem)], [("4", "unknown")])
        assert cost == 0 and found == []


def test_result_is_plain_json():
    game = worked_example()
    obs = move(observe_after(game, parse_turn("D-4+clear", "blue")), "blue", "4", "5")
    data = infer_turn(game, obs).to_json()
    assert json.loads(json.dumps(data)) == data
    assert data["status"] == "none" and data["player"] == "blue" and data["card"] == 6
    assert data["best"][0]["event"] == {"event": "turn", "player": "blue",
                                        "canoes": [{"from": "D", "to": "4",
                                                    "post": ["load:clear"]}]}


# -- bad input -------------------------------------------------------------------------

@pytest.mark.parametrize("obs, message", [
    ([], "expected a JSON object"),
    ({"stable": True}, "missing 'slots'"),
    ({"slots": {"9": {}}}, "unknown slot '9'"),
    ({"slots": {"1": {"canoes": []}}}, "slot 2 is missing"),
])
def test_malformed_observation_is_refused_with_one_line(obs, message):
    with pytest.raises(ObservationError, match=message) as err:
        infer_turn(worked_example(), obs)
    assert "\n" not in str(err.value)


def test_unknown_colour_and_gem_are_named():
    game = worked_example()
    obs = expected_observation(game)
    obs["slots"]["3"]["canoes"].append({"player": "pink", "gem": None})
    with pytest.raises(ObservationError, match="unknown player colour 'pink'"):
        infer_turn(game, obs)
    obs["slots"]["3"]["canoes"] = [{"player": "blue", "gem": "emerald"}]
    with pytest.raises(ObservationError, match="unknown gem 'emerald'"):
        infer_turn(game, obs)


def test_unstable_observation_is_refused():
    game = worked_example()
    obs = expected_observation(game) | {"stable": False}
    with pytest.raises(ObservationError, match="not stable"):
        infer_turn(game, obs)


def test_an_observation_with_part_of_the_board_out_of_view_is_refused_saying_so():
    game = worked_example()
    obs = expected_observation(game) | {"stable": False, "out_of_view": ["7R", "F"]}
    with pytest.raises(ObservationError, match=r"out of the picture \(7R, F\)"):
        infer_turn(game, obs)


def test_weather_off_the_track_is_refused():
    game = worked_example()
    with pytest.raises(ObservationError, match="weather 3 is not on the track"):
        infer_turn(game, expected_observation(game) | {"weather": 3})


def test_no_turn_to_infer_outside_phase_two():
    game = Game(["blue", "green", "yellow"])
    with pytest.raises(InferenceError, match="phase 'cards'"):
        infer_turn(game, expected_observation(game))


def test_a_card_other_than_the_players_is_refused():
    game = worked_example()
    with pytest.raises(InferenceError, match="blue's card this round is 6, not 3"):
        infer_turn(game, expected_observation(game), card=3)


# -- what people read ------------------------------------------------------------------

def test_summary_of_an_exact_turn_is_the_turn():
    game = worked_example()
    assert infer_turn(game, observe_after(game, parse_turn("D-4+clear", "blue"))).summary \
        == "D-4+clear"


def test_summary_of_an_ambiguous_turn_lists_what_to_ask():
    game = worked_example()
    game.push_san("D-4+clear")
    obs = observe_after(game, parse_turn("cloud up", "green")) | {"weather": None}
    assert infer_turn(game, obs).summary == \
        "2 fit the picture equally: cloud down | cloud up; ask the players"


def test_summary_of_an_unseen_canoe_says_so_and_counts_the_turns_left():
    game = worked_example()
    obs = observe_after(game, parse_turn("D-4+clear", "blue"))
    obs["slots"]["4"]["canoes"] = []
    summary = infer_turn(game, obs).summary
    assert summary.startswith("blue: a canoe is not seen; 3 legal moves fit the rest: ")
    assert "D-4+clear" in summary


def test_summary_of_a_wrong_move_names_the_closest_and_what_is_wrong():
    game = worked_example()
    obs = move(observe_after(game, parse_turn("D-4+clear", "blue")), "blue", "4", "3")
    assert str(infer_turn(game, obs)) == (
        "none: no legal move fits; closest D-4+clear: "
        "blue's canoe with clear should be on 4, seen on 3")


def test_infer_picks_the_question_of_the_phase():
    game = Game(["blue", "green", "yellow"])
    assert isinstance(infer(game, expected_observation(game)), BuybackInference)
    game.apply({"event": "cards", "cards": {"blue": 6, "green": 1, "yellow": 2}})
    assert infer(game, expected_observation(game)).player == "blue"
    for text in ("D-6L", "D-1", "D-2"):
        game.push_san(text)
    assert infer(game, expected_observation(game)).speed == 1


def test_infer_after_the_end_of_the_game_is_refused():
    game = Game(["blue", "green", "yellow"])
    game.state.phase = "over"
    with pytest.raises(InferenceError, match="the game is over"):
        infer(game, expected_observation(game))


def _turns_loading_gems(seed: int, count: int, rng: random.Random, at_most: int):
    """(game, turn, observation after it, the canoes seen carrying a gem it loaded) for
    sampled turns of the player to move that load a gem."""
    for game in positions_in_phase_two(seed=seed, count=count):
        player = game.to_move
        for turn in sample_turns(game, rng, at_most=at_most):
            loads = {op for a in turn.canoes for op in (*a.pre, *a.post) if op.startswith("load:")}
            if not loads:
                continue
            obs = observe_after(game, turn)
            loaded = [c for c in all_canoes(obs) if c["player"] == player and c["gem"]
                      and f"load:{c['gem']}" in loads]
            yield game, turn, obs, loaded


def test_a_loaded_gem_the_picture_missed_never_makes_another_turn_exact():
    # A gem hides more easily than one appears (a clear gem on a pale hull, one in
    # glare): when the gem a turn loads is not seen, a turn that fits only because it
    # loads nothing is not taken; the players are asked, with the true turn offered.
    tried = asked = 0
    for game, turn, obs, loaded in _turns_loading_gems(5, 40, random.Random(21), 12):
        for canoe in loaded:
            canoe["gem"] = None
        result = infer_turn(game, obs)
        tried += 1
        if result.status == "exact":
            assert result.turn == turn, format_turn(turn)
        elif result.status == "ambiguous":
            assert turn in result.turns, format_turn(turn)
            asked += 1
    assert tried > 20 and asked > 0


def test_a_gem_the_picture_missed_is_asked_about_never_flagged():
    # The referee must not stop the players for a gem the camera did not see: the true
    # turn, whose only disagreement is one gem not seen where it loads it, is asked
    # about (or read exactly, when nothing else fits), never found illegal.
    rng = random.Random(22)
    tried = 0
    for game, turn, obs, loaded in _turns_loading_gems(6, 30, rng, 10):
        if not loaded:
            continue  # loaded, then taken (stolen or unloaded) in the same turn
        rng.choice(loaded)["gem"] = None
        result = infer_turn(game, obs)
        tried += 1
        assert result.status != "none", format_turn(turn)
        assert turn in offered(result)
    assert tried > 20


def _turns_stealing(seed: int, count: int, rng: random.Random):
    """Positions and one of their legal turns that steals a gem."""
    for game in positions_in_phase_two(seed=seed, count=count):
        for turn in game.legal_turns():
            if any(action.steal for action in turn.canoes):
                yield game, turn
                break


def test_a_stolen_gem_the_picture_missed_never_makes_another_turn_exact():
    from companion.vision.turn_gems import gains, loads

    # R-STEAL: the thief's canoe ends with the victim's gem. A gem that a move puts in
    # a canoe may hide, whether loaded or stolen: the turn that steals nothing is not
    # taken when the loot is not seen; the players are asked, the true turn among them.
    tried = 0
    for game, turn in _turns_stealing(31, 200, random.Random(31)):
        obs = observe_after(game, turn)
        thief = game.to_move
        for place, loot in gains(turn, game.state.canoes) - loads(turn):
            canoe = next(c for c in obs["slots"][place]["canoes"]
                         if c["player"] == thief and c["gem"] == loot)
            canoe["gem"] = None
        result = infer_turn(game, obs)
        tried += 1
        if result.status == "exact":
            assert result.turn == turn, format_turn(turn)
        else:
            assert result.status == "ambiguous" and turn in result.turns, format_turn(turn)
    assert tried > 10


def test_a_carried_gem_seen_in_another_colour_does_not_stop_the_turn():
    # A gem a canoe carried before the move rides with it (R-GEM-6: canoes never pass
    # gems): seen in another colour after, the picture misread it. The move is read,
    # not asked about, and never taken for another.
    rng = random.Random(41)
    tried = exact = 0
    for game in positions_in_phase_two(seed=41, count=40):
        player = game.to_move
        carried = {at for at, gem in game.state.canoes[player] if gem}
        for turn in sample_turns(game, rng, at_most=10):
            if any(action.steal or action.pre or action.post for action in turn.canoes):
                continue  # only moves that keep every gem where it rides
            moving = {a.origin for a in turn.canoes} & carried
            if not moving:
                continue
            obs = observe_after(game, turn)
            to = {a.destination for a in turn.canoes if a.origin in moving}
            gems = [c for s in to if s in obs["slots"] for c in obs["slots"][s]["canoes"]
                    if c["player"] == player and c["gem"]]
            if not gems:
                continue
            canoe = gems[0]
            canoe["gem"] = "red" if canoe["gem"] != "red" else "blue"
            result = infer_turn(game, obs)
            tried += 1
            assert turn in offered(result)
            exact += result.status == "exact"
    assert tried > 20 and exact > tried // 2


def _piles_changed(game: Game, turn) -> list[str]:
    """The deposits whose pile `turn` changes: what the picture before and after shows."""
    before = {d: dict(p) for d, p in game.state.deposits.items()}
    game.apply(turn)
    try:
        return sorted(changed_piles(before, game.state.deposits))
    finally:
        game.undo()


def test_a_pile_that_changed_tells_an_unload_from_carrying_the_gem_ashore():
    # R-GEM-3 and R-LAND-2: "4u-D" puts the gem in the deposit, "4-D" takes it to the
    # camp; on the dock both canoes are empty. A pile seen to change tells them apart;
    # one not seen to change says little (a gem among its like may leave it alike).
    rng = random.Random(51)
    tried = told = 0
    for game, turn in sampled_turns(51, 60, rng, at_most=15):
        obs = observe_after(game, turn)
        obs["deposits_changed"] = _piles_changed(game, turn)
        result = infer_turn(game, obs)
        assert result.status in ("exact", "ambiguous")
        assert turn in result.turns
        if result.status == "exact":
            assert result.turn == turn
        elif obs["deposits_changed"]:
            # every choice changes at least the piles seen to change
            assert all(set(obs["deposits_changed"]) <= set(_piles_changed(game, t))
                       for t in result.turns)
        told += bool(obs["deposits_changed"]) and result.status == "exact"
        tried += 1
    assert tried > 300 and told > 20


def test_a_pile_the_picture_saw_unchanged_does_not_rule_out_a_load():
    # The real danger: a gem taken from a pile of its like, not seen to go. The turn
    # that loads it is asked about with the one that does not, never passed over.
    game, turn, obs = yellow_loads_violet()
    obs["deposits_changed"] = []
    obs["slots"]["3"]["canoes"][0]["gem"] = None
    result = infer_turn(game, obs)
    assert result.status == "ambiguous" and turn in result.turns


def test_R_GEM_3_a_load_of_a_colour_the_camera_often_misses_is_taken_when_nothing_else_fits():
    # Yellow's card allows no other event near "D-3+violet". The violet gem and its pile
    # were not seen; this table's camera showed violet gems in 3 canoes of 10: not
    # seeing one says nothing. Nothing seen contradicts the load: it is taken.
    game, turn, obs = yellow_loads_violet()
    obs["deposits_changed"] = []
    obs["slots"]["3"]["canoes"][0]["gem"] = None
    obs["gems_shown"] = {"violet": 0.3}
    result = infer_turn(game, obs)
    assert result.status == "exact" and result.turn == turn
    # Seen well (violet shown in 9 of 10), the empty canoe says the gem stayed: ask.
    obs["gems_shown"] = {"violet": 0.9}
    result = infer_turn(game, obs)
    assert result.status == "ambiguous" and turn in result.turns
    # Nor when the picture shows what the load does not explain: a pile changed.
    obs["gems_shown"] = {"violet": 0.3}
    obs["deposits_changed"] = ["red"]
    assert infer_turn(game, obs).status != "exact"


def test_R_SETUP_2_a_disc_not_seen_is_the_cameras_slip_not_another_event():
    # Every slot holds a disc at rest whatever the event (R-SETUP-2, R-RIVER-2): one not
    # seen lies under the canoes piled on it. It is reported, but it does not stop the
    # one event the rest of the picture settles on (the violet pile not seen to change,
    # the violet gem seen in the canoe).
    game, turn, obs = yellow_loads_violet()
    obs["deposits_changed"] = []
    assert infer_turn(game, obs).status == "exact"
    obs["slots"]["4"]["disc"] = False
    result = infer_turn(game, obs)
    assert result.status == "exact" and result.turn == turn
    assert [m.message for m in result.unexplained] == ["no disc seen in slot 4"]


def test_a_canoe_of_a_colour_no_one_plays_is_the_cameras_slip_not_another_event():
    # No event moves a canoe of a colour not in the game: one seen (a canoe's shadow on
    # pale water read as a blue hull) is reported, but it does not stop the one event
    # the rest of the picture settles on (the clear pile not seen to change, the clear
    # gem seen in the canoe).
    game = Game(["blue", "green", "yellow"])
    game.apply({"event": "cards", "cards": {"blue": 6, "green": 1, "yellow": 1}})
    turn = parse_turn("D-4+clear", "blue")
    obs = observe_after(game, turn)
    obs["deposits_changed"] = []
    assert infer_turn(game, obs).status == "exact"
    obs["slots"]["4"]["canoes"].append({"player": "brown", "gem": None})
    result = infer_turn(game, obs)
    assert result.status == "exact" and result.turn == turn
    assert [m.message for m in result.unexplained] == [
        "brown canoe seen on 4, but brown is not playing"]


def test_a_loaded_gem_the_canoe_hid_is_seen_leaving_its_deposit():
    game = worked_example()
    turn = parse_turn("D-4+clear", "blue")
    obs = observe_after(game, turn)
    obs["slots"]["4"]["canoes"][0]["gem"] = None       # a clear gem on a pale hull
    assert infer_turn(game, obs).status == "ambiguous"  # one picture cannot tell
    obs["deposits_changed"] = _piles_changed(game, turn)
    assert obs["deposits_changed"] == ["clear"]
    result = infer_turn(game, obs)
    assert result.status == "exact" and result.turn == turn


def test_a_pile_nudged_by_a_hand_is_asked_about_never_flagged():
    game = worked_example()
    turn = parse_turn("D-6L", "blue")
    obs = observe_after(game, turn)
    obs["deposits_changed"] = ["red"]                   # a hand brushed the red pile
    result = infer_turn(game, obs)
    assert result.status == "ambiguous" and turn in result.turns
    assert any("red deposit" in p for d in result.diff for p in d["problems"])


def test_deposits_changed_must_name_deposits():
    game = worked_example()
    obs = observe_after(game, parse_turn("D-6L", "blue"))
    obs["deposits_changed"] = ["gold"]
    with pytest.raises(ObservationError, match="deposits_changed"):
        infer_turn(game, obs)


def test_canoes_hidden_on_a_crowded_disc_are_asked_about_never_flagged():
    # Three or four canoes on one disc hide one another: what the picture does not show
    # contradicts no move. Past the tolerance the move is asked about, not flagged; only
    # a canoe or a gem seen where no legal move puts it is flagged (R-TURN-1).
    rng = random.Random(61)
    tried = asked = 0
    for game, turn in sampled_turns(61, 40, rng, at_most=6):
        obs = observe_after(game, turn)
        crowded = [s for s, e in obs["slots"].items() if len(e["canoes"]) >= 2]
        if not crowded:
            continue
        slot = rng.choice(crowded)
        del obs["slots"][slot]["canoes"][:2]
        result = infer_turn(game, obs)
        assert result.status != "none", format_turn(turn)
        assert turn in offered(result)
        tried += 1
        asked += result.status == "ambiguous"
    assert tried > 10 and asked > 5


def test_a_canoe_seen_where_no_legal_move_puts_it_is_still_flagged():
    game = worked_example()
    obs = observe_after(game, parse_turn("D-6L", "blue"))
    canoe = obs["slots"]["6L"]["canoes"].pop()
    obs["slots"]["7R"]["canoes"].append(canoe)
    del obs["dock"][:2]
    result = infer_turn(game, obs)
    assert result.status == "none"


def test_loot_read_in_the_victims_canoe_is_asked_about_never_passed_over():
    # R-STEAL: the thief ends on its victim's slot, the two canoes touching. The loot
    # read in the victim's canoe rather than the thief's is what a picture tells least
    # well: the turn without the theft is not taken; the players are asked.
    from companion.vision.turn_gems import gains, loads

    tried = 0
    for game, turn in _turns_stealing(71, 200, random.Random(71)):
        obs = observe_after(game, turn)
        thief = game.to_move
        for action in turn.canoes:
            if not action.steal:
                continue
            victim = action.steal.partition(":")[0]
            place = action.destination
            [(_, loot)] = [g for g in gains(turn, game.state.canoes) - loads(turn)
                           if g[0] == place]
            canoes = obs["slots"][place]["canoes"]
            mine = next(c for c in canoes if c["player"] == thief and c["gem"] == loot)
            theirs = next(c for c in canoes if c["player"] == victim and not c["gem"])
            mine["gem"], theirs["gem"] = None, loot
        result = infer_turn(game, obs)
        tried += 1
        assert result.status != "none", format_turn(turn)
        if result.status == "exact":
            assert result.turn == turn, format_turn(turn)
        else:
            assert turn in result.turns, format_turn(turn)
    assert tried > 10


def _piles_put(game: Game, turn) -> list[str]:
    """The deposits `turn` puts a gem on (its pile grows)."""
    before = {d: sum(p.values()) for d, p in game.state.deposits.items()}
    game.apply(turn)
    try:
        return sorted(d for d, p in game.state.deposits.items()
                      if sum(p.values()) > before.get(d, 0))
    finally:
        game.undo()


def test_a_gem_put_on_a_pile_shows_so_a_pile_seen_unchanged_rules_out_an_unload():
    # R-GEM-3: a gem is unloaded only into a deposit of another colour, on top of its
    # pile: not seen there, it was not put there. (A gem taken may leave a pile alike.)
    rng = random.Random(81)
    tried = 0
    for game, turn in sampled_turns(81, 60, rng, at_most=15):
        if _piles_changed(game, turn):
            continue
        obs = observe_after(game, turn)
        obs["deposits_changed"] = []
        result = infer_turn(game, obs)
        assert turn in offered(result)
        assert not any(_piles_put(game, t) for t in result.turns), format_turn(turn)
        tried += 1
    assert tried > 100


def test_a_turn_as_good_as_the_perfect_fit_but_for_a_carried_gems_colour_is_offered():
    # Two of the mover's canoes on one slot, one with violet, one with blue: which moved
    # is told only by the colour read at the end, and a carried gem's colour is what a
    # camera misreads. Asked, both offered.
    rng = random.Random(91)
    tried = 0
    for game, turn in sampled_turns(91, 80, rng, at_most=10):
        obs = observe_after(game, turn)
        result = infer_turn(game, obs)
        if result.status != "ambiguous" or result.candidates[0].score:
            continue
        assert turn in result.turns
        assert all(c in result.best for c in result.candidates[1:]
                   if c.score < MARGIN and slips(c.mismatches) == "hidden")
        tried += 1
    assert tried > 0



def _hide_bystanders(game: Game, turn, obs: dict, rng: random.Random, count: int) -> int:
    """Takes out of the picture up to `count` canoes of other players than the mover's
    that lie on the slots where the turn's canoes end (a crowded disc); returns how
    many it took."""
    ends = {a.destination for a in turn.canoes} & set(obs["slots"])
    hidden = 0
    for slot in sorted(ends):
        canoes = obs["slots"][slot]["canoes"]
        for canoe in [c for c in canoes if c["player"] != turn.player][:count - hidden]:
            canoes.remove(canoe)
            hidden += 1
    return hidden


def test_a_turn_only_unseen_canoes_disagree_with_is_taken_when_nothing_comes_near():
    # Two canoes nobody moved hidden where the turn ends (past TOLERANCE): nothing the picture
    # shows contradicts the turn. When no other turn comes near, a question with one
    # answer would only make the players press it: the turn is taken. When another
    # does, they are asked; the truth is always among what is played or asked.
    rng = random.Random(61)
    taken = asked = 0
    for game, turn in sampled_turns(POOL, 400, rng, at_most=10):
        obs = observe_after(game, turn)
        if _hide_bystanders(game, turn, obs, rng, 2) < 2:
            continue
        result = infer_turn(game, obs)
        assert result.status in ("exact", "ambiguous")
        assert turn in offered(result)
        if result.score > TOLERANCE:
            assert slips(result.candidates[0].mismatches) == "hidden"
            taken += result.status == "exact"
            asked += result.status == "ambiguous"
            if result.status == "ambiguous":
                assert len(result.turns) > 1
    assert taken >= 5 and asked >= 10


def test_R_GEM_3_an_unload_not_seen_past_tolerance_is_asked_when_nothing_comes_near():
    # Two canoes nobody moved hidden where the turn ends (past TOLERANCE), and the gem
    # the turn unloads not seen on its pile (laid on a heap like it, or in a shadow).
    # Among turns that fit as nearly, the pile tells; with none near, the unload is the
    # only legal way the gem left its canoe: nothing the picture shows contradicts the
    # turn, so it is asked about, never flagged.
    rng = random.Random(71)
    tried = 0
    for game, turn in sampled_turns(POOL, 400, rng, at_most=10):
        if not _piles_put(game, turn):
            continue
        obs = observe_after(game, turn)
        if _hide_bystanders(game, turn, obs, rng, 2) < 2:
            continue
        obs["deposits_changed"] = []
        result = infer_turn(game, obs)
        first = result.candidates[0]
        runner = next((c for c in result.candidates[1:] if c.order != first.order), None)
        if first.event != turn or result.score <= TOLERANCE or (
                runner is not None and runner.score < first.score + MARGIN):
            continue
        assert result.status == "ambiguous" and turn in offered(result), format_turn(turn)
        tried += 1
    assert tried > 0


def test_R_GEM_3_a_loaded_gem_misread_past_tolerance_by_canoes_hidden_is_never_flagged():
    # Two canoes nobody moved hidden where the turn ends, and a gem the turn loads read
    # in another colour: nothing the picture shows against the turn is more than a
    # misread. Played or asked about with the truth among the choices, never flagged.
    from companion.vision.turn_gems import loads

    rng = random.Random(83)
    tried = 0
    for game, turn in sampled_turns(POOL, 300, rng, at_most=10):
        # (A gem loaded and landed goes to camp, R-LAND-2: no canoe shows it.)
        loaded = sorted((at, g) for at, g in loads(turn) if at not in ("D", "F"))
        if not loaded:
            continue
        obs = observe_after(game, turn)
        if _hide_bystanders(game, turn, obs, rng, 2) < 2:
            continue
        place, gem = loaded[0]
        # (A colour no legal turn loads there: else the picture shows that turn.)
        legal = {g for c in infer_turn(game, obs).candidates for at, g in loads(c.event)
                 if at == place}
        misread = [g for g in ("violet", "blue", "yellow", "red", "clear") if g not in legal]
        if not misread:
            continue
        mine = [c for c in canoes_on(obs, place) if c["player"] == turn.player
                and c["gem"] == gem]
        mine[0]["gem"] = misread[0]
        result = infer_turn(game, obs)
        assert result.status != "none" and turn in offered(result), format_turn(turn)
        tried += result.score > TOLERANCE
    assert tried >= 5


def test_a_gem_of_another_colour_is_asked_about_even_when_one_turn_explains_it():
    # Only D-4+clear comes near, but a violet gem seen where none lies may be a misread
    # or a gem taken where the rules allow none: the players say which.
    game = worked_example()
    obs = observe_after(game, parse_turn("D-4+clear", "blue"))
    obs["slots"]["4"]["canoes"][0]["gem"] = "violet"
    result = infer_turn(game, obs)
    assert result.status == "ambiguous" and len(result.turns) == 1


def test_r_setup_3_a_canoe_seen_beyond_the_two_a_player_has_is_the_cameras():
    # A third blue canoe on 1 (its print or a shadow read as a hull) cannot be a move,
    # legal or not: blue's D-4+clear is read as it is.
    game = worked_example()
    turn = parse_turn("D-4+clear", "blue")
    obs = observe_after(game, turn)
    obs["slots"]["1"]["canoes"].append({"player": "blue", "gem": None})
    result = infer_turn(game, obs)
    assert result.status == "exact" and result.turn == turn
    assert [(m.kind, m.phantom, m.stayed) for m in result.candidates[0].mismatches] == [
        ("extra", True, False)]
    assert "one more than blue's two" in result.candidates[0].mismatches[0].message


def test_r_setup_3_a_third_canoe_where_the_move_began_may_be_the_one_that_stayed():
    # Still two blue canoes on the dock and one on 4: either the dock or 4 is misread.
    # Asked, not taken (it may be that nobody moved), and not flagged either.
    game = worked_example()
    turn = parse_turn("D-4+clear", "blue")
    obs = observe_after(game, turn)
    obs["dock"].append({"player": "blue", "gem": None})
    result = infer_turn(game, obs)
    assert result.status == "ambiguous" and turn in result.turns


def test_r_setup_3_a_third_canoe_where_the_move_began_is_the_print_when_both_ends_changed():
    # The same picture, but the camera saw the dock and 4 change since the picture
    # before: a canoe left the dock and one came to 4. The third hull on the dock is
    # the print the canoe hid: the move is taken.
    game = worked_example()
    turn = parse_turn("D-4+clear", "blue")
    obs = observe_after(game, turn)
    obs["dock"].append({"player": "blue", "gem": None})
    obs["places_changed"] = ["4", "D"]
    result = infer_turn(game, obs)
    assert result.status == "exact" and result.turn == turn


def test_r_setup_3_a_third_canoe_seen_before_anyone_moved_is_no_move():
    # Nobody has moved; a blue thing on 6L read as a canoe. D-6L explains it only with
    # a blue canoe still on the dock that it takes away: never played.
    game = worked_example()
    obs = expected_observation(game)
    obs["slots"]["6L"]["canoes"].append({"player": "blue", "gem": None})
    result = infer_turn(game, obs)
    assert result.turn is None


def test_a_canoe_seen_where_none_lies_is_never_flagged_nor_taken_for_another_turn():
    # The mover's canoe still seen where it came from (its shadow there read as a
    # hull), or another player's seen where it ends or began: the truth is played or
    # offered, never flagged.
    rng = random.Random(71)
    for game, turn in sampled_turns(71, 40, rng, at_most=8):
        if not turn.canoes:
            continue
        obs = observe_after(game, turn)
        action = turn.canoes[0]
        place = rng.choice([action.origin, action.destination])
        where = obs["dock"] if place == "D" else obs["falls"] if place == "F" \
            else obs["slots"][place]["canoes"]
        where.append({"player": rng.choice([turn.player, *game.players]), "gem": None})
        result = infer_turn(game, obs)
        assert result.status in ("exact", "ambiguous")
        assert turn in offered(result)


def test_a_gem_read_in_the_neighbours_canoe_of_a_shared_disc_is_no_gem_unseen():
    """Blue's canoe on 7L carries clear, red's beside it on the same disc is empty, and
    brown's violet on 6R hid: the picture read the clear gem in red's canoe. That is
    one gem hidden and one read in the wrong canoe, a misread to ask about, not two
    gems unseen at once (which is likelier another move)."""
    from companion.vision.fit import Mismatch

    lost = Mismatch("cargo", "blue", ("7L", "clear"), ("7L", None), 0.5)
    given = Mismatch("cargo", "red", ("7L", None), ("7L", "clear"), 1.0)
    hid = Mismatch("cargo", "brown", ("6R", "violet"), ("6R", None), 1.0)
    assert slips([lost, given, hid]) == "misread"
    other = Mismatch("cargo", "green", ("5", "blue"), ("5", None), 1.0)
    assert slips([lost, given, hid, other]) is None  # two gems unseen besides the swap


def test_a_clear_gem_read_as_its_hull_is_not_a_second_gem_unseen():
    """Red loads clear on 4, read as red (the hull through the gem), and violet on 5
    that hid: one gem not seen and one read as a clear gem reads, a misread to ask
    about, not two gems unseen at once. It costs as a colour misread at most."""
    from companion.vision.fit import DEFAULT_WEIGHTS, Mismatch, match_canoes

    w = DEFAULT_WEIGHTS
    cost, (through,) = match_canoes("red", [("4", "clear")], [("4", "red")], w,
                                    loaded=[("4", "clear")])
    assert cost == w.colour and through.unseen_gem and through.hull_through
    # cheaper still where this table's camera misses clear gems nine times in ten
    cost, _ = match_canoes("red", [("4", "clear")], [("4", "red")],
                           replace(w, shown=(("clear", 0.1),)), loaded=[("4", "clear")])
    assert cost == pytest.approx(w.cargo * 0.1)
    hid = Mismatch("cargo", "red", ("5", "violet"), ("5", None), 1.0)
    assert slips([through, hid]) == "misread"
    other = Mismatch("cargo", "red", ("5", "violet"), ("5", "blue"), w.colour)
    assert not other.hull_through and other.misread_colour
    also_hid = Mismatch("cargo", "green", ("3", "blue"), ("3", None), 1.0)
    assert slips([through, hid, also_hid]) is None  # two gems unseen besides it


def test_a_middle_read_as_its_hulls_colour_is_weaker_evidence_of_a_gem_than_a_third_colour():
    """Yellow's canoe should carry violet and its middle is read as yellow: an empty
    yellow hull reads so too, so the picture saw no violet there; it costs more than
    violet read as red (which only a gem gives), less than the canoe read empty, and
    as a misread where this table's camera is known to read violet so."""
    from companion.vision.fit import DEFAULT_WEIGHTS, match_canoes

    w = DEFAULT_WEIGHTS
    expected = [("4", "violet")]
    as_hull, (m,) = match_canoes("yellow", expected, [("4", "yellow")], w)
    third, _ = match_canoes("yellow", expected, [("4", "red")], w)
    empty, _ = match_canoes("yellow", expected, [("4", None)], w)
    assert third < as_hull < empty
    assert as_hull == pytest.approx((w.colour + w.cargo) / 2)
    assert m.misread_colour and not m.hull_through  # still a slip, not a move
    known = replace(w, misread=(("violet", "yellow", 0.3),))
    habit, _ = match_canoes("yellow", expected, [("4", "yellow")], known)
    assert habit == pytest.approx(known.recoloured("violet", "yellow"))
    # (And an empty canoe read as its hull's colour fits, as before.)
    assert match_canoes("yellow", [("4", None)], [("4", "yellow")], w)[0] == 0.0


def test_R_RIVER_5_a_gem_seen_in_an_empty_canoe_of_a_player_who_does_not_move_is_a_misread():
    """Only its own player's move puts a gem into a canoe (nothing is loaded in the
    river's phase, R-RIVER-5; canoes never pass gems, R-GEM-6): in the river's phase,
    or a bystander's canoe in another's turn, a gem seen where the canoe is empty
    costs as a colour misread and is a slip to ask about, not a load to flag. The
    mover's own canoe is judged as before: a gem there may be a load no rule allows."""
    from companion.vision.fit import DEFAULT_WEIGHTS, match_canoes

    w = DEFAULT_WEIGHTS
    cost, (m,) = match_canoes("red", [("7L", None)], [("7L", "clear")], w, loaded=(),
                              before=[("6L", None)], robbed=True)
    assert cost == w.colour and m.invented
    assert slips([m]) == "misread"
    cost, (m,) = match_canoes("red", [("7L", None)], [("7L", "clear")], w, loaded=(),
                              before=[("6L", None)], robbed=False)
    assert cost == w.cargo and not m.invented
    assert slips([m]) is None


def test_R_PTS_1_the_moves_no_camera_sees_are_exactly_those_leaving_every_piece_as_it_lay():
    # A turn must move something, but a canoe landing as the other is launched to its
    # slot, or a gem unloaded and another like it loaded, leaves the board as it was.
    found = 0
    for game in positions_in_phase_two(seed=41, count=40):
        before = expected_observation(game)
        piles = {name: dict(pile) for name, pile in game.state.deposits.items()}
        unseen = unseen_turns(game)
        for turn in game.legal_turns():
            game.apply(turn)
            same = expected_observation(game) == before and game.state.deposits == piles
            game.undo()
            assert (turn in unseen) == same, format_turn(turn)
        found += len(unseen)
    assert found > 0


def test_R_GEM_3_a_take_seen_from_a_pile_the_move_leaves_never_gets_a_hidden_load_flagged():
    # A legal load whose gem the picture did not show, and a gem seen taken from a pile
    # the move leaves as it was (a pile nudged by a hand, a canoe's bow over it): two
    # slips of the camera. The players are asked (or the move taken), never stopped.
    # (A take seen costs as a pile seen to change, FitWeights.deposit: at the cost of a
    # canoe missing, 131 of 242 such turns were flagged.)
    rng = random.Random(5)
    tried = 0
    for game, turn in sampled_turns(POOL, 15, rng, at_most=10):
        obs = observe_after(game, turn)
        mine = [c for s in obs["slots"].values() for c in s["canoes"]
                if c["player"] == turn.player and c["gem"]]
        piles = game.state.deposits
        changes = changed_piles(piles, state_after(game, turn).deposits)
        aside = [name for name, gems in piles.items() if name not in changes and any(gems.values())]
        if not mine or not aside:
            continue
        mine[0]["gem"] = None
        gem = next(g for g, n in piles[aside[0]].items() if n)
        obs |= {"deposits_changed": sorted(changes | {aside[0]}),
                "deposits_taken": {aside[0]: gem}}
        result = infer_turn(game, obs)
        assert result.status != "none", (format_turn(turn), result.summary)
        tried += 1
    assert tried >= 20, tried
