"""The table page: a tablet, laptop or TV at the table. Anyone on the network may
watch it; only a browser holding the table key (the link `companion serve` prints)
gets the controls: new game, join codes, moves, river, undo."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, redirect, request

from .auth import LANG_COOKIE, TABLE_COOKIE, is_table, table
from .pages import error_page, page_lang, render_page

bp = Blueprint("table", __name__)


@bp.get("/")
def table_page() -> Any:
    lang = page_lang()
    response = current_app.make_response(
        render_page("table.html", lang, controls=is_table(),
                    page_data={"controls": is_table()}))
    if request.args.get("lang") == lang:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 86400, samesite="Lax")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/table")
def table_login() -> Any:
    """The table link: `/table?key=…` stores the key in a cookie and opens the page."""
    key = request.args.get("key", "")
    if not table().check_table_key(key):
        return error_page(403, "this table link is not valid: use the link printed by "
                               "`companion serve` (or its QR code in the terminal)")
    response = redirect("/")
    response.set_cookie(TABLE_COOKIE, key, max_age=365 * 86400, httponly=True,
                        samesite="Lax")
    return response
