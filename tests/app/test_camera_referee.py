"""The camera referee (companion.table.camera_referee) on perfect camera views
(vision.expected_observation): each view is read once, as the phase's own event."""

from __future__ import annotations

import random

import pytest

from companion.app import Invalid, Table
from companion.rules import Game, River, Turn, format_turn, parse_turn
from companion.store import Store
from companion.vision.expected import expected_observation, observation_from_canoes
from companion.vision.fit_changes import taken_gems

from ..tables import BLUE_UNLOADS_AT_THE_START_OR_AT_THE_END, GREEN_CAN_TRADE_PLACES, play_rounds


@pytest.fixture
def table():
    table = Table(Store(":memory:"))
    table.new_game(["blue", "green", "yellow"])
    for player, card in {"blue": 6, "green": 5, "yellow": 4}.items():
        table.choose(player, card)
    table.reveal()
    yield table
    table.store.close()


def after(game: Game, *events) -> dict:
    """The view of the board once `events` were played on it."""
    board = game.copy()
    for event in events:
        board.apply(event)
    return expected_observation(board)


def test_a_view_of_the_game_as_it_stands_changes_nothing(table):
    version = table.version
    assert table.observe(expected_observation(table.game)) == "same"
    assert table.version == version


def test_in_phase_II_the_move_the_view_shows_is_played(table):
    turn = table.game.push_san("D-4+clear")
    table.game.undo()
    assert table.observe(after(table.game, turn)) == "applied"
    assert table.game.events[-1] == turn and table.game.to_move == "green"
    played = [e for e in table.store.feed(table.game_id, 5) if e["kind"] == "turn"]
    assert played[-1]["source"] == "camera" and played[-1]["text"] == "D-4+clear"


def test_a_view_no_legal_move_explains_is_flagged_R_TURN_1(table):
    events = len(table.game.events)
    view = observation_from_canoes({"blue": [("7R", None), ("D", None)],
                                    "green": [("D", None), ("D", None)],
                                    "yellow": [("D", None), ("D", None)]}, 0)
    assert table.observe(view) == "flagged"
    entry = table.store.feed(table.game_id, 1)[-1]
    assert entry["kind"] == "camera" and entry["ok"] is False
    assert entry["rule"] == "R-TURN-1" and entry["closest"]
    assert len(table.game.events) == events


def test_in_phase_III_the_rivers_push_is_read_off_the_board(table):
    while table.game.phase == "turns":
        table.play_turn(table.game.legal_turns()[0])
    game = table.game
    assert game.phase == "river"
    assert table.observe(after(game, {"event": "river"})) == "applied"
    assert game.phase == "cards" and isinstance(game.events[-1], River)


def test_a_view_that_is_not_an_observation_is_invalid(table):
    with pytest.raises(Invalid):
        table.observe({"slots": "everywhere"})



def test_the_next_players_move_does_not_rewrite_the_turn_before_it(table):
    # A turn the camera read stands once the next player has moved: a view showing the
    # next player's canoes moved too is their turn, not a second look at the last one
    # (even when the last one, read again from it, would come out otherwise).
    game = table.game
    blue = game.push_san("D-4+clear")
    game.undo()
    assert table.observe(after(game, blue)) == "applied"
    green = game.copy().legal_turns()[0]
    view = after(game, green)
    view["slots"]["4"]["canoes"] = []                      # blue's canoe misread ...
    view["slots"]["6L"]["canoes"].append({"player": "blue", "gem": None})  # ... as on 6L
    table.observe(view)
    assert game.events[1] == blue                          # after the cards: blue's turn



def _table_at(rounds, to_move: str) -> Table:
    """A table with an in-memory store that played `rounds` (tests/tables.py)."""
    table = play_rounds(Table(Store(":memory:")), rounds)
    assert table.game.to_move == to_move
    return table


def _green_can_trade_places() -> Table:
    return _table_at(GREEN_CAN_TRADE_PLACES, "green")


def test_R_MOVE_3_canoes_that_traded_places_are_asked_about_once_never_taken():
    # The same pieces lie where they were, but the pixels of 2 and the dock changed:
    # green may have brought one canoe home and launched the other. Or not moved yet:
    # the players are asked, nothing is played.
    table = _green_can_trade_places()
    try:
        events = len(table.game.events)
        view = {**expected_observation(table.game), "places_changed": ["2", "D"]}
        assert table.observe(view) == "ambiguous"
        asked = table.store.feed(table.game_id, 1)[-1]
        assert asked["status"] == "ambiguous" and "2-D, D-2" in asked["choices"]
        assert len(table.game.events) == events
        assert table.observe(view) == "same"        # asked once a turn
    finally:
        table.store.close()


def test_a_view_where_nothing_changed_is_the_same_even_when_a_trade_was_possible():
    table = _green_can_trade_places()
    try:
        assert table.observe(expected_observation(table.game)) == "same"
        # Pixels changed where no trade of green's goes: another player's canoe nudged.
        view = {**expected_observation(table.game), "places_changed": ["3"]}
        assert table.observe(view) == "same"
    finally:
        table.store.close()


def test_R_WHICH_1_a_launch_whose_canoe_was_not_read_is_asked_about_where_it_changed(table):
    # Blue's canoes are both on the dock, card 6: every move launches one. The pixels of
    # the dock and of 4 changed, but the reading shows the game as it stands (the hull
    # on 4 not made out, the dock still read with it): the launch that changes just
    # those places is asked about, once a turn, never played.
    events = len(table.game.events)
    view = {**expected_observation(table.game), "places_changed": ["4", "D"]}
    assert table.observe(view) == "ambiguous"
    asked = table.store.feed(table.game_id, 1)[-1]
    assert asked["choices"] and all(c.startswith("D-4") for c in asked["choices"])
    assert "4, D changed" in asked["message"]
    assert len(table.game.events) == events
    assert table.observe(view) == "same"        # asked once a turn


def test_a_launch_is_not_asked_about_when_only_its_landing_place_changed(table):
    # The pixels of 4 changed, the dock's did not: no canoe left it unseen.
    view = {**expected_observation(table.game), "places_changed": ["4"]}
    assert table.observe(view) == "same"


@pytest.mark.parametrize("pile", [None, "violet"])
def test_R_WHICH_2_a_move_no_camera_sees_is_asked_about_when_no_place_changed(pile):
    # Every piece lies as before and no place's pixels changed, after something moved
    # over the board: green must move (R-WHICH-2) and may have brought their canoe home
    # from 2 as they launched the other to it, which leaves nothing to see. Asked once a
    # turn, never played; so too when a pile was seen to lose a gem that no move of
    # green's can have loaded unseen.
    table = _green_can_trade_places()
    try:
        events = len(table.game.events)
        view = {**expected_observation(table.game), "places_changed": []}
        if pile:
            view.update(deposits_changed=[pile], deposits_taken={pile: pile})
        assert table.observe(view) == "ambiguous"
        asked = table.store.feed(table.game_id, 1)[-1]
        assert asked["choices"] == ["2-D, D-2"] and asked["answers"] == [{"move": "2-D, D-2"}]
        assert "every piece lies as before" in asked["message"]
        assert len(table.game.events) == events
        assert table.observe(view) == "same"        # asked once a turn
    finally:
        table.store.close()


def test_a_view_where_no_place_changed_is_the_same_when_every_move_shows(table):
    # Blue's canoes are both on the dock: any move of theirs launches one (R-WHICH-1).
    assert table.observe({**expected_observation(table.game), "places_changed": []}) == "same"


def _table_of(game: Game) -> Table:
    """A table with an in-memory store that played `game`'s events."""
    store = Store(":memory:")
    game_id = store.new_game(game.setup.to_json())
    for event in game.events:
        store.append_event(game_id, event.to_json())
    return Table(store)


def _a_gem_brought_home_and_another_like_it_loaded() -> tuple[Table, Turn]:
    """A table at the first random position (seed 37) where a legal turn leaves every
    canoe as it was and takes a gem from a pile: a canoe brings its gem home and the
    other loads one of that colour where it lay (e.g. "3-D, D-3+violet")."""
    from companion.rules.random_play import random_positions

    for game in random_positions(random.Random(37), 10):
        before = expected_observation(game)
        for turn in game.legal_turns():
            piles = {n: dict(p) for n, p in game.state.deposits.items()}
            game.apply(turn)
            same = expected_observation(game) == before and game.state.deposits != piles
            game.undo()
            if same:
                return _table_of(game), turn
    raise AssertionError("no such position among the first ten of seed 37")


def test_R_GEM_3_a_move_leaving_the_same_pieces_is_played_when_the_piles_name_it_alone():
    # The pieces lie as before, but a pile lost a gem: a move was made, and only this
    # one leaves the piles so.
    table, turn = _a_gem_brought_home_and_another_like_it_loaded()
    try:
        events = len(table.game.events)
        assert table.observe(_same_pieces_piles_changed(table, turn)) == "applied"
        assert table.game.events[events:] == [turn]
    finally:
        table.store.close()


def _a_canoe_can_load_where_it_lies(gem: str | None = None) -> tuple[Table, Turn]:
    """A table at the first random position (seed 31) where a legal turn loads a gem
    (`gem`, or any) into a canoe where it lies and moves no canoe (e.g. "5+yellow"):
    the picture after it shows every canoe as before when the gem hides in its canoe."""
    from companion.rules.random_play import random_positions

    for game in random_positions(random.Random(31), 90):
        for turn in game.legal_turns():
            if turn.cloud is None and turn.canoes and all(
                    a.destination == a.origin and a.steal is None
                    and [op[:5] for op in (*a.pre, *a.post)] == ["load:"]
                    and gem in (None, *(op[5:] for op in (*a.pre, *a.post)))
                    for a in turn.canoes):
                return _table_of(game), turn
    raise AssertionError("no such position among the first ninety of seed 31")


def _same_pieces_piles_changed(table: Table, turn: Turn, **pixels) -> dict:
    """The view of the game as it stood (what `turn` moves back where it was, the gems
    it loads hidden in their canoes), the places it moves canoes from and to changed,
    and the pile it takes a gem from seen as `turn` leaves it."""
    piles = after_piles(table.game, turn)
    (deposit,) = [n for n, p in table.game.state.deposits.items() if p != piles.get(n)]
    (gem,) = taken_gems(table.game.state.deposits[deposit], piles[deposit])
    return {**expected_observation(table.game), "places_changed": sorted(
            {p for a in turn.canoes for p in (a.origin, a.destination)}),
            "deposits_changed": [deposit], "deposits_taken": {deposit: gem}, **pixels}


@pytest.mark.parametrize(("read_as", "gem"), [("hidden", None), ("hull's colour", None),
                                             ("hull's colour", "clear")])
def test_R_GEM_3_a_gem_loaded_in_place_is_played_when_its_pile_shows_it_taken(read_as, gem):
    # A canoe loaded where it lay; the gem hides in it (a clear gem, one of the hull's
    # own colour), or is read in the hull's colour (which an empty hull of that colour
    # shows too, and a clear gem shows through it), but its pile shows a gem of that
    # colour gone: no move leaves a pile so, and this one takes it. It is played, not
    # asked about with one answer.
    table, turn = _a_canoe_can_load_where_it_lies(gem)
    try:
        events = len(table.game.events)
        view = _same_pieces_piles_changed(table, turn)
        if read_as == "hull's colour":
            (action,) = turn.canoes
            (canoe,) = [c for c in view["slots"][action.origin]["canoes"]
                        if c["player"] == turn.player]
            canoe["gem"] = turn.player
        assert table.observe(view) == "applied"
        assert table.game.events[events:] == [turn]
    finally:
        table.store.close()


def test_R_GEM_3_a_gem_loaded_where_no_place_changed_is_played_when_its_pile_shows_it_taken():
    # The gem hid in its canoe so well that its place did not change at all (a clear
    # gem in a pale hull), but its pile showed a gem of that colour gone: a move was
    # made, and no other leaves the piles so. (The tuned g118's blue canoe landing from
    # 4 as the other was launched there to load clear was missed for it.)
    table, turn = _a_canoe_can_load_where_it_lies()
    try:
        events = len(table.game.events)
        assert table.observe(_same_pieces_piles_changed(table, turn, places_changed=[])) \
            == "applied"
        assert table.game.events[events:] == [turn]
    finally:
        table.store.close()


def test_R_GEM_3_a_clear_gem_loaded_in_place_read_as_its_hull_is_among_the_choices():
    # A canoe that may load clear or blue where it lies (seed 31's 33rd position: 6R),
    # read in its hull's colour, the pile seen to change but no gem seen leave it: the
    # clear gem shows its hull through it, so its load is offered beside the others.
    from companion.rules.random_play import random_positions

    game = random_positions(random.Random(31), 33)[32]
    turns = {format_turn(t): t for t in game.legal_turns()}
    assert {"6R+clear", "6R+blue"} <= set(turns)
    table = _table_of(game)
    try:
        turn = turns["6R+clear"]
        piles = after_piles(table.game, turn)
        (deposit,) = [n for n, p in table.game.state.deposits.items() if p != piles.get(n)]
        view = {**expected_observation(table.game), "places_changed": ["6R"],
                "deposits_changed": [deposit]}
        (canoe,) = [c for c in view["slots"]["6R"]["canoes"] if c["player"] == turn.player]
        canoe["gem"] = turn.player
        events = len(table.game.events)
        assert table.observe(view) == "ambiguous"
        assert len(table.game.events) == events
        assert "6R+clear" in table.store.feed(table.game_id, 1)[-1]["choices"]
    finally:
        table.store.close()


def _two_canoes_trade_places_and_load() -> tuple[Table, Turn]:
    """A table at the first random position (seed 11) where a legal turn trades the
    places of the mover's two canoes, each loading a gem of one colour from a deposit
    holding gems of two colours (e.g. "6R+blue-7R, 7R-6R+blue" where a clear gem was
    unloaded beside the blue ones): the picture after it shows every canoe as before
    when both gems hide in their canoes."""
    from companion.rules.random_play import random_positions

    def loads(turn: Turn) -> set[tuple[str, ...]]:
        return {a.pre + a.post for a in turn.canoes}

    for game in random_positions(random.Random(11), 20):
        for turn in game.legal_turns():
            if len(turn.canoes) != 2 or turn.canoes[0].origin == turn.canoes[1].origin \
                    or [a.origin for a in turn.canoes] != \
                    [a.destination for a in reversed(turn.canoes)] \
                    or len(loads(turn)) != 1 or not all(
                        op.startswith("load:") for ops in loads(turn) for op in ops):
                continue
            piles = after_piles(game, turn)
            changed = [n for n, p in game.state.deposits.items() if p != piles.get(n)]
            if len(changed) == 1 and sum(1 for n in game.state.deposits[changed[0]].values()
                                         if n) > 1:
                return _table_of(game), turn
    raise AssertionError("no such position among the first twenty of seed 11")


def _asked_once(table: Table, view: dict, turn: Turn) -> dict:
    """Observe `view`: the players are asked, `turn` among the choices, nothing is
    played, and the same view again is not asked about (once a turn). The question."""
    events = len(table.game.events)
    assert table.observe(view) == "ambiguous"
    asked = table.store.feed(table.game_id, 1)[-1]
    assert format_turn(turn) in asked["choices"]
    assert len(table.game.events) == events
    assert table.observe(view) == "same"
    return asked


def test_R_GEM_3_hidden_loads_that_several_moves_explain_are_asked_about_once():
    # Two canoes traded places and loaded; neither gem shows, one pile shows a gem
    # taken: which gems were loaded is the players' to say. Nothing is played.
    table, turn = _two_canoes_trade_places_and_load()
    try:
        asked = _asked_once(table, _same_pieces_piles_changed(table, turn), turn)
        assert len(asked["choices"]) > 1 and "a gem left the" in asked["message"]
    finally:
        table.store.close()


def test_R_GEM_3_a_hidden_load_no_pile_showed_is_asked_about_never_played():
    # The gem hid in its canoe and its pile did not show it gone (one translucent gem
    # from among its like), but the canoe's place changed: a turn must move something,
    # and this one explains the change. Missed, the players would have to notice; it is
    # asked about, once a turn, and nothing is played without their answer.
    table, turn = _a_canoe_can_load_where_it_lies()
    try:
        view = _same_pieces_piles_changed(table, turn, deposits_changed=[],
                                          deposits_taken={})
        assert "may not show" in _asked_once(table, view, turn)["message"]
    finally:
        table.store.close()


def test_a_hidden_load_is_the_same_view_when_its_canoe_s_place_did_not_change():
    table, turn = _a_canoe_can_load_where_it_lies()
    try:
        events = len(table.game.events)
        (action,) = turn.canoes
        elsewhere = next(p for p in ("1", "2", "3", "4", "5") if p != action.origin)
        view = _same_pieces_piles_changed(table, turn, deposits_changed=[],
                                          deposits_taken={}, places_changed=[elsewhere])
        assert table.observe(view) == "same"
        assert len(table.game.events) == events
    finally:
        table.store.close()


def after_piles(game: Game, turn: Turn) -> dict:
    """The deposits once `turn` is played; `game` is left as it was."""
    game.apply(turn)
    try:
        return {n: dict(p) for n, p in game.state.deposits.items()}
    finally:
        game.undo()


def _blue_unloads_at_the_start_or_at_the_end() -> Table:
    return _table_at(BLUE_UNLOADS_AT_THE_START_OR_AT_THE_END, "blue")


def test_a_question_carries_its_choices_as_the_table_plays_them():
    # Asked, the players tap what they did: each choice is a move the table page can
    # play as it stands, while the game stands where it was asked.
    table = _blue_unloads_at_the_start_or_at_the_end()
    try:
        game = table.game
        events = len(game.events)
        assert table.observe(after(game, parse_turn("4-3u", "blue"))) == "ambiguous"
        asked = table.store.feed(table.game_id, 1)[-1]
        assert asked["events"] == events == table.view(None)["events"]
        assert sorted(a["move"] for a in asked["answers"]) == ["4-3u", "4u-3"]
        assert table.play_turn(asked["answers"][0]["move"]).ok
        assert table.view(None)["events"] == events + 1   # the question no longer stands
    finally:
        table.store.close()


def test_a_same_view_question_carries_its_choices_too():
    table = _green_can_trade_places()
    try:
        view = {**expected_observation(table.game), "places_changed": ["2", "D"]}
        assert table.observe(view) == "ambiguous"
        asked = table.store.feed(table.game_id, 1)[-1]
        assert {"move": "2-D, D-2"} in asked["answers"]
        assert asked["events"] == len(table.game.events)
    finally:
        table.store.close()


def test_a_river_question_carries_steps_and_branches():
    from companion.table.camera_referee import answers
    assert answers([River(2, ("L", "R")), River(1, None)]) == [
        {"steps": 2, "branches": ["L", "R"]}, {"steps": 1, "branches": None}]


def test_a_turn_the_player_had_not_finished_is_read_again_whole(table):
    # Blue's canoe was put on 4 with a clear (the camera played D-4+clear), then blue
    # changed their mind before green moved: the turn is read again from the state
    # before it.
    game = table.game
    assert table.observe(after(game, parse_turn("D-4+clear", "blue"))) == "applied"
    start = Game.from_events([game.setup, game.events[0]])
    assert table.observe(after(start, parse_turn("D-6L", "blue"))) == "applied"
    assert len(game.events) == 2 and game.events[-1] == parse_turn("D-6L", "blue")
    assert game.to_move == "green"


def test_a_turn_whose_canoes_lie_as_it_left_them_stands_whatever_else_changed(table):
    game = table.game
    assert table.observe(after(game, parse_turn("D-4+clear", "blue"))) == "applied"
    green = game.legal_turns()[0]
    assert table.observe(after(game, green)) == "applied"
    assert game.events[-2:] == [parse_turn("D-4+clear", "blue"), green]
