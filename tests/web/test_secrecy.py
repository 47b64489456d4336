"""Secrecy, tested as an attacker: every route of the app, with no token, a wrong
token, another seat's token, the table key, and seat-naming parameters and headers;
no response (page, JSON, live stream) may carry a card or hand that is not the
caller's own or already revealed."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from companion.web.auth import SEAT_COOKIE, TABLE_COOKIE

from .conftest import choose_all

SNEAKY_PARAMS = "?seat=blue&player=blue&colour=blue&token=blue&debug=1&lang=ru"
SNEAKY_HEADERS = {"X-Seat": "blue", "X-Player": "blue", "X-Forwarded-For": "127.0.0.1"}


def stream_first_state(client, path: str, **kw) -> tuple[int, str]:
    """Status and the text of a live stream up to its first state message."""
    response = client.get(path, buffered=False, **kw)
    if response.status_code != 200:
        return response.status_code, response.get_data(as_text=True)
    text = ""
    for chunk in response.response:
        text += chunk.decode()
        if "event: state" in text and text.endswith("\n\n"):
            break
        if "event: logout" in text:
            break
    response.close()
    return 200, text


def json_documents(body: str) -> list[Any]:
    """Every JSON document in a response: the body itself, SSE data lines, and the
    PAGE object embedded in an HTML page."""
    docs = []
    try:
        docs.append(json.loads(body))
    except ValueError:
        pass
    docs += [json.loads(line[6:]) for line in body.splitlines() if line.startswith("data: ")]
    for match in re.finditer(r"window\.PAGE = (\{.*?\});</script>", body, re.S):
        docs.append(json.loads(match.group(1)))
    return docs


def assert_no_secret(doc: Any, viewer: str | None, revealed: set[str]) -> None:
    if isinstance(doc, dict):
        if isinstance(doc.get("hands"), dict):
            assert set(doc["hands"]) <= {viewer}, f"hands of {set(doc['hands'])} shown"
        if isinstance(doc.get("cards"), dict):
            shown = {p for p in doc["cards"] if p != viewer and p not in revealed}
            assert not shown, f"unrevealed cards of {shown} shown to {viewer}"
        if "choice" in doc:
            assert doc["choice"] is None or doc.get("seat") == viewer, "another seat's choice"
        if "seat" in doc and doc.get("version") is not None:
            assert doc["seat"] in (viewer, None)
        for value in doc.values():
            assert_no_secret(value, viewer, revealed)
    elif isinstance(doc, list):
        for value in doc:
            assert_no_secret(value, viewer, revealed)


def all_requests(app) -> list[tuple[str, str]]:
    """(method, path) for every route of the app, placeholders filled in."""
    out = []
    for rule in app.url_map.iter_rules():
        path = rule.rule.replace("<token>", "not-a-real-token").replace(
            "<path:filename>", "common.js")
        assert "<" not in path, f"route {rule.rule} needs a value in this test"
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            out.append((method, path))
    return out


def credentials(phones, table) -> dict[str, tuple[str | None, dict[str, str], dict[str, str]]]:
    """name -> (who the caller is, cookies, headers)."""
    green = phones["green"].get_cookie(SEAT_COOKIE).value
    return {
        "none": (None, {}, {}),
        "wrong token": (None, {SEAT_COOKIE: "x" * 32}, {"Authorization": "Bearer " + "y" * 32}),
        "another seat's token": ("green", {SEAT_COOKIE: green}, {}),
        "another seat's token as bearer": ("green", {}, {"Authorization": f"Bearer {green}"}),
        "table key": (None, {TABLE_COOKIE: table.table_key}, {"X-Table-Key": table.table_key}),
        "table key as seat token": (None, {SEAT_COOKIE: table.table_key}, {}),
    }


def sweep(app, phones, table, revealed: set[str]) -> int:
    """Call every route with every credential; returns how many responses were checked."""
    checked = 0
    for name, (viewer, cookies, headers) in credentials(phones, table).items():
        for method, path in all_requests(app):
            client = app.test_client()
            for key, value in cookies.items():
                client.set_cookie(key, value)
            url = path + SNEAKY_PARAMS
            if path.startswith("/stream/"):
                status, body = stream_first_state(client, url, headers=SNEAKY_HEADERS | headers)
            elif method == "GET":
                reply = client.get(url, headers=SNEAKY_HEADERS | headers)
                status, body = reply.status_code, reply.get_data(as_text=True)
            else:
                if path == "/api/table/new" or (path == "/api/table/seat" and viewer is None):
                    continue  # the table's own powers: a new game, a seat to a new phone
                reply = client.post(url, json={}, headers=SNEAKY_HEADERS | headers)
                status, body = reply.status_code, reply.get_data(as_text=True)
            assert status < 500, (name, method, path, body[:200])
            for doc in json_documents(body):
                try:
                    assert_no_secret(doc, viewer, revealed)
                except AssertionError as exc:
                    raise AssertionError(f"{name}: {method} {path}: {exc}") from None
            checked += 1
    return checked


def test_every_route_keeps_the_cards_face_down_before_the_reveal(app, phones, table):
    choose_all(phones, {"blue": 4, "green": "cloud", "yellow": 2})
    assert sweep(app, phones, table, revealed=set()) > 60
    # Nobody but green itself (which took its card back with its own token) changed a card.
    assert {p: table.choice(p) for p in ("blue", "yellow")} == {"blue": 4, "yellow": 2}


def test_every_route_shows_only_the_revealed_card_during_the_turns(app, phones, table,
                                                                   table_client):
    choose_all(phones, {"blue": 4, "green": "cloud", "yellow": 2})
    assert table_client.post("/api/table/reveal", json={}).status_code == 200
    sweep(app, phones, table, revealed={"blue"})


def test_a_phone_reads_only_its_own_seat_whatever_it_asks_for(phones):
    choose_all(phones, {"blue": 4, "green": "cloud", "yellow": 2})
    for path in ("/api/phone?seat=blue", "/api/phone?player=blue"):
        state = phones["green"].get(path, headers={"X-Seat": "blue"}).json["state"]
        assert state["seat"] == "green" and state["choice"] == "cloud"
        assert state["hands"] == {"green": [1, 2, 3, 4, 5, 6, "cloud"]}


def test_the_live_stream_of_another_seat_cannot_be_read(app, phones):
    choose_all(phones, {"blue": 4, "green": "cloud", "yellow": 2})
    status, body = stream_first_state(phones["green"], "/stream/phone?seat=blue")
    (state,) = json_documents(body)
    assert status == 200 and state["seat"] == "green" and state["choice"] == "cloud"
    stranger = app.test_client()
    assert stream_first_state(stranger, "/stream/phone")[0] == 401
    stranger.set_cookie(SEAT_COOKIE, "guessed-token")
    assert stream_first_state(stranger, "/stream/phone")[0] == 401


def test_a_phone_replaced_by_a_new_one_is_logged_out_of_api_and_stream(app, phones, table):
    old = phones["blue"]
    new = app.test_client()
    assert new.post("/api/join", json={"token": table.open_seat("blue")}).status_code == 200
    assert old.get("/api/phone").status_code == 401
    status, body = stream_first_state(old, "/stream/phone")
    assert status == 401
    assert new.get("/api/phone").json["state"]["seat"] == "blue"


def test_an_open_stream_ends_with_logout_when_the_seat_moves(app, phones, table):
    response = phones["blue"].get("/stream/phone", buffered=False)
    chunks = iter(response.response)
    text = ""
    while "event: state" not in text:
        text += next(chunks).decode()
    app.test_client().post("/api/join", json={"token": table.open_seat("blue")})
    text = ""
    while "event:" not in text:
        text += next(chunks).decode()
    assert "event: logout" in text
    response.close()


def test_the_table_controls_need_the_table_key(app, phones, table):
    seat_token = phones["blue"].get_cookie(SEAT_COOKIE).value
    for path in ("/api/table/new", "/api/table/turn", "/api/table/river", "/api/table/undo",
                 "/api/table/reveal", "/api/table/seat"):
        for headers in ({}, {"X-Table-Key": "wrong"}, {"X-Table-Key": seat_token}):
            reply = phones["blue"].post(path, json={}, headers=headers)
            assert reply.status_code == 403, (path, headers)
    assert phones["blue"].get("/api/table/log").status_code == 403
    assert "join" not in phones["blue"].get("/api/table").json  # no seat codes without key


def test_a_wrong_table_link_is_refused(spectator):
    reply = spectator.get("/table?key=guess")
    assert reply.status_code == 403 and spectator.get_cookie(TABLE_COOKIE) is None


def test_the_game_log_is_withheld_while_it_holds_unrevealed_cards(phones, table_client):
    choose_all(phones, {"blue": 4, "green": "cloud", "yellow": 2})
    assert table_client.get("/api/table/log").status_code == 200  # choices are not in it
    table_client.post("/api/table/reveal", json={})
    reply = table_client.get("/api/table/log")
    assert reply.status_code == 409 and "phase II" in reply.json["error"]


def test_a_join_link_of_an_earlier_game_opens_nothing(app, phones, new_game, table):
    token = table.open_seat("blue")
    new_game(["red", "brown", "green"])
    reply = app.test_client().post("/api/join", json={"token": token})
    assert reply.status_code == 403
    assert phones["green"].get("/api/phone").status_code == 401


def test_the_leak_detector_itself_catches_the_referees_whole_truth(phones, table):
    choose_all(phones, {"blue": 4, "green": "cloud", "yellow": 2})
    table.reveal()
    with pytest.raises(AssertionError, match="hands|unrevealed"):
        assert_no_secret({"state": table.game.snapshot()}, None, {"blue"})
