"""Joining by QR code, and the phone page: a player's secret hand."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app

from .pages import page_lang, render_page

bp = Blueprint("phone", __name__)


@bp.get("/join/<token>")
def join_page(token: str) -> Any:
    """The QR code's link. The page claims the seat with a POST from script, so a
    link preview that only fetches the page does not use the one-time token up."""
    lang = page_lang()
    response = current_app.make_response(
        render_page("join.html", lang, page_data={"token": token[:100]}))
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@bp.get("/phone")
def phone_page() -> Any:
    lang = page_lang(for_phone=True)
    response = current_app.make_response(render_page("phone.html", lang))
    response.headers["Cache-Control"] = "no-store"
    return response
