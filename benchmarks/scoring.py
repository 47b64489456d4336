"""What the vision benchmarks share: scoring one observation against its truth, adding
the scores up into the figures every benchmark prints, percentiles, and timing a
still camera's film (first frame from scratch, then tracked frames).

Used by vision_accuracy.py and vision_speed.py (the project's 2-D renderer) and by
worlds_stills.py, worlds_classes.py and worlds_speed.py (the 3-D worlds), so that the
same figure means the same thing in all of them; and how the worlds' figures are laid
out side by side (``print_table``).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from companion.rules import SLOTS


def print_table(title: str, rows: dict[str, dict[str, str]], label: int = 27,
                cell: int = 18) -> None:
    """Figures side by side: a column per row of `rows` (its name on top), a line per
    figure any of them has ("-" where one has not), `label` and `cell` characters wide."""
    print(title)
    keys = list(dict.fromkeys(k for row in rows.values() for k in row))
    print("  " + " " * label + "".join(f"{n:>{cell}s}" for n in rows))
    for key in keys:
        print(f"  {key:{label}s}" + "".join(f"{row.get(key, '-'):>{cell}s}"
                                            for row in rows.values()))


def pct(a: float, b: float, digits: int = 1) -> str:
    """`a` of `b` as a share and a count, e.g. "97.5% (39/40)"."""
    return f"{100 * a / b:.{digits}f}% ({a}/{b})" if b else "n/a"


def quantile(values: Iterable[float], q: float) -> float:
    """The q-th quantile by rank (q = 0.9: the 90th percentile)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _places(obs: dict) -> dict[str, list[dict]]:
    out = {s: obs["slots"][s]["canoes"] for s in SLOTS}
    out["D"], out["F"] = obs["dock"], obs["falls"]
    return out


def score(obs: dict | None, truth: dict) -> dict:
    """Counts for one board: canoes placed right (place and colour), invented, gems of
    the canoes seen ("unknown" counts as wrong), weather, discs, exact; and the failures
    in words."""
    res: Counter = Counter()
    fails: list[str] = []
    made_up: list[str] = []
    want = _places(truth)
    res["canoes"] = sum(len(v) for v in want.values())
    if obs is None:
        res["not_found"] = 1
        return {"counts": res, "fails": ["board not found"], "invented": []}
    got = _places(obs)
    for place in want:
        w_players = Counter(c["player"] for c in want[place])
        g_players = Counter(c["player"] for c in got[place])
        placed = sum((w_players & g_players).values())
        res["placed"] += placed
        extra = g_players - w_players
        invented = sum(extra.values())
        res["invented"] += invented
        if invented:
            made_up.append(f"{place}: {sorted(extra.elements())}")
        if placed < len(want[place]) or invented:
            fails.append(f"{place}: canoes {sorted(w_players.elements())} seen as "
                         f"{sorted(g_players.elements())}")
        # Gems: for each player, match the gems of their canoes at this place.
        for player in w_players & g_players:
            wg = Counter(c["gem"] or "-" for c in want[place] if c["player"] == player)
            gg = Counter(c["gem"] or "-" for c in got[place] if c["player"] == player)
            n = min(w_players[player], g_players[player])
            right = min(sum((wg & gg).values()), n)
            res["gem_checked"] += n
            res["gem_right"] += right
            res["gem_unknown"] += min(gg["unknown"], n)
            if right < n:
                fails.append(f"{place}: {player} gems {sorted(wg.elements())} seen as "
                             f"{sorted(gg.elements())}")
    res["weather_right"] = int(obs["weather"] == truth["weather"])
    if not res["weather_right"]:
        fails.append(f"weather {truth['weather']} seen as {obs['weather']}")
    for s in SLOTS:
        res["discs"] += 1
        ok = obs["slots"][s]["disc"] == truth["slots"][s]["disc"]
        res["disc_right"] += ok
        # (Nearly every slot holds its disc: the share right hides whether a disc out
        # of the river is ever seen, so those are counted apart.)
        if not truth["slots"][s]["disc"]:
            res["discs_out"] += 1
            res["discs_out_seen"] += ok
        if not ok:
            fails.append(f"disc {s}: {truth['slots'][s]['disc']} seen as "
                         f"{obs['slots'][s]['disc']}")
    res["exact"] = int(not fails)
    return {"counts": res, "fails": fails, "invented": made_up}


def figures(results: list[dict], digits: int = 1) -> dict[str, str]:
    """The figures of a set of scored frames (each a `score` with "hand" and "stable"
    added): boards without a hand, then hand frames. Same names in every benchmark."""
    plain = [r for r in results if not r["hand"]]
    hands = [r for r in results if r["hand"]]
    t: Counter = Counter()
    for r in plain:
        t.update(r["counts"])
    h: Counter = Counter()
    for r in hands:
        h.update(r["counts"])
    return {
        "board found": pct(len(plain) - t["not_found"], len(plain), digits),
        "canoe place and colour": pct(t["placed"], t["canoes"], digits),
        "canoes invented": str(t["invented"]),
        "canoe with gem (of seen)": pct(t["gem_right"], t["gem_checked"], digits),
        "gem unknown": str(t["gem_unknown"]),
        # (Unknown is honest; a gem named that is not there, or "empty" for a gem that
        # is, is the guess the reading must not make.)
        "gem named wrong": pct(t["gem_checked"] - t["gem_right"] - t["gem_unknown"],
                               t["gem_checked"], digits),
        "weather": pct(t["weather_right"], len(plain), digits),
        "discs": pct(t["disc_right"], t["discs"], digits),
        "discs out of the river seen": pct(t["discs_out_seen"], t["discs_out"], digits),
        "whole board exact": pct(t["exact"], len(plain), digits),
        "calm boards unstable": pct(sum(r["stable"] is False for r in plain), len(plain),
                                    digits),
        "hand frames unstable": pct(sum(r["stable"] is not True for r in hands), len(hands),
                                    digits),
        "hand frames board not found": str(sum(r["stable"] is None for r in hands)),
        "hand frames stable (wrong)": str(sum(r["stable"] is True for r in hands)),
        "hand frames invented": str(h["invented"]),
    }


def failure_lines(results: list[dict], name: Callable[[dict], str]) -> list[str]:
    """Every failing case in words, each line starting with `name(result)`."""
    out = []
    for r in results:
        where = name(r)
        if r["hand"]:
            if r["stable"] is True:
                out.append(f"{where}: hand frame reported stable")
            out += [f"{where}: hand frame, invented {inv}" for inv in r["invented"]]
            continue
        if r["stable"] is False:
            out.append(f"{where}: calm board reported unstable (something taken for a hand)")
        out += [f"{where}: {f}" for f in r["fails"]]
    return out


def time_film(vision: Any, film: list[Any], after_each: Callable[[int], None] | None = None
              ) -> tuple[float, list[float]]:
    """A still camera's film through `vision`: the first frame from scratch (after
    `vision.reset()`), then every further frame tracked. Milliseconds: (first, tracked).
    `after_each(i)` runs after frame i (0: the first), outside the timing."""
    vision.reset()
    times = []
    for i, frame in enumerate(film):
        t = time.perf_counter()
        vision.observe(frame)
        times.append((time.perf_counter() - t) * 1000)
        if after_each:
            after_each(i)
    return times[0], times[1:]
