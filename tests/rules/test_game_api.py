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
