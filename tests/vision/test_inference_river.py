"""River inference (phase III): how many steps the river was pushed and which branch each
disc took, from the observation after (and before)."""

import json
import random

import pytest

from companion.rules import Game
from companion.rules.random_play import random_phase_events, random_setup_game
from companion.rules.river import step_river
from companion.vision.expected import expected_observation
from companion.vision.inference import InferenceError, infer_river


def picture_after(game: Game, branches) -> dict:
    """A perfect camera's view after the river was pushed once per branch given."""
    state = game.state.copy()
    for branch in branches:
        step_river(state, branch)
    return expected_observation(state)


def games_in_river_phase(seed: int, count: int) -> list[Game]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        game = random_setup_game(rng)
        for _ in range(rng.randint(1, 10) * 3):
            if game.is_over:
                break
            random_phase_events(game, rng)
            if game.phase == "river" and rng.random() < 0.3:
                break
        if game.phase == "river":
            out.append(game)
    return out


def round_one(cards: dict, turns: list[str], players=("blue", "green", "yellow"),
              branch: str = "L") -> Game:
    game = Game(list(players), branch=branch)
    game.apply({"event": "cards", "cards": cards})
    for text in turns:
        game.push_san(text)
    assert game.phase == "river"
    return game


def test_the_river_moved_by_the_rules_is_inferred_exactly():
    for game in games_in_river_phase(seed=1, count=40):
        picture = picture_after(game, _alternating(game))
        result = infer_river(game, picture)
        assert result.status == "exact"
        assert result.event.steps == game.speed
        assert list(result.event.branches) == _alternating(game)
        assert result.flags == []
        assert game.check(result.event).ok


def test_randomly_observed_branches_are_explained_by_a_legal_river_event():
    rng = random.Random(4)
    for game in games_in_river_phase(seed=2, count=40):
        branches = [rng.choice("LR") for _ in range(game.speed)]
        picture = picture_after(game, branches)
        result = infer_river(game, picture)
        assert result.status in ("exact", "ambiguous")
        event = result.best[0].event
        assert event.steps == game.speed and game.check(event).ok
        game.apply(event)
        assert expected_observation(game) == picture


def test_a_disc_entering_the_same_branch_twice_is_flagged_r_river_3():
    # blue on 5, green on 4, speed 2: both discs go right although L comes first.
    game = round_one({"blue": 5, "green": 4, "yellow": 2}, ["D-5", "D-4", "D-2"])
    result = infer_river(game, picture_after(game, ["R", "R"]))
    assert result.status == "exact"
    assert result.event.to_json() == {"event": "river", "steps": 2, "branches": ["R", "R"]}
    assert [f["rule"] for f in result.flags] == ["R-RIVER-3"]
    assert game.check(result.event).ok  # the rules take the branches as observed


def test_branches_that_alternate_from_the_other_side_are_flagged():
    game = round_one({"blue": 5, "green": 6, "yellow": 2}, ["D-5", "D-4+clear", "D-2"])
    assert game.speed == 2
    result = infer_river(game, picture_after(game, ["R", "L"]))
    assert result.status == "exact"
    assert result.event.to_json() == {"event": "river", "steps": 2, "branches": ["R", "L"]}
    assert [f["rule"] for f in result.flags] == ["R-RIVER-3"]
    assert "not alternately from L" in result.flags[0]["message"]


def test_one_push_too_many_is_reported_with_r_river_1():
    game = round_one({"blue": 5, "green": 6, "yellow": 2}, ["D-5", "D-4+clear", "D-2"])
    result = infer_river(game, picture_after(game, ["L", "R", "L"]))
    assert result.status == "exact"
    assert result.event.steps == 3 and result.event.branches == ("L", "R", "L")
    assert [f["rule"] for f in result.flags] == ["R-RIVER-1"]
    assert result.flags[0]["message"] == "the river was pushed 3 steps; this round's speed is 2"
    assert game.check(result.event).rule == "R-RIVER-1"


def test_a_river_left_unpushed_is_zero_steps():
    game = round_one({"blue": 5, "green": 6, "yellow": 2}, ["D-5", "D-4+clear", "D-2"])
    result = infer_river(game, expected_observation(game))
    assert result.event.steps == 0
    assert [f["rule"] for f in result.flags] == ["R-RIVER-1"]


def test_with_no_canoe_on_the_river_the_rules_fill_in_steps_and_branches():
    game = round_one({"blue": "cloud", "green": "cloud", "yellow": "cloud"},
                     ["cloud up", "cloud up", "cloud down"])
    assert game.speed == 1
    result = infer_river(game, expected_observation(game))
    assert result.status == "exact"
    assert result.event.to_json() == {"event": "river", "steps": 1, "branches": ["L"]}


def test_a_canoe_over_the_falls_tells_the_branch():
    # blue on 6L, green on 6R, yellow on 2; one step: one of the two goes to 7.
    game = round_one({"blue": 6, "green": 6, "yellow": 2}, ["D-6L", "D-6R", "D-2"],
                     branch="L")
    for branch in "LR":
        result = infer_river(game, picture_after(game, [branch, branch]))
        assert result.event.branches == (branch, branch)


def test_the_observation_before_is_the_starting_point_when_given():
    game = round_one({"blue": 5, "green": 6, "yellow": 2}, ["D-5", "D-4+clear", "D-2"])
    before = expected_observation(game)
    # The table nudged yellow's canoe from 2 to 3 before the river moved.
    before["slots"]["3"]["canoes"] = before["slots"]["2"]["canoes"]
    before["slots"]["2"]["canoes"] = []
    after = picture_after_from(before, game, ["L", "R"])
    result = infer_river(game, after, before=before)
    assert result.status == "exact"
    assert result.event.branches == ("L", "R")
    assert infer_river(game, after).status == "none"


def picture_after_from(before: dict, game: Game, branches) -> dict:
    state = game.state.copy()
    canoes = {p: [] for p in game.players}
    for slot, entry in before["slots"].items():
        for c in entry["canoes"]:
            canoes[c["player"]].append((slot, c["gem"]))
    for c in before["dock"]:
        canoes[c["player"]].append(("D", c["gem"]))
    for c in before["falls"]:
        canoes[c["player"]].append(("F", c["gem"]))
    state.canoes = canoes
    for branch in branches:
        step_river(state, branch)
    return expected_observation(state)


def test_a_canoe_hidden_after_the_river_still_gives_the_rules_answer():
    # No canoe leaves the game: one not seen is hidden, and the rest tell the river.
    game = round_one({"blue": 5, "green": 6, "yellow": 2}, ["D-5", "D-4+clear", "D-2"])
    picture = picture_after(game, ["L", "R"])
    picture["slots"]["6R"]["canoes"] = []  # green's canoe with clear not seen
    result = infer_river(game, picture)
    assert result.status == "exact"
    assert result.best[0].event.branches == ("L", "R")
    assert result.diff[0]["place"] == "6R"
    assert result.diff[0]["problems"] == ["green's canoe with clear should be on 6R, not seen"]


def test_river_result_is_plain_json():
    game = round_one({"blue": 5, "green": 6, "yellow": 2}, ["D-5", "D-4+clear", "D-2"])
    data = infer_river(game, picture_after(game, ["L", "R", "L"])).to_json()
    assert json.loads(json.dumps(data)) == data
    assert data["event"] == {"event": "river", "steps": 3, "branches": ["L", "R", "L"]}
    assert data["speed"] == 2 and data["flags"][0]["rule"] == "R-RIVER-1"


def test_no_river_to_infer_outside_phase_three():
    game = Game(["blue", "green", "yellow"])
    with pytest.raises(InferenceError, match="phase 'cards'"):
        infer_river(game, expected_observation(game))


def _alternating(game: Game) -> list[str]:
    out, nxt = [], game.state.branch_next
    for _ in range(game.speed):
        out.append(nxt)
        nxt = "R" if nxt == "L" else "L"
    return out


def test_R_RIVER_5_a_gem_misread_after_the_river_is_no_question_about_the_river():
    # Green's clear gem read in blue's canoe instead: no gem changes canoe in phase III,
    # so every push leaves it where it was; the canoes alone tell the river.
    game = round_one({"blue": 5, "green": 6, "yellow": 2}, ["D-5", "D-4+clear", "D-2"])
    picture = picture_after(game, ["L", "R"])
    (green,) = picture["slots"]["6R"]["canoes"]
    (blue,) = picture["slots"]["6L"]["canoes"]
    assert green["gem"] == "clear" and blue["gem"] is None
    green["gem"], blue["gem"] = None, "clear"
    result = infer_river(game, picture)
    assert result.status == "exact"
    assert result.event.steps == 2 and result.event.branches == ("L", "R")
    assert {m.kind for m in result.candidates[0].mismatches} == {"cargo"}


def test_R_RIVER_5_a_canoe_hidden_and_a_gem_misread_are_no_question_about_the_river():
    # Yellow's canoe not seen and green's clear gem read as violet: together more than a
    # picture's slips, but neither says anything against the push. Nothing is loaded in
    # phase III, so the gem rode with its canoe; the push the rules give is taken.
    game = round_one({"blue": 5, "green": 6, "yellow": 2}, ["D-5", "D-4+clear", "D-2"])
    picture = picture_after(game, ["L", "R"])
    (green,) = picture["slots"]["6R"]["canoes"]
    assert green["gem"] == "clear"
    green["gem"] = "violet"
    hidden = [s for s in picture["slots"].values()
              if any(c["player"] == "yellow" for c in s["canoes"])]
    assert len(hidden) == 1
    hidden[0]["canoes"] = [c for c in hidden[0]["canoes"] if c["player"] != "yellow"]
    result = infer_river(game, picture)
    assert {m.kind for m in result.candidates[0].mismatches} == {"cargo", "missing"}
    assert result.status == "exact"
    assert result.event.steps == 2 and result.event.branches == ("L", "R")
