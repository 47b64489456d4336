"""Small builders for the rule-by-rule tests: a game in a hand-made position, turn events
in their JSON form (game-log.md), and assertions on verdicts.

Positions are made by editing the State of a fresh game, taking every gem that a canoe
or camp holds out of the deposit of its own colour, so the 35 gems stay conserved
(rules.md section 9) unless a test hands in its own `deposits`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from companion.rules import GEMS, Game, IllegalEvent, LogError, Phase

THREE = ("blue", "green", "yellow")
FIVE = ("blue", "green", "yellow", "red", "brown")

Canoes = Mapping[str, Iterable[tuple[str, str | None]]]


def game_at(players: Iterable[str] = THREE, *, canoes: Canoes | None = None,
            camps: Mapping[str, Iterable[str]] | None = None,
            deposits: Mapping[str, Mapping[str, int]] | None = None,
            weather: int = 0, start: str | None = None, branch: str = "L",
            variants: Iterable[str] = (), played: Mapping[str, Iterable[Any]] | None = None
            ) -> Game:
    """A game in phase I of round 1 with the given canoes, camps, weather and hands.

    `played` removes cards from hands as if played in earlier rounds of this cycle.
    """
    players = tuple(players)
    game = Game(players, start=start, branch=branch, variants=variants)
    state = game.state
    for player, where in (canoes or {}).items():
        where = list(where)
        assert len(where) == 2, f"{player} needs exactly two canoes"
        state.put_canoes(player, where)
        for _, gem in where:
            if gem is not None and deposits is None:
                state.take_gem(gem, gem)
    for player, gems in (camps or {}).items():
        state.camps[player] = sorted(gems)
        if deposits is None:
            for gem in gems:
                state.take_gem(gem, gem)
    if deposits is not None:
        state.deposits = {d: dict(pile) for d, pile in deposits.items()}
        for d in GEMS:
            state.deposits.setdefault(d, {})
    state.weather = weather
    for player, cards in (played or {}).items():
        for card in cards:
            state.hands[player].remove(card)
            state.played[player].append(card)
    return game


def turn_position(player: str, card: int | str, *, others: int | str = 6,
                  players: Iterable[str] = THREE, **kwargs: Any) -> Game:
    """A game in phase II where `player` is to move (holding the life ring) with `card`;
    every other player has played `others`."""
    game = game_at(players, start=player, **kwargs)
    cards = {p: (card if p == player else others) for p in game.players}
    game.apply({"event": "cards", "cards": cards})
    assert game.to_move == player
    return game


def move(frm: str, to: str | None = None, *, pre: Iterable[str] = (),
         post: Iterable[str] = (), steal: str | None = None, **extra: Any) -> dict[str, Any]:
    """One canoe action of a turn event (extra: `gem=` to name which canoe)."""
    out: dict[str, Any] = {"from": frm}
    out.update(extra)
    if pre:
        out["pre"] = list(pre)
    if to is not None:
        out["to"] = to
    if post:
        out["post"] = list(post)
    if steal is not None:
        out["steal"] = steal
    return out


def turn(player: str, *canoes: dict[str, Any]) -> dict[str, Any]:
    return {"event": "turn", "player": player, "canoes": list(canoes)}


def cloud(player: str, direction: str) -> dict[str, Any]:
    return {"event": "turn", "player": player, "cloud": direction}


def cards(**by_player: int | str) -> dict[str, Any]:
    return {"event": "cards", "cards": dict(by_player)}


def canoes_of(game: Game, player: str) -> list[tuple[str, str | None]]:
    """The player's canoes as sorted (place, gem) pairs, snapshot order."""
    return [(c["at"], c["gem"]) for c in game.snapshot()["canoes"][player]]


def gem_total(game: Game) -> int:
    """Gems in deposits + canoes + camps: always 35 (rules.md section 9)."""
    snap = game.snapshot()
    return (sum(n for pile in snap["deposits"].values() for n in pile.values())
            + sum(1 for cs in snap["canoes"].values() for c in cs if c["gem"])
            + sum(len(camp) for camp in snap["camps"].values()))


def assert_legal(game: Game, event: Mapping[str, Any]) -> None:
    """The verdict is legal, and applying it works."""
    verdict = game.check(event)
    assert verdict.ok, f"expected legal, got {verdict.rule}: {verdict.message}"
    game.apply(event)


def assert_illegal(game: Game, event: Mapping[str, Any], rule: str,
                   *names: str) -> str:
    """The verdict cites `rule` with a one-line sentence that names each of `names`
    (the player, the place, the gem … that is wrong); applying it raises and changes
    nothing. Returns the message."""
    before = json.dumps(game.snapshot(), sort_keys=True)
    verdict = game.check(event)
    assert not verdict.ok, f"expected {rule}, but the event was judged legal"
    assert verdict.rule == rule, f"expected {rule}, got {verdict.rule}: {verdict.message}"
    message = verdict.message or ""
    assert_sentence(message, *names)
    try:
        game.apply(event)
    except (IllegalEvent, LogError) as exc:
        assert exc.rule == rule
    else:
        raise AssertionError("apply() accepted an event check() called illegal")
    assert json.dumps(game.snapshot(), sort_keys=True) == before, "state changed"
    return message


def assert_sentence(message: str, *names: str) -> None:
    """A message a player can read: one line of words, no code, names what is wrong."""
    assert message and "\n" not in message, message
    assert len(message.split()) >= 4, f"too short to be a sentence: {message!r}"
    for bad in ("Traceback", "Error", "None", "<", "{", "self", "[("):
        assert bad not in message, f"{bad!r} in {message!r}"
    for name in names:
        assert name in message, f"{name!r} not named in {message!r}"


def count(game: Game, player: str, card: int | str) -> int:
    """The perft of game-log.md: distinct legal turns of `player` with `card`."""
    return len(game.legal_turns(player, card))


def river_position(played: Mapping[str, int | str], **kwargs: Any) -> Game:
    """A game in phase III (the river moves next) after cards `played`, with the
    canoes, camps and weather of `game_at` as they stand after phase II."""
    game = game_at(tuple(played), **kwargs)
    state = game.state
    for player, card in played.items():
        state.hands[player].remove(card)
        state.played[player].append(card)
    state.cards = dict(played)
    state.phase = Phase.RIVER
    state.turn_index = len(state.players)
    return game
