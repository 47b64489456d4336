"""One glossary per language, taken from that language's rule book, used by the pages
and the referee alike (issue 12 item 8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.i18n import LANGUAGES, gem_name
from companion.i18n.catalogue import catalogue, name_forms
from companion.rules import GEMS, PLAYER_COLOURS
from companion.web.strings import STRINGS

# The rule books (shared/seeds beside the repository): 000 Russian, 001 Chinese,
# 002 Polish, 004 Italian. There is no English one: English follows rules.md.
SEEDS = (Path(__file__).resolve().parents[2].parent / "shared" / "seeds",
         Path("/work/shared/seeds"))
BOOKS = {"ru": "000_", "zh": "001_", "pl": "002_", "it": "004_"}
# Terms a book has no word of its own for (the catalogue's choice stands).
NOT_IN_BOOK = {("pl", "camp"), ("zh", "camp")}


def _texts(value: object) -> list[str]:
    if isinstance(value, dict):
        return [t for v in value.values() for t in _texts(v)]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return [value] if isinstance(value, str) else []


def _catalogue_texts(lang: str) -> list[str]:
    return [t for key, part in catalogue(lang).items() if key != "glossary"
            for t in _texts(part)]


def _book(lang: str) -> str:
    for folder in SEEDS:
        found = sorted(folder.glob(f"{BOOKS[lang]}*.txt")) if folder.is_dir() else []
        if found:
            return found[0].read_text(encoding="utf-8").lower()
    pytest.skip("the rule books (shared/seeds) are not beside this checkout")


def test_every_language_has_a_glossary_of_the_same_terms():
    terms = set(catalogue("en")["glossary"]["words"])
    assert {"canoe", "card", "round", "dock", "gem", "deposit", "cloud"} <= terms
    for lang in LANGUAGES:
        assert set(catalogue(lang)["glossary"]["words"]) == terms, lang


@pytest.mark.parametrize("lang", sorted(BOOKS))
def test_the_glossary_words_are_the_rule_books_words(lang):
    book = _book(lang)
    for term, word in catalogue(lang)["glossary"]["words"].items():
        if (lang, term) in NOT_IN_BOOK:
            continue
        stem = word.lower().split()[0][:max(2, len(word.split()[0]) - 2)] \
            if lang != "zh" else word
        assert stem in book, f"{lang}: {word!r} ({term}) is not the rule book's word"


@pytest.mark.parametrize("lang", sorted(BOOKS))
def test_the_words_the_glossary_rejects_are_not_the_rule_books(lang):
    book = _book(lang)
    for wrong in catalogue(lang)["glossary"]["not"]:
        if lang == "zh" and wrong == "牌":
            continue  # part of 船桨卡's neighbours in running text; checked on our side
        assert book.count(wrong.lower()) <= 1, f"{lang}: the book does say {wrong!r}"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_page_strings_use_the_glossary(lang):
    avoid = catalogue(lang)["glossary"]["not"]
    for key, text in STRINGS[lang].items():
        for wrong, right in avoid.items():
            assert wrong.lower() not in text.lower(), \
                f"{lang} page string {key}: {wrong!r} where the rule book says {right!r}"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_catalogues_use_the_glossary(lang):
    avoid = catalogue(lang)["glossary"]["not"]
    for text in _catalogue_texts(lang):
        for wrong, right in avoid.items():
            assert wrong.lower() not in text.lower(), \
                f"{lang}: {wrong!r} where the rule book says {right!r}: {text}"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_pages_and_referee_name_gems_and_players_alike(lang):
    for gem in GEMS:
        assert STRINGS[lang][f"gem.{gem}"] == gem_name(gem, lang)
    for colour in PLAYER_COLOURS:
        assert STRINGS[lang][f"colour.{colour}"] == name_forms(lang, "player", colour)["nom"]


@pytest.mark.parametrize(("lang", "words"), [
    ("it", ("tessera", "turno", "giacimento")), ("ru", ("берег",)),
    ("pl", ("kanu", "diament", "Chmurka")), ("zh", ("船", "船桨卡")),
])
def test_the_issues_examples(lang, words):
    page = " ".join(STRINGS[lang].values())
    for word in words:
        assert word in page, f"{lang}: the pages never say {word!r}"
