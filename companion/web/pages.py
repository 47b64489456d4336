"""What every page shares: its language and its words."""

from __future__ import annotations

from typing import Any

from flask import current_app, render_template, request

from companion.rules import GEMS, PLAYER_COLOURS, SLOTS, VARIANTS

from .auth import LANG_COOKIE, current_seat, table
from .messages import negotiate
from .strings import LANGUAGE_NAMES, LANGUAGES, strings


def page_lang(for_phone: bool = False) -> str:
    """?lang=, then the seat's own choice (phones), the cookie, the config, the browser."""
    asked = request.args.get("lang")
    if asked in LANGUAGES:
        return asked
    if for_phone:
        seat = current_seat()
        if seat:
            lang = table().seat_lang(seat)
            if lang in LANGUAGES:
                return lang
    cookie = request.cookies.get(LANG_COOKIE)
    if cookie in LANGUAGES:
        return cookie
    configured = current_app.config.get("LANGUAGE")
    if configured in LANGUAGES:
        return configured
    return negotiate(request.headers.get("Accept-Language"))


def render_page(template: str, lang: str, **context: Any) -> Any:
    return render_template(
        template, lang=lang, t=strings(lang), languages=LANGUAGE_NAMES,
        page={"lang": lang, "strings": strings(lang), "colours": list(PLAYER_COLOURS),
              "gems": list(GEMS), "slots": list(SLOTS), "variants": list(VARIANTS),
              "languages": LANGUAGE_NAMES, **context.pop("page_data", {})},
        **context)


def error_page(status: int, message: str) -> Any:
    lang = page_lang()
    return render_page("error.html", lang, status=status, message=message), status


__all__ = ["page_lang", "render_page", "error_page", "LANGUAGES"]
