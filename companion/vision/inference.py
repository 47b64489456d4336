"""Move inference: which legal event explains what the camera sees.

The rules engine knows the state before and lists the legal turns; the vision reports a
stable observation after (``shared/spec/vision.md``). For each legal turn this module
works out what a perfect camera would see (:mod:`.expected`), compares it with what was
seen, and ranks the turns by how badly they disagree:

>>> from companion.rules import Game
>>> from companion.vision.expected import expected_observation
>>> game = Game(["blue", "green", "yellow"])
>>> game.apply({"event": "cards", "cards": {"blue": 6, "green": "cloud", "yellow": 5}})
>>> seen = expected_observation(game)
>>> seen["dock"].pop(0)
{'player': 'blue', 'gem': None}
>>> seen["slots"]["4"]["canoes"].append({"player": "blue", "gem": "unknown"})
>>> result = infer_turn(game, seen)
>>> result.status, format_turn(result.turn)
('exact', 'D-4+clear')

The same for the river phase (:func:`infer_river`: how many steps, which branches) and
for the buybacks of phase I (:func:`infer_buybacks`).

How the fit is scored (lower is better, 0 is a perfect fit; :class:`FitWeights`):

* a seen gem ``"unknown"`` matches any cargo, including none;
* a canoe on the right place with the wrong cargo costs less than one on a wrong place,
  which costs less than one not seen at all plus one seen where none should be;
* only pieces the event can change are scored: the mover's canoes, the canoes of
  players it could rob, the cloud for a cloud card, every canoe for the river. Pieces
  that no candidate changes are compared with the state before and any difference is
  reported apart, as ``unexplained`` (a bumped canoe, a misread bystander), so that
  noise there neither decides nor blocks the answer.

Statuses: ``exact`` (one event fits perfectly), ``ambiguous`` (several fit perfectly
and lead to different states: ask the players), ``none`` (nothing fits: the closest
events are listed with a slot-by-slot diff saying how to put the board right).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Any

from companion.rules import (
    GEMS,
    PLACES,
    PLAYER_COLOURS,
    SLOTS,
    WEATHER_TRACK,
    Buyback,
    Game,
    IllegalEvent,
    LogError,
    River,
    State,
    Turn,
    format_turn,
)
from companion.rules.geometry import DEPTH, path_steps
from companion.rules.river import step_river
from companion.rules.state import canoe_key

from .expected import Canoe, canoes_of

UNKNOWN = "unknown"  # the vision's word for a cargo it is not sure of
STATUSES = ("exact", "ambiguous", "none")


class ObservationError(ValueError):
    """An observation that is not in the form of vision.md, or not usable (not stable)."""


class InferenceError(ValueError):
    """Inference asked for in a game state where it makes no sense (wrong phase, card)."""


# -- reading an observation ------------------------------------------------------------

@dataclass(frozen=True)
class Sighting:
    """An observation reduced to what inference compares: canoes by player colour as
    (place, gem) with places named as in rules.md (D, 1 … 7R, F), the weather (None when
    not reported) and the slots where no disc was seen."""

    canoes: dict[str, list[Canoe]]
    weather: int | None
    no_disc: tuple[str, ...] = ()

    def of(self, player: str) -> list[Canoe]:
        return self.canoes.get(player, [])


def _fail(message: str) -> ObservationError:
    return ObservationError(f"bad observation: {message}")


def _read_canoe(item: Any, where: str) -> tuple[str, str | None]:
    if not isinstance(item, Mapping):
        raise _fail(f"a canoe {where} must be an object, not {item!r}")
    player = item.get("player")
    if player not in PLAYER_COLOURS:
        raise _fail(f"canoe {where} has unknown player colour {player!r} "
                    f"(expected one of {', '.join(PLAYER_COLOURS)})")
    gem = item.get("gem")
    if gem is not None and gem != UNKNOWN and gem not in GEMS:
        raise _fail(f"{player}'s canoe {where} carries unknown gem {gem!r} "
                    f"(expected one of {', '.join(GEMS)}, null or \"unknown\")")
    return player, gem


def read_observation(observation: Mapping[str, Any] | Sighting) -> Sighting:
    """Check an observation dict (vision.md) and reduce it to a :class:`Sighting`.

    Raises :class:`ObservationError` with one line naming what is wrong; an unstable
    view (``"stable": false``) is refused, since nothing may be inferred from it."""
    if isinstance(observation, Sighting):
        return observation
    if not isinstance(observation, Mapping):
        raise _fail(f"expected a JSON object, not {type(observation).__name__}")
    if observation.get("stable", True) is False:
        raise ObservationError("the observation is not stable (a hand over the board or a "
                               "piece still moving); wait for a stable view")
    slots = observation.get("slots")
    if not isinstance(slots, Mapping):
        raise _fail("missing 'slots', an object with one entry per slot")
    for name in slots:
        if name not in SLOTS:
            raise _fail(f"unknown slot {name!r} (expected {', '.join(SLOTS)})")
    canoes: dict[str, list[Canoe]] = {}
    no_disc = []
    for slot in SLOTS:
        if slot not in slots:
            raise _fail(f"slot {slot} is missing from 'slots'")
        entry = slots[slot]
        if not isinstance(entry, Mapping) or not isinstance(entry.get("canoes", []), list):
            raise _fail(f"slot {slot} must be an object with a 'canoes' list")
        if entry.get("disc", True) is False:
            no_disc.append(slot)
        for item in entry.get("canoes", []):
            player, gem = _read_canoe(item, f"on slot {slot}")
            canoes.setdefault(player, []).append((slot, gem))
    for key, place in (("dock", "D"), ("falls", "F")):
        items = observation.get(key, [])
        if not isinstance(items, list):
            raise _fail(f"'{key}' must be a list of canoes")
        for item in items:
            player, gem = _read_canoe(item, f"in '{key}'")
            canoes.setdefault(player, []).append((place, gem))
    weather = observation.get("weather")
    if weather is not None and (isinstance(weather, bool) or weather not in WEATHER_TRACK):
        raise _fail(f"weather {weather!r} is not on the track "
                    f"({', '.join(f'{w:+d}' for w in WEATHER_TRACK)})")
    return Sighting({p: sorted(c, key=canoe_key) for p, c in canoes.items()}, weather,
                    tuple(no_disc))


# -- comparing what should be with what is seen ----------------------------------------

@dataclass(frozen=True)
class FitWeights:
    """The cost of each kind of disagreement. `place` plus `distance` per slot step
    stays below `missing` + `extra`, so a canoe seen on a wrong place is matched as
    moved (and the fix says where it belongs) rather than as lost plus found."""

    cargo: float = 1.0
    place: float = 3.0
    distance: float = 0.1
    missing: float = 2.0
    extra: float = 2.0
    weather: float = 3.0


DEFAULT_WEIGHTS = FitWeights()


def _describe(player: str, gem: str | None) -> str:
    if gem is None:
        return f"{player}'s empty canoe"
    if gem == UNKNOWN:
        return f"{player}'s canoe"
    return f"{player}'s canoe with {gem}"


def _on(place: str) -> str:
    return {"D": "on the dock", "F": "below the falls"}.get(place, f"on {place}")


def _weather(value: int | None) -> str:
    return "unknown" if value is None else f"{value:+d}"


@dataclass(frozen=True)
class Mismatch:
    """One disagreement between the expected and the seen board.

    kind: ``cargo`` (right place, other gem), ``moved`` (seen on another place),
    ``missing`` (not seen), ``extra`` (seen, not expected), ``weather``, ``disc`` (no
    disc seen in a slot) or ``player`` (a canoe of a colour that is not playing)."""

    kind: str
    player: str | None
    expected: Canoe | int | None
    seen: Canoe | int | None
    cost: float = 0.0

    @property
    def places(self) -> tuple[str, ...]:
        """The places (or "weather") this disagreement concerns, expected first."""
        if self.kind == "weather":
            return ("weather",)
        out = [c[0] for c in (self.expected, self.seen) if isinstance(c, tuple)]
        return tuple(dict.fromkeys(out))

    @property
    def message(self) -> str:
        exp, seen = self.expected, self.seen
        if self.kind == "weather":
            return f"the cloud should be on {_weather(exp)}, seen on {_weather(seen)}"
        if self.kind == "disc":
            return f"no disc seen in slot {seen}"
        assert self.player is not None
        if self.kind == "player":
            assert isinstance(seen, tuple)
            return f"{self.player} canoe seen {_on(seen[0])}, but {self.player} is not playing"
        if self.kind == "cargo":
            assert isinstance(exp, tuple) and isinstance(seen, tuple)
            should = f"carry {exp[1]}" if exp[1] else "be empty"
            got = f"with {seen[1]}" if seen[1] else "empty"
            return f"{self.player}'s canoe {_on(exp[0])} should {should}, seen {got}"
        if self.kind == "moved":
            assert isinstance(exp, tuple) and isinstance(seen, tuple)
            text = f"{_describe(self.player, exp[1])} should be {_on(exp[0])}, " \
                   f"seen {_on(seen[0])}"
            if not _same_gem(exp[1], seen[1]):
                text += f" {'with ' + seen[1] if seen[1] else 'empty'}"
            return text
        if self.kind == "missing":
            assert isinstance(exp, tuple)
            return f"{_describe(self.player, exp[1])} should be {_on(exp[0])}, not seen"
        assert isinstance(seen, tuple)
        return f"{_describe(self.player, seen[1])} seen {_on(seen[0])} should not be there"

    def to_json(self) -> dict[str, Any]:
        def side(value: Canoe | int | None) -> Any:
            if isinstance(value, tuple):
                return {"at": value[0], "gem": value[1]}
            return value

        return {"kind": self.kind, "player": self.player, "expected": side(self.expected),
                "seen": side(self.seen), "message": self.message}


def _same_gem(a: str | None, b: str | None) -> bool:
    return a == b or a == UNKNOWN or b == UNKNOWN


def _steps_between(a: str, b: str) -> int:
    steps = path_steps(a, b)
    if steps is None:  # 6L/7L to 6R/7R: up through the fork and down again
        steps = DEPTH[a] - DEPTH["5"] + DEPTH[b] - DEPTH["5"]
    return steps


def _pair_cost(exp: Canoe, seen: Canoe, w: FitWeights) -> float:
    cost = 0.0
    if exp[0] != seen[0]:
        cost += w.place + w.distance * _steps_between(exp[0], seen[0])
    if not _same_gem(exp[1], seen[1]):
        cost += w.cargo
    return cost


def _injections(n_exp: int, n_seen: int) -> list[tuple[int | None, ...]]:
    """Each expected canoe paired with a distinct seen one, or with none."""
    out: list[tuple[int | None, ...]] = [()]
    for _ in range(n_exp):
        out = [(*p, j) for p in out for j in [*range(n_seen), None]
               if j is None or j not in p]
    return out


@lru_cache(maxsize=8192)
def _best_pairing(expected: tuple[Canoe, ...], seen: tuple[Canoe, ...], weights: FitWeights
                  ) -> tuple[float, tuple[int | None, ...]]:
    """The cheapest pairing of expected with seen canoes and its cost. Ties go to the
    pairing listed first, which pairs before it leaves unpaired."""
    costs = [[_pair_cost(e, c, weights) for c in seen] for e in expected]
    best: tuple[float, tuple[int | None, ...]] | None = None
    for pairing in _injections(len(expected), len(seen)):
        paired = [j for j in pairing if j is not None]
        cost = sum(costs[i][j] if j is not None else weights.missing
                   for i, j in enumerate(pairing))
        cost += weights.extra * (len(seen) - len(paired))
        if best is None or cost < best[0] - 1e-9:
            best = (cost, pairing)
    assert best is not None
    return best


def match_canoes(player: str, expected: Sequence[Canoe], seen: Sequence[Canoe],
                 weights: FitWeights = DEFAULT_WEIGHTS) -> tuple[float, list[Mismatch]]:
    """The cheapest way to explain one player's seen canoes by the expected ones:
    (cost, the disagreements). A player's canoes look alike, so any pairing may do."""
    exp = tuple(sorted(expected, key=canoe_key))
    got = tuple(sorted(seen, key=canoe_key))
    if exp == got:
        return 0.0, []
    cost, pairing = _best_pairing(exp, got, weights)
    found = []
    for e, j in zip(exp, pairing, strict=True):
        if j is None:
            found.append(Mismatch("missing", player, e, None, weights.missing))
            continue
        c = _pair_cost(e, got[j], weights)
        if c:
            found.append(Mismatch("cargo" if e[0] == got[j][0] else "moved", player, e,
                                  got[j], c))
    found += [Mismatch("extra", player, None, c, weights.extra)
              for j, c in enumerate(got) if j not in pairing]
    return cost, found


def compare(expected: Mapping[str, Sequence[Canoe]], seen: Sighting,
            players: Iterable[str], weights: FitWeights = DEFAULT_WEIGHTS,
            weather: int | None = None) -> tuple[float, list[Mismatch]]:
    """Score `players`' canoes (and the weather, when given) of an expected board
    against a sighting: (total cost, disagreements)."""
    total, found = 0.0, []
    for player in players:
        cost, diffs = match_canoes(player, expected[player], seen.of(player), weights)
        total += cost
        found += diffs
    if weather is not None and seen.weather is not None and seen.weather != weather:
        total += weights.weather
        found.append(Mismatch("weather", None, weather, seen.weather, weights.weather))
    return total, found


def _canoe_json(player: str, gem: str | None) -> dict[str, Any]:
    return {"player": player, "gem": gem}


def place_diff(expected: Mapping[str, Sequence[Canoe]], seen: Sighting,
               mismatches: Sequence[Mismatch], players: Sequence[str],
               weather: int | None = None) -> list[dict[str, Any]]:
    """The disagreements slot by slot, in board order (D, 1 … 7R, F, then the weather):
    for each place concerned, the canoes of `players` that should be there and those
    seen, and what is wrong — what a referee shows so the table can put it right."""
    touched = {p for m in mismatches for p in m.places}
    out = []
    for place in PLACES:
        if place not in touched:
            continue
        out.append({
            "place": place,
            "expected": [_canoe_json(p, g) for p in players for at, g in expected[p]
                         if at == place],
            "seen": [_canoe_json(p, g) for p in players for at, g in seen.of(p)
                     if at == place],
            "problems": [m.message for m in mismatches if place in m.places],
        })
    if "weather" in touched:
        out.append({"place": "weather", "expected": weather, "seen": seen.weather,
                    "problems": [m.message for m in mismatches if m.kind == "weather"]})
    return out


def _unexplained(before: Mapping[str, Sequence[Canoe]], seen: Sighting,
                 players: Sequence[str], scored: Iterable[str],
                 weather: int | None, weights: FitWeights) -> list[Mismatch]:
    """Differences on pieces that no candidate changes: other players' canoes against
    the state before, colours not in the game, the weather, missing discs."""
    scored = set(scored)
    _, found = compare(before, seen, [p for p in players if p not in scored], weights,
                       weather)
    for player, canoes in seen.canoes.items():
        if player not in players:
            found += [Mismatch("player", player, None, c) for c in canoes]
    found += [Mismatch("disc", None, None, slot) for slot in seen.no_disc]
    return found


# -- the result objects ----------------------------------------------------------------

def _key(score: float) -> float:
    return round(score, 6)


@dataclass(frozen=True)
class Candidate:
    """One legal event, what it should leave on the table and how well that fits."""

    event: Turn | River | tuple[Buyback, ...]
    score: float
    mismatches: tuple[Mismatch, ...]
    text: str
    # What the diff is drawn from: the expected canoes of the scored players.
    expected: Mapping[str, Sequence[Canoe]] = field(default_factory=dict, repr=False,
                                                    compare=False)
    seen: Sighting | None = field(default=None, repr=False, compare=False)
    players: tuple[str, ...] = field(default=(), repr=False, compare=False)
    weather: int | None = field(default=None, repr=False, compare=False)
    # How candidates are ordered; equal ranks tie. Default: the score alone.
    rank: tuple = field(default=(), repr=False, compare=False)

    @property
    def order(self) -> tuple:
        return self.rank or (_key(self.score),)

    @property
    def diff(self) -> list[dict[str, Any]]:
        """Slot by slot, what differs from the picture (empty when it fits)."""
        if not self.mismatches or self.seen is None:
            return []
        return place_diff(self.expected, self.seen, self.mismatches, self.players,
                          self.weather)

    def to_json(self) -> dict[str, Any]:
        if isinstance(self.event, tuple):
            event: Any = [e.to_json() for e in self.event]
        else:
            event = self.event.to_json()
        return {"event": event, "text": self.text, "score": round(self.score, 3),
                "diff": self.diff}


@dataclass(frozen=True)
class Inference:
    """The answer: a status, the ranked candidates, and differences outside the move.

    ``best`` holds the candidates tied at the best score: the one event when
    ``exact``, the ones to ask the players about when ``ambiguous``, the closest
    legal events when ``none``."""

    status: str
    candidates: tuple[Candidate, ...]
    unexplained: tuple[Mismatch, ...] = ()

    @property
    def best(self) -> tuple[Candidate, ...]:
        if not self.candidates:
            return ()
        top = self.candidates[0].order
        return tuple(c for c in self.candidates if c.order == top)

    @property
    def score(self) -> float | None:
        return self.candidates[0].score if self.candidates else None

    @property
    def diff(self) -> list[dict[str, Any]]:
        """Slot-by-slot diff against the closest candidate (empty when it fits)."""
        return self.candidates[0].diff if self.candidates else []

    def closest(self, n: int = 3) -> tuple[Candidate, ...]:
        return self.candidates[:n]

    def to_json(self, candidates: int = 5) -> dict[str, Any]:
        return {"status": self.status, "summary": self.summary,
                "best": [c.to_json() for c in self.best],
                "candidates": [c.to_json() for c in self.candidates[:candidates]],
                "unexplained": [m.to_json() for m in self.unexplained]}

    @property
    def summary(self) -> str:
        """One line for people: the answer, or what to ask, or what is wrong."""
        best = self.best
        if not best:
            return "nothing to compare"
        if self.status == "exact":
            return best[0].text
        names = " | ".join(c.text for c in best[:6]) + (" | …" if len(best) > 6 else "")
        if self.status == "ambiguous":
            return f"{len(best)} fit the picture equally: {names}; ask the players"
        kinds = {m.kind for c in best for m in c.mismatches}
        if kinds == {"missing"}:
            lost = sorted({m.player or "" for c in best for m in c.mismatches})
            return (f"{' and '.join(lost)}: a canoe is not seen; {len(best)} legal "
                    f"move{'s' if len(best) > 1 else ''} fit the rest: {names}")
        problems = "; ".join(m.message for m in best[0].mismatches)
        return f"no legal move fits; closest {best[0].text}: {problems}"

    def __str__(self) -> str:
        lines = [f"{self.status}: {self.summary}"]
        lines += [f"  also: {m.message}" for m in self.unexplained]
        return "\n".join(lines)


def _status(candidates: Sequence[Candidate]) -> str:
    if not candidates or _key(candidates[0].score) > 0:
        return "none"
    tied = sum(1 for c in candidates if c.order == candidates[0].order)
    return "exact" if tied == 1 else "ambiguous"


# -- phase II: turns -------------------------------------------------------------------

@dataclass(frozen=True)
class TurnInference(Inference):
    player: str = ""
    card: int | str = ""

    @property
    def turn(self) -> Turn | None:
        """The turn to apply when the status is exact, else None."""
        if self.status != "exact":
            return None
        event = self.candidates[0].event
        assert isinstance(event, Turn)
        return event

    @property
    def turns(self) -> list[Turn]:
        return [c.event for c in self.best if isinstance(c.event, Turn)]

    def to_json(self, candidates: int = 5) -> dict[str, Any]:
        return {"player": self.player, "card": self.card} | super().to_json(candidates)


def scratch_copy(game: Game) -> Game:
    """A game in the same state with no history, to try events on: inference never
    changes the caller's game, not even for a moment (a web thread may be reading it)."""
    trial = Game.from_setup(game.setup)
    trial.state = game.state.copy()
    return trial


def _outcomes(game: Game, turns: Sequence[Turn]
              ) -> list[tuple[Turn, dict[str, list[Canoe]], int]]:
    """Each turn with the canoes and weather it leaves, by applying it to a scratch
    copy and taking it back. A listed turn the engine then refuses (an engine bug) is
    left out rather than stopping the table."""
    game = scratch_copy(game)
    out = []
    for turn in turns:
        try:
            game.apply(turn)
        except (IllegalEvent, LogError):
            continue
        out.append((turn, {p: list(c) for p, c in game.state.canoes.items()},
                    game.state.weather))
        game.undo()
    return out


def infer_turn(game: Game, observation: Mapping[str, Any] | Sighting,
               card: int | str | None = None, weights: FitWeights = DEFAULT_WEIGHTS
               ) -> TurnInference:
    """Which legal turn of the player to move, playing `card` (default: their card of
    this round), explains the stable `observation` after it.

    `game` is left as it was. Raises InferenceError when nobody is to move or the card
    is not the player's, ObservationError for a malformed or unstable observation."""
    seen = read_observation(observation)
    player = game.to_move
    if player is None:
        raise InferenceError(f"no turn to infer: the game is in phase {game.phase!r}, "
                             "not in phase II")
    own = game.state.cards.get(player)
    if card is not None and card != own:
        raise InferenceError(f"{player}'s card this round is {own}, not {card}")
    card = own
    assert card is not None
    try:
        turns = game.legal_turns(player, card)
    except (IllegalEvent, LogError) as exc:  # pragma: no cover - the engine's own bug
        raise InferenceError(f"the engine cannot list {player}'s turns: {exc}") from exc
    before = canoes_of(game.state)
    outcomes = _outcomes(game, turns)
    # Score the mover and anyone some turn robs; everything else is only cross-checked.
    scored = [p for p in game.players if p == player or any(
        sorted(canoes[p], key=canoe_key) != before[p] for _, canoes, _ in outcomes)]
    cloud = card == "cloud"
    candidates = []
    for turn, canoes, weather in outcomes:
        score, found = compare(canoes, seen, scored, weights, weather if cloud else None)
        candidates.append(Candidate(turn, score, tuple(found), format_turn(turn),
                                    canoes, seen, tuple(scored), weather))
    candidates.sort(key=lambda c: (_key(c.score), c.text))
    unexplained = _unexplained(before, seen, game.players, scored,
                               None if cloud else game.state.weather, weights)
    return TurnInference(_status(candidates), tuple(candidates), tuple(unexplained),
                         player, card)


# -- phase III: the river --------------------------------------------------------------

@dataclass(frozen=True)
class RiverInference(Inference):
    speed: int = 0
    branch_next: str = "L"

    @property
    def event(self) -> River | None:
        """The river event to apply when the status is exact, else None."""
        if self.status != "exact":
            return None
        event = self.candidates[0].event
        assert isinstance(event, River)
        return event

    @property
    def flags(self) -> list[dict[str, str]]:
        """What the referee should say about the best explanation: a step count other
        than the speed (R-RIVER-1), branches that did not alternate (R-RIVER-3)."""
        if not self.candidates:
            return []
        event = self.candidates[0].event
        assert isinstance(event, River)
        out = []
        steps = event.steps or 0
        if steps != self.speed:
            out.append({"rule": "R-RIVER-1",
                        "message": f"the river was pushed {steps} steps; this round's speed "
                                   f"is {self.speed}"})
        if _breaks(event.branches or (), self.branch_next):
            seq = "".join(event.branches or ())
            out.append({"rule": "R-RIVER-3",
                        "message": f"the discs entered the branches {seq}, not alternately "
                                   f"from {self.branch_next}"})
        return out

    def to_json(self, candidates: int = 5) -> dict[str, Any]:
        event = self.event
        return {"speed": self.speed, "event": event.to_json() if event else None,
                "flags": self.flags} | super().to_json(candidates)


def _breaks(branches: Sequence[str], first: str) -> int:
    """How often a branch sequence departs from alternation starting at `first`."""
    prev = None
    count = 0
    for i, b in enumerate(branches):
        if (i == 0 and b != first) or (i and b == prev):
            count += 1
        prev = b
    return count


Layout = tuple[tuple[str, tuple[Canoe, ...]], ...]  # (player, canoes) in seating order


def _layout(canoes: Mapping[str, Sequence[Canoe]]) -> Layout:
    return tuple((p, tuple(sorted(c, key=canoe_key))) for p, c in canoes.items())


@lru_cache(maxsize=1)
def _step_table() -> dict[str, dict[str, str]]:
    """Where one push of the river takes a canoe on each slot, for each branch the new
    disc enters: learnt once from the engine's own step (R-RIVER-2) so that the two
    can never disagree."""
    table: dict[str, dict[str, str]] = {}
    for branch in ("L", "R"):
        table[branch] = {}
        for slot in SLOTS:
            state = State(players=("blue",), start="blue", canoes={"blue": [(slot, None)]})
            step_river(state, branch)
            table[branch][slot] = state.canoes["blue"][0][0]
    return table


def _push(layout: Layout, branch: str) -> Layout:
    """One push of the river; a canoe that falls loses its gem (R-RIVER-4)."""
    moves = _step_table()[branch]
    out = []
    for player, canoes in layout:
        moved = []
        for at, gem in canoes:
            to = moves.get(at, at)
            moved.append((to, None) if to == "F" else (to, gem))
        out.append((player, tuple(sorted(moved, key=canoe_key))))
    return tuple(out)


def river_outcomes(canoes: Mapping[str, Sequence[Canoe]], max_steps: int, first: str
                   ) -> dict[tuple[int, Layout, str | None], tuple[int, tuple[str, ...]]]:
    """Every distinct way `0 … max_steps` pushes can leave the canoes: for each (steps,
    canoe layout, last branch) the branch sequence closest to alternation (starting
    from `first`) that produces it, with its number of departures from alternation."""
    frontier: dict[tuple[Layout, str | None], tuple[int, tuple[str, ...]]] = {
        (_layout(canoes), None): (0, ())}
    out: dict[tuple[int, Layout, str | None], tuple[int, tuple[str, ...]]] = {}
    for steps in range(max_steps + 1):
        for (layout, last), best in frontier.items():
            out[(steps, layout, last)] = best
        if steps == max_steps:
            break
        nxt: dict[tuple[Layout, str | None], tuple[int, tuple[str, ...]]] = {}
        for (layout, last), (breaks, seq) in frontier.items():
            expected = first if last is None else ("R" if last == "L" else "L")
            for branch in ("L", "R"):
                key = (_push(layout, branch), branch)
                cost = breaks + (branch != expected)
                if key not in nxt or cost < nxt[key][0]:
                    nxt[key] = (cost, (*seq, branch))
        frontier = nxt
    return out


def infer_river(game: Game, after: Mapping[str, Any] | Sighting,
                before: Mapping[str, Any] | Sighting | None = None,
                max_steps: int | None = None, weights: FitWeights = DEFAULT_WEIGHTS
                ) -> RiverInference:
    """How many steps the river was pushed and which branch each disc took, from the
    stable observation `after` phase III (and `before` it, when given: the canoes then
    start where they were seen rather than where the engine has them).

    Among explanations that fit equally, the one closest to the rules wins: the
    round's speed, then alternating branches (R-RIVER-3). When the picture needs other
    steps or branches, the event says so and :attr:`RiverInference.flags` names the
    rule. `max_steps` (default: the speed + 4) bounds the search."""
    if game.phase != "river":
        raise InferenceError(f"no river move to infer: the game is in phase {game.phase!r}; "
                             "the river moves after every player's turn")
    seen = read_observation(after)
    speed = game.speed or 0
    first = game.state.branch_next
    players = list(game.players)
    if before is None:
        start = canoes_of(game.state)
    else:
        was = read_observation(before)
        start = {p: list(was.of(p)) for p in players}
    limit = speed + 4 if max_steps is None else max_steps
    outcomes = river_outcomes(start, limit, first)
    # Score each distinct layout once; many step/branch sequences share one.
    scores: dict[Layout, tuple[float, list[Mismatch]]] = {}
    ranked = []
    for (steps, layout, last), (breaks, seq) in outcomes.items():
        if layout not in scores:
            scores[layout] = compare(dict(layout), seen, players, weights)
        ranked.append((_key(scores[layout][0]), abs(steps - speed), breaks, steps, seq,
                       layout, last))
    ranked.sort(key=lambda r: r[:5])
    candidates = []
    for score, off, breaks, steps, seq, layout, _ in ranked:
        text = f"{steps} step{'s' if steps != 1 else ''}" + (f" {''.join(seq)}" if seq else "")
        candidates.append(Candidate(River(steps, seq), score, tuple(scores[layout][1]), text,
                                    dict(layout), seen, tuple(players),
                                    rank=(score, off, breaks)))
    status = _status_river(ranked)
    unexplained = _unexplained(start, seen, players, players, game.state.weather, weights)
    return RiverInference(status, tuple(candidates), tuple(unexplained), speed, first)


def _status_river(ranked: Sequence[tuple]) -> str:
    """exact when one layout fits perfectly and the explanations closest to the rules
    agree on the branch the next disc takes; ambiguous when they do not."""
    if not ranked or ranked[0][0] > 0:
        return "none"
    perfect = [r for r in ranked if r[0] == 0]
    if len({r[5] for r in perfect}) > 1:
        return "ambiguous"
    top = perfect[0][1:3]
    lasts = {r[6] for r in perfect if r[1:3] == top}
    return "exact" if len(lasts) == 1 else "ambiguous"


# -- phase I: buybacks -----------------------------------------------------------------

@dataclass(frozen=True)
class BuybackInference(Inference):
    """Which canoes came back from the falls to the dock. ``events`` are the buybacks
    the picture decides; ``choices`` the players whose payment it cannot tell (which
    camp gem paid): each has the possible event lists, to be asked on their phone;
    ``pending`` the players who still must buy back (R-BUY-2, R-BUY-3)."""

    events: tuple[Buyback, ...] = ()
    choices: dict[str, list[tuple[Buyback, ...]]] = field(default_factory=dict)
    pending: dict[str, str] = field(default_factory=dict)

    @property
    def summary(self) -> str:
        if self.status == "none":
            return "the picture does not match: " + \
                "; ".join(m.message for m in self.candidates[0].mismatches)
        parts = [self.candidates[0].text] if self.events or not self.choices else []
        for player, options in self.choices.items():
            gems = " or ".join("+".join(e.gem or "free" for e in opt) for opt in options)
            n = len(options[0])
            parts.append(f"{player} bought back {n} canoe{'s' if n > 1 else ''}, paid with "
                         f"{gems}: ask {player}")
        parts += list(self.pending.values())
        return "; ".join(parts)

    def to_json(self, candidates: int = 5) -> dict[str, Any]:
        return {"status": self.status, "summary": self.summary,
                "events": [e.to_json() for e in self.events],
                "choices": {p: [[e.to_json() for e in opt] for opt in opts]
                            for p, opts in self.choices.items()},
                "pending": self.pending,
                "diff": self.diff,
                "unexplained": [m.to_json() for m in self.unexplained]}


def _legal_sequence(game: Game, events: Sequence[Buyback]) -> bool:
    applied = 0
    try:
        for event in events:
            game.apply(event)
            applied += 1
        return True
    except (IllegalEvent, LogError):
        return False
    finally:
        for _ in range(applied):
            game.undo()


def infer_buybacks(game: Game, observation: Mapping[str, Any] | Sighting,
                   weights: FitWeights = DEFAULT_WEIGHTS) -> BuybackInference:
    """From the observation in phase I, which canoes came back from F to D (R-BUY).

    For each player the number of canoes bought back is what left the falls for the
    dock; the gem paid is not on the picture (camps are not seen), so it is decided
    only when the camp leaves no choice (one colour, or the free canoe of R-BUY-2)."""
    if game.phase != "cards":
        raise InferenceError(f"no buyback to infer: the game is in phase {game.phase!r}; "
                             "canoes are bought back in phase I, before the cards")
    seen = read_observation(observation)
    game = scratch_copy(game)
    before = canoes_of(game.state)
    players = list(game.players)
    events: list[Buyback] = []
    choices: dict[str, list[tuple[Buyback, ...]]] = {}
    pending: dict[str, str] = {}
    expected: dict[str, list[Canoe]] = {}
    for player in players:
        canoes = before[player]
        fallen = sum(1 for at, _ in canoes if at == "F")
        back = fallen - sum(1 for at, _ in seen.of(player) if at == "F")
        back = max(0, min(back, fallen))
        options = _buyback_options(game, player, back)
        while back and not options:  # the picture asks for more than the rules allow
            back -= 1
            options = _buyback_options(game, player, back)
        rest = list(canoes)
        for _ in range(back):
            rest.remove(("F", None))
        expected[player] = rest + [("D", None)] * back
        if len(options) == 1:
            events += options[0]
        else:
            choices[player] = options
        if fallen - back == 2:
            rule = "R-BUY-3" if game.state.camps[player] else "R-BUY-2"
            how = "buy one back with a camp gem" if rule == "R-BUY-3" else \
                "take one back for free"
            pending[player] = f"{rule}: {player} has no canoe left and must {how} " \
                              "before the cards"
    _, found = compare(expected, seen, players, weights)
    # Buybacks move canoes between F and D only; a canoe nudged on the river is
    # reported apart and does not make the buyback doubtful.
    scored = tuple(m for m in found if {"D", "F"} & set(m.places))
    unexplained = [m for m in found if m not in scored]
    score = sum(m.cost for m in scored)
    candidate = Candidate(tuple(events), score, scored,
                          ", ".join(f"{e.player} buys back" + (f" with {e.gem}" if e.gem
                                                               else " for free")
                                    for e in events) or "no buyback",
                          expected, seen, tuple(players))
    if score > 0:
        status = "none"
    else:
        status = "ambiguous" if choices else "exact"
    unexplained += _unexplained(before, seen, players, players, game.state.weather, weights)
    return BuybackInference(status, (candidate,), tuple(unexplained), tuple(events),
                            choices, pending)


def _buyback_options(game: Game, player: str, back: int) -> list[tuple[Buyback, ...]]:
    """Every legal way for `player` to bring `back` canoes home: which camp gems pay."""
    if back == 0:
        return [()]
    camp = game.state.camps[player]
    if not camp:
        free = (Buyback(player),) * back
        return [free] if _legal_sequence(game, free) else []
    options = []
    for gems in combinations_with_replacement(sorted(set(camp)), back):
        seq = tuple(Buyback(player, g) for g in gems)
        if _legal_sequence(game, seq):
            options.append(seq)
    return options


def infer(game: Game, observation: Mapping[str, Any] | Sighting) -> Inference:
    """What happened on the table since `game`'s state, whatever the phase: buybacks
    in phase I, the turn of the player to move in phase II, the river in phase III.
    Raises InferenceError once the game is over."""
    if game.phase == "cards":
        return infer_buybacks(game, observation)
    if game.phase == "turns":
        return infer_turn(game, observation)
    if game.phase == "river":
        return infer_river(game, observation)
    raise InferenceError("the game is over; nothing moves any more")


__all__ = ["infer", "UNKNOWN", "STATUSES", "ObservationError", "InferenceError", "Sighting",
           "read_observation", "FitWeights", "DEFAULT_WEIGHTS", "Mismatch", "match_canoes",
           "compare", "place_diff", "scratch_copy", "Candidate", "Inference", "TurnInference",
           "infer_turn", "RiverInference", "river_outcomes", "infer_river",
           "BuybackInference", "infer_buybacks"]
