"""The danger zone is a rules fact (companion.rules.danger): its JSON is what the table
page shows, from public information only."""

from companion.rules import Game, danger_zone


def test_before_the_reveal_the_zone_previews_the_highest_possible_speed():
    game = Game(["blue", "green", "yellow"])
    zone = danger_zone(game)
    out = zone.to_json()
    assert out["known"] is False and out["steps"] == max(zone.speeds)
    assert set(out) == {"known", "steps", "slots", "certain", "branches", "canoes"}
    assert set(out["slots"]) <= zone.certain | zone.possible


def test_in_phase_III_the_zone_is_the_river_push_itself():
    game = Game(["blue", "green", "yellow"])
    game.apply({"event": "cards", "cards": {"blue": 6, "green": 5, "yellow": 4}})
    while game.phase == "turns":
        game.apply(game.legal_turns()[0])
    assert game.phase == "river"
    preview = game.preview_river()
    out = danger_zone(game).to_json()
    assert out["known"] is True and out["steps"] == game.speed
    assert out["slots"] == list(preview.falling_slots)
    assert out["branches"] == list(preview.branches)


def test_a_game_that_is_over_shows_no_danger():
    zone = danger_zone(Game(["blue", "green", "yellow"]))
    over = zone.__class__(**{**zone.__dict__, "phase": "over"})
    assert over.to_json() == {"known": True, "steps": 0, "slots": [], "certain": [],
                              "canoes": []}
