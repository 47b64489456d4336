"""The text notation: every legal turn prints to text that reads back as the same turn,
and bad text gets a one-line error naming what is wrong."""

import random

import pytest

from companion.rules import CARD_VALUES, LogError, format_turn, parse_turn
from companion.rules.events import ANY, CanoeAction, Turn
from companion.rules.random_play import random_position


def test_every_legal_turn_round_trips_through_the_text_form():
    rng = random.Random(5)
    seen = 0
    for _ in range(60):
        game = random_position(rng)
        if game.is_over:
            continue
        for player in game.players:
            card = rng.choice(CARD_VALUES)
            for turn in game.legal_turns(player, card):
                text = format_turn(turn)
                assert parse_turn(text, player) == turn, text
                assert parse_turn(f"{player}: {text}", player) == turn
                seen += 1
    assert seen > 1000


@pytest.mark.parametrize("text,expected", [
    ("D-4+clear", CanoeAction("D", "4", (), ("load:clear",))),
    ("d-4+c", CanoeAction("D", "4", (), ("load:clear",))),
    ("5u+yellow-3", CanoeAction("5", "3", ("unload", "load:yellow"))),
    ("3-1xred", CanoeAction("3", "1", steal="red")),
    ("3-1xred:blue", CanoeAction("3", "1", steal="red:blue")),
    ("4+clear", CanoeAction("4", None, ("load:clear",))),
    ("6l(blue)-7l", CanoeAction("6L", "7L", gem="blue")),
    ("6R(empty)-5", CanoeAction("6R", "5", gem=None)),
    ("7L-F", CanoeAction("7L", "F", gem=ANY)),
])
def test_one_canoe_reads_as_written(text, expected):
    assert parse_turn(text, "red") == Turn("red", (expected,))


def test_two_canoes_act_in_the_order_written():
    turn = parse_turn("5-3, D-2", "blue")
    assert [a.origin for a in turn.canoes] == ["5", "D"]


@pytest.mark.parametrize("text", ["cloud up", "Cloud Down"])
def test_the_cloud(text):
    assert parse_turn(text, "green").cloud == text.split()[1].lower()


@pytest.mark.parametrize("text,fragment", [
    ("D-9", "D-9"),
    ("4+purple", "4+purple"),
    ("3-1xpink", "pink"),
    ("cloud sideways", "cloud up"),
    ("5-3, D-2, 4-3", "3 canoes"),
    ("red: D-2", "red"),
])
def test_bad_text_names_what_is_wrong(text, fragment):
    with pytest.raises(LogError) as err:
        parse_turn(text, "blue")
    assert fragment in str(err.value) and "\n" not in str(err.value)
