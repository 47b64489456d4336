"""The worked example of rules.md section 7 (Polish rule book, round 1, five players),
and the Polish book's example carried on through rounds 2 and 3
(tests/fixtures/logs/polish-rounds-1-3.jsonl), every position checked by hand."""

import json
from pathlib import Path

from companion.rules import Game, parse_line

from .helpers import FIVE, assert_illegal, canoes_of, cards, cloud, gem_total, move, turn

POLISH = Path(__file__).parent.parent / "fixtures" / "logs" / "polish-rounds-1-3.jsonl"


def _round_1() -> Game:
    game = Game(list(FIVE), start="blue", branch="L")
    game.apply(cards(blue=6, green="cloud", yellow=5, red=1, brown=4))
    game.apply(turn("blue", move("D", "4", post=["load:clear"])))  # 4 + 2 = 6
    game.apply(cloud("green", "up"))  # 0 → +1
    game.apply(turn("yellow", move("D", "3", post=["load:violet"])))  # 3 + 2 = 5
    game.apply(turn("red", move("D", "1")))
    return game


def test_section_7_worked_example_round_1():
    game = _round_1()
    # Brown moves downstream onto blue's slot, so no stealing from blue (R-STEAL-1).
    assert_illegal(game, turn("brown", move("D", "4", steal="blue")), "R-STEAL-1",
                   "brown", "downstream")
    game.apply(turn("brown", move("D", "4")))
    assert game.phase == "river"
    assert game.speed == 2  # lowest number 1 + weather 1
    game.apply({"event": "river"})
    # Two steps, alternating from L: the disc from 5 enters L, then R. The canoes on 4
    # ride to 5, then into the right branch, both on the same slot.
    assert canoes_of(game, "blue") == [("D", None), ("6R", "clear")]
    assert canoes_of(game, "brown") == [("D", None), ("6R", None)]
    assert canoes_of(game, "yellow") == [("D", None), ("5", "violet")]  # 3 → 5
    assert canoes_of(game, "red") == [("D", None), ("3", None)]  # 1 → 3
    assert canoes_of(game, "green") == [("D", None), ("D", None)]
    snap = game.snapshot()
    assert snap["start"] == "green"  # the life ring passes to green
    assert snap["round"] == 2 and snap["phase"] == "cards" and snap["weather"] == 1
    assert snap["branch_next"] == "L"
    assert snap["deposits"]["clear"] == {"clear": 6}
    assert snap["deposits"]["violet"] == {"violet": 6}
    assert gem_total(game) == 35


def test_section_7_both_canoes_on_4_share_the_branch_the_disc_takes():
    """rules.md: "both on the same slot, e.g. 6L" — 6L when the second disc is seen to
    enter the left branch."""
    game = _round_1()
    game.apply(turn("brown", move("D", "4")))
    game.apply({"event": "river", "branches": ["R", "L"]})
    assert canoes_of(game, "blue") == [("D", None), ("6L", "clear")]
    assert canoes_of(game, "brown") == [("D", None), ("6L", None)]
    assert canoes_of(game, "yellow") == [("D", None), ("5", "violet")]
    assert canoes_of(game, "red") == [("D", None), ("3", None)]


def _replay(lines):
    game = Game.from_setup(parse_line(lines[0]))
    for n, line in enumerate(lines[1:], 2):
        verdict = game.check(parse_line(line))
        assert verdict.ok, f"line {n}: {verdict.rule}: {verdict.message}"
        game.apply(parse_line(line))
    return game


def test_polish_example_rounds_1_to_3_every_event_is_legal():
    lines = POLISH.read_text().splitlines()
    assert len(lines) == 22
    _replay(lines)


def test_polish_example_round_2_steals():
    """Round 2: brown robs yellow's yellow gem on 3, blue unloads clear at the blue
    deposit and robs red's violet on 3; red has landed one violet."""
    lines = POLISH.read_text().splitlines()
    game = _replay(lines[:14])
    assert canoes_of(game, "yellow") == [("3", None), ("4", "clear")]
    assert canoes_of(game, "red") == [("D", None), ("3", None)]
    assert canoes_of(game, "brown") == [("3", None), ("3", "yellow")]
    assert canoes_of(game, "blue") == [("D", None), ("3", "violet")]
    snap = game.snapshot()
    assert snap["camps"]["red"] == ["violet"]
    assert snap["deposits"]["yellow"] == {"violet": 1, "yellow": 6}
    assert snap["deposits"]["blue"] == {"blue": 7, "clear": 1}
    assert snap["deposits"]["violet"] == {"violet": 4}
    assert game.speed == 2  # green's 1 + weather 1


def test_polish_example_round_3_two_blue_gems_go_over_the_falls():
    """Round 3: speed 2 + 2 = 4; yellow's and brown's canoes carrying blue fall and the
    two blue gems go back to the blue deposit. Neither can buy back: no camp gems."""
    game = _replay(POLISH.read_text().splitlines())
    snap = game.snapshot()
    assert {k: snap[k] for k in ("round", "phase", "start", "weather", "branch_next")} == \
        {"round": 4, "phase": "cards", "start": "red", "weather": 2, "branch_next": "L"}
    assert snap["canoes"] == {
        "blue": [{"at": "D", "gem": None}, {"at": "7L", "gem": "violet"}],
        "green": [{"at": "D", "gem": None}, {"at": "D", "gem": None}],
        "yellow": [{"at": "6L", "gem": None}, {"at": "F", "gem": None}],
        "red": [{"at": "6L", "gem": "yellow"}, {"at": "6R", "gem": None}],
        "brown": [{"at": "6R", "gem": "yellow"}, {"at": "F", "gem": None}],
    }
    assert snap["camps"] == {"blue": [], "green": ["violet"], "yellow": [],
                             "red": ["violet"], "brown": []}
    assert snap["deposits"] == {"red": {"red": 7}, "blue": {"blue": 7, "clear": 2, "yellow": 1},
                                "clear": {"clear": 5}, "yellow": {"violet": 1, "yellow": 4},
                                "violet": {"violet": 3}}
    # "Każdy z graczy ma już tylko 4 Karty Wiosła": four cards left each.
    assert snap["hands"] == {"blue": [1, 2, 3, 4], "green": [2, 3, 4, 6],
                             "yellow": [1, 2, 3, "cloud"], "red": [3, 4, 6, "cloud"],
                             "brown": [1, 2, 6, "cloud"]}
    assert gem_total(game) == 35
    verdict = game.check({"event": "buyback", "player": "yellow"})
    assert (verdict.ok, verdict.rule) == (False, "R-BUY-2")


def test_polish_example_log_round_trips_through_to_line():
    from companion.rules import to_line
    for line in POLISH.read_text().splitlines():
        assert json.loads(to_line(parse_line(line))) == json.loads(line)
