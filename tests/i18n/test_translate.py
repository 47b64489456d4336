"""translate_verdict, rule_text, hint and friends: behaviour and robustness."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import companion.i18n
import companion.i18n.translate
from companion.i18n import (
    LANGUAGES,
    colour_name,
    describe_verdict,
    gem_name,
    hint,
    language,
    negotiate_language,
    rule_text,
    translate_verdict,
)
from companion.i18n.catalogue import catalogue
from companion.i18n.forms import Count
from companion.rules import Game

from .engine_cases import to_move, turn

PTS = "blue's canoe on the dock cannot reach 5: it needs 7 points, the card gives 4"
PTS_FIELDS = {"who": {"player": "blue", "place": "D", "gem": None}, "target": "5",
              "cost": 7, "value": 4}


def test_english_messages_come_back_unchanged():
    assert translate_verdict("R-PTS-1", PTS, "en", "pts.too_far", PTS_FIELDS) == PTS
    assert translate_verdict("R-PTS-1", PTS, "en") == PTS


def test_message_is_translated_from_its_key_and_fields():
    assert translate_verdict("R-PTS-1", PTS, "ru", "pts.too_far", PTS_FIELDS) == (
        "каноэ Синего на берегу (D) не может доплыть до диска 5: нужно 7 очков, "
        "а карта даёт 4")
    assert translate_verdict("R-PTS-1", PTS, "it", "pts.too_far", PTS_FIELDS) == (
        "la canoa di Blu al molo (D) non può raggiungere il disco 5: costerebbe 7 punti "
        "pagaia, la tessera ne dà 4")


def test_unknown_message_gives_the_rule_statement_and_the_english_message():
    out = translate_verdict("R-PTS-1", "a brand new message", "pl")
    assert out.startswith(rule_text("R-PTS-1", "pl")["text"])
    assert out.endswith("(sędzia: a brand new message)")


def test_an_empty_message_gives_just_the_rule_statement():
    assert translate_verdict("R-GEM-1", "", "ru") == rule_text("R-GEM-1", "ru")["text"]
    said = describe_verdict({"ok": False, "rule": None, "message": None}, "it")
    assert said["rule"] == "LOG" and said["message"] == rule_text("LOG", "it")["text"]


def test_unknown_rule_and_message_come_back_as_the_message():
    assert translate_verdict("R-NOPE-9", "something odd", "zh") == "something odd"


def test_unknown_language_falls_back_to_english():
    assert translate_verdict("R-PTS-1", PTS, "xx") == PTS
    assert rule_text("R-PTS-1", "xx") == rule_text("R-PTS-1", "en")


@pytest.mark.parametrize(("given_code", "lang"), [("ru-RU", "ru"), ("zh_Hans", "zh"),
                                                  ("PL", "pl"), ("it-CH", "it"),
                                                  ("de", "en"), ("", "en"), (None, "en")])
def test_language_codes_are_normalised(given_code, lang):
    assert language(given_code) == lang


@pytest.mark.parametrize(("header", "lang"), [
    ("ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7", "ru"),
    ("de-DE,de;q=0.9,it;q=0.8,en;q=0.5", "it"),
    ("zh-CN", "zh"),
    ("en;q=0.2, pl;q=0.9", "pl"),
    ("fr, de", "en"),
    ("", "en"),
    (None, "en"),
    ("ru;q=abc, it", "it"),
])
def test_accept_language_header_picks_the_best_language(header, lang):
    assert negotiate_language(header) == lang


def test_rule_text_of_an_unknown_rule_raises_value_error():
    with pytest.raises(ValueError, match="unknown rule ID 'R-NOPE-1'"):
        rule_text("R-NOPE-1", "ru")


@pytest.mark.parametrize(("lang", "name"), [("en", "blue"), ("ru", "Синий"),
                                            ("zh", "蓝色玩家"), ("pl", "Niebieski"),
                                            ("it", "Blu")])
def test_colour_name_in_every_language(lang, name):
    assert colour_name("blue", lang) == name


def test_gem_names_follow_the_rule_books():
    assert gem_name("clear", "it") == "gemma bianca"  # "diamante (bianco)"
    assert gem_name("clear", "pl") == "bezbarwny diament"
    assert gem_name("violet", "ru") == "фиолетовый камень"


def test_hint_of_the_message_key_beats_the_rule_hint():
    assert hint("R-GEM-3", "gem.deposit_empty", "en") == \
        catalogue("en")["hints"]["gem.deposit_empty"]
    assert hint("R-GEM-3", "gem.no_such_key", "en") == catalogue("en")["hints"]["R-GEM-3"]


def test_a_hint_is_filled_with_the_messages_fields():
    said = hint("R-TURN-1", "turn.other", "pl", {"mover": "blue", "player": "red"})
    assert said and "Niebieski" in said and "{" not in said


def test_a_rule_that_only_describes_the_board_has_no_hint():
    assert hint("R-GEO-4", None, "it") is None


def test_describe_verdict_of_a_real_illegal_turn():
    game = to_move(4)
    verdict = game.check(turn("blue", {"from": "D", "to": "2"}))
    out = describe_verdict(verdict, "pl")
    assert out["ok"] is False and out["rule"] == "R-PTS-2"
    assert out["title"] == rule_text("R-PTS-2", "pl")["title"]
    assert out["message"].startswith("kanu Niebieskiego w Przystani (D) zostawia")
    assert out["hint"].startswith("Cofnij kanu")
    # A feed entry carries the key and fields beside the referee's JSON.
    entry = {**verdict.to_json(), "key": verdict.key, "fields": verdict.fields}
    assert describe_verdict(entry, "pl") == out
    # Without them (an entry recorded before keys existed): the rule, then the English.
    old = describe_verdict(verdict.to_json(), "pl")["message"]
    assert old.startswith(rule_text("R-PTS-2", "pl")["text"]) and verdict.message in old


def test_describe_verdict_of_a_legal_event():
    game = Game(["blue", "green", "yellow"])
    assert describe_verdict(game.check({"event": "river"}), "ru")["ok"] is False
    assert describe_verdict({"ok": True}, "ru") == {"ok": True}


def test_steal_example_keeps_the_notation_in_english():
    msg = 'green has canoes with red and violet on 3: name the gem to steal, e.g. "green:red"'
    fields = {"victim": "green", "gem": "red", "gem2": "violet", "dest": "3"}
    out = translate_verdict("R-STEAL-2", msg, "ru", "steal.choose", fields)
    assert out.endswith('"green:red"') and "у Зелёного на диске 3" in out


def test_user_text_in_a_log_error_is_kept_verbatim():
    msg = "unknown player colour '{pink}' in 'player' (expected one of brown, yellow)"
    fields = {"what": "player colour", "given": "'{pink}'", "key": "player",
              "allowed": "brown, yellow"}
    out = translate_verdict("LOG", msg, "zh", "log.unknown_name", fields)
    assert "'{pink}'" in out and "玩家颜色" in out


@pytest.mark.parametrize(("lang", "n", "text"), [
    ("ru", 1, "1 очко"), ("ru", 3, "3 очка"), ("ru", 5, "5 очков"), ("ru", 11, "11 очков"),
    ("ru", 21, "21 очко"), ("ru", 12, "12 очков"), ("ru", 22, "22 очка"),
])
def test_russian_plurals(lang, n, text):
    assert format(Count(n, lang), "очко|очка|очков") == text


@pytest.mark.parametrize(("n", "text"), [(1, "1 punkt"), (2, "2 punkty"), (5, "5 punktów"),
                                         (12, "12 punktów"), (22, "22 punkty")])
def test_polish_plurals(n, text):
    assert format(Count(n, "pl"), "punkt|punkty|punktów") == text


def test_numbers_keep_their_sign_format():
    assert format(Count(0, "it"), "+d") == "+0" and format(Count(-1, "it"), "+d") == "-1"


@settings(max_examples=200, deadline=None)
@given(rule=st.one_of(st.none(), st.integers(), st.text(max_size=20)),
       message=st.one_of(st.none(), st.integers(), st.text(max_size=200)),
       lang=st.one_of(st.none(), st.integers(), st.sampled_from(list(LANGUAGES)),
                      st.text(max_size=8)),
       key=st.one_of(st.none(), st.integers(), st.sampled_from(sorted(
           catalogue("en")["messages"])), st.text(max_size=12)),
       fields=st.one_of(st.none(), st.dictionaries(
           st.sampled_from(["player", "who", "spot", "have", "cost", "camp", "given"]),
           st.one_of(st.none(), st.integers(), st.text(max_size=5),
                     st.lists(st.text(max_size=3), max_size=2)), max_size=4)))
def test_garbage_never_raises(rule, message, lang, key, fields):
    out = translate_verdict(rule, message, lang, key, fields)
    assert isinstance(out, str)
    page_lang = lang if isinstance(lang, str) else "en"
    assert isinstance(describe_verdict({"ok": False, "rule": rule, "message": message,
                                        "key": key, "fields": fields}, page_lang), dict)
    hint(rule, key, page_lang, fields)


TEMPLATE_IDS = sorted(catalogue("en")["messages"])


@settings(max_examples=150, deadline=None)
@given(tid=st.sampled_from(TEMPLATE_IDS), text=st.text(min_size=1, max_size=40),
       lang=st.sampled_from(["ru", "zh", "pl", "it"]))
def test_any_user_text_in_a_free_text_placeholder_is_carried_over(tid, text, lang):
    template = catalogue("en")["messages"][tid]
    if "{given}" not in template:
        return
    # Fill the other placeholders with plausible values, `given` with arbitrary text.
    fields = {"key": "player", "what": "place", "allowed": "D, 1", "text": "'x'", "n": 3,
              "player": "blue", "other": "green", "given": text}
    out = translate_verdict("LOG", "", lang, tid, fields)
    assert text in out


def test_doctests():
    for module in (companion.i18n, companion.i18n.translate):
        assert doctest.testmod(module).failed == 0
