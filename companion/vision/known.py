"""What lies where on the photos a colour profile is learned from: the calibration
layout (README), or any state of a game (``companion calibrate profile --state``), a
freshly set-up one included (canoes on the dock, gems in the deposits, R-SETUP)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from companion.rules import GEMS, PLAYER_COLOURS, SLOTS

from .board import Board, Polygon
from .layout import LAYOUT_CANOES, LAYOUT_NO_DISC, LAYOUT_WEATHER
from .profile import ProfileError

if TYPE_CHECKING:
    from companion.rules import State

Canoe = tuple[str, str | None]  # (player, gem or None)

# The share of a deposit's pixels that are its gems' (the most unlike its print): 7 gems
# of about 9 mm fill a sixth of a deposit.
PILE_QUANTILE = 0.9
# Fewer gems than this in a deposit do not fill that share: its print would be taken.
PILE_LEAST = 4


def pile_pixels(deposit: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The gems' pixels among a deposit's ((N, 3) colours), those least like its print
    (the print fills most of a deposit: its median), and its print's: the half most
    like it."""
    px = deposit.astype(np.float32)
    far = np.linalg.norm(px - np.median(px, axis=0), axis=1)
    return (deposit[far >= np.quantile(far, PILE_QUANTILE)],
            deposit[far <= np.quantile(far, 0.5)])


def piles(deposits: Mapping[str, Mapping[str, int]]) -> dict[str, str]:
    """The deposits whose gems can teach their colour (deposit -> gem): those holding
    gems of one colour only, at least PILE_LEAST of them."""
    out = {}
    for deposit, held in deposits.items():
        kinds = [gem for gem, n in held.items() if n > 0]
        if len(kinds) == 1 and held[kinds[0]] >= PILE_LEAST:
            out[deposit] = kinds[0]
    return out


class BoardUnseen(ProfileError):
    """The board's markers are not found in a photo."""


class PlaceError(ProfileError):
    """The photos do not show the stated pieces; names the place that disagrees."""


@dataclass(frozen=True)
class KnownBoard:
    """The pieces on the photographed board, by place."""

    river: Mapping[str, tuple[Canoe, ...]] = field(default_factory=dict)
    dock: tuple[Canoe, ...] = ()
    falls: tuple[Canoe, ...] = ()
    deposits: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    weather: int = 0
    no_disc: tuple[str, ...] = ()
    name: str = "the stated state"

    @classmethod
    def layout(cls) -> KnownBoard:
        """The calibration layout of the README."""
        return cls(river={s: ((c, g),) for s, (c, g) in LAYOUT_CANOES.items()},
                   weather=LAYOUT_WEATHER, no_disc=(LAYOUT_NO_DISC,),
                   name="the calibration layout")

    @classmethod
    def of_snapshot(cls, snapshot: Mapping[str, Any]) -> KnownBoard:
        """From a game-log.md state snapshot (every disc in its slot, R-SETUP-2).
        Raises ProfileError (one line) for a snapshot not of that shape."""
        try:
            return cls._of_snapshot(snapshot)
        except (AttributeError, TypeError, ValueError) as exc:
            if isinstance(exc, ProfileError):
                raise
            raise ProfileError("the state is not a game-log.md snapshot (its canoes, "
                               "deposits or weather are malformed)") from None

    @classmethod
    def of_state(cls, state: State) -> KnownBoard:
        """The pieces of a game's state (the engine's: well formed)."""
        river: dict[str, list[Canoe]] = {}
        dock: list[Canoe] = []
        falls: list[Canoe] = []
        for player, pieces in state.canoes.items():
            for at, gem in pieces:
                if at == "D":
                    dock.append((player, gem))
                elif at == "F":
                    falls.append((player, gem))
                else:
                    river.setdefault(at, []).append((player, gem))
        deposits = {d: {g: n for g, n in held.items() if n > 0}
                    for d, held in state.deposits.items()}
        return cls({s: tuple(c) for s, c in river.items()}, tuple(dock), tuple(falls),
                   deposits, state.weather, name="the game's state")

    @classmethod
    def _of_snapshot(cls, snapshot: Mapping[str, Any]) -> KnownBoard:
        river: dict[str, list[Canoe]] = {}
        dock: list[Canoe] = []
        falls: list[Canoe] = []
        canoes = snapshot.get("canoes")
        if not isinstance(canoes, Mapping):
            raise ProfileError("the state has no canoes (is it a game-log.md snapshot?)")
        for player, pieces in canoes.items():
            if player not in PLAYER_COLOURS:
                raise ProfileError(f"the state names an unknown canoe colour {player!r}")
            for piece in pieces:
                at, gem = piece.get("at"), piece.get("gem")
                if gem is not None and gem not in GEMS:
                    raise ProfileError(f"the state names an unknown gem {gem!r}")
                if at == "D":
                    dock.append((player, gem))
                elif at == "F":
                    falls.append((player, gem))
                elif at in SLOTS:
                    river.setdefault(at, []).append((player, gem))
                else:
                    raise ProfileError(f"the state puts a {player} canoe on {at!r}, "
                                       "not a place of the board")
        deposits = {d: {g: int(n) for g, n in held.items() if int(n) > 0}
                    for d, held in (snapshot.get("deposits") or {}).items()}
        return cls({s: tuple(c) for s, c in river.items()}, tuple(dock), tuple(falls),
                   deposits, int(snapshot.get("weather", 0)))

    def lone_canoes(self) -> dict[str, Canoe]:
        """Slots holding exactly one canoe: a hull laid along the flow at the slot's
        centre, whose pixels are that canoe's (two or three share and shift)."""
        return {s: c[0] for s, c in self.river.items() if len(c) == 1}

    def piles(self) -> dict[str, str]:
        """Deposit -> the one gem colour it holds at least PILE_LEAST of."""
        return piles(self.deposits)

    def holding(self, board: Board) -> list[Polygon]:
        """The polygons of the dock, the falls and the deposits that hold pieces."""
        held = [poly for poly, pieces in ((board.dock, self.dock), (board.falls, self.falls))
                if pieces]
        return held + [poly for d, poly in board.deposits.items() if self.deposits.get(d)]

    def canoes_shown(self) -> set[str]:
        """Canoe colours a photo of this board shows where they can be learned: alone on
        a slot or on the dock."""
        return {p for p, _ in self.lone_canoes().values()} | {p for p, _ in self.dock}

    def gems_shown(self) -> set[str]:
        """Gem colours a photo of this board shows where their colour can be learned."""
        carried = {g for _, (_, g) in self.lone_canoes().items() if g is not None}
        return carried | set(self.piles().values())


__all__ = ["PILE_LEAST", "PILE_QUANTILE", "BoardUnseen", "KnownBoard", "PlaceError",
           "pile_pixels", "piles"]
