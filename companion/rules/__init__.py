"""The rules of Niagara as a pure library: state, events, verdicts and legal turns.

Nothing here does I/O or reads a clock; everything else in the companion stands on it.

>>> from companion.rules import Game
>>> game = Game(["blue", "green", "yellow"])
>>> game.apply({"event": "cards", "cards": {"blue": 6, "green": "cloud", "yellow": 5}})
>>> len(game.legal_turns())
3
"""

from .cards import CardPhase
from .danger import DangerZone, danger_zone
from .errors import IllegalEvent, LogError
from .events import (
    ANY,
    Buyback,
    CanoeAction,
    Card,
    Cards,
    Event,
    River,
    Setup,
    Turn,
    card_key,
    parse_event,
    parse_line,
    to_line,
)
from .game import LEGAL, Game, Verdict, win_met
from .geometry import (
    CARD_VALUES,
    DEPOSIT_AT,
    GEM_TOTAL,
    GEMS,
    PLACES,
    PLAYER_COLOURS,
    SLOTS,
    VARIANTS,
    WEATHER_TRACK,
    Phase,
    Place,
)
from .notation import format_turn, parse_turn
from .referee import referee_lines
from .river import RiverPreview, downstream, possible_speeds, preview_river, river_speed
from .state import State

__all__ = [
    "ANY", "Buyback", "CanoeAction", "Card", "Cards", "Event", "River", "Setup", "Turn",
    "CardPhase", "DangerZone", "danger_zone", "card_key", "parse_event", "parse_line",
    "to_line", "IllegalEvent", "LogError",
    "LEGAL", "Game", "Verdict", "win_met", "CARD_VALUES", "DEPOSIT_AT", "GEM_TOTAL", "GEMS",
    "PLACES", "Phase", "Place", "PLAYER_COLOURS", "SLOTS", "VARIANTS", "WEATHER_TRACK",
    "format_turn", "parse_turn",
    "referee_lines", "RiverPreview", "downstream", "possible_speeds", "preview_river",
    "river_speed",
    "State",
]
