"""The phones and the table page: Flask, Server-Sent Events, QR codes to join.

>>> from companion.web import create_app
>>> app = create_app({"DATABASE": ":memory:"})
>>> client = app.test_client()
>>> client.get("/api/table").json["game"] is None
True

Run it for real with ``companion serve`` (see cli.py). Blueprints: ``table`` (the
table page), ``phone`` (joining and the phone page), ``api`` (JSON), ``stream`` (live
updates). The running game is a :class:`companion.app.Table` in
``app.extensions["companion.table"]``.

Live updates use Server-Sent Events, not WebSockets: every update flows one way
(server to page; the pages act through ordinary POSTs), SSE needs nothing beyond
Flask and the browser's EventSource, which reconnects by itself after a phone wakes
up; each (re)connection starts with the whole current state, so nothing is missed.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.app import (
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    NotSeated,
    Table,
    TableError,
)
from companion.store import Store, default_path

DEFAULTS: dict[str, Any] = {
    "DATABASE": None,            # the SQLite file; None = ~/.local/share/niagara-companion/
    "AUTO_REVEAL": False,        # reveal as soon as every card is down (else a button)
    "PUBLIC_URL": None,          # how phones reach this server, for the QR codes
    "LANGUAGE": None,            # the table page's language; None = the browser's
    "HEARTBEAT_SECONDS": 15.0,   # a comment on idle live streams, to notice dead phones
    "MAX_CONTENT_LENGTH": 16 * 1024,  # request bodies above this get 413
    "TABLE_KEY": None,           # fix the table key (else one is made and stored)
}


class NotJson(Invalid):
    """A request body sent as something other than JSON."""


# The one place where what the table refuses becomes an HTTP status: the most specific
# kind of the error's classes wins (Illegal is a Conflict, NotJson an Invalid).
STATUS: dict[type[TableError], int] = {
    NotJson: 415, Invalid: 400, NotSeated: 401, Forbidden: 403, NotFound: 404, Conflict: 409,
}


def status_of(exc: TableError) -> int:
    """The HTTP status for a refusal (400 for a kind the table adds later)."""
    return next((STATUS[kind] for kind in type(exc).__mro__ if kind in STATUS), 400)


class ConfigError(ValueError):
    """A config file that cannot be read or names an unknown setting."""


def load_config(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Settings from a TOML file (upper-case keys of DEFAULTS, e.g. ``DATABASE = "x"``)."""
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as exc:
        raise ConfigError(f"cannot read config {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config {path} is not valid TOML: {exc}") from None
    unknown = sorted(set(data) - set(DEFAULTS))
    if unknown:
        raise ConfigError(f"config {path}: unknown setting {', '.join(unknown)} "
                          f"(known: {', '.join(DEFAULTS)})")
    return data


def create_app(config: Mapping[str, Any] | str | os.PathLike[str] | None = None, *,
               table: Table | None = None,
               leds: Callable[[], Any] | None = None) -> Flask:
    """The Flask app. `config`: a mapping or a TOML file path (see DEFAULTS). `table`:
    an existing Table to serve (else one on the configured database). `leds`: a
    function returning the simulated LED strip's pixels for the table page."""
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    if isinstance(config, str | os.PathLike):
        config = load_config(config)
    app.config.update(dict(config or {}))
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.json.sort_keys = False  # type: ignore[attr-defined]

    if table is None:
        path = app.config["DATABASE"] or default_path()
        if path != ":memory:":
            Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
            path = str(Path(path).expanduser())
        table = Table(Store(path), auto_reveal=bool(app.config["AUTO_REVEAL"]))
    if app.config["TABLE_KEY"]:
        table.table_key = str(app.config["TABLE_KEY"])
    app.extensions["companion.table"] = table
    if leds is not None:
        app.extensions["companion.leds"] = leds

    from . import api, phone, stream
    from . import table as table_pages
    app.register_blueprint(table_pages.bp)
    app.register_blueprint(phone.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(stream.bp)
    _register_errors(app)
    return app


def _wants_json() -> bool:
    return request.path.startswith(("/api/", "/stream/")) or request.is_json


def _register_errors(app: Flask) -> None:
    @app.errorhandler(TableError)
    def table_error(exc: TableError) -> Any:
        body: dict[str, Any] = {"ok": False, "error": exc.message, "rule": exc.rule}
        status = status_of(exc)
        if _wants_json():
            if exc.key:  # the engine's refusal: said in the asking page's language
                from .messages import describe
                from .pages import page_lang
                said = describe(exc.rule, exc.message, page_lang(for_phone=True), exc.key,
                                exc.fields)
                body.update(error=said["message"], title=said.get("title"),
                            hint=said.get("hint"))
            return jsonify(body), status
        from .pages import error_page
        return error_page(status, exc.message)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        message = {
            404: "no such page or endpoint",
            405: f"{request.method} is not allowed here",
            413: f"the request body is too large (at most "
                 f"{app.config['MAX_CONTENT_LENGTH']} bytes)",
        }.get(exc.code or 500, exc.description or exc.name)
        if _wants_json():
            return jsonify({"ok": False, "error": message, "rule": None}), exc.code
        from .pages import error_page
        return error_page(exc.code or 500, message)


__all__ = ["create_app", "load_config", "ConfigError", "DEFAULTS", "NotJson", "STATUS",
           "status_of"]
