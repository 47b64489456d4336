"""The JSON endpoints. Every POST takes a JSON object (Content-Type application/json,
at most MAX_CONTENT_LENGTH bytes, no unknown fields) and answers with the caller's
new state, or a 4xx with ``{"ok": false, "error": "…", "rule": …}`` and no change."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from companion.app import Conflict, Invalid
from companion.rules import GEMS

from . import NotJson
from .auth import SEAT_COOKIE, current_seat, is_table, seat_required, table, table_required
from .messages import describe
from .pages import page_lang
from .strings import LANGUAGES
from .views import phone_state, table_state

bp = Blueprint("api", __name__, url_prefix="/api")


def json_body(allowed: Iterable[str], required: Iterable[str] = ()) -> dict[str, Any]:
    """The request's JSON object, or NotJson/Invalid (415/400) naming what is wrong."""
    if request.mimetype != "application/json":
        raise NotJson("send a JSON object with Content-Type: application/json")
    raw = request.get_data(cache=True)
    if not raw.strip():
        body: Any = {}
    else:
        try:
            body = json.loads(raw)
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            reason = getattr(exc, "msg", None) or type(exc).__name__
            raise Invalid(f"the body is not valid JSON ({reason})") from None
    if not isinstance(body, dict):
        raise Invalid(f"the body must be a JSON object, not {type(body).__name__}")
    allowed = set(allowed)
    unknown = sorted(str(k) for k in body if k not in allowed)
    if unknown:
        raise Invalid(f"unknown field {unknown[0][:40]!r} (expected: "
                      f"{', '.join(sorted(allowed)) or 'none'})")
    for key in required:
        if key not in body:
            raise Invalid(f"missing field {key!r}")
    return body


def _string(body: dict[str, Any], key: str, limit: int = 200) -> str:
    value = body.get(key)
    if not isinstance(value, str) or not value or len(value) > limit:
        raise Invalid(f"{key!r} must be a text of 1 to {limit} characters")
    return value


def _phone_reply(seat: str) -> Any:
    return jsonify({"ok": True, "state": phone_state(table(), seat, page_lang(True))})


def _table_reply(**extra: Any) -> Any:
    return jsonify({"ok": True, **extra,
                    "state": table_state(table(), page_lang(), is_table())})


# -- joining -----------------------------------------------------------------------------

@bp.post("/join")
def join() -> Any:
    body = json_body({"token", "lang"}, {"token"})
    token = _string(body, "token")
    lang = body.get("lang")
    if lang is not None and lang not in LANGUAGES:
        raise Invalid(f"unknown language (expected one of {', '.join(LANGUAGES)})")
    player, seat_token = table().join(token, lang)
    response = jsonify({"ok": True, "player": player})
    response.set_cookie(SEAT_COOKIE, seat_token, max_age=30 * 86400, httponly=True,
                        samesite="Lax")
    return response


# -- the phone ---------------------------------------------------------------------------

@bp.get("/phone")
@seat_required
def phone(seat: str) -> Any:
    return _phone_reply(seat)


@bp.post("/phone/card")
@seat_required
def phone_card(seat: str) -> Any:
    body = json_body({"card"}, {"card"})
    table().choose(seat, body["card"])
    return _phone_reply(seat)


@bp.post("/phone/withdraw")
@seat_required
def phone_withdraw(seat: str) -> Any:
    json_body(())
    table().withdraw(seat)
    return _phone_reply(seat)


@bp.post("/phone/buyback")
@seat_required
def phone_buyback(seat: str) -> Any:
    body = json_body({"gem"}, {"gem"})
    gem = body["gem"]
    if gem is not None and gem not in GEMS:
        raise Invalid(f"unknown gem (expected one of {', '.join(GEMS)} or null for "
                      "the free canoe)")
    table().buyback(seat, gem)
    return _phone_reply(seat)


@bp.post("/phone/reveal")
@seat_required
def phone_reveal(seat: str) -> Any:
    json_body(())
    table().reveal(by=seat)
    return _phone_reply(seat)


@bp.post("/phone/lang")
@seat_required
def phone_lang(seat: str) -> Any:
    body = json_body({"lang"}, {"lang"})
    if body["lang"] not in LANGUAGES:
        raise Invalid(f"unknown language (expected one of {', '.join(LANGUAGES)})")
    table().set_lang(seat, body["lang"])
    return _phone_reply(seat)


# -- the table ---------------------------------------------------------------------------

@bp.get("/table")
def table_view() -> Any:
    return jsonify(table_state(table(), page_lang(), is_table()))


@bp.post("/table/new")
@table_required
def table_new() -> Any:
    body = json_body({"players", "start", "branch", "variants"}, {"players"})
    players = body["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise Invalid("'players' must be a list of 3-5 colours in seating order")
    variants = body.get("variants", [])
    if not isinstance(variants, list):
        raise Invalid("'variants' must be a list")
    table().new_game(players, body.get("start"), body.get("branch", "L"), variants)
    return _table_reply()


@bp.post("/table/turn")
@table_required
def table_turn() -> Any:
    body = json_body({"move", "turn"})
    if ("move" in body) == ("turn" in body):
        raise Invalid("send either 'move' (text notation, e.g. \"D-4+clear\") or "
                      "'turn' (a turn event object)")
    if "move" in body:
        move: Any = _string(body, "move")
    else:
        move = body["turn"]
        if not isinstance(move, dict):
            raise Invalid("'turn' must be a turn event object")
        move = {"event": "turn", **move}
    verdict = table().play_turn(move, source="table")
    if not verdict.ok:
        said = describe(verdict.rule, verdict.message, page_lang(), verdict.key,
                        verdict.fields)
        return jsonify({"ok": False, "error": said["message"], "rule": verdict.rule,
                        "title": said.get("title"), "hint": said.get("hint")}), 422
    return _table_reply()


@bp.post("/table/river")
@table_required
def table_river() -> Any:
    body = json_body({"steps", "branches"})
    verdict = table().move_river(body.get("steps"), body.get("branches"), source="table")
    if not verdict.ok:
        said = describe(verdict.rule, verdict.message, page_lang(), verdict.key,
                        verdict.fields)
        return jsonify({"ok": False, "error": said["message"], "rule": verdict.rule,
                        "title": said.get("title"), "hint": said.get("hint")}), 422
    return _table_reply()


@bp.post("/table/undo")
@table_required
def table_undo() -> Any:
    json_body(())
    table().undo()
    return _table_reply()


@bp.post("/table/reveal")
@table_required
def table_reveal() -> Any:
    json_body(())
    table().reveal()
    return _table_reply()


@bp.post("/table/seat")
@table_required
def table_seat() -> Any:
    """Open a seat for a new phone (the old phone keeps it until the new one joins)."""
    body = json_body({"player"}, {"player"})
    table().open_seat(_string(body, "player", 20))
    return _table_reply()


@bp.post("/table/calibrate")
@table_required
def table_calibrate() -> Any:
    """Learn the table's colours from the camera's next still view of the game as it
    stands (offered at the start of a game: a photo of its own setup)."""
    from companion.vision.profile import ProfileError

    json_body(())
    camera = current_app.extensions.get("companion.camera")
    if camera is None or camera.status.get("state") == "lost":
        raise Conflict("no camera is watching the board")
    if table().game is None:
        raise Conflict("no game: start one and set it up, then calibrate")
    try:
        kept = camera.calibrate()
    except (ProfileError, TimeoutError) as exc:
        raise Conflict(str(exc)) from None
    return _table_reply(kept=[k.replace(":", " ") for k in kept])


@bp.get("/table/log")
@table_required
def table_log() -> Any:
    lines = table().log_lines()
    game_id = table().game_id
    return Response("\n".join(lines) + "\n", mimetype="application/x-ndjson",
                    headers={"Content-Disposition":
                             f'attachment; filename="niagara-game-{game_id}.jsonl"'})


@bp.get("/whoami")
def whoami() -> Any:
    """Which seat (if any) this browser holds, and whether it is the table."""
    return jsonify({"seat": current_seat(), "table": is_table(),
                    "max_body": current_app.config["MAX_CONTENT_LENGTH"]})
