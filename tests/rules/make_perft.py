"""Write the perft fixtures: logs of random positions and the number of distinct legal
turns for a player and card, each count checked against brute force when written.

    python -m tests.rules.make_perft      (rewrites tests/fixtures/perft/)
"""

import json
import random
from pathlib import Path

from companion.rules import to_line
from companion.rules.random_play import random_position

from .oracle import brute_force_outcomes

HERE = Path(__file__).resolve().parent.parent / "fixtures" / "perft"


def main() -> None:
    rng = random.Random(20261121)
    cases = []
    while len(cases) < 24:
        game = random_position(rng, rounds=rng.randint(1, 14))
        if game.is_over:
            continue
        player = rng.choice(game.players)
        if all(at == "F" for at, _ in game.state.canoes[player]):
            continue
        card = rng.choice([1, 2, 3, 4, 5, 6, "cloud"])
        count = len(game.legal_turns(player, card))
        if card != "cloud":
            assert count == len(brute_force_outcomes(game, player, card))
        name = f"position-{len(cases):02d}.jsonl"
        lines = [to_line(game.setup)] + [to_line(e) for e in game.events]
        (HERE / name).write_text("\n".join(lines) + "\n")
        cases.append({"log": name, "player": player, "card": card, "count": count})
    (HERE / "cases.json").write_text(json.dumps(cases, indent=1) + "\n")


if __name__ == "__main__":
    main()
