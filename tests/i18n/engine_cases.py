"""Real referee messages: for every English template of the i18n catalogue, one or
more illegal events applied to real games of the rules engine (positions are set up
by editing the State of a fresh game, as the rules tests do), each giving the engine's
own verdict: (rule, message, key, fields).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from companion.rules import CanoeAction, Game, IllegalEvent, LogError, parse_event, parse_line
from companion.rules.canoes import apply_action
from companion.rules.notation import parse_turn

THREE = ("blue", "green", "yellow")
Verdict = tuple[str, str, str | None, dict[str, Any]]


def game_at(*, canoes: Mapping[str, Iterable[tuple[str, str | None]]] | None = None,
            camps: Mapping[str, list[str]] | None = None, weather: int = 0,
            variants: Iterable[str] = (), played: Mapping[str, list[Any]] | None = None,
            start: str = "blue") -> Game:
    """A 3-player game in phase I of round 1; gems on canoes and in camps come out of
    the deposit of their own colour, so the 35 gems stay conserved."""
    game = Game(THREE, start=start, variants=variants)
    state = game.state
    for player, where in (canoes or {}).items():
        state.put_canoes(player, list(where))
        for _, gem in where:
            if gem:
                state.take_gem(gem, gem)
    for player, gems in (camps or {}).items():
        state.camps[player] = sorted(gems)
        for gem in gems:
            state.take_gem(gem, gem)
    state.weather = weather
    for player, cards in (played or {}).items():
        for card in cards:
            state.hands[player].remove(card)
            state.played[player].append(card)
    return game


def to_move(card: int | str, *, others: int | str = 6, **kwargs: Any) -> Game:
    """Phase II with blue to move holding `card`; the others played `others`."""
    game = game_at(**kwargs)
    game.apply({"event": "cards", "cards": {p: card if p == "blue" else others
                                            for p in THREE}})
    return game


def river_phase(cards: Mapping[str, int | str] | None = None) -> Game:
    """Phase III: everybody has launched a canoe to slot 1 with a card 1."""
    game = game_at()
    game.apply({"event": "cards", "cards": dict(cards or {p: 1 for p in THREE})})
    for player in THREE:
        game.apply(turn(player, act("D", "1")))
    return game


def act(frm: str, to: str | None = None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"from": frm, **extra}
    if to is not None:
        out["to"] = to
    return out


def turn(player: str, *actions: dict[str, Any]) -> dict[str, Any]:
    return {"event": "turn", "player": player, "canoes": list(actions)}


def refused(game: Game, event: Any) -> Verdict:
    """The verdict on an event the referee must refuse."""
    verdict = game.check(event)
    assert not verdict.ok, f"the engine accepted {event}"
    assert verdict.rule is not None and verdict.message is not None
    return verdict.rule, verdict.message, verdict.key, dict(verdict.fields)


def raised(call: Callable[[], object]) -> Verdict:
    try:
        call()
    except (IllegalEvent, LogError) as exc:
        return exc.rule, exc.message, exc.key, exc.fields
    raise AssertionError("the engine raised nothing")


def _canoe_below_falls() -> Verdict:
    # check_which stops a turn listing F first, so this branch of apply_action is
    # reached by calling it directly.
    state = game_at().state.copy()
    return raised(lambda: apply_action(state, "blue", ("F", None), 3, CanoeAction("F", "4")))


def _game_over() -> Game:
    game = game_at(camps={"blue": ["red"] * 4, "green": ["red", "blue", "clear",
                                                          "yellow", "violet"]})
    game.apply({"event": "cards", "cards": {p: 1 for p in THREE}})
    for player in THREE:
        game.apply(turn(player, act("D", "1")))
    assert game.is_over
    return game


B = "blue"

# template ID -> builders of real (rule, message) pairs
CASES: dict[str, list[Callable[[], Verdict]]] = {
    "which.falls": [lambda: refused(to_move(3, canoes={B: [("F", None), ("5", None)]}),
                                    turn(B, act("F", "4"))),
                    _canoe_below_falls],
    "which.both_river": [lambda: refused(to_move(2, canoes={B: [("3", None), ("5", None)]}),
                                         turn(B, act("3", "1")))],
    "which.both_dock": [lambda: refused(to_move(2), turn(B))],
    "which.river_first": [lambda: refused(to_move(2, canoes={B: [("D", None), ("3", None)]}),
                                          turn(B, act("D", "2")))],
    "which.last_launch": [lambda: refused(to_move(2, canoes={B: [("D", None), ("F", None)]}),
                                          turn(B))],
    "which.last_act": [lambda: refused(to_move(2, canoes={B: [("3", None), ("F", None)]}),
                                       turn(B))],
    "land.stays": [lambda: refused(to_move(1, canoes={B: [("1", None), ("F", None)]}),
                                   turn(B, act("1", "D"), act("D", "1")))],
    "turn.no_canoe": [
        lambda: refused(to_move(2, canoes={B: [("3", None), ("5", "red")]}),
                        turn(B, act("3", "1"), act("4", "2"))),
        lambda: refused(to_move(2, canoes={B: [("3", None), ("5", "red")]}),
                        turn(B, act("3", "1"), act("5", "3", gem="blue"))),
        lambda: refused(to_move(2, canoes={B: [("D", None), ("F", None)]}),
                        turn(B, act("2", "4"))),
    ],
    "turn.same_canoe": [lambda: refused(to_move(2, canoes={B: [("3", None), ("5", None)]}),
                                        turn(B, act("3", "1"), act("3", "5")))],
    "move.branches": [lambda: refused(to_move(2, canoes={B: [("6L", None), ("D", None)]}),
                                      turn(B, act("6L", "6R")))],
    "move.launch": [lambda: refused(to_move(2), turn(B, act("D")))],
    "pts.card_one": [lambda: refused(to_move(1), turn(B, act("D", "1", post=["load:red"])))],
    "pts.too_far": [
        lambda: refused(to_move(4), turn(B, act("D", "5", post=["load:yellow"]))),
        lambda: refused(to_move(2, canoes={B: [("3", "violet"), ("D", None)]}),
                        turn(B, act("3", "D"))),
        lambda: refused(to_move(2, canoes={B: [("7R", "red"), ("D", None)]}),
                        turn(B, act("7R", "F", pre=["unload"]))),
    ],
    "pts.unspent": [lambda: refused(to_move(4), turn(B, act("D", "2")))],
    "gem.no_deposit": [lambda: refused(to_move(4), turn(B, act("D", "2", post=["load:red"])))],
    "gem.loaded_unload": [
        lambda: refused(to_move(6, canoes={B: [("4", None), ("D", None)]}),
                        turn(B, act("4", "5", pre=["load:clear"], post=["unload"]))),
        lambda: refused(to_move(6, canoes={B: [("4", None), ("D", None)]}),
                        turn(B, act("4", pre=["load:clear", "unload", "unload"]))),
    ],
    "gem.one_end": [lambda: refused(to_move(6, canoes={B: [("4", "red"), ("D", None)]}),
                                    turn(B, act("4", "5", pre=["unload"],
                                                post=["load:yellow"])))],
    "gem.nothing_to_unload": [
        lambda: refused(to_move(3, canoes={B: [("4", None), ("D", None)]}),
                        turn(B, act("4", "5", pre=["unload"])))],
    "gem.same_colour_unload": [
        lambda: refused(to_move(2, canoes={B: [("4", "clear"), ("D", None)]},
                                variants=["no-same-colour-unload"]),
                        turn(B, act("4", pre=["unload"])))],
    "gem.already_loaded": [lambda: refused(to_move(2, canoes={B: [("4", "red"), ("D", None)]}),
                                           turn(B, act("4", pre=["load:clear"])))],
    "gem.same_colour_back": [
        lambda: refused(to_move(4, canoes={B: [("4", "red"), ("D", None)]}),
                        turn(B, act("4", pre=["unload", "load:red"])))],
    "gem.no_passing": [
        lambda: refused(to_move(2, canoes={B: [("4", None), ("D", None)],
                                           "green": [("4", "red"), ("D", None)]}),
                        turn(B, act("4", pre=["load:red"])))],
    "gem.deposit_empty": [lambda: refused(to_move(2, canoes={B: [("4", None), ("D", None)]}),
                                          turn(B, act("4", pre=["load:violet"])))],
    "gem.two_gems": [
        lambda: refused(to_move(4, canoes={B: [("5", None), ("D", None)],
                                           "green": [("3", "clear"), ("D", None)]}),
                        turn(B, act("5", "3", post=["load:violet"], steal="green")))],
    "steal.mandatory": [
        lambda: refused(to_move(2, canoes={B: [("5", None), ("D", None)],
                                           "green": [("3", "violet"), ("D", None)]},
                                variants=["mandatory-steal"]),
                        turn(B, act("5", "3")))],
    "steal.own": [lambda: refused(to_move(2, canoes={B: [("5", None), ("3", "violet")]}),
                                  turn(B, act("5", "3", steal="blue"), act("3", "1")))],
    "steal.downstream": [
        lambda: refused(to_move(2, canoes={B: [("3", None), ("D", None)],
                                           "green": [("5", "red"), ("D", None)]}),
                        turn(B, act("3", "5", steal="green")))],
    "steal.not_moved": [
        lambda: refused(to_move(2, canoes={B: [("4", None), ("D", None)],
                                           "green": [("4", "red"), ("D", None)]}),
                        turn(B, act("4", pre=["load:clear"], steal="green")))],
    "steal.after_unload": [
        lambda: refused(to_move(3, canoes={B: [("5", "red"), ("D", None)],
                                           "green": [("4", "clear"), ("D", None)]}),
                        turn(B, act("5", "4", post=["unload"], steal="green")))],
    "steal.carried": [lambda: refused(to_move(2, canoes={B: [("2", "red"), ("D", None)]}),
                                      turn(B, act("2", "D", steal="green")))],
    "steal.not_playing": [lambda: refused(to_move(2, canoes={B: [("5", None), ("D", None)]}),
                                          turn(B, act("5", "3", steal="red")))],
    "steal.no_gem": [lambda: refused(to_move(2, canoes={B: [("5", None), ("D", None)]}),
                                     turn(B, act("5", "3", steal="green")))],
    "steal.no_gem_colour": [
        lambda: refused(to_move(2, canoes={B: [("5", None), ("D", None)],
                                           "green": [("3", "violet"), ("D", None)]}),
                        turn(B, act("5", "3", steal="green:red")))],
    "steal.passed": [
        lambda: refused(to_move(4, canoes={B: [("5", None), ("D", None)],
                                           "green": [("3", "violet"), ("D", None)]}),
                        turn(B, act("5", "1", steal="green")))],
    "steal.choose": [
        lambda: refused(to_move(2, canoes={B: [("5", None), ("D", None)],
                                           "green": [("3", "violet"), ("3", "red")]}),
                        turn(B, act("5", "3", steal="green")))],
    "win.over": [lambda: refused(_game_over(), {"event": "river"})],
    "buy.phase": [lambda: refused(to_move(2, canoes={B: [("F", None), ("3", None)]},
                                          camps={B: ["red"]}),
                                  {"event": "buyback", "player": B, "gem": "red"})],
    "buy.nothing": [lambda: refused(game_at(camps={B: ["red"]}),
                                    {"event": "buyback", "player": B, "gem": "red"})],
    "buy.not_free": [lambda: refused(game_at(canoes={B: [("F", None), ("D", None)]}),
                                     {"event": "buyback", "player": B})],
    "buy.must_pay": [lambda: refused(game_at(canoes={B: [("F", None), ("F", None)]},
                                             camps={B: ["red"]}),
                                     {"event": "buyback", "player": B})],
    "buy.no_such_gem": [
        lambda: refused(game_at(canoes={B: [("F", None), ("D", None)]},
                                camps={B: ["red", "violet"]}),
                        {"event": "buyback", "player": B, "gem": "blue"}),
        lambda: refused(game_at(canoes={B: [("F", None), ("D", None)]}),
                        {"event": "buyback", "player": B, "gem": "blue"}),
    ],
    "buy.must_buy": [lambda: refused(game_at(canoes={B: [("F", None), ("F", None)]},
                                             camps={B: ["red"]}),
                                     {"event": "cards", "cards": {p: 3 for p in THREE}})],
    "buy.free": [lambda: refused(game_at(canoes={B: [("F", None), ("F", None)]}),
                                 {"event": "cards", "cards": {p: 3 for p in THREE}})],
    "card.missing": [
        lambda: refused(game_at(), {"event": "cards", "cards": {"blue": 3, "yellow": 2}}),
        lambda: refused(game_at(), {"event": "cards", "cards": {"blue": 3}}),
    ],
    "card.played": [
        lambda: refused(game_at(played={B: [3]}),
                        {"event": "cards", "cards": {p: 3 for p in THREE}}),
        lambda: refused(game_at(played={B: [3, "cloud", 6]}),
                        {"event": "cards", "cards": {B: "cloud", "green": 1, "yellow": 1}}),
    ],
    "turn.cards_not_over": [lambda: refused(to_move(2), {"event": "cards",
                                                          "cards": {p: 3 for p in THREE}})],
    "turn.river_not_over": [lambda: refused(to_move(2), {"event": "river"})],
    "turn.no_cards": [lambda: refused(game_at(), turn(B, act("D", "1")))],
    "turn.river_next": [lambda: refused(river_phase(), turn(B, act("1", "2")))],
    "turn.other": [
        lambda: refused(to_move(2), turn("green", act("D", "2"))),
        lambda: refused(to_move(2, canoes={"green": [("5", None), ("D", None)]}),
                        turn("green", act("5", "3", steal="blue"))),
    ],
    "turn.not_cloud": [lambda: refused(to_move(3), {"event": "turn", "player": B,
                                                    "cloud": "up"})],
    "weather.no_canoes": [lambda: refused(to_move("cloud"), turn(B, act("D", "2")))],
    "weather.must_move": [lambda: refused(to_move("cloud"), turn(B))],
    "weather.off_track": [
        lambda: refused(to_move("cloud", weather=2), {"event": "turn", "player": B,
                                                      "cloud": "up"}),
        lambda: refused(to_move("cloud", weather=-1), {"event": "turn", "player": B,
                                                       "cloud": "down"}),
    ],
    "river.not_moved": [lambda: refused(river_phase(), {"event": "cards",
                                                        "cards": {p: 3 for p in THREE}})],
    "river.moved": [lambda: refused(game_at(), {"event": "river"})],
    "river.speed": [lambda: refused(river_phase(), {"event": "river", "steps": 5})],
    "river.branches": [lambda: refused(river_phase(), {"event": "river", "branches": ["L"] * 3})],
    "log.not_playing": [lambda: refused(game_at(), {"event": "buyback", "player": "red"})],
    "log.setup_first": [lambda: refused(game_at(), {"event": "setup", "players": list(THREE)})],
    "log.first_setup": [lambda: raised(lambda: Game.from_setup(
        {"event": "cards", "cards": {"blue": 1}}))],
    "log.missing_field": [lambda: raised(lambda: parse_event({"event": "buyback"})),
                          lambda: raised(lambda: parse_event({}))],
    "log.unknown_name": [
        lambda: raised(lambda: parse_event({"event": "buyback", "player": "pink"})),
        lambda: raised(lambda: parse_event(turn(B, act("9")))),
        lambda: raised(lambda: parse_event({"event": "buyback", "player": B, "gem": "gold"})),
        lambda: raised(lambda: parse_event({"event": "turn", "player": B, "cloud": 1})),
        lambda: raised(lambda: parse_event({"event": "river", "branches": ["M"]})),
        lambda: raised(lambda: parse_event({"event": "setup", "players": list(THREE),
                                            "variants": ["easy"]})),
        lambda: raised(lambda: parse_event({"event": "setup", "players": list(THREE),
                                            "branch": "X"})),
    ],
    "log.unknown_card": [lambda: raised(lambda: parse_event({"event": "cards",
                                                             "cards": {B: 7}}))],
    "log.unknown_op": [lambda: raised(lambda: parse_event(turn(B, act("D", pre=["jump"]))))],
    "log.ops_list": [lambda: raised(lambda: parse_event(turn(B, act("D", pre="unload"))))],
    "log.ops_many": [lambda: raised(lambda: parse_event(turn(B, act("D", pre=["unload"] * 5))))],
    "log.action_object": [lambda: raised(lambda: parse_event(
        {"event": "turn", "player": B, "canoes": [3]}))],
    "log.bad_steal": [lambda: raised(lambda: parse_event(turn(B, act("3", "1", steal="pink"))))],
    "log.event_object": [lambda: raised(lambda: parse_event([1, 2]))],
    "log.setup_players": [lambda: raised(lambda: parse_event({"event": "setup"}))],
    "log.setup_distinct": [lambda: raised(lambda: parse_event(
        {"event": "setup", "players": ["blue", "blue", "green"]}))],
    "log.start_player": [lambda: raised(lambda: parse_event(
        {"event": "setup", "players": list(THREE), "start": "red"}))],
    "log.variants_list": [lambda: raised(lambda: parse_event(
        {"event": "setup", "players": list(THREE), "variants": "easy"}))],
    "log.cards_object": [lambda: raised(lambda: parse_event({"event": "cards", "cards": {}}))],
    "log.turn_both": [lambda: raised(lambda: parse_event(
        {"event": "turn", "player": B, "cloud": "up", "canoes": []}))],
    "log.turn_needs": [lambda: raised(lambda: parse_event({"event": "turn", "player": B}))],
    "log.turn_canoes": [lambda: raised(lambda: parse_event(turn(B, *[act("D", "1")] * 3)))],
    "log.steps": [lambda: raised(lambda: parse_event({"event": "river", "steps": -1}))],
    "log.branches": [lambda: raised(lambda: parse_event({"event": "river", "branches": "L"}))],
    "log.unknown_event": [lambda: raised(lambda: parse_event({"event": "jump"}))],
    "log.json": [lambda: raised(lambda: parse_line("{\"event\": "))],
    "notation.canoe": [lambda: raised(lambda: parse_turn("Z-9", B))],
    "notation.victim": [lambda: raised(lambda: parse_turn("3-1xpink", B))],
    "notation.player": [lambda: raised(lambda: parse_turn("D-1", "pink"))],
    "notation.written_for": [lambda: raised(lambda: parse_turn("green: D-1", B))],
    "notation.cloud": [lambda: raised(lambda: parse_turn("cloud sideways", B))],
    "notation.too_many": [lambda: raised(lambda: parse_turn("D-1, D-2, D-3", B))],
}


def all_messages() -> list[tuple[str, str, str, str | None, dict[str, Any]]]:
    """(message key expected, rule, message, key, fields) for every case."""
    return [(tid, *build()) for tid, builders in CASES.items() for build in builders]
