"""Live updates over Server-Sent Events: each page keeps one stream open and gets its
whole state (never a diff) after every change, so a phone waking from sleep needs only
to reconnect (EventSource does that by itself) to be up to date again."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from flask import Blueprint, Response, current_app, stream_with_context

from companion.app import NotSeated, Table

from .auth import is_table, seat_token, table
from .pages import page_lang
from .views import phone_state, table_state

bp = Blueprint("stream", __name__, url_prefix="/stream")

RETRY_MS = 2000


def _message(state: dict[str, Any], event: str = "state") -> str:
    data = json.dumps(state, ensure_ascii=False, separators=(",", ":"))
    return f"id: {state.get('version', 0)}\nevent: {event}\ndata: {data}\n\n"


def _events(table_: Table, render: Callable[[], dict[str, Any] | None],
            heartbeat: float) -> Iterator[str]:
    yield f"retry: {RETRY_MS}\n\n"
    seen = -1
    while True:
        version = table_.version
        if version != seen:
            state = render()
            if state is None:
                yield 'event: logout\ndata: {}\n\n'
                return
            seen = version
            yield _message(state)
        if table_.wait_for_change(seen, heartbeat) == seen:
            yield ": ping\n\n"  # lets a proxy and the server notice a vanished phone


def _response(events: Iterator[str]) -> Response:
    return Response(stream_with_context(events), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@bp.get("/table")
def table_stream() -> Response:
    t, lang, controls = table(), page_lang(), is_table()
    return _response(_events(t, lambda: table_state(t, lang, controls),
                             float(current_app.config["HEARTBEAT_SECONDS"])))


@bp.get("/phone")
def phone_stream() -> Response:
    t, token = table(), seat_token()
    seat = t.seat_for(token)
    if seat is None:
        raise NotSeated("this phone has no seat in the current game: scan the seat's "
                        "QR code on the table")
    lang = page_lang(for_phone=True)

    def render() -> dict[str, Any] | None:
        # A new phone on the seat, or a new game, ends this stream: check every time.
        if t.seat_for(token) != seat:
            return None
        return phone_state(t, seat, t.seat_lang(seat) or lang)

    return _response(_events(t, render, float(current_app.config["HEARTBEAT_SECONDS"])))
