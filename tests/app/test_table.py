"""The live Table: secret choices, the reveal, turns, river, undo, buy-backs, restart,
subscribers."""

from __future__ import annotations

import threading

import pytest

from companion.app import Change, Conflict, Forbidden, Illegal, Invalid, Table, TableError
from companion.rules import danger_zone
from companion.store import Store

PLAYERS = ["blue", "green", "yellow"]


@pytest.fixture
def path(tmp_path):
    return tmp_path / "table.sqlite3"


@pytest.fixture
def table(path):
    table = Table(Store(path))
    table.new_game(PLAYERS)
    yield table
    table.store.close()


def choose(table: Table, cards: dict) -> None:
    for player, card in cards.items():
        table.choose(player, card)


def round_one(table: Table) -> None:
    """blue 6 / green 5 / yellow 4, all launched; the river (speed 4) drops blue's canoe."""
    choose(table, {"blue": 6, "green": 5, "yellow": 4})
    table.reveal()
    for move in ("D-6L", "D-5", "D-4"):
        assert table.play_turn(move).ok
    assert table.move_river().ok


def both_blue_canoes_fall(table: Table) -> None:
    round_one(table)
    choose(table, {"blue": 5, "green": 4, "yellow": 3})
    table.reveal()
    for move in ("7L-3", "7R-4", "D-5"):
        assert table.play_turn(move).ok, move
    assert table.move_river(branches=["L", "L", "L"]).ok


def test_a_choice_can_change_until_the_reveal(table):
    table.choose("blue", 3)
    table.choose("blue", "cloud")
    assert table.choice("blue") == "cloud"
    assert table.chosen() == ["blue"]


def test_a_choice_is_locked_after_the_reveal_R_CARD_1(table):
    choose(table, {"blue": 3, "green": 2, "yellow": 1})
    table.reveal()
    with pytest.raises(TableError) as err:
        table.choose("green", 4)
    assert isinstance(err.value, Illegal) and err.value.rule == "R-CARD-1"
    assert table.game.state.cards["green"] == 2


def test_a_card_already_played_this_cycle_is_refused_R_CARD_2(table):
    round_one(table)
    with pytest.raises(TableError) as err:
        table.choose("blue", 6)
    assert err.value.rule == "R-CARD-2"
    assert table.choice("blue") is None


def test_the_reveal_waits_for_every_player(table):
    choose(table, {"blue": 3, "green": 2})
    assert table.reveal_blocker() == "waiting for yellow to choose a card"
    with pytest.raises(TableError, match="waiting for yellow"):
        table.reveal()
    assert table.game.phase == "cards"


def test_only_the_life_ring_holder_reveals_from_a_phone_R_TURN_1(table):
    choose(table, {"blue": 3, "green": 2, "yellow": 1})
    with pytest.raises(TableError) as err:
        table.reveal(by="green")
    assert err.value.rule == "R-TURN-1"
    table.reveal(by="blue")
    assert table.game.phase == "turns" and table.game.to_move == "blue"


def test_auto_reveal_turns_the_cards_when_the_last_one_is_down(path):
    table = Table(Store(path), auto_reveal=True)
    table.new_game(PLAYERS)
    choose(table, {"blue": 3, "green": 2})
    assert table.game.phase == "cards"
    table.choose("yellow", 1)
    assert table.game.phase == "turns"


def test_only_the_player_to_moves_card_is_public(table):
    choose(table, {"blue": 3, "green": "cloud", "yellow": 1})
    table.reveal()
    assert table.view()["cards"] == {"blue": 3}
    assert table.view("yellow")["cards"] == {"blue": 3, "yellow": 1}
    assert table.view("green")["hands"] == {"green": [1, 2, 3, 4, 5, 6]}


def test_an_illegal_move_is_reported_with_what_to_do_and_changes_nothing(table):
    choose(table, {"blue": 6, "green": 5, "yellow": 4})
    table.reveal()
    before = table.game.snapshot()
    verdict = table.play_turn("D-5")
    assert not verdict.ok and verdict.rule == "R-PTS-2"
    assert table.game.snapshot() == before
    entry = table.view()["feed"][-1]
    assert entry["ok"] is False and entry["rule"] == "R-PTS-2"
    assert entry["hint"] == "retry" and entry["legal"] == 3 and entry["example"]


def test_the_move_picker_lists_the_legal_turns_in_text_notation(table):
    choose(table, {"blue": 6, "green": 5, "yellow": 4})
    table.reveal()
    listed, count = table.legal_turns()
    assert sorted(listed) == ["D-4+clear", "D-6L", "D-6R"] and count == 3


def test_a_move_in_text_that_cannot_be_read_is_invalid(table):
    choose(table, {"blue": 6, "green": 5, "yellow": 4})
    table.reveal()
    with pytest.raises(TableError) as err:
        table.play_turn("to the moon")
    assert isinstance(err.value, Invalid) and "cannot read" in err.value.message


def test_the_river_follows_the_observed_branches(table):
    round_one(table)
    # blue's canoe on 6L fell in round one (L, R, L, R from 6L: 7L then F)
    assert ("F", None) in table.game.state.canoes["blue"]
    assert table.game.round == 2 and table.game.state.start == "green"


def test_a_wrong_number_of_river_steps_is_refused_R_RIVER_1(table):
    choose(table, {"blue": 6, "green": 5, "yellow": 4})
    table.reveal()
    for move in ("D-6L", "D-5", "D-4"):
        table.play_turn(move)
    verdict = table.move_river(steps=2)
    assert verdict.rule == "R-RIVER-1" and table.game.phase == "river"


def test_undoing_the_reveal_puts_the_cards_face_down_again(table):
    choose(table, {"blue": 6, "green": 5, "yellow": 4})
    table.reveal()
    table.undo()
    assert table.game.phase == "cards"
    assert {p: table.choice(p) for p in PLAYERS} == {"blue": 6, "green": 5, "yellow": 4}
    table.choose("green", 2)  # changeable again
    assert table.store.choices(table.game_id)["green"] == 2


def test_undo_with_nothing_to_take_back_is_a_conflict(table):
    with pytest.raises(TableError) as err:
        table.undo()
    assert isinstance(err.value, Conflict) and "nothing to undo" in err.value.message


def test_a_player_with_no_canoe_takes_the_free_one_before_the_reveal_R_BUY_2(table):
    both_blue_canoes_fall(table)
    assert table.must_buy_back() == ["blue"]
    assert table.view("blue")["buyback"] == {"fallen": 2, "gems": [], "free": True,
                                            "must": True}
    choose(table, {"blue": 4, "green": 6, "yellow": 6})
    assert "blue must first buy back" in table.reveal_blocker()
    table.buyback("blue")
    assert table.reveal_blocker() is None
    assert table.game.state.canoes["blue"] == [("D", None), ("F", None)]


def test_paying_a_gem_the_player_does_not_have_is_refused_R_BUY_1(table):
    both_blue_canoes_fall(table)
    with pytest.raises(TableError) as err:
        table.buyback("blue", "red")
    assert err.value.rule == "R-BUY-1"


def test_a_restart_resumes_the_game_the_choices_and_the_seats(path):
    table = Table(Store(path))
    table.new_game(PLAYERS)
    player, token = table.join(table.join_tokens()["green"])
    round_one(table)
    table.choose("yellow", 1)
    key, version_game = table.table_key, table.game_id
    snapshot = table.game.snapshot()
    table.store.close()

    again = Table(Store(path))
    assert again.game_id == version_game and again.table_key == key
    assert again.game.snapshot() == snapshot
    assert again.choice("yellow") == 1
    assert again.seat_for(token) == player == "green"
    again.store.close()


def test_a_log_edited_by_hand_resumes_with_what_is_sound_and_undo_stays_in_step(path):
    """An event the engine refuses on resume moves out of the log (kept in the store's
    meta table), so undo takes back the event the game really has last."""
    table = Table(Store(path))
    table.new_game(PLAYERS)
    round_one(table)
    good = table.game.snapshot()
    n = len(table.game.events)
    table.store.append_event(table.game_id, {"event": "turn", "player": "blue",
                                             "canoes": [{"from": "D", "to": "7L"}]})
    table.store.close()

    again = Table(Store(path))
    assert again.game.snapshot() == good
    assert len(again.store.events(again.game_id)) == n
    assert "7L" in again.store.get_meta(f"game {again.game_id} set aside")
    again.undo()
    assert len(again.game.events) == len(again.store.events(again.game_id)) == n - 1
    assert [e.to_json() for e in again.game.events] == again.store.events(again.game_id)
    again.store.close()


def test_a_new_phone_on_a_seat_logs_the_old_one_out(table):
    _, old = table.join(table.join_tokens()["blue"])
    assert "blue" not in table.join_tokens()  # a joined seat shows no code
    _, new = table.join(table.open_seat("blue"))
    assert table.seat_for(old) is None and table.seat_for(new) == "blue"


def test_showing_the_qr_codes_changes_nothing(table, path):
    # The table page is a GET: every free seat has its code from the start, and a
    # restart keeps them.
    version = table.version
    tokens = table.join_tokens()
    assert sorted(tokens) == PLAYERS and table.join_tokens() == tokens
    assert table.version == version
    again = Table(Store(path))
    assert again.join_tokens() == tokens
    again.store.close()


def test_a_join_token_works_once(table):
    token = table.join_tokens()["blue"]
    table.join(token)
    with pytest.raises(TableError) as err:
        table.join(token)
    assert isinstance(err.value, Forbidden)


def test_subscribers_hear_every_change_in_order_and_never_a_card(table):
    heard: list[Change] = []
    done = threading.Event()

    def follow(change: Change) -> None:
        heard.append(change)
        if change.kind == "reveal":
            done.set()

    table.subscribe(follow)
    choose(table, {"blue": 6, "green": 5, "yellow": 4})
    table.reveal()
    assert done.wait(5)
    assert [c.kind for c in heard] == ["choice", "choice", "choice", "reveal"]
    assert [c.version for c in heard] == sorted(c.version for c in heard)
    assert all(set(vars(c)) == {"kind", "version", "player", "verdict", "event", "river",
                                "zone"}
               and c.verdict is None and c.event is None and c.river is None for c in heard)


def test_each_change_carries_the_danger_zone_computed_once(table, monkeypatch):
    import companion.table.session as session

    computed = []
    real = session.danger_zone
    monkeypatch.setattr(session, "danger_zone", lambda game: computed.append(1) or real(game))
    heard: list[Change] = []
    done = threading.Event()
    table.subscribe(lambda change: (heard.append(change),
                                    change.kind == "reveal" and done.set()))
    choose(table, {"blue": 6, "green": 5, "yellow": 4})
    table.reveal()
    assert done.wait(5)
    assert len(computed) == 1  # laying cards face down changes nothing public
    zone = heard[-1].zone
    assert zone == danger_zone(table.game) and zone is table.zone
    view = table.view()
    assert view["danger"] == zone.to_json() and view["possible_speeds"] == sorted(zone.speeds)
    assert len(computed) == 1  # the view reads the carried zone


def test_a_failing_subscriber_does_not_stop_the_game(table):
    done = threading.Event()
    table.subscribe(lambda change: 1 / 0)
    table.subscribe(lambda change: done.set())
    table.choose("blue", 2)
    assert done.wait(5)
    assert table.choice("blue") == 2


def test_an_illegal_move_is_announced_with_its_verdict(table):
    heard: list[Change] = []
    done = threading.Event()
    table.subscribe(lambda c: (heard.append(c), c.kind == "illegal" and done.set()))
    choose(table, {"blue": 6, "green": 5, "yellow": 4})
    table.reveal()
    table.play_turn("D-5")
    assert done.wait(5)
    assert heard[-1].verdict.rule == "R-PTS-2" and heard[-1].event.player == "blue"


def test_the_led_strip_follows_the_table(table):
    hardware = pytest.importorskip("companion.hardware")
    from companion.app import follow_with_leds

    controller = hardware.LedController(hardware.SimulatedStrip(150),
                                        hardware.default_layout())
    shown = threading.Event()
    original = controller.show

    carried = []

    def show(game, verdict=None, event=None, river=None, zone=None):
        original(game, verdict, event, river, zone)
        carried.append(zone)
        # Changes reach the LEDs after the fact: wait for the one the reveal made (a
        # card laid earlier may be delivered once the live game is already in phase II).
        if zone is not None and zone.phase == "turns":
            shown.set()

    controller.show = show
    follow_with_leds(table, controller)
    choose(table, {"blue": 6, "green": 5, "yellow": 4})
    table.reveal()
    assert shown.wait(5)
    assert controller.zone == hardware.danger_zone(table.game)
    assert carried[-1] is controller.zone  # the zone the change carried, not a new one


def test_the_table_buttons_reveal_push_the_river_and_undo(table):
    from companion.app import button_actions

    press = button_actions(table)
    choose(table, {"blue": 6, "green": 5, "yellow": 4})
    press("next")
    assert table.game.phase == "turns"
    press("river")  # too early: refused quietly, nothing changes
    assert table.game.phase == "turns"
    for move in ("D-6L", "D-5", "D-4"):
        table.play_turn(move)
    press("river")
    assert table.game.round == 2
    press("undo")
    assert table.game.phase == "river"
