"""A plain-text picture of the state, for `print(game)` and the terminal."""

from __future__ import annotations

from .events import card_key
from .geometry import DEPOSIT_AT, SLOTS
from .state import State

_INITIAL = {"brown": "Br", "yellow": "Ye", "red": "Re", "blue": "Bl", "green": "Gr"}
_GEM = {"red": "r", "blue": "b", "clear": "c", "yellow": "y", "violet": "v"}


def _canoes_on(state: State, place: str) -> str:
    out = []
    for p in state.players:
        for at, gem in state.canoes[p]:
            if at == place:
                out.append(_INITIAL[p] + (f"[{_GEM[gem]}]" if gem else ""))
    return " ".join(out)


def _pile(state: State, deposit: str) -> str:
    pile = state.deposits.get(deposit, {})
    return " ".join(f"{_GEM[g]}{n}" for g, n in sorted(pile.items()) if n) or "-"


def board_text(state: State) -> str:
    lines = [f"round {state.round} · phase {state.phase} · weather {state.weather:+d} · "
             f"ring {state.start} · next branch {state.branch_next}"
             + (f" · to move {state.to_move}" if state.to_move else "")
             + (f" · winners {', '.join(state.winners)}" if state.winners else "")]
    lines.append(f"  D   {_canoes_on(state, 'D')}")
    for slot in SLOTS:
        deposit = DEPOSIT_AT.get(slot)
        bank = f"   <{deposit}: {_pile(state, deposit)}>" if deposit and slot != "6R" \
            and slot != "7R" else ""
        lines.append(f"  {slot:<3} {_canoes_on(state, slot)}{bank}")
    lines.append(f"  F   {_canoes_on(state, 'F')}")
    for p in state.players:
        hand = " ".join(str(c) for c in sorted(state.hands[p], key=card_key))
        camp = " ".join(state.camps[p]) or "-"
        card = f" · card {state.cards[p]}" if p in state.cards else ""
        lines.append(f"  {p:<6} camp {camp} · hand {hand}{card}")
    return "\n".join(lines)
