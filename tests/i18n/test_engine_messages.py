"""Real referee messages of the rules engine, written in every language from their
key and fields.

Every case of engine_cases applies an illegal event to a real game (or feeds a bad
line to the parsers) and takes the engine's own verdict: rule, English message, key
and fields.
"""

from __future__ import annotations

import json

import pytest

from companion.i18n import LANGUAGES, render, rule_text, translate_verdict
from companion.i18n.catalogue import catalogue, name_forms
from companion.rules import PLAYER_COLOURS

from .conftest import OTHER_LANGUAGES
from .engine_cases import CASES, all_messages

MESSAGES = all_messages()
IDS = [f"{tid}-{n}" for n, (tid, *_) in enumerate(MESSAGES)]
CASE = ("tid", "rule", "message", "key", "fields")


def test_every_message_of_the_catalogue_has_a_real_engine_case():
    assert sorted(CASES) == sorted(catalogue("en")["messages"])


@pytest.mark.parametrize(CASE, MESSAGES, ids=IDS)
def test_engine_names_the_message_key_it_said(tid, rule, message, key, fields):
    assert key == tid


@pytest.mark.parametrize(CASE, MESSAGES, ids=IDS)
def test_engine_fields_are_plain_json(tid, rule, message, key, fields):
    assert json.loads(json.dumps(fields)) == fields


@pytest.mark.parametrize(CASE, MESSAGES, ids=IDS)
def test_the_catalogue_writes_the_engines_english_text(tid, rule, message, key, fields):
    assert render(key, fields, "en") == message


@pytest.mark.parametrize(CASE, MESSAGES, ids=IDS)
def test_engine_cites_a_rule_with_a_text(tid, rule, message, key, fields):
    for lang in LANGUAGES:
        assert rule_text(rule, lang)["title"]


def _player_forms(lang: str, player: str) -> set[str]:
    return set(name_forms(lang, "player", player).values())


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
@pytest.mark.parametrize(CASE, MESSAGES, ids=IDS)
def test_engine_message_is_translated_with_its_values_filled(lang, tid, rule, message, key,
                                                            fields):
    out = translate_verdict(rule, message, lang, key, fields)
    assert out and out != message
    fallback = rule_text(rule, lang)["text"]
    assert fallback not in out, "fell back to the rule statement"
    assert "{" not in out.replace("{", "", message.count("{")), "a placeholder is left"
    for english in ("'s canoe", "canoe on", "canoe below", "canoes are", " the "):
        assert english not in out, f"English {english!r} leaked"
    for player in PLAYER_COLOURS:
        # Every player the message names is named in the translation; the engine's
        # colour words survive only as notation (e.g. "green:red") or user input.
        if f"{player}'s" in message or message.startswith(f"{player} "):
            assert any(form in out for form in _player_forms(lang, player)), player


@pytest.mark.parametrize(CASE, MESSAGES, ids=IDS)
def test_no_english_plural_is_wrong(tid, rule, message, key, fields):
    for word in ("steps", "points", "branches", "ops"):
        assert f" 1 {word}" not in f" {message}", message
