"""Who is asking: a phone (its seat token) or the table (the table key).

A phone's seat token lives in an HttpOnly cookie set when it joins (or an
``Authorization: Bearer`` header for scripts); the table key in a cookie set by the
table link that ``companion serve`` prints (or an ``X-Table-Key`` header). Nothing
else (no query parameter, no seat name in a URL) ever chooses whose secrets to show.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from flask import current_app, g, request

from companion.app import Forbidden, NotSeated, Table

SEAT_COOKIE = "niagara_seat"
TABLE_COOKIE = "niagara_table"
LANG_COOKIE = "niagara_lang"

F = TypeVar("F", bound=Callable[..., Any])


def table() -> Table:
    return current_app.extensions["companion.table"]


def seat_token() -> str | None:
    header = request.headers.get("Authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return request.cookies.get(SEAT_COOKIE) or None


def current_seat() -> str | None:
    """The seat of the asking phone, or None (no token, a wrong or replaced one)."""
    if "seat" not in g:
        g.seat = table().seat_for(seat_token())
    return g.seat


def is_table() -> bool:
    key = request.headers.get("X-Table-Key") or request.cookies.get(TABLE_COOKIE)
    return table().check_table_key(key)


def seat_required(view: F) -> F:
    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        seat = current_seat()
        if seat is None:
            raise NotSeated("this phone has no seat in the current game (or another "
                        "phone took it over): scan the seat's QR code on the table")
        return view(seat, *args, **kwargs)
    return wrapper  # type: ignore[return-value]


def table_required(view: F) -> F:
    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not is_table():
            raise Forbidden("only the table page may do this: open the table link "
                        "printed by `companion serve`")
        return view(*args, **kwargs)
    return wrapper  # type: ignore[return-value]
