"""The Game object's small conveniences."""

from companion.rules import Game


def test_try_apply_applies_a_legal_event_and_refuses_an_illegal_one_unchanged():
    game = Game(["blue", "green", "yellow"])
    assert game.try_apply({"event": "cards", "cards": {"blue": 6, "green": 2,
                                                       "yellow": "cloud"}}).ok
    before = game.snapshot()
    verdict = game.try_apply({"event": "turn", "player": "blue",
                              "canoes": [{"from": "D", "to": "2"}]})
    assert (verdict.ok, verdict.rule) == (False, "R-PTS-2")
    assert game.snapshot() == before
    assert game.try_apply({"event": "turn", "player": "blue",
                           "canoes": [{"from": "D", "to": "4", "post": ["load:clear"]}]}).ok
    assert game.to_move == "green"
    bad = game.try_apply({"event": "turn", "player": "purple"})
    assert (bad.ok, bad.rule) == (False, "LOG")


def test_refused_turn_names_the_places_it_is_about():
    # The LEDs point at them; the referee's JSON does not carry them.
    game = Game(["blue", "red", "green"])
    game.apply({"event": "cards", "cards": {"blue": 3, "red": 1, "green": 2}})
    verdict = game.check({"event": "turn", "player": "blue",
                          "canoes": [{"from": "D", "to": "4"}]})
    assert (verdict.ok, verdict.rule, verdict.places) == (False, "R-PTS-1", ("D", "4"))
    assert set(verdict.to_json()) == {"ok", "rule", "message"}


def test_refused_turn_leaving_both_canoes_docked_names_the_dock():
    game = Game(["blue", "red", "green"])
    game.apply({"event": "cards", "cards": {"blue": 3, "red": 1, "green": 2}})
    verdict = game.check({"event": "turn", "player": "blue",
                          "canoes": [{"from": "5", "to": "6L"}]})
    assert (verdict.rule, verdict.places) == ("R-WHICH-1", ("D",))


def test_a_copy_plays_and_undoes_apart_from_the_game_it_was_copied_from():
    game = Game(["blue", "green", "yellow"])
    game.apply({"event": "cards", "cards": {"blue": 5, "green": 3, "yellow": 4}})
    before = game.snapshot()
    twin = game.copy()
    twin.push_san("D-5")
    assert game.snapshot() == before and game.events == twin.events[:-1]
    game.push_san("D-3+violet")
    twin.undo()
    twin.undo()
    assert twin.events == [] and len(game.events) == 2
    assert game.copy().snapshot() == game.snapshot()
