"""Recognition conditioned on the state: what the picture before a move tells about the
picture after it.

>>> changed = changed_places(vision.detector, before.corrected, after.corrected)  # doctest: +SKIP
>>> seen = condition(after.observation, game, changed)                           # doctest: +SKIP
>>> infer(game, seen)                                                             # doctest: +SKIP

The table knows the exact state before a move and has a stable picture of it, confirmed
by the game. A place whose pixels did not change between that picture and the one after
still holds what the state says, whatever its print or its light make the reading of
it: only the places that changed are taken from the reading after, and the inference
compares them with what each legal outcome puts there. Both pictures are the light-
corrected board images (board millimetres), so they compare pixel for pixel even if the
light changed a little between them. Whether two pictures are of one view, or of a
camera knocked a little between them, is ``views``'s to tell.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from companion.rules import PLACES, SLOTS

from .board import CANOE_REACH
from .expected import expected_observation
from .masks import deposit_pixels
from .pile_changes import DEPOSIT, DEPOSIT_CHANGE, pile_changes
from .surface import PIXEL_CHANGE, channel_most, colour_moved

if TYPE_CHECKING:
    from companion.rules import Game, State

    from .detect import Detector

# A place changed when at least this share of a gem's area changed in it: the smallest
# piece that can come or go is a gem.
GEM_SHARE = 0.5
# The cloud's track changed when a position's mean difference is over this many grey
# levels above the pictures' noise (the cloud moving changes its two positions by 25
# and more in the 3-D worlds; a mean of still frames has a noise of a level or two).
CLOUD_CHANGE = 6.0
# A patch of changed pixels larger than this many hulls' area is not one canoe's or a
# player's two canoes' hulls and shadows coming or going, unless at least HOME_SHARE of
# it lies on its own place: canoes that left a crowded disc together (two of a player
# and the one they lay against, shifted) change one patch of 4.3 hulls and more; the
# light changing spreads over the board. Else it spills over no place.
SPILL_HULLS = 4.0
# A change off every disc is a canoe's at the end of a slot's row when it is at least
# this share of a hull (``_rows_beyond``). Over the tuned games' still views such
# patches in one slot's reach were 0.06-0.22 hulls (crumbs of shadow and gloss) or
# 0.78-3.4 (canoes: the one that left g102's row of six was 1.4).
ROW_END = 0.5
HOME_SHARE = 0.5

WEATHER = "weather"


class Changes(frozenset[str]):
    """The places whose pixels changed (slots, "D", "F", and WEATHER for the cloud's
    track), with how much each weather position changed (``weather``: the mean
    difference there, in grey levels), which tells where the cloud went, the pixels of
    each deposit that changed as a gem's would (``piles``: deposit -> their indices; the
    plain change only, so a deposit changed by a faint patch, ``FAINT``, or by a spot,
    ``pile_spots``, may have few or none), which tell what left it (``piles_taken``),
    and the changed places whose change is all another place's spilling over
    (``spills``: place -> those places)."""

    weather: dict[int, float]
    piles: dict[str, tuple[np.ndarray, np.ndarray]]
    spills: dict[str, frozenset[str]]

    def __new__(cls, places: Iterable[str] = (), weather: Mapping[int, float] | None = None,
                piles: Mapping[str, tuple[np.ndarray, np.ndarray]] | None = None,
                spills: Mapping[str, frozenset[str]] | None = None) -> Changes:
        out = super().__new__(cls, places)
        out.weather = dict(weather or {})
        out.piles = dict(piles or {})
        out.spills = {p: q for p, q in (spills or {}).items() if p in out}
        return out

    def also(self, places: Iterable[str]) -> Changes:
        """These changes and `places` besides."""
        return Changes(self | set(places), self.weather, self.piles, self.spills)

    def cloud_moved_to(self, before: int) -> int | None:
        """Where the cloud went from `before`: the other track position that changed
        most (a cloud moves one step, R-WEATHER-1, but a misread is not assumed away),
        None when the track did not change."""
        if WEATHER not in self:
            return None
        others = [(amount, value) for value, amount in self.weather.items() if value != before]
        return max(others)[1] if others else None


def changed_places(detector: Detector, before: np.ndarray, after: np.ndarray,
                   places: Iterable[str] | None = None) -> Changes:
    """The places (slots, "D", "F", "deposit:NAME" for each deposit, and "weather" for
    the cloud's track) whose pixels changed between two light-corrected board images of
    the same board and camera. A gem taken from a pile or put on one changes at least
    its own area there. Asked of some `places` only, no spills are told (``_spills``)."""
    if before.shape != after.shape:
        raise ValueError("the two pictures are not of the same board at the same scale")
    delta = cv2.absdiff(before, after)
    most = channel_most(delta)
    diff = colour_moved(delta, PIXEL_CHANGE)
    enough = GEM_SHARE * detector.gem_px
    wanted = set(places) if places is not None else None
    # The noise of the two pictures (the board mostly did not change: its median
    # difference is their noise).
    floor = float(np.median(most[::4, ::4]))
    # (The piles' own measure only when a deposit is asked about.)
    sized = (pile_changes(detector, most, DEPOSIT_CHANGE + 3 * floor)
             if wanted is None or any(p.startswith(DEPOSIT) for p in wanted) else None)
    out, piles = set(), {}
    pixels = _place_pixels(detector)
    for place, idx in pixels.items():
        if wanted is not None and place not in wanted:
            continue
        if place.startswith(DEPOSIT):
            assert sized is not None
            plain, faintly, spots = sized
            changed, faint = plain[idx], faintly[idx]
            # (What a gem taken is named by is its plain change: a faint rim would
            # dilute its colour.)
            piles[place[len(DEPOSIT):]] = (idx[0][changed], idx[1][changed])
            if np.count_nonzero(changed | faint) >= detector.gem_px or place in spots:
                out.add(place)
        elif np.count_nonzero(diff[idx]) >= enough:
            out.add(place)
    # The cloud token and a printed track position can both be white: the cloud shows
    # in its outline and shading, so the track is judged by its mean change, not by
    # strongly changed pixels.
    weather = {value: float(most[inner].mean())
               for value, (inner, _) in detector._weather.items()}
    if (wanted is None or WEATHER in wanted) and \
            max(weather.values()) >= CLOUD_CHANGE + 1.5 * floor:
        out.add(WEATHER)
    spills: dict[str, frozenset[str]] = {}
    if wanted is None or wanted & set(SLOTS):
        # (The patches of change, found once for the rows and the spills.)
        patches = cv2.connectedComponentsWithStats(diff.astype(np.uint8), connectivity=8)
        rows = _rows_beyond(detector, patches, pixels)
        out |= rows if wanted is None else rows & wanted
        if wanted is None:
            # (Which place a patch belongs to needs every place measured. A row's end
            # changed is a slot's own change.)
            spills = {place: spilled for place, spilled
                      in _spills(detector, diff, patches, pixels, out).items()
                      if place not in rows}
    return Changes(out, weather, piles, spills)


def _rows_beyond(detector: Detector, patches: tuple[int, np.ndarray, np.ndarray, np.ndarray],
                 pixels: Mapping[str, tuple[np.ndarray, np.ndarray]]) -> set[str]:
    """The slots whose change lies beyond their disc: many canoes on one slot lie side
    by side across the river (R-MOVE-3), and the one that left or joined the end of the
    row changes nothing on the disc (the tuned g102's six canoes on 3). A patch of
    change of ROW_END to SPILL_HULLS hulls (a canoe's, not a crumb of shadow's), lying
    mostly off every place, with as much as a place needs (GEM_SHARE of a gem) in a
    canoe's reach of one slot (``CANOE_REACH``) and in that of no other, is that slot's.
    (A patch in reach of two is neither's: the tips of one slot's row, pushed aside, are
    no change of its neighbour's.)"""
    _, where = _place_labels(detector, pixels)
    _, labels, stats, _ = patches
    area = stats[:, cv2.CC_STAT_AREA]
    enough = GEM_SHARE * detector.gem_px
    sized = np.flatnonzero((area >= ROW_END * detector.canoe_px)
                           & (area <= SPILL_HULLS * detector.canoe_px))
    names = list(detector.board.slots)
    reach = CANOE_REACH * detector.board.disc_radius_mm
    out = set()
    for i in sized[sized > 0]:
        x, y, w, h = stats[i, :4]
        ys, xs = np.nonzero(labels[y:y + h, x:x + w] == i)
        if np.count_nonzero(where[ys + y, xs + x] < 0) < HOME_SHARE * area[i]:
            continue
        far = _slot_distances(detector, ys + y, xs + x)
        near = np.flatnonzero(np.count_nonzero(far <= reach * reach, axis=0) >= enough)
        if len(near) == 1:
            out.add(names[near[0]])
    return out


def _spills(detector: Detector, diff: np.ndarray,
            patches: tuple[int, np.ndarray, np.ndarray, np.ndarray],
            pixels: Mapping[str, tuple[np.ndarray, np.ndarray]],
            changed: Iterable[str]) -> dict[str, frozenset[str]]:
    """The changed places (slots, D, F) whose change is all another's spilling over,
    with the places it spilled from. Each patch of changed pixels belongs to the place
    holding most of it: a canoe that left or reached a slot changes its neighbour too
    where its hull, or its shadow, reaches over (the forks' slots lie close). A place
    whose own patches change less than a gem's area only took part in its neighbours'
    changes. A patch larger than SPILL_HULLS hulls that lies mostly off its own place
    is no canoe's doing (the light changed): it spills nowhere."""
    names, where = _place_labels(detector, pixels)
    n, labels, stats, _ = patches
    # Per patch, its size and its pixels in each place: counted over the changed pixels
    # alone (counting over the whole image costs a judged view a millisecond more).
    changed_px = np.flatnonzero(diff.ravel())
    of_patch = labels.ravel()[changed_px]
    at = where.ravel()[changed_px]
    inside = at >= 0
    counts = np.bincount(at[inside] * n + of_patch[inside],
                         minlength=len(names) * n).reshape(len(names), n)
    counts[:, 0] = 0  # (the unchanged pixels)
    home = counts.argmax(axis=0)
    size = stats[:, cv2.CC_STAT_AREA]
    canoes_sized = (size <= SPILL_HULLS * detector.canoe_px) \
        | (counts[home, np.arange(n)] >= HOME_SHARE * size)
    enough = GEM_SHARE * detector.gem_px
    out = {}
    for i, place in enumerate(names):
        mine = counts[i]
        if place not in changed or mine[home == i].sum() >= enough:
            continue
        spilled = (mine > 0) & (home != i)
        if not mine[spilled & ~canoes_sized].any():
            out[place] = frozenset(names[j] for j in np.unique(home[spilled]))
    return out


def _place_labels(detector: Detector, pixels: Mapping[str, tuple[np.ndarray, np.ndarray]]
                  ) -> tuple[list[str], np.ndarray]:
    """The places a canoe can be (slots, D, F) and an image of which one each pixel
    belongs to (its index, -1 for none), worked out once per detector."""
    cached = getattr(detector, "_place_labels", None)
    if cached is None:
        names = [p for p in pixels if not p.startswith(DEPOSIT)]
        where = np.full(detector.shape, -1, np.int32)
        for i, place in enumerate(names):
            where[pixels[place]] = i
        cached = (names, where)
        detector._place_labels = cached  # type: ignore[attr-defined]
    return cached


def _slot_distances(detector: Detector, ys: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """The squared distance (mm²) of each pixel (ys, xs) of the board image from each
    slot's centre: one row per pixel, one column per slot, in the board's order."""
    centres = np.array(list(detector.board.slots.values()), np.float64)
    return ((xs[:, None] + 0.5) / detector.scale - centres[:, 0]) ** 2 \
        + ((ys[:, None] + 0.5) / detector.scale - centres[:, 1]) ** 2


def _place_pixels(detector: Detector) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each place's pixels, worked out once per detector. A pixel in reach of two slots
    belongs to the nearer one, so a canoe put down on one slot does not change its
    neighbour too."""
    cached = getattr(detector, "_conditioned_places", None)
    if cached is None:
        s = detector.scale
        names = list(detector.board.slots)
        cached = {}
        for place, mask in detector.place_mask.items():
            ys, xs = np.nonzero(mask & detector.valid)
            if place in names:
                # (Only the slot's own pixels are measured against every slot's centre:
                # the whole board's distances cost the first judged view 50 ms.)
                mine = np.argmin(_slot_distances(detector, ys, xs), axis=1) \
                    == names.index(place)
                ys, xs = ys[mine], xs[mine]
            cached[place] = (ys, xs)
        for name, idx in deposit_pixels(detector.board, detector.shape, s).items():
            cached[DEPOSIT + name] = idx
        detector._conditioned_places = cached  # type: ignore[attr-defined]
    return cached


def condition(observation: Mapping[str, Any], before: State | Game | Mapping[str, Any],
              changed: Iterable[str]) -> dict[str, Any]:
    """The observation with every place that did not change holding what the state
    before has there (its disc and canoes; the cloud unless its track changed), and,
    when `changed` came from the pixels (``changed_places``), the deposits whose pile
    changed (``deposits_changed``) and the places that changed (``places_changed``). A
    copy: the observation given is not modified."""
    changed_in, changed = changed, set(changed)
    known = expected_observation(before)
    out = copy.deepcopy(dict(observation))
    for slot in SLOTS:
        if slot not in changed:
            out["slots"][slot] = copy.deepcopy(known["slots"][slot])
    for place, key in (("D", "dock"), ("F", "falls")):
        if place not in changed:
            out[key] = copy.deepcopy(known[key])
    if isinstance(changed_in, Changes):
        # Pixels compared: the piles that changed, where a move took gems or put them.
        # (Readings compared say nothing of the piles: the field is left out.)
        out["deposits_changed"] = sorted(p[len(DEPOSIT):] for p in changed
                                         if p.startswith(DEPOSIT))
        # ... and the places whose pixels changed: a move that leaves one as it was does
        # not explain the picture, even when its canoes there were not seen.
        out["places_changed"] = [p for p in PLACES if p in changed]
        # ... of which those that only took part in a neighbour's change.
        out["places_spilled"] = {p: [q for q in PLACES if q in changed_in.spills[p]]
                                 for p in PLACES if p in changed_in.spills}
    if WEATHER not in changed:
        out["weather"] = known["weather"]
    elif isinstance(changed_in, Changes) and known["weather"] is not None:
        moved = changed_in.cloud_moved_to(known["weather"])
        if moved is not None:
            out["weather"] = moved
    return out


def changed_readings(before: Mapping[str, Any], after: Mapping[str, Any]) -> set[str]:
    """The places whose reading differs between two observations (vision.md) of the
    same camera: what the pixels cannot tell when only readings are at hand."""
    out = {slot for slot in SLOTS
           if _place(before["slots"][slot]) != _place(after["slots"][slot])}
    for place, key in (("D", "dock"), ("F", "falls")):
        if _canoes(before[key]) != _canoes(after[key]):
            out.add(place)
    if before.get("weather") != after.get("weather"):
        out.add(WEATHER)
    return out


def _canoes(items: Iterable[Mapping[str, Any]]) -> list[tuple[str, str]]:
    return sorted((c["player"], c.get("gem") or "") for c in items)


def _place(slot: Mapping[str, Any]) -> tuple[bool, list[tuple[str, str]]]:
    return (slot.get("disc", True) is not False, _canoes(slot.get("canoes", [])))


__all__ = ["CLOUD_CHANGE", "DEPOSIT", "DEPOSIT_CHANGE", "GEM_SHARE", "PIXEL_CHANGE", "WEATHER",
           "Changes", "changed_places", "changed_readings", "condition"]
