"""Real referee messages of the rules engine, recognised and translated.

Every case of engine_cases applies an illegal event to a real game (or feeds a bad
line to the parsers) and takes the engine's own (rule, message).
"""

from __future__ import annotations

import pytest

from companion.i18n import LANGUAGES, rule_text, translate_verdict
from companion.i18n.catalogue import catalogue, name_forms
from companion.i18n.templates import match
from companion.rules import PLAYER_COLOURS

from .conftest import OTHER_LANGUAGES
from .engine_cases import CASES, all_messages

MESSAGES = all_messages()
IDS = [f"{tid}-{n}" for n, (tid, _, _) in enumerate(MESSAGES)]


def test_every_template_has_a_real_engine_case():
    assert sorted(CASES) == sorted(catalogue("en")["messages"])


@pytest.mark.parametrize(("tid", "rule", "message"), MESSAGES, ids=IDS)
def test_engine_message_matches_its_template(tid, rule, message):
    found = match(message)
    assert found is not None, f"no template for {message!r}"
    assert found.template == tid


@pytest.mark.parametrize(("tid", "rule", "message"), MESSAGES, ids=IDS)
def test_engine_cites_a_rule_with_a_text(tid, rule, message):
    for lang in LANGUAGES:
        assert rule_text(rule, lang)["title"]


def _player_forms(lang: str, player: str) -> set[str]:
    return set(name_forms(lang, "player", player).values())


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
@pytest.mark.parametrize(("tid", "rule", "message"), MESSAGES, ids=IDS)
def test_engine_message_is_translated_with_its_values_filled(lang, tid, rule, message):
    out = translate_verdict(rule, message, lang)
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
