"""A gem put on a pile shows where it lies (vision.piles_taken.taken_only), and a pile
seen changed only where gems were taken says no gem joined it: R-GEM-3 (an unload puts
the canoe's gem into the deposit, whatever its colour) against R-LAND-2 (a landing
canoe's gem goes to the camp, off the board)."""

from __future__ import annotations

import random

import numpy as np

from companion.rules import format_turn
from companion.vision.fit_changes import changed_piles, deposit_mismatches, put_gems
from companion.vision.inference import infer_turn
from companion.vision.piles_taken import LEAST_SHARE, puts_unseen, taken_only
from companion.vision.sighting import Sighting

from .test_inference import observe_after, offered, sampled_turns
from .test_piles_taken import DEPOSIT, GEM_PX, LOOKS, PRINT, _picture, _piles_after

EVERY = ("violet", "blue", "clear", "red")


def _only(before: np.ndarray, after: np.ndarray, held: dict[str, int],
          looks: dict[str, np.ndarray] = LOOKS, taken: str = "blue") -> set[str]:
    ys, xs = np.mgrid[DEPOSIT]
    deposit = (ys.ravel(), xs.ravel())
    changed = np.any(before != after, axis=2)[deposit]
    piles = {"blue": (deposit[0][changed], deposit[1][changed])}
    return taken_only(before, after, {"blue": deposit}, piles, {"blue": held}, looks.get,
                      GEM_PX, {"blue": taken}, EVERY)


def test_R_GEM_3_a_pile_that_only_lost_a_gem_had_none_put_on_it():
    before = _picture(("blue", 5, 5), ("blue", 25, 5), ("blue", 5, 40))
    after = _picture(("blue", 5, 5), ("blue", 5, 40))
    assert _only(before, after, {"blue": 3}) == {"blue"}
    # a speck of change elsewhere on the pile (the sensor's noise) puts nothing there
    side = int(np.sqrt(LEAST_SHARE * GEM_PX)) - 1
    after[30:30 + side, 45:45 + side] = LOOKS["red"]
    assert _only(before, after, {"blue": 3}) == {"blue"}


def test_R_GEM_3_a_gem_put_beside_the_one_taken_or_where_it_lay_is_seen_put():
    before = _picture(("blue", 5, 5), ("blue", 25, 5))
    for put in (("red", 20, 40), ("clear", 20, 40), ("violet", 25, 5), ("red", 25, 5)):
        after = _picture(("blue", 5, 5), put)
        assert _only(before, after, {"blue": 2}) == set(), put
    # a clear gem lying flat, fainter than a pile of them, where the blue one lay: the
    # print there is paler than before the blue gem was, no farther from it
    after = _picture(("blue", 5, 5))
    after[25:35, 5:15] = (np.array(PRINT) + LOOKS["clear"]) / 2
    assert _only(before, after, {"blue": 2}) == set()


def test_a_pile_is_not_said_to_have_had_none_put_before_every_gem_has_been_seen_in_one():
    before = _picture(("blue", 5, 5), ("blue", 25, 5))
    after = _picture(("blue", 5, 5))
    looks = {gem: LOOKS[gem] for gem in ("blue", "violet", "clear")}
    assert _only(before, after, {"blue": 2}, looks) == set()
    # nor one no gem was seen taken from, or one whose change is not a take at all
    assert _only(before, before, {"blue": 2}) == set()
    assert _only(after, before, {"blue": 1}) == set()


def test_R_GEM_3_a_move_that_puts_a_gem_on_a_pile_seen_only_to_lose_one_is_disputed():
    before = {"clear": {"clear": 4}}
    landed = {"clear": {"clear": 3}}              # D-4+clear; the other canoe lands
    unloaded = {"clear": {"clear": 3, "red": 1}}  # the other canoe unloads red there
    seen = Sighting({}, None, deposits_changed=frozenset({"clear"}),
                    deposits_taken={"clear": "clear"},
                    deposits_taken_only=frozenset({"clear"}))
    assert deposit_mismatches(before, landed, seen) == []
    (m,) = deposit_mismatches(before, unloaded, seen)
    assert (m.kind, m.expected, m.seen, m.put, m.taken) == ("deposit", "clear", None, True, False)
    assert m.message == ("a gem should have been put in the clear deposit, only a gem taken "
                         "from it was seen")
    # a move that takes none of the gem seen taken is told by that alone
    put_only = {"clear": {"clear": 4, "red": 1}}
    assert [(m.gem, m.put) for m in deposit_mismatches(before, put_only, seen)] == \
        [("clear", False)]
    # a pile seen changed otherwise too tells nothing of a put
    seen = Sighting({}, None, deposits_changed=frozenset({"clear"}),
                    deposits_taken={"clear": "clear"}, deposits_taken_only=frozenset())
    assert deposit_mismatches(before, unloaded, seen) == []
    assert put_gems({"clear": 4}, {"clear": 3, "red": 1}) == {"red": 1}


def _landings_told(seed: int, samples: int, rival_puts, seen, deciding) -> None:
    """Three sampled turns that change one pile only by taking from it, each with a
    rival turn leaving the same canoes that also puts a gem on that pile
    (`rival_puts(pile before, pile after the rival, gems gone)`), asked about beside it
    from the piles' evidence `seen(pile, gems gone)`, are told apart (exact) once the
    evidence `deciding(pile, pile before)` is added."""
    rng = random.Random(seed)
    told = 0
    for game, turn in sampled_turns(seed, samples, rng):
        before, after, canoes = _piles_after(game, turn)
        took = changed_piles(before, after)
        if len(took) != 1 or any(put_gems(before[n], after[n]) for n in took):
            continue
        (pile,) = took
        gone = [g for g, k in before[pile].items() if after[pile].get(g, 0) < k]
        rivals = []
        for other in game.legal_turns():
            _, then, same = _piles_after(game, other)
            if same == canoes and changed_piles(before, then) == took \
                    and rival_puts(before[pile], then[pile], gone):
                rivals.append(other)
        obs = observe_after(game, turn)
        obs.update(seen(pile, gone))
        if not rivals or not set(rivals) & set(offered(infer_turn(game, obs))):
            continue
        obs.update(deciding(pile, before[pile]))
        result = infer_turn(game, obs)
        assert result.status == "exact" and result.turn == turn, format_turn(turn)
        told += 1
        if told == 3:
            break
    assert told == 3


def test_R_LAND_2_a_gem_landed_is_told_from_one_unloaded_by_the_pile_it_was_not_put_on():
    # Two turns leave the same canoes on the same places: one lands a canoe, its gem
    # going to the camp (R-LAND-2), the other unloads that gem on a pile another canoe
    # loads from (R-GEM-3, R-GEM-4). The picture saw a gem taken from that pile; when it
    # also saw the pile change only there, no gem joined it: the landing. (Seeing only
    # the take, both are asked about.)
    _landings_told(
        47, 600,
        lambda was, then, gone: len(gone) == 1 and bool(put_gems(was, then))
        and then.get(gone[0], 0) < was[gone[0]],
        lambda pile, gone: {"deposits_changed": [pile], "deposits_taken": {pile: gone[0]}},
        lambda pile, was: {"deposits_taken_only": [pile]})


def _unseen(before: np.ndarray, after: np.ndarray, held: dict[str, int],
            looks: dict[str, np.ndarray] = LOOKS) -> list[str]:
    ys, xs = np.mgrid[DEPOSIT]
    deposit = (ys.ravel(), xs.ravel())
    changed = np.any(before != after, axis=2)[deposit]
    piles = {"blue": (deposit[0][changed], deposit[1][changed])}
    return puts_unseen(before, after, {"blue": deposit}, piles, {"blue": held}, looks.get,
                       GEM_PX, EVERY, ["blue"] if changed.any() else []).get("blue", [])


def test_R_GEM_3_a_pile_that_changed_with_no_tint_of_a_coloured_gem_had_none_of_it_put_on_it():
    # A faint change (a clear gem taken from a heap of blue ones, too faint to be named
    # taken) shows no violet or red: neither was unloaded there. The pile's own colour
    # and clear, which would look like the pile or have no tint, are not said.
    before = _picture(("blue", 5, 5), ("blue", 25, 5))
    after = before.copy()
    after[25:35, 40:50] = (np.array(PRINT) * 0.8 + LOOKS["clear"] * 0.2)
    assert _unseen(before, after, {"blue": 2}) == ["red", "violet"]
    # a red gem put where a blue one lay, or beside the change, is seen put (a tint
    # leaning the same way may be a sign of a violet gem too: then neither is said)
    for put in (("red", 25, 5), ("red", 26, 41)):
        assert "red" not in _unseen(before, _picture(("blue", 5, 5), put), {"blue": 2}), put
    # a change too faint to count as plain (a clear gem taken from among its like) says
    # the same: a coloured gem put would have changed a quarter of a gem's area plainly
    faint = before.copy()
    faint[25:35, 40:50] = np.array(PRINT) + 3
    ys, xs = np.mgrid[DEPOSIT]
    deposit = (ys.ravel(), xs.ravel())
    none = (deposit[0][:0], deposit[1][:0])
    assert puts_unseen(before, faint, {"blue": deposit}, {"blue": none}, {"blue": {"blue": 2}},
                       LOOKS.get, GEM_PX, EVERY, ["blue"]) == {"blue": ["red", "violet"]}
    # a pile that did not change, or a gem whose pile this table has not seen, says nothing
    assert _unseen(before, before, {"blue": 2}) == []
    assert _unseen(before, after, {"blue": 2}, {"blue": LOOKS["blue"]}) == []


def test_R_GEM_3_a_gem_already_on_the_pile_is_not_said_unput_where_it_would_look_the_same():
    before = _picture(("blue", 5, 5), ("red", 25, 5))
    after = _picture(("blue", 5, 5))   # the red gem taken back off the blue heap
    assert _unseen(before, after, {"blue": 1, "red": 1}) == ["violet"]
    # a violet gem put where the red one was taken, or on it, is seen put: its tint is
    # a sign whatever lay there before
    before = _picture(("blue", 5, 5), ("red", 25, 5))
    assert _unseen(before, _picture(("blue", 5, 5), ("violet", 25, 5)),
                   {"blue": 1, "red": 1}) == []


def test_R_LAND_2_a_move_that_unloads_a_coloured_gem_on_a_pile_showing_none_is_disputed():
    before = {"clear": {"clear": 7}}
    landed = {"clear": {"clear": 6}}                 # 4-D lands violet in the camp, D-4+clear
    unloaded = {"clear": {"clear": 6, "violet": 1}}  # 4u-D puts violet there, D-4+clear
    seen = Sighting({}, None, deposits_changed=frozenset({"clear"}), deposits_taken={},
                    deposits_put_unseen={"clear": frozenset({"violet", "red"})})
    assert deposit_mismatches(before, landed, seen) == []
    (m,) = deposit_mismatches(before, unloaded, seen)
    assert (m.kind, m.expected, m.seen, m.put) == ("deposit", "clear", None, True)
    # one that puts a gem the picture may have seen put there is not
    seen = Sighting({}, None, deposits_changed=frozenset({"clear"}), deposits_taken={},
                    deposits_put_unseen={"clear": frozenset({"red"})})
    assert deposit_mismatches(before, unloaded, seen) == []


def test_R_LAND_2_a_landing_is_told_from_an_unload_by_the_tint_the_pile_does_not_show():
    # As test_R_LAND_2_a_gem_landed_is_told_from_one_unloaded_by_the_pile_it_was_not_put_on,
    # where the gem taken was too faint to be named (a clear one): the pile changed,
    # and no part of it took the tint of the gem the other turn unloads there.
    _landings_told(
        53, 900,
        lambda was, then, gone: bool(set(put_gems(was, then)) - {"clear", *was}),
        lambda pile, gone: {"deposits_changed": [pile], "deposits_taken": {}},
        lambda pile, was: {"deposits_put_unseen": {pile: sorted(
            {"red", "blue", "yellow", "violet"} - {g for g, n in was.items() if n})}})
