"""R-STEAL: an empty canoe moving upstream takes a gem where its move ends."""


from .helpers import (
    assert_illegal,
    assert_legal,
    canoes_of,
    count,
    gem_total,
    move,
    turn,
    turn_position,
)

MANDATORY = ("mandatory-steal",)


def _thief(card=2, victim=(("3", "violet"), ("D", None)), blue=(("5", None), ("D", None)),
           **kwargs):
    return turn_position("blue", card, canoes={"blue": list(blue), "green": list(victim)},
                         **kwargs)


def test_R_STEAL_1_an_empty_canoe_moving_up_takes_the_gem_at_its_end():
    game = _thief()
    assert_legal(game, turn("blue", move("5", "3", steal="green")))
    assert canoes_of(game, "blue") == [("D", None), ("3", "violet")]
    assert canoes_of(game, "green") == [("D", None), ("3", None)]
    assert gem_total(game) == 35


def test_R_STEAL_1_unloading_at_the_start_then_stealing_is_allowed():
    """Polish worked example, round 2: blue unloads clear at the blue deposit and goes
    three up to rob red (5 = 2 + 3; the theft itself is free)."""
    game = _thief(card=5, blue=(("6R", "clear"), ("D", None)))
    assert_legal(game, turn("blue", move("6R", "3", pre=["unload"], steal="green")))
    assert canoes_of(game, "blue") == [("D", None), ("3", "violet")]
    assert game.snapshot()["deposits"]["blue"] == {"blue": 7, "clear": 1}


def test_R_STEAL_1_moving_downstream_no_theft():
    """game-log.md's own example verdict for this case."""
    game = _thief(blue=(("1", None), ("D", None)))
    message = assert_illegal(game, turn("blue", move("1", "3", steal="green")),
                             "R-STEAL-1", "blue", "downstream")
    assert message == "blue's canoe on 1 moved downstream; only a canoe moving upstream may steal"


def test_R_STEAL_1_a_canoe_that_did_not_move_cannot_steal():
    game = _thief(card=2, blue=(("3", None), ("D", None)))
    assert_illegal(game, turn("blue", move("3", pre=["load:violet"], steal="green")),
                   "R-STEAL-1", "blue", "did not move")


def test_R_STEAL_1_no_loaded_canoe_of_the_victim_where_the_move_ends():
    game = _thief(victim=(("3", None), ("D", None)))
    assert_illegal(game, turn("blue", move("5", "3", steal="green")), "R-STEAL-1",
                   "green", "on 3")


def test_R_STEAL_1_a_loaded_canoe_cannot_steal():
    game = _thief(blue=(("5", "yellow"), ("D", None)))
    assert_illegal(game, turn("blue", move("5", "3", steal="green")), "R-STEAL-1",
                   "blue", "empty")


def test_R_STEAL_1_loading_at_the_end_leaves_no_room_for_a_stolen_gem():
    game = _thief(card=4, blue=(("5", None), ("D", None)))
    assert_illegal(game, turn("blue", move("5", "3", post=["load:violet"], steal="green")),
                   "R-GEM-1", "blue", "at most one")


def test_R_STEAL_2_the_thief_chooses_among_victims():
    for victim, gem in (("green", "violet"), ("yellow", "clear")):
        game = turn_position("blue", 2, canoes={"blue": [("5", None), ("D", None)],
                                                "green": [("3", "violet"), ("D", None)],
                                                "yellow": [("3", "clear"), ("D", None)]})
        assert_legal(game, turn("blue", move("5", "3", steal=victim)))
        assert canoes_of(game, "blue") == [("D", None), ("3", gem)]


def test_R_STEAL_2_a_victim_with_two_loaded_canoes_there_must_be_told_which_gem():
    game = _thief(victim=(("3", "violet"), ("3", "clear")))
    assert_illegal(game, turn("blue", move("5", "3", steal="green")), "R-STEAL-2",
                   "green", "clear", "violet", "name the gem")
    assert_legal(game, turn("blue", move("5", "3", steal="green:clear")))
    assert canoes_of(game, "green") == [("3", None), ("3", "violet")]


def test_R_STEAL_2_the_named_gem_must_be_there():
    game = _thief(victim=(("3", "violet"), ("3", "clear")))
    assert_illegal(game, turn("blue", move("5", "3", steal="green:red")), "R-STEAL-1",
                   "green", "red")


def test_R_STEAL_3_no_theft_after_unloading_at_the_end():
    game = _thief(card=5, blue=(("6L", "blue"), ("D", None)))
    assert_illegal(game, turn("blue", move("6L", "3", post=["unload"], steal="green")),
                   "R-STEAL-3", "blue", "unloaded at the end")


def test_R_STEAL_3_no_theft_from_ones_own_canoe():
    game = _thief(blue=(("5", None), ("3", "violet")))
    assert_illegal(game, turn("blue", move("5", "3", steal="blue"), move("3", "1")),
                   "R-STEAL-3", "blue", "own canoe")


def test_R_STEAL_3_no_theft_while_passing_a_slot():
    game = _thief(card=3, victim=(("3", "violet"), ("D", None)))
    assert_illegal(game, turn("blue", move("5", "2", steal="green")), "R-STEAL-3", "blue",
                   "pass")


def test_R_STEAL_3_a_theft_where_the_move_ends_beyond_a_loaded_canoe_is_not_made():
    game = _thief(card=3, victim=(("3", "violet"), ("D", None)))
    assert_legal(game, turn("blue", move("5", "2")))
    assert canoes_of(game, "green") == [("D", None), ("3", "violet")]


def test_R_STEAL_4_stealing_is_optional():
    game = _thief()
    assert_legal(game, turn("blue", move("5", "3")))
    assert canoes_of(game, "green") == [("D", None), ("3", "violet")]


def test_R_STEAL_4_variant_mandatory_steal_requires_the_theft():
    """Variant from one page of the Russian rule book."""
    game = _thief(variants=MANDATORY)
    assert_illegal(game, turn("blue", move("5", "3")), "R-STEAL-4", "blue", "on 3",
                   "mandatory-steal")
    assert_legal(game, turn("blue", move("5", "3", steal="green")))


def test_R_STEAL_4_variant_mandatory_steal_does_not_apply_to_a_loaded_canoe():
    game = _thief(card=4, blue=(("5", "red"), ("D", None)), variants=MANDATORY)
    assert_legal(game, turn("blue", move("5", "1")))


def test_R_STEAL_5_the_robbed_player_steals_back_on_their_own_turn():
    game = turn_position("blue", 2, others=3,
                         canoes={"blue": [("5", None), ("D", None)],
                                 "green": [("3", "violet"), ("6L", None)]})
    game.apply(turn("blue", move("5", "3", steal="green")))
    assert_legal(game, turn("green", move("6L", "3", steal="blue"), move("3", "6R")))
    assert canoes_of(game, "green") == [("3", "violet"), ("6R", None)]


def test_R_STEAL_5_not_out_of_turn():
    game = turn_position("blue", 2, others=3,
                         canoes={"blue": [("5", None), ("D", None)],
                                 "green": [("3", "violet"), ("6L", None)]})
    game.apply(turn("blue", move("5", "3", steal="green")))
    game.apply(turn("green", move("6L", "F"), move("3", "6L")))
    assert_illegal(game, turn("green", move("6L", "3", steal="blue")), "R-STEAL-5",
                   "yellow", "green")


def test_R_STEAL_perft_victims_and_gems():
    """Blue: A on 5 empty, B on D; card 2. On 3: green with violet, green with clear,
    yellow with violet. A: load yellow and stay; down to 7L or 7R; up to 3 and steal
    nothing, green's violet, green's clear or yellow's violet → 1 + 2 + 4 = 7.
    Alone or with B launched to 2: 7 + 7 = 14."""
    game = turn_position("blue", 2, canoes={"blue": [("5", None), ("D", None)],
                                            "green": [("3", "violet"), ("3", "clear")],
                                            "yellow": [("3", "violet"), ("D", None)]})
    assert count(game, "blue", 2) == 14


def test_R_STEAL_perft_with_mandatory_steal():
    """As above, but going up to 3 must steal: A has 6 ways, 6 + 6 = 12."""
    game = turn_position("blue", 2, canoes={"blue": [("5", None), ("D", None)],
                                            "green": [("3", "violet"), ("3", "clear")],
                                            "yellow": [("3", "violet"), ("D", None)]},
                         variants=MANDATORY)
    assert count(game, "blue", 2) == 12
