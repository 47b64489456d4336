"""Fixtures for the web tests: a real SQLite file, the Flask app, a table client
holding the table key, and phones that joined by their QR links."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.app import Table
from companion.web import create_app

PLAYERS = ["blue", "green", "yellow"]


@pytest.fixture
def app(tmp_path) -> Iterator[Flask]:
    app = create_app({"DATABASE": str(tmp_path / "companion.sqlite3"),
                      "PUBLIC_URL": "http://niagara.test:8000", "HEARTBEAT_SECONDS": 0.2})
    yield app
    app.extensions["companion.table"].store.close()


@pytest.fixture
def table(app: Flask) -> Table:
    return app.extensions["companion.table"]


@pytest.fixture
def table_client(app: Flask, table: Table) -> FlaskClient:
    client = app.test_client()
    assert client.get(f"/table?key={table.table_key}").status_code == 302
    return client


@pytest.fixture
def spectator(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def new_game(table_client: FlaskClient) -> Callable[..., dict]:
    def start(players: list[str] = PLAYERS, **setup) -> dict:
        reply = table_client.post("/api/table/new", json={"players": players, **setup})
        assert reply.status_code == 200, reply.json
        return reply.json["state"]
    return start


def join_token(state: dict, player: str) -> str:
    return state["join"][player]["url"].rsplit("/", 1)[1]


@pytest.fixture
def phones(app: Flask, new_game) -> dict[str, FlaskClient]:
    """A 3-player game (blue starts) with a phone joined on every seat."""
    state = new_game()
    out = {}
    for player in PLAYERS:
        client = app.test_client()
        reply = client.post("/api/join", json={"token": join_token(state, player)})
        assert reply.json == {"ok": True, "player": player}
        out[player] = client
    return out


def choose_all(phones: dict[str, FlaskClient], cards: dict[str, object]) -> None:
    for player, card in cards.items():
        reply = phones[player].post("/api/phone/card", json={"card": card})
        assert reply.status_code == 200, reply.json
