"""The catalogue files: complete for every language, same placeholders, forms exist."""

from __future__ import annotations

import re

import pytest

from companion.i18n import LANGUAGES
from companion.i18n.catalogue import catalogue, name_forms, placeholders
from companion.rules import GEMS, PLACES, PLAYER_COLOURS
from companion.rules.messages import FIELD_KINDS

from .conftest import OTHER_LANGUAGES

ALL = list(LANGUAGES)
# The words a LogError names as "unknown {what}" (companion.rules.events).
FIELDS = ("player colour", "place", "gem colour", "cloud direction", "branch", "variant")
CODES = {
    "player": PLAYER_COLOURS, "gem": GEMS, "deposit": GEMS, "place": PLACES,
    "card": ("1", "2", "3", "4", "5", "6", "cloud"), "direction": ("up", "down"),
    "field": FIELDS,
}
# Kinds whose values are names (their format spec is a grammatical form) and the
# name kind each list or phrase is made of.
NAME_KIND = {"player": "player", "players": "player", "gem": "gem", "camp": "gem",
             "deposit": "deposit", "place": "place", "target": "place", "card": "card",
             "cards": "card", "direction": "direction", "field": "field"}


def _rule_ids(text: str) -> list[str]:
    return sorted(set(re.findall(r"\*\*(R-[A-Z]+-\d+)\*\*", text)))


def test_a_catalogue_file_exists_for_every_language():
    for lang in LANGUAGES:
        assert catalogue(lang)["language"] == LANGUAGES[lang]


@pytest.mark.parametrize("lang", ALL)
def test_every_rule_of_rules_md_has_a_title_and_text(lang, rules_md):
    ids = _rule_ids(rules_md)
    assert len(ids) >= 50  # the parse found the rules
    rules = catalogue(lang)["rules"]
    for rule_id in ids + ["LOG"]:
        entry = rules.get(rule_id)
        assert entry, f"{lang}: no text for {rule_id}"
        assert entry["title"].strip() and entry["text"].strip(), f"{lang}: empty {rule_id}"


def test_catalogue_rules_are_exactly_those_of_rules_md(rules_md):
    assert sorted(catalogue("en")["rules"]) == sorted(_rule_ids(rules_md) + ["LOG"])


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_language_has_the_same_rule_ids_as_english(lang):
    assert sorted(catalogue(lang)["rules"]) == sorted(catalogue("en")["rules"])


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_rule_texts_are_translated_not_copied(lang):
    en = catalogue("en")["rules"]
    for rule_id, entry in catalogue(lang)["rules"].items():
        assert entry["text"] != en[rule_id]["text"], f"{lang}: {rule_id} is English"


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_message_template_is_translated(lang):
    assert sorted(catalogue(lang)["messages"]) == sorted(catalogue("en")["messages"])


def test_every_english_placeholder_has_a_kind():
    for tid, text in catalogue("en")["messages"].items():
        for name, _ in placeholders(text):
            assert name in FIELD_KINDS, f"{tid}: unknown placeholder {name}"


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_translations_use_exactly_the_english_placeholders(lang):
    en = catalogue("en")["messages"]
    for tid, text in catalogue(lang)["messages"].items():
        ours = {name for name, _ in placeholders(text)}
        theirs = {name for name, _ in placeholders(en[tid])}
        assert ours == theirs, f"{lang} {tid}: {sorted(ours)} != {sorted(theirs)}"


def _form_uses(lang: str) -> list[tuple[str, str, str]]:
    """(where, name kind, form) of every name placeholder with a form spec."""
    uses = []
    for tid, text in catalogue(lang)["messages"].items():
        for name, spec in placeholders(text):
            kind = NAME_KIND.get(FIELD_KINDS[name])
            if kind and spec:
                uses.append((tid, kind, spec))
    for key, text in catalogue(lang)["phrases"].items():
        for name, spec in placeholders(text):
            if name in NAME_KIND and spec:
                uses.append((key, NAME_KIND[name], spec))
    return uses


@pytest.mark.parametrize("lang", ALL)
def test_every_grammatical_form_used_exists_for_every_word(lang):
    for where, kind, spec in _form_uses(lang):
        if spec == "code":
            continue
        for code in CODES[kind]:
            forms = name_forms(lang, kind, code)
            assert spec in forms, f"{lang} {where}: {kind} {code!r} has no form {spec!r}"


@pytest.mark.parametrize("lang", ALL)
def test_every_word_has_a_name(lang):
    names = catalogue(lang)["names"]
    for kind, codes in CODES.items():
        table = names[kind]
        for code in codes:
            assert code in table or "*" in table, f"{lang}: no {kind} name for {code}"


@pytest.mark.parametrize("lang", ALL)
def test_phrases_name_a_canoe_and_a_place(lang):
    phrases = catalogue(lang)["phrases"]
    for key in ("canoe", "canoe_with", "where", "where_with", "list_sep", "and", "none",
                "fallback"):
        assert key in phrases, f"{lang}: no phrase {key}"
    assert "{text}" in phrases["fallback"] and "{message}" in phrases["fallback"]


@pytest.mark.parametrize("lang", ALL)
def test_hints_are_keyed_by_rule_or_template(lang):
    en = catalogue("en")
    for key in catalogue(lang)["hints"]:
        assert key in en["rules"] or key in en["messages"], f"{lang}: stray hint {key}"


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_english_hint_is_translated(lang):
    assert sorted(catalogue(lang)["hints"]) == sorted(catalogue("en")["hints"])


@pytest.mark.parametrize("rule", ["R-PTS-1", "R-PTS-2", "R-PTS-3", "R-WHICH-1", "R-WHICH-3",
                                  "R-GEM-1", "R-GEM-2", "R-GEM-3", "R-STEAL-1", "R-MOVE-4",
                                  "R-WEATHER-1", "R-BUY-1", "R-CARD-2"])
def test_the_most_common_illegal_moves_have_a_hint(rule):
    for lang in LANGUAGES:
        assert catalogue(lang)["hints"].get(rule), f"{lang}: no hint for {rule}"
