"""The rules and the referee's messages in the rule books' languages: English,
Russian, Chinese, Polish and Italian.

>>> from companion.i18n import translate_verdict, rule_text, hint
>>> rule_text("R-GEM-1", "ru")["title"]
'Один камень в каноэ'
>>> render("turn.other", {"mover": "blue", "player": "green"}, "it")
'è il turno di Blu, non di Verde'
>>> hint("R-PTS-3", None, "zh")
'打出 1 的船只能移动，不能装卸宝石：把宝石放回去，只移动 1 步。'

Every refusal of the engine carries a message key and its fields (companion.rules
.messages); the catalogues in ``catalogues/<lang>.json`` hold each language's
templates for them (English included: the engine writes its own text from en.json),
the rule statements, the hints and the words of the game, all data.
Everything returns text and never raises on a message it does not know.
"""

from .catalogue import LANGUAGES
from .translate import (
    colour_name,
    describe_verdict,
    gem_name,
    hint,
    language,
    negotiate_language,
    render,
    rule_text,
    translate_verdict,
)
from .turns import describe_action, describe_turn

__all__ = [
    "LANGUAGES", "colour_name", "describe_action", "describe_turn", "describe_verdict",
    "gem_name", "hint", "language",
    "negotiate_language", "render", "rule_text", "translate_verdict",
]
