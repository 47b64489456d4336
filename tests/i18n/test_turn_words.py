"""A turn in words in the page's language, and the move picker the table page gets
(issue 12 item 6): words and notation, the most wanted first, falls last."""

from __future__ import annotations

import pytest

from companion.i18n import LANGUAGES, describe_turn, gem_name
from companion.rules import parse_turn
from companion.web.messages import localise_feed, move_choices

from .conftest import OTHER_LANGUAGES
from .engine_cases import to_move

NOTATIONS = ["D-4+clear", "5u+yellow-3, 1-D", "3-1xred", "3-1xred:blue", "7L-F", "4+clear",
             "6L(blue)-7L", "cloud up", "cloud down", "pass", "4u+violet"]


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("text", NOTATIONS)
def test_every_kind_of_turn_reads_as_words(lang, text):
    words = describe_turn(parse_turn(text, "blue"), lang)
    assert words and "{" not in words and "load:" not in words


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_gem_words_are_translated_not_english(lang):
    words = describe_turn(parse_turn("D-3+violet", "blue"), lang)
    assert gem_name("violet", lang) in words or gem_name("violet", lang).split()[0] in words
    assert "violet" not in words and "launch" not in words
    assert "up" not in describe_turn(parse_turn("cloud up", "blue"), lang).split()


def test_english_words_follow_the_move():
    assert describe_turn(parse_turn("5u+yellow-3, 1-D", "blue"), "en") == (
        "on 5: unload, load the yellow gem, up to 3; then on 1: land on the dock")


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_picker_gives_words_and_notation_ranked(lang):
    game = to_move(3, canoes={"blue": [("6L", None), ("D", None)]})
    moves = move_choices(game, lang)
    assert len(moves) == len(game.legal_turns())
    assert all(m["words"] and m["move"] for m in moves)
    assert "-F" not in moves[0]["move"] and "-F" in moves[-1]["move"]
    assert move_choices(game, lang) is moves  # made once per position


def test_no_picker_outside_phase_II():
    game = to_move(3)
    game.undo()
    assert move_choices(game, "ru") == []


def test_the_feed_shows_turns_in_words_with_the_notation():
    feed = localise_feed([{"kind": "turn", "ok": True, "player": "blue", "text": "D-4+clear"},
                          {"kind": "undo", "ok": True, "player": "red", "text": "nonsense"}],
                         "pl")
    assert feed[0]["text"] == describe_turn(parse_turn("D-4+clear", "blue"), "pl") + \
        " (D-4+clear)"
    assert feed[0]["notation"] == "D-4+clear"
    assert feed[1]["text"] == "nonsense"  # unreadable: kept as it was


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_a_camera_question_is_a_question_with_its_choices_in_words(lang):
    from companion.web.strings import text
    [entry] = localise_feed([{"kind": "camera", "ok": False, "status": "ambiguous",
                              "player": "blue", "choices": ["4-3u", "4u-3"],
                              "answers": [{"move": "4-3u"}, {"move": "4u-3"}],
                              "message": "2 fit the picture equally: 4-3u | 4u-3"}], lang)
    # No rule was broken: no verdict's title or hint about the log's format.
    assert entry["title"] == text("camera.asked", lang) and not entry.get("rule_hint")
    assert entry["message"] == "4-3u | 4u-3"
    assert [a["words"] for a in entry["answers"]] == [
        describe_turn(parse_turn(m, "blue"), lang) for m in ("4-3u", "4u-3")]
