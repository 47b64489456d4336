"""The JSON each page receives (over the API and the live stream), built from the
Table's views: the phone's own seat only, the table the public view."""

from __future__ import annotations

import ipaddress
import secrets
import socket
import weakref
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

import segno
from flask import current_app, request

from companion.app import Table

from .messages import localise_feed, move_choices

# The table's change counter starts again at 1 when the server restarts, so a page
# cannot order two states by version alone: each Table object (one per server start)
# gets its own random id, sent with every state. A page that sees a new id takes the
# state whatever its version (it came from a server that started since).
_server_ids: weakref.WeakKeyDictionary[Table, str] = weakref.WeakKeyDictionary()


def server_id(table: Table) -> str:
    """A random id of this Table object: it changes with every server start."""
    ident = _server_ids.get(table)
    if ident is None:
        ident = _server_ids.setdefault(table, secrets.token_hex(6))
    return ident


def phone_state(table: Table, seat: str, lang: str) -> dict[str, Any]:
    state = table.view(seat)
    state["feed"] = localise_feed(state.get("feed", []), lang)
    state["lang"] = lang
    # Whether moves made on the board are read by a camera (the phone says where to move).
    camera = current_app.extensions.get("companion.camera")
    state["camera_watching"] = camera is not None and camera.status.get("state") != "lost"
    state["server"] = server_id(table)
    return state


def table_state(table: Table, lang: str, controls: bool) -> dict[str, Any]:
    """The public view; with `controls` (the table key) also the seats' join links."""
    state = table.view(None)
    state["feed"] = localise_feed(state.get("feed", []), lang)
    state["lang"] = lang
    state["controls"] = controls
    if state.get("legal") and table.game is not None:
        state["moves"] = move_choices(table.game, lang)  # the picker, in words and ranked
    state["server"] = server_id(table)
    leds = current_app.extensions.get("companion.leds")
    state["leds"] = leds() if leds else None
    camera = current_app.extensions.get("companion.camera")
    state["camera"] = dict(camera.status) if camera else None
    if state["camera"] is not None:
        # Offered at a game's start: a photo of its own setup teaches the table's colours.
        state["camera"]["calibrate"] = (controls and table.game is not None
                                        and not table.game.events)
    if controls and state.get("game") is not None:
        base = public_base_url()
        state["join"] = {player: {"url": f"{base}join/{token}", "qr": qr_svg(f"{base}join/{token}")}
                         for player, token in table.join_tokens().items()}
    return state


def qr_code(url: str) -> segno.QRCode:
    """The QR code of a join link (medium error correction: a tablet's glare)."""
    return segno.make(url, error="m")


@lru_cache(maxsize=64)
def qr_svg(url: str) -> str:
    """The join link's QR code as an SVG data URI, dark on white with a quiet zone."""
    return qr_code(url).svg_data_uri(scale=6, border=2)


def public_base_url() -> str:
    """The address phones use to reach this server: PUBLIC_URL when configured; else
    the address the table page used, unless that is a loopback one (a browser on the
    Pi itself), then this machine's LAN address."""
    configured = current_app.config.get("PUBLIC_URL")
    if configured:
        return configured.rstrip("/") + "/"
    url = urlsplit(request.host_url)
    host = url.hostname or "127.0.0.1"
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if loopback:
        lan = lan_address()
        if lan:
            port = f":{url.port}" if url.port else ""
            return f"{url.scheme}://{lan}{port}/"
    return request.host_url


@lru_cache(maxsize=1)
def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            address = s.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") else address
