"""Rule messages in the reader's language (companion.i18n), and the referee feed made
ready for a page.

A verdict is written from the message key and fields the engine gave with it. The
Table puts them in a feed entry as ``key`` and ``fields`` beside the referee's
``rule`` and ``message``; an entry without them (recorded before they existed) shows
the rule's statement and the English message.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.i18n import describe_turn, describe_verdict, negotiate_language
from companion.rules import Game, format_turn, parse_turn
from companion.rules.ranking import rank_turns

from .strings import LANGUAGES, text


def negotiate(accept: str | None) -> str:
    """The best page language for an Accept-Language header."""
    lang = negotiate_language(accept)
    return lang if lang in LANGUAGES else "en"


def describe(rule: str | None, message: str | None, lang: str, key: str | None = None,
             fields: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """An illegal verdict for a page: rule, title, message and hint in `lang`.
    Pass the verdict's ``key`` and ``fields`` (``Verdict.key``/``.fields``)."""
    try:
        return describe_verdict({"ok": False, "rule": rule, "message": message,
                                 "key": key, "fields": fields}, lang)
    except Exception:  # a translation slip must never hide the verdict itself
        return {"ok": False, "rule": rule or "LOG", "title": rule or "LOG",
                "message": message or "", "hint": None}


def _turn_in_words(text: str, player: str, lang: str) -> str:
    """The turn `text` (notation) in words with the notation in brackets; the notation
    alone when it cannot be read."""
    try:
        words = describe_turn(parse_turn(text, player), lang)
    except ValueError:
        return text
    return f"{words} ({text})"


def _answer_in_words(answer: Any, player: str, lang: str) -> Any:
    """A camera question's turn choice with its words (``words``) for its button."""
    if not isinstance(answer, dict) or not isinstance(answer.get("move"), str):
        return answer
    try:
        return {**answer, "words": describe_turn(parse_turn(answer["move"], player), lang)}
    except ValueError:
        return answer


def localise_feed(entries: Iterable[Mapping[str, Any]], lang: str) -> list[dict[str, Any]]:
    """Feed entries with each illegal verdict's message, title and hint in `lang`
    (the English message stays in `message_en`), and each turn in words beside its
    notation (the notation alone stays in `notation`); a camera question's turn choices
    get their words too."""
    out = []
    for entry in entries:
        entry = dict(entry)
        if entry.get("kind") in ("turn", "undo") and isinstance(entry.get("text"), str) \
                and isinstance(entry.get("player"), str):
            entry["notation"] = entry["text"]
            entry["text"] = _turn_in_words(entry["text"], entry["player"], lang)
        if isinstance(entry.get("answers"), list) and isinstance(entry.get("player"), str):
            entry["answers"] = [_answer_in_words(a, entry["player"], lang)
                                for a in entry["answers"]]
        if entry.get("kind") == "camera" and entry.get("status") == "ambiguous" \
                and not entry.get("rule"):
            # A question, not a verdict: no rule was broken. The choices in notation
            # (the table page adds a button for each while the question stands).
            entry["message_en"] = entry.get("message")
            entry["title"] = text("camera.asked", lang)
            if isinstance(entry.get("choices"), list) and entry["choices"]:
                entry["message"] = " | ".join(str(c) for c in entry["choices"])
            out.append(entry)
            continue
        if not entry.get("ok", True) and entry.get("message"):
            said = describe(entry.get("rule"), entry.get("message"), lang,
                            entry.get("key"), entry.get("fields"))
            entry["message_en"] = entry["message"]
            entry["message"] = said.get("message") or entry["message"]
            entry["title"] = said.get("title")
            entry["rule_hint"] = said.get("hint")
        out.append(entry)
    return out


MAX_MOVES_LISTED = 400  # the move picker lists at most this many turns
# lang -> (the game state the list was made for, the list): a list is made once per
# position and language, however many pages ask.
_moves_made: dict[str, tuple[object, list[dict[str, str]]]] = {}


def move_choices(game: Game, lang: str) -> list[dict[str, str]]:
    """The move picker: the legal turns of the player to move, the most wanted first
    (companion.rules.ranking), each as ``{"move": notation, "words": in lang}``."""
    state = game.state
    made = _moves_made.get(lang)
    if made is not None and made[0] is state:
        return made[1]
    if game.to_move is None or game.phase != "turns":
        return []
    turns = rank_turns(state, game.legal_turns())[:MAX_MOVES_LISTED]
    moves = [{"move": format_turn(turn), "words": describe_turn(turn, lang)} for turn in turns]
    _moves_made[lang] = (state, moves)
    return moves
