"""Live updates over a real server on 127.0.0.1: pushes, heartbeats, reconnection."""

from __future__ import annotations

import json
import urllib.request

import pytest

from companion.web import create_app
from companion.web.server import BackgroundServer
from companion.web.sse import SSEClient


@pytest.fixture
def served(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "live.sqlite3"), "HEARTBEAT_SECONDS": 0.3})
    table = app.extensions["companion.table"]
    table.new_game(["blue", "green", "yellow"])
    with BackgroundServer(app) as server:
        yield server, table


def post(url: str, body: dict, headers: dict | None = None) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json",
                                              **(headers or {})})
    with urllib.request.urlopen(request, timeout=10) as reply:
        return {"json": json.load(reply), "cookie": reply.headers.get("Set-Cookie", "")}


def join(server, table, player: str) -> dict[str, str]:
    reply = post(server.url + "/api/join", {"token": table.join_tokens()[player]})
    return {"Cookie": reply["cookie"].split(";")[0]}


def states(client: SSEClient):
    return (data for event, data in client if event == "state")


def test_a_phones_card_reaches_the_table_stream_and_the_other_phones(served):
    server, table = served
    blue, green = join(server, table, "blue"), join(server, table, "green")
    with SSEClient(server.url + "/stream/table", timeout=10) as tv, \
            SSEClient(server.url + "/stream/phone", headers=green, timeout=10) as phone:
        tv_states, phone_states = states(tv), states(phone)
        assert next(tv_states)["chosen"] == [] and next(phone_states)["seat"] == "green"
        post(server.url + "/api/phone/card", {"card": 3}, blue)
        assert next(tv_states)["chosen"] == ["blue"]
        seen = next(phone_states)
        assert seen["chosen"] == ["blue"] and seen["choice"] is None


def test_an_idle_stream_sends_heartbeats(served):
    server, _ = served
    with SSEClient(server.url + "/stream/table", timeout=10, comments=True) as tv:
        events = iter(tv)
        assert next(events)[0] == "state"
        assert next(events) == (":", "ping")


def test_a_reconnecting_page_starts_from_the_whole_current_state(served):
    server, table = served
    blue = join(server, table, "blue")
    with SSEClient(server.url + "/stream/phone", headers=blue, timeout=10) as phone:
        first = next(states(phone))
    # The phone sleeps; meanwhile the others choose and it changes nothing itself.
    table.choose("green", 2)
    table.choose("yellow", "cloud")
    with SSEClient(server.url + "/stream/phone", headers=blue, timeout=10) as phone:
        again = next(states(phone))
    assert again["version"] == table.version > first["version"]
    assert again["chosen"] == ["green", "yellow"] and again["seat"] == "blue"


def test_a_stream_without_a_seat_is_refused_with_401(served):
    server, _ = served
    client = SSEClient(server.url + "/stream/phone", timeout=10)
    assert client.status == 401
    client.close()
