"""Which gem a picture saw taken from a deposit, and whether one was put there too:
the pixels of its pile that changed between the picture before a move and the one
after, as a careful person looks at a pile a hand reached into (``gems_taken``,
``two_apart``, ``taken_only``, ``puts_unseen``).

>>> changed = changed_places(detector, before, after)                  # doctest: +SKIP
>>> gems_taken(before, after, deposits, changed.piles, state.deposits,
...            detector.looks.pile_colour, detector.gem_px)            # doctest: +SKIP
{'violet': 'violet'}

A gem taken off a pile leaves the others where they lay: where it lay, the picture
before shows its colour and the picture after the deposit's print. Its area alone is
often less than a gem's (one half under a neighbour, a clear gem's facets much like
the print), so ``changed_places`` may not count the pile as changed; its colour says
more. The changed pixels are named a gem taken when, in the picture before, they were
a blend of the print and one of the gems the deposit held (as this table's piles of
that colour looked: ``PieceLooks.pile_colour``), and in the picture after no longer
are. What changed there otherwise (a canoe's bow or a hand reaching over the
deposit, a gem put on the pile) names nothing.

A coloured gem is transparent: it tints the print under it, and a pile's look, taken
from its most vivid pixels, is brighter than one gem lying flat (glints, gems on gems).
So a coloured gem's blend is judged by its tint alone (``_tint``); a clear gem has none
and is judged by its colour, a paler print.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

import cv2
import numpy as np

from .known import pile_pixels

# Fewer changed pixels than this share of a gem's area name nothing: the sensor's noise
# and the light correction leave specks on a pile that did not change (measured on the
# tuned games' consecutive stable views: at most 0.06 of a gem's area where no gem left;
# a gem taken changed 0.1 to 1.6 of one, a clear one least).
LEAST_SHARE = 0.25
# Changed pixels are a blend of a gem and the print around it (its edges, the print
# through a translucent gem): as they looked before, they lie on the way from the print
# to how a pile of that gem looks here (in tint for a coloured gem, in colour for a clear
# one), at least STRONG of the way, and off that way by at most OFF of how far they are
# from the print. Another gem the deposit held must be off its own way by TWICE as much.
# After, what is left of the gem's way is at most AFTER of what was, and they are no
# farther from the print than the gem was (not a shadow fallen where it lay). (Tuned
# games, the 95 takes whose pile changed by LEAST_SHARE or more: coloured gems at
# 0.62-1.75 of the way in tint and off it by 0.00-0.14, clear ones at 0.27-1.85 and off
# by 0.05-0.27; 93 named, none wrongly. What changed where no gem of that colour left,
# a canoe's bow and gems put down: at most 0.19 of a way.)
STRONG = 0.3
OFF = 0.6
TWICE = 2.0
AFTER = 0.5

Colour = np.ndarray


def gems_taken(before: np.ndarray, after: np.ndarray,
               deposits: Mapping[str, tuple[np.ndarray, np.ndarray]],
               piles: Mapping[str, tuple[np.ndarray, np.ndarray]],
               held: Mapping[str, Mapping[str, int]],
               colour_of: Callable[[str], Colour | None], gem_px: float) -> dict[str, str]:
    """The deposits a gem was seen taken from, with that gem (deposit -> gem).

    `before`, `after`: the light-corrected board pictures; `deposits`: each deposit's
    pixels (``masks.deposit_pixels``); `piles`: those of them that changed as a gem's
    would (``Changes.piles``); `held`: the gems each deposit held before (deposit ->
    gem -> count); `colour_of`: how a gem's pile looks at this table (None when not
    yet seen); `gem_px`: a gem's area in pixels."""
    out = {}
    for name, idx in piles.items():
        if len(idx[0]) < LEAST_SHARE * gem_px:
            continue  # (before its print is measured: most piles did not change)
        known = _known(before, deposits, name, held, colour_of)
        if known is None:
            continue
        gem = _taken(before, after, idx, *known)
        if gem is not None:
            out[name] = gem
    return out


def two_apart(before: np.ndarray, after: np.ndarray,
              deposits: Mapping[str, tuple[np.ndarray, np.ndarray]],
              piles: Mapping[str, tuple[np.ndarray, np.ndarray]],
              held: Mapping[str, Mapping[str, int]],
              colour_of: Callable[[str], Colour | None], gem_px: float,
              taken: Mapping[str, str]) -> set[str]:
    """The deposits of `taken` (``gems_taken``) that the same gem was seen leave from
    two places apart: two gems taken (two canoes loaded there, R-GEM-3).

    A pile's gems lie where they were put, so two gems taken from it leave two holes,
    each of which looked like that gem before and like the print after; one gem taken
    leaves one, and nothing else changes where a gem is taken from (a gem nudged aside
    shows where it went as a gem come, not gone). Two gems taken from side by side
    leave one hole as large as both: that says nothing here (``PieceLooks.two_taken``
    weighs the size). On the tuned games, 6 of the 8 double takes left two holes
    (0.28 to 1.41 of a gem's area each, both named that gem); none of the 90 single
    takes changed its pile in two places."""
    out = set()
    for name, gem in taken.items():
        holes = _holes(before, after, deposits, piles, held, colour_of, gem_px, name)
        if holes is not None and sum(named == gem for _, named in holes[1]) >= 2:
            out.add(name)
    return out


def taken_only(before: np.ndarray, after: np.ndarray,
               deposits: Mapping[str, tuple[np.ndarray, np.ndarray]],
               piles: Mapping[str, tuple[np.ndarray, np.ndarray]],
               held: Mapping[str, Mapping[str, int]],
               colour_of: Callable[[str], Colour | None], gem_px: float,
               taken: Mapping[str, str], gems: Iterable[str]) -> set[str]:
    """The deposits of `taken` (``gems_taken``) whose pile changed only where gems were
    taken: each place of it that changed (``_apart``, from LEAST_SHARE of a gem) was a
    gem of the deposit before and the print after, and none is a gem put there.

    A gem put on a pile (any of `gems`, R-GEM-3) is a gem taken backwards in time:
    where it lies the picture after shows the gem, as this table's piles of it look,
    and the one before did not (``_put``). A canoe that unloads where the other loads changes
    the pile in the put gem's place too, so a pile seen changed only as a take changes
    it says no gem joined it. (Tuned games: each of the 12 gems put that changed their
    pile by LEAST_SHARE or more changed it where no take explains, 3 of them a clear gem
    on another colour's heap, as faint as a clear take; 2 more, clear, changed theirs
    too little, as a pile not seen to change says. Of the 152 piles a gem was seen
    taken from, 150 changed only so, and none of them had a gem put on it.) Nothing
    when a gem's pile look is not known yet: a gem put could not be told."""
    looks = {gem: colour_of(gem) for gem in gems}
    every = {gem: look for gem, look in looks.items() if look is not None}
    if len(every) < len(looks):
        return set()
    out = set()
    for name in taken:
        holes = _holes(before, after, deposits, piles, held, colour_of, gem_px, name)
        if holes is None or not holes[1]:
            continue
        paper, parts = holes
        if all(named is not None and _put(before, after, part, every, paper) is None
               for part, named in parts):
            out.add(name)
    return out


def puts_unseen(before: np.ndarray, after: np.ndarray,
                deposits: Mapping[str, tuple[np.ndarray, np.ndarray]],
                piles: Mapping[str, tuple[np.ndarray, np.ndarray]],
                held: Mapping[str, Mapping[str, int]],
                colour_of: Callable[[str], Colour | None], gem_px: float,
                gems: Iterable[str], changed: Iterable[str]) -> dict[str, list[str]]:
    """Per deposit seen to change (`changed`, however faintly), the coloured gems of
    `gems` it did not hold before of which the picture shows no sign put there: fewer
    than LEAST_SHARE of a gem's area of its plainly changed pixels (`piles`) lie, after,
    STRONG of the way from the print to how a pile of that gem looks here (in tint). A
    coloured gem put on a pile of another colour changes a gem's area of it plainly, to
    its tint, wherever a take beside it changed the pile too; so a pile that changed as
    a take changes it, however faintly (a clear gem taken), with no such tint says that
    gem was not put there: a canoe that could have landed did not unload it there
    instead. (Any changed pixel of that tint is a sign, whatever it was before: a gem
    of the pile nudged, or one of a tint leaning the same way, leaves the gem unsaid.
    Clear has no tint, and a gem put on its own colour looks like its pile: neither is
    listed. Nor is a gem whose pile look is not known yet.)"""
    out: dict[str, list[str]] = {}
    for name in sorted(set(changed)):
        where = deposits.get(name)
        if where is None:
            continue
        had = {gem for gem, n in held.get(name, {}).items() if n > 0}
        looks = {gem: look for gem in gems if gem != "clear" and gem not in had
                 and (look := colour_of(gem)) is not None}
        if not looks:
            continue
        idx = piles.get(name, (np.zeros(0, np.intp), np.zeros(0, np.intp)))
        paper = _tint(np.median(pile_pixels(before[where])[1].astype(np.float64), axis=0))
        now = _tints(after[idx]) - paper
        unseen = []
        for gem, look in sorted(looks.items()):
            way = _tint(look) - paper
            signs = np.count_nonzero(now @ way >= STRONG * float(way @ way))
            if signs < LEAST_SHARE * gem_px:
                unseen.append(gem)
        if unseen:
            out[name] = unseen
    return out


def _holes(before: np.ndarray, after: np.ndarray,
           deposits: Mapping[str, tuple[np.ndarray, np.ndarray]],
           piles: Mapping[str, tuple[np.ndarray, np.ndarray]],
           held: Mapping[str, Mapping[str, int]],
           colour_of: Callable[[str], Colour | None], gem_px: float, name: str
           ) -> tuple[Colour, list[tuple[tuple[np.ndarray, np.ndarray], str | None]]] | None:
    """A deposit's print, and each place of its pile that changed apart from the others
    (``_apart``, from LEAST_SHARE of a gem) with the gem seen taken from it there
    (``_taken``, None if none); None when the deposit or a gem it held is not known."""
    known = _known(before, deposits, name, held, colour_of)
    idx = piles.get(name)
    if known is None or idx is None:
        return None
    parts = [part for part in _apart(idx) if len(part[0]) >= LEAST_SHARE * gem_px]
    return known[1], [(part, _taken(before, after, part, *known)) for part in parts]


def _known(before: np.ndarray, deposits: Mapping[str, tuple[np.ndarray, np.ndarray]],
           name: str, held: Mapping[str, Mapping[str, int]],
           colour_of: Callable[[str], Colour | None]
           ) -> tuple[dict[str, Colour], Colour] | None:
    """How each gem the deposit held looks in a pile here, and its print; None when
    the deposit is not known or a gem it held has not been seen in a pile yet."""
    where = deposits.get(name)
    if where is None:
        return None
    looks = {gem: colour_of(gem) for gem, n in held.get(name, {}).items() if n > 0}
    known = {gem: look for gem, look in looks.items() if look is not None}
    if not known or len(known) < len(looks):
        return None
    # The print: the half of the deposit's pixels most like its median (gems fill
    # a sixth of it at most).
    return known, np.median(pile_pixels(before[where])[1].astype(np.float64), axis=0)


def _apart(idx: tuple[np.ndarray, np.ndarray]) -> list[tuple[np.ndarray, np.ndarray]]:
    """The pixels `idx` (rows, columns) as groups that touch (diagonals included)."""
    ys, xs = idx
    if len(ys) == 0:
        return []
    y0, x0 = int(ys.min()), int(xs.min())
    mask = np.zeros((int(ys.max()) - y0 + 1, int(xs.max()) - x0 + 1), np.uint8)
    mask[ys - y0, xs - x0] = 1
    count, labels = cv2.connectedComponents(mask, connectivity=8)
    of = labels[ys - y0, xs - x0]
    return [(ys[of == k], xs[of == k]) for k in range(1, count)]


def _taken(before: np.ndarray, after: np.ndarray, idx: tuple[np.ndarray, np.ndarray],
           looks: Mapping[str, Colour], paper: Colour) -> str | None:
    """The gem whose way from the print the changed pixels lay on before (see STRONG,
    OFF, TWICE), if they no longer do after (AFTER); else None."""
    was_colour = before[idx].astype(np.float64).mean(axis=0)
    was, now = was_colour - paper, after[idx].astype(np.float64).mean(axis=0) - paper
    far = float(np.linalg.norm(was))
    if far == 0 or float(np.linalg.norm(now)) > far:
        return None
    fits = []
    for gem, look in looks.items():
        way = look - paper
        if _along(now, way) > AFTER * _along(was, way):
            fits.append((np.inf, gem))
            continue
        along, off = _way(was_colour, gem, look, paper)
        fits.append((off if along >= STRONG else np.inf, gem))
    return _named(fits)


def _put(before: np.ndarray, after: np.ndarray, idx: tuple[np.ndarray, np.ndarray],
         looks: Mapping[str, Colour], paper: Colour) -> str | None:
    """The gem whose way from the print the changed pixels lie on after (STRONG, OFF,
    TWICE), where before they lay at most AFTER as far along it: a gem put there, on
    the print or where another gem lay (a gem taken the other way round; but not
    judged by how far from the print the pixels lie, which a gem put where a more
    vivid one was taken need not be). Else None."""
    was_colour = before[idx].astype(np.float64).mean(axis=0)
    now_colour = after[idx].astype(np.float64).mean(axis=0)
    fits = []
    for gem, look in looks.items():
        along, off = _way(now_colour, gem, look, paper)
        was = _way(was_colour, gem, look, paper)[0]
        fits.append((off if along >= STRONG and was <= AFTER * along else np.inf, gem))
    return _named(fits)


def _way(colour: Colour, gem: str, look: Colour, paper: Colour) -> tuple[float, float]:
    """How far a colour lies along the way from the print to a gem's pile look (1: at
    its end), and how far off that way (a share of its distance from the print): a
    coloured gem by its tint, a clear one by its colour (see the module's doc)."""
    seen, to = (colour - paper, look - paper) if gem == "clear" else \
        (_tint(colour) - _tint(paper), _tint(look) - _tint(paper))
    along = _along(seen, to)
    return along, float(np.linalg.norm(seen - along * to)) / max(float(np.linalg.norm(seen)), 1e-9)


def _named(fits: list[tuple[float, str]]) -> str | None:
    """The gem of the best fit (how far off its way, inf where it does not fit), when it
    is within OFF and the next is TWICE as far off."""
    fits.sort()
    off, gem = fits[0]
    if off > OFF or (len(fits) > 1 and fits[1][0] < TWICE * off):
        return None
    return gem


def _along(colour: Colour, way: Colour) -> float:
    """How far along `way` `colour` lies (1: at its end)."""
    return float(colour @ way) / max(float(way @ way), 1e-9)


def _tints(bgr: np.ndarray) -> np.ndarray:
    """``_tint`` of (n, 3) colours."""
    logs = np.log(np.maximum(np.asarray(bgr, np.float64), 1.0))
    return logs - logs.mean(axis=1, keepdims=True)


def _tint(bgr: Colour) -> Colour:
    """A colour's tint whatever its brightness: its channels' logarithms less their
    mean (a transparent gem's tint multiplies the print's channels)."""
    return _tints(np.asarray(bgr, np.float64)[None])[0]


__all__ = ["AFTER", "LEAST_SHARE", "OFF", "STRONG", "TWICE", "gems_taken", "puts_unseen",
           "taken_only", "two_apart"]
