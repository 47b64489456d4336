"""A canoe as one picture showed it (``SeenCanoe``), and which of a picture's canoes
agree with a state (``agreeing``): what the table's looks learn from and what a picture
is compared with."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SeenCanoe:
    """One canoe as a picture showed it: whose, where, how uneven its middle was, and
    the colour of the part of its middle least like its hull, if any stood out (a gem's
    colour as this camera sees it in a canoe: blurred into the hull, in this light);
    None when not measured; and the gem read in it."""

    player: str
    place: str
    texture: float | None
    core: tuple[float, float, float] | None = None
    # The gem the reading saw in it (a colour, "unknown"), None when it saw none.
    gem: str | None = None
    # How its middle looked against its hull (``GemEvidence.look``; paleness first).
    look: tuple[float, ...] | None = None


def agreeing(seen: Iterable[SeenCanoe], canoes: Mapping[str, Sequence[tuple[str, str | None]]]
             ) -> list[SeenCanoe]:
    """The canoes seen on places where the picture shows the same players' canoes as a
    state's `canoes` (by player, as (place, gem)): those a picture read with slips may
    still teach, and be compared with."""
    seen = list(seen)

    def players(where: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for player, place in where:
            out.setdefault(place, []).append(player)
        return {place: sorted(names) for place, names in out.items()}

    told = players((p, at) for p, held in canoes.items() for at, _ in held)
    shown = players((c.player, c.place) for c in seen)
    return [c for c in seen if told.get(c.place) == shown.get(c.place)]


__all__ = ["SeenCanoe", "agreeing"]
