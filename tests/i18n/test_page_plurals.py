"""Page strings with a count say it with the right plural ("1 legal move", "Сдвинуть
реку на 2 шага"), never "1 steps" (issue 12 item 9)."""

from __future__ import annotations

import pytest

from companion.web.strings import _TEXT, LANGUAGES, text

# How many plural forms a counted string has in each language (companion.i18n.forms).
FORMS = {"en": 2, "it": 2, "ru": 3, "pl": 3, "zh": 1}
COUNTED = sorted(key for key, texts in _TEXT.items() if "{n}" in texts[0] and
                 key not in ("round",))


def test_the_counted_strings_are_found():
    assert {"legal_count", "river.move", "feed.river"} <= set(COUNTED)


@pytest.mark.parametrize("key", COUNTED)
def test_every_counted_string_has_each_languages_plural_forms(key):
    for lang, template in zip(LANGUAGES, _TEXT[key], strict=True):
        forms = template.split("|")
        assert len(forms) == FORMS[lang], f"{lang} {key}: {len(forms)} forms"
        assert all("{n}" in form for form in forms), f"{lang} {key}"


@pytest.mark.parametrize(("lang", "n", "said"), [
    ("en", 1, "1 legal move"), ("en", 2, "2 legal moves"),
    ("ru", 1, "1 допустимый ход"), ("ru", 3, "3 допустимых хода"),
    ("ru", 5, "5 допустимых ходов"), ("ru", 21, "21 допустимый ход"),
    ("pl", 1, "1 dozwolony ruch"), ("pl", 4, "4 dozwolone ruchy"),
    ("pl", 12, "12 dozwolonych ruchów"), ("it", 1, "1 mossa legale"),
    ("zh", 1, "1种合法行动"),
])
def test_legal_move_counts(lang, n, said):
    assert text("legal_count", lang, n=n) == said


def test_the_river_moves_one_step():
    assert text("river.move", "en", n=1) == "Move the river 1 step"
    assert text("river.move", "ru", n=2) == "Сдвинуть реку на 2 шага"
