"""The values that fill a translated message's placeholders.

Each value writes itself in one language when formatted, so that a catalogue template
chooses the grammatical form it needs with a format spec:

* ``{player:gen}`` — a :class:`Name` in the genitive (any form the catalogue defines;
  ``{player:code}`` is the engine's own word, e.g. for the notation ``"blue:red"``);
* ``{cost:очко|очка|очков}`` — a :class:`Count` with the plural form the number needs;
  ``{weather:+d}`` — an ordinary number format;
* ``{who}`` — a :class:`Canoe`, written with the catalogue's ``canoe`` phrase;
* ``{camp:short}`` — a :class:`Listing`, each item in that form.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence


class Name:
    """A word of the game (a colour, a gem, a place, a card) in one language."""

    def __init__(self, code: str, forms: Mapping[str, str]) -> None:
        self.code = code
        self.forms = dict(forms)

    def __format__(self, spec: str) -> str:
        if spec == "code":
            return self.code
        return self.forms.get(spec or "nom") or self.forms.get("nom") or self.code

    def __str__(self) -> str:
        return format(self, "")

    def __repr__(self) -> str:
        return f"Name({self.code!r}, {self.forms!r})"


def _plural_ru(n: int) -> int:
    if n % 10 == 1 and n % 100 != 11:
        return 0
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return 1
    return 2


def _plural_pl(n: int) -> int:
    if n == 1:
        return 0
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return 1
    return 2


def _plural_one_other(n: int) -> int:
    return 0 if n == 1 else 1


# Which plural form (index into the `one|few|many` list of a spec) a number takes.
PLURAL_RULES: dict[str, Callable[[int], int]] = {
    "en": _plural_one_other, "it": _plural_one_other, "ru": _plural_ru, "pl": _plural_pl,
    "zh": lambda n: 0,
}


class Count:
    """A whole number; with a spec of words (``punto|punti``) it adds the right plural."""

    def __init__(self, n: int, lang: str) -> None:
        self.n = n
        self.rule = PLURAL_RULES.get(lang, _plural_one_other)

    def __format__(self, spec: str) -> str:
        if "|" not in spec:  # an ordinary number format, e.g. "+d"
            return format(self.n, spec)
        words = spec.split("|")
        word = words[min(self.rule(abs(self.n)), len(words) - 1)]
        return f"{self.n} {word}"

    def __str__(self) -> str:
        return str(self.n)


class Listing:
    """Several values joined by the language's separator; `empty` when there are none."""

    def __init__(self, items: Sequence[object], sep: str, empty: str = "") -> None:
        self.items = list(items)
        self.sep = sep
        self.empty = empty

    def __format__(self, spec: str) -> str:
        if not self.items:
            return self.empty
        return self.sep.join(format(item, spec) for item in self.items)

    def __str__(self) -> str:
        return format(self, "")


class Phrase:
    """A small sub-template of the catalogue (a canoe, a canoe's place) with its values.

    ``phrases`` maps a key to a template; the format spec picks a variant
    ``key:spec`` when the catalogue has one, else the plain ``key``.
    """

    def __init__(self, key: str, phrases: Mapping[str, str], values: Mapping[str, object]):
        self.key = key
        self.phrases = phrases
        self.values = dict(values)

    def __format__(self, spec: str) -> str:
        template = self.phrases.get(f"{self.key}:{spec}") if spec else None
        template = template or self.phrases.get(self.key, "")
        return template.format_map(self.values)

    def __str__(self) -> str:
        return format(self, "")
