"""R-RING: the life ring passes clockwise after the river (rules.md section 4, phase IV)."""

from .helpers import FIVE, assert_illegal, assert_legal, cards, game_at, move, turn


def _round(game, card=1):
    game.apply(cards(**{p: card for p in game.players}))
    for player in game.state.turn_order:
        canoes = game.state.canoes[player]
        if all(at == "D" for at, _ in canoes):
            game.apply(turn(player, move("D", str(card))))
        else:
            game.apply(turn(player, move(str(card), str(2 * card))))
    game.apply({"event": "river"})


def test_R_RING_1_the_ring_passes_to_the_next_player_clockwise():
    game = game_at(FIVE, start="red")
    _round(game)
    assert game.snapshot()["start"] == "brown"
    assert game.round == 2
    _round(game, 2)
    assert game.snapshot()["start"] == "blue"  # past the last seat, back to the first


def test_R_RING_1_the_new_ring_holder_starts_the_next_round():
    game = game_at(FIVE, start="red")
    _round(game)
    game.apply(cards(blue=3, green=3, yellow=3, red=3, brown=3))
    assert game.to_move == "brown"
    assert_illegal(game, turn("red", move("2", "5")), "R-TURN-1", "brown", "red")
    assert_legal(game, turn("brown", move("2", "5")))
