"""The pages: languages, join codes that scan, spectators without controls."""

from __future__ import annotations

import string

import cv2
import numpy as np
import pytest

from companion.web.strings import _TEXT, LANGUAGES, STRINGS
from companion.web.views import lan_address, qr_code, qr_svg

from .conftest import join_token


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("key", sorted(_TEXT))
def test_every_page_string_exists_in_all_five_languages_with_the_same_placeholders(key):
    texts = _TEXT[key]
    assert len(texts) == len(LANGUAGES) and all(t.strip() for t in texts)
    assert len({frozenset(placeholders(t)) for t in texts}) == 1, texts


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_page_is_in_the_chosen_language(spectator, lang, new_game):
    new_game()
    page = spectator.get(f"/?lang={lang}").get_data(as_text=True)
    assert f'<html lang="{lang}">' in page
    assert STRINGS[lang]["spectator"].split("`")[0].strip() in page
    assert spectator.get_cookie("niagara_lang").value == lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_phone_page_follows_the_language_chosen_on_the_phone(phones, lang):
    assert phones["green"].post("/api/phone/lang", json={"lang": lang}).status_code == 200
    page = phones["green"].get("/phone").get_data(as_text=True)
    assert f'<html lang="{lang}">' in page and STRINGS[lang]["your_hand"] in page


def test_the_browser_language_is_the_default(spectator):
    page = spectator.get("/", headers={"Accept-Language": "pl-PL,pl;q=0.9,en;q=0.5"})
    assert '<html lang="pl">' in page.get_data(as_text=True)


def test_rule_messages_in_the_feed_are_translated_for_the_page(phones, table, table_client):
    from .conftest import choose_all
    choose_all(phones, {"blue": 6, "green": 5, "yellow": 4})
    table.reveal()
    table.play_turn("D-5")
    feed = table_client.get("/api/table?lang=it").json["feed"]
    illegal = [e for e in feed if not e["ok"]][-1]
    assert illegal["rule"] == "R-PTS-2"
    assert illegal["message_en"].startswith("blue's canoe")
    assert illegal["message"] != illegal["message_en"] and illegal["title"]


def test_a_seats_qr_code_scans_to_its_join_link(new_game):
    state = new_game()
    url = state["join"]["blue"]["url"]
    assert url == f"http://niagara.test:8000/join/{join_token(state, 'blue')}"
    assert state["join"]["blue"]["qr"] == qr_svg(url)  # the page shows this code
    # OpenCV's classic QR reader misses about 2 % of valid codes (a random token can
    # make one it cannot read at one scale); the ArUco-based reader (OpenCV >= 4.8)
    # reads them all. Either way the code must scan to exactly the join link.
    reader = getattr(cv2, "QRCodeDetectorAruco", cv2.QRCodeDetector)()
    decoded = set()
    for scale in (8, 6, 10):
        png = qr_code(url).png_data_uri(scale=scale, border=4)
        raw = __import__("base64").b64decode(png.split(",", 1)[1])
        image = cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_GRAYSCALE)
        decoded.add(reader.detectAndDecode(image)[0])
    assert url in decoded and decoded <= {url, ""}


def test_join_links_use_the_lan_address_when_the_table_is_opened_on_localhost(app, table):
    app.config["PUBLIC_URL"] = None
    client = app.test_client()
    client.get(f"/table?key={table.table_key}")
    table.new_game(["blue", "green", "yellow"])
    url = client.get("/api/table", base_url="http://localhost:8000").json["join"]["blue"]["url"]
    if lan_address() is None:  # a machine with no network at all: nothing better to offer
        assert url.startswith("http://localhost:8000/join/")
    else:
        assert url.startswith(f"http://{lan_address()}:8000/join/")
    key = {"X-Table-Key": table.table_key}
    url = client.get("/api/table", base_url="http://192.168.1.50:8000", headers=key).json
    assert url["join"]["blue"]["url"].startswith("http://192.168.1.50:8000/join/")


def test_a_spectator_sees_the_board_but_no_controls_and_no_codes(spectator, new_game):
    new_game()
    page = spectator.get("/").get_data(as_text=True)
    assert 'id="actions"' not in page and 'id="new-game"' not in page
    state = spectator.get("/api/table").json
    assert state["controls"] is False and "join" not in state


def test_the_join_page_does_not_use_the_token_up_on_a_plain_fetch(spectator, new_game, table):
    state = new_game()
    token = join_token(state, "blue")
    assert spectator.get(f"/join/{token}").status_code == 200  # e.g. a link preview
    assert table.join_tokens()["blue"] == token


def test_an_unknown_page_is_a_friendly_404(spectator):
    reply = spectator.get("/no/such/page")
    assert reply.status_code == 404 and "no such page" in reply.get_data(as_text=True)
