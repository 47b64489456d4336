"""Evidence: the canoes, as hulls of each canoe colour.

Each canoe colour's blobs are judged by shape against the hull the profile measured: one
hull, two side by side or end to end (a player has two), or no canoe (a streak along a
bank, the dark rim of another canoe).
Of more hulls of one colour than a player's two canoes where canoes are reported, the
two most like this table's hulls of that colour are kept.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from .hull_inside import hull_insides, own_colours
from .profile import features, squared_distance
from .stage import Stage
from .thresholds import (
    ALONG_FLOW,
    CROWD_SOLID,
    HULL_LIKELIER,
    HULL_SHOWS,
    ON_TOP,
    ONE_CANOE,
    SIDE_BY_SIDE,
    SMOOTHEST,
    SOLID,
    TWO_CANOES,
    TWO_HULLS,
)

TURNS = 12  # the ways two touching canoes are tried cut apart (every 15 degrees)


class CanoeFinder(Stage):
    """The canoes stage of ``Detector`` (its state lives on the detector: see
    ``Detector.__init__``)."""

    def _canoes(self, img: np.ndarray, labels: np.ndarray, free: np.ndarray
                ) -> dict[str, tuple[list[tuple[np.ndarray, np.ndarray]], np.ndarray | None]]:
        """For each canoe colour: the hull pixels (ys, xs) of each canoe, and the pixels
        of a blob of that colour too big for a player's two canoes (a hand), if any.
        `img`: the board image `labels` classes; `free`: the pixels of any canoe colour
        where canoes are looked for."""
        anyc = free.astype(np.uint8)
        n, cc, stats, _ = cv2.connectedComponentsWithStats(anyc, connectivity=8)
        pieces: dict[int, list[tuple[np.ndarray, np.ndarray]]] = {
            i: [] for i in self._canoe_idx.values()}
        inside = np.zeros(labels.shape, bool)  # what hulls' outlines hold
        least = 0.15 * self.canoe_px
        pad = self._close.shape[0]
        hh, ww = labels.shape
        for i in range(1, n):
            x, y, w, h, area = stats[i]
            if area < least:
                continue
            x0, y0 = max(x - pad, 0), max(y - pad, 0)
            x1, y1 = min(x + w + pad, ww), min(y + h + pad, hh)
            comp = cc[y0:y1, x0:x1] == i
            lab = labels[y0:y1, x0:x1]
            counts = np.bincount(lab[comp], minlength=256)
            for idx in pieces:
                if counts[idx] < least:
                    continue
                m = (comp & (lab == idx)).astype(np.uint8)
                m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, self._close)
                held = hull_insides(m, lab, idx, self._is_canoe, self.canoe_px)
                holds = bool(held.any())
                m[held] = 1
                k, parts, st, _ = cv2.connectedComponentsWithStats(m, connectivity=8)
                for j in range(1, k):
                    if st[j, cv2.CC_STAT_AREA] < least:
                        continue
                    part = parts == j
                    ys, xs = np.nonzero(part)
                    if holds and (part & held).any():
                        if self._holds_a_hull(ys, xs):
                            inside[y0:y1, x0:x1] |= part & held
                        else:
                            # An outline and what it holds make no whole hull: not
                            # a hull's outline (a fingertip's shadow, a speck).
                            ys, xs = np.nonzero(part & ~held)
                    pieces[idx].append((ys + y0, xs + x0))
        out = {}
        for player, idx in self._canoe_idx.items():
            own = (labels == idx) & free if pieces[idx] else None
            out[player] = self._hulls(img, f"canoe:{player}", pieces[idx], own,
                                      None if own is None else own | inside, labels.shape)
        return out

    def _hulls(self, img: np.ndarray, name: str, pieces: list[tuple[np.ndarray, np.ndarray]],
               own: np.ndarray | None, mask: np.ndarray | None, shape: tuple[int, ...]
               ) -> tuple[list[tuple[np.ndarray, np.ndarray]], np.ndarray | None]:
        """Canoes of one colour class (`name`) from its pieces (see _canoes): `own` the
        pixels of the colour, `mask` those and what hulls' outlines of it hold."""
        found: list[tuple[np.ndarray, np.ndarray]] = []
        crowd = None
        if mask is None or own is None:
            return found, crowd
        for ys, xs in self._join_halves(pieces):
            # The pixels of the colour and the insides its outlines hold, not the
            # closing's.
            seen = mask[ys, xs]
            n_seen = np.count_nonzero(seen)
            if n_seen < HULL_SHOWS * self.canoe_px:
                continue
            y, x = ys.min(), xs.min()
            part = np.zeros((ys.max() - y + 1, xs.max() - x + 1), np.uint8)
            part[ys[seen] - y, xs[seen] - x] = 1
            body = np.count_nonzero(cv2.erode(part, self._solid)) / self.canoe_px
            if body < 0.2:
                continue  # a thin rim: the dark edge or shadow of another canoe
            count = self._count(ys[seen], xs[seen])
            if count == 1 and body < 0.4 and self._solidity(ys[seen], xs[seen]) < SOLID:
                # Neither a thick body nor a hull's outline: specks of a canoe's colour
                # in glaring water. (A hull cut by its gem is still thick.)
                continue
            if count == 0:
                if n_seen >= 2.6 * self.canoe_px and \
                        self._solidity(ys[seen], xs[seen]) >= CROWD_SOLID:
                    # More of one colour than a player's two canoes, in one mass: an
                    # arm, a sleeve. (Canoes in a row on the dock with the rims of the
                    # others between them in their colour class are no mass: their
                    # outline takes in the other canoes.)
                    if crowd is None:
                        crowd = np.zeros(shape, np.uint8)
                    crowd[ys, xs] = 1
                continue  # no canoe's shape: a streak along a bank, scattered specks
            if count == 2 and n_seen < TWO_HULLS * self.canoe_px:
                # Longer than one canoe, too little of it for two: one hull and a
                # fringe of its colour on the next canoe, if a whole hull shows in it;
                # else no canoe (a line of its colour: a dock's border, a print's edge).
                if not self._holds_a_hull(ys[seen], xs[seen]):
                    continue
                count = 1
            halves = self._split(ys[seen], xs[seen], count)
            if len(halves) > 1:
                # Two canoes are two whole hulls; otherwise it is one canoe and a
                # neighbour's rim or a gem of its colour.
                whole = [hv for hv in halves if self._whole_hull(*hv)]
                if len(whole) < 2:
                    # Unless they lie side by side but staggered: then the blob's
                    # outline does not show which way they lie.
                    whole = self._two_hulls(ys[seen], xs[seen]) or whole
                if len(whole) < 2:
                    whole = whole[:1]
                elif not self._apart(*whole):
                    # Both halves of one canoe cut along its length (a gem of its colour
                    # in the next canoe made the blob too wide for one).
                    whole = [(ys[seen], xs[seen])]
                halves = whole
            # A canoe's shape, but of its colour only by a hair, is dark water or a disc
            # in a canoe's shadow (alone, or joined end to end with a canoe).
            # (Judged by the pixels of the colour: what the outline holds is not.)
            found.extend(hv for hv in halves if self.profile.likelier(
                img[hv][own[hv]], name) >= HULL_LIKELIER)
        return found, crowd

    def _measured(self, img: np.ndarray, hulls: list[tuple[str, np.ndarray, np.ndarray]]
                  ) -> list[tuple[str, str | None, float]]:
        """Each hull's colour, place (None off every place) and ``hull_spread``."""
        return [(player, self.board.place_at(self._middle(ys, xs)), hull_spread(img, ys, xs))
                for player, ys, xs in hulls]

    def _not_shadows(self, hulls: list[tuple[str, np.ndarray, np.ndarray]],
                     measured: list[tuple[str, str | None, float]]
                     ) -> list[tuple[str, np.ndarray, np.ndarray]]:
        """The hulls (``_measured``) but those on the river far smoother than this
        table's hulls look (SMOOTHEST of ``ColourProfile.hull_spread``): a canoe's shadow
        on pale water can take a dark hull's colour class and shape, but not its rim,
        inside and gem, which catch the light. (The dock's print is another ground: its
        hulls are kept.)"""
        typical = self.profile.hull_spread
        if typical is None:
            return hulls
        return [hull for hull, (_, place, spread) in zip(hulls, measured, strict=True)
                if spread >= SMOOTHEST * typical or place in ("D", "F", None)]

    def _middle(self, ys: np.ndarray, xs: np.ndarray) -> tuple[float, float]:
        """The middle of a hull's pixels, in board millimetres."""
        return (xs.mean() + 0.5) / self.scale, (ys.mean() + 0.5) / self.scale

    def _reported_at(self, centre: tuple[float, float]) -> str | None:
        """The place a canoe whose middle lies at `centre` (board mm) is reported at;
        None for none: off every place, on a deposit, or on a slot but further along
        the flow than its disc reaches."""
        place = self.board.place_at(centre)
        if place is None or self.deposit_mask[int(centre[1] * self.scale),
                                              int(centre[0] * self.scale)]:
            return None
        if place not in ("D", "F"):
            # On its disc: canoes share a disc side by side, across the flow, so one
            # lying further along the flow than the disc reaches is no canoe (a fleck
            # of water the colour of a blue hull).
            fx, fy = self.board.flow(place)
            sx, sy = self.board.slots[place]
            if abs((centre[0] - sx) * fx + (centre[1] - sy) * fy) > ALONG_FLOW * \
                    self.board.disc_radius_mm:
                return None
        return place

    def _two_of_a_colour(self, img: np.ndarray, hulls: list[tuple[str, np.ndarray, np.ndarray]],
                         labels: np.ndarray | None = None
                         ) -> list[tuple[str, np.ndarray, np.ndarray]]:
        """The hulls, but never more than two of one colour where canoes are reported:
        a player has two canoes (R-SETUP-3), so of more, those whose colour as a whole
        lies farthest from this table's hulls of that colour (the squared Mahalanobis
        distance of their mean features to its class) are something else taking the
        class: a canoe's shadow on pale water, a scrap of print beside a hand. (On a
        tie the earlier is kept: they come most body first, ``_apart_from_each_other``.)
        With the board image's `labels`, a hull is judged by its pixels of its colour
        class, not by the paler inside its outline holds (``hull_insides``)."""
        far: set[int] = set()
        for player in {p for p, _, _ in hulls}:
            ours = [i for i, (p, ys, xs) in enumerate(hulls)
                    if p == player and self._reported_at(self._middle(ys, xs)) is not None]
            if len(ours) <= 2:
                continue
            cls = self.profile.classes[f"canoe:{player}"]
            idx = self._canoe_idx[player]
            means = np.array([features(own_colours(img, labels, idx, ys, xs)).mean(axis=0)
                              for _, ys, xs in (hulls[i] for i in ours)])
            gaps = squared_distance(means, cls)
            far.update(ours[k] for k in np.argsort(gaps, kind="stable")[2:])
        return [h for i, h in enumerate(hulls) if i not in far]

    def _apart_from_each_other(self, hulls: list[tuple[str, np.ndarray, np.ndarray]]
                               ) -> list[tuple[str, np.ndarray, np.ndarray]]:
        """Canoes do not lie on each other: of two hulls (of any colours) whose middles
        are within ON_TOP canoe widths, the one with more body (what is left once all
        thinner than a hull's rim, RIM_MM, is taken off) is the canoe, and the other a
        part of it in a neighbouring colour (a reddish brown hull) or its rim (a red
        hull's dark edge in a brown hull's class, which may have more pixels than the
        hull)."""
        if len(hulls) < 2:
            return hulls
        hulls = sorted(hulls, key=lambda h: (-self._body(h[1], h[2]), -len(h[1])))
        middles = np.array([(xs.mean(), ys.mean()) for _, ys, xs in hulls])
        least = ON_TOP * self.profile.sizes_mm2["canoe_short_mm"] * self.scale
        kept: list[int] = []
        for i, middle in enumerate(middles):
            if not kept or np.hypot(*(middles[kept] - middle).T).min() >= least:
                kept.append(i)
        return [hulls[i] for i in kept]

    def _body(self, ys: np.ndarray, xs: np.ndarray) -> int:
        """How many of some pixels are left once all thinner than a hull's rim (RIM_MM)
        is taken off."""
        return int(np.count_nonzero(cv2.erode(_crop(ys, xs, self._solid.shape[0]),
                                              self._solid)))

    def _apart(self, a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]
               ) -> bool:
        """Whether two halves of a blob lie as two canoes side by side do: their
        middles most of a canoe's width apart or more."""
        gap = math.hypot(float(a[1].mean() - b[1].mean()), float(a[0].mean() - b[0].mean()))
        return gap >= SIDE_BY_SIDE * self.profile.sizes_mm2["canoe_short_mm"] * self.scale

    def _whole_hull(self, ys: np.ndarray, xs: np.ndarray) -> bool:
        return len(ys) >= 0.5 * self.canoe_px and self._count(ys, xs) == 1 and \
            self._envelope(ys, xs) >= 0.6 * self.canoe_box

    def _holds_a_hull(self, ys: np.ndarray, xs: np.ndarray) -> bool:
        """Whether one whole hull shows among pixels of one colour: in either half when
        they are cut in two, or in what is left once all thinner than a canoe's rim
        (RIM_MM) is taken off (a neighbour's rim)."""
        if any(self._whole_hull(*hv) for hv in self._split(ys, xs, 2)):
            return True
        k, parts = cv2.connectedComponents(cv2.morphologyEx(
            _crop(ys, xs, self._solid.shape[0]), cv2.MORPH_OPEN, self._solid))
        return any(self._whole_hull(*np.nonzero(parts == j)) for j in range(1, k))

    def _sides(self, ys: np.ndarray, xs: np.ndarray) -> tuple[float, float]:
        """Long and short side (mm) of the rectangle around some pixels, in canoe
        lengths and widths (as the profile measured them)."""
        (_, _), (bw, bh), _ = cv2.minAreaRect(np.column_stack([xs, ys]).astype(np.float32))
        sizes = self.profile.sizes_mm2
        return (max(bw, bh) / self.scale / sizes["canoe_long_mm"],
                min(bw, bh) / self.scale / sizes["canoe_short_mm"])

    def _count(self, ys: np.ndarray, xs: np.ndarray) -> int:
        """How many canoes a blob of one colour is by its shape: one, two (side by side
        or end to end: a player has two), or 0 when it has no canoe's shape."""
        length, width = self._sides(ys, xs)
        if length <= ONE_CANOE[0] and width <= ONE_CANOE[1]:
            return 1 if length >= 0.5 and width >= 0.45 else 0  # not a streak, not a speck
        if TWO_CANOES <= width <= 3.2 and length <= 1.6:
            return 2  # side by side
        if TWO_CANOES <= length <= 2.5 and width <= 2.0:
            return 2  # end to end
        return 0

    @staticmethod
    def _solidity(ys: np.ndarray, xs: np.ndarray) -> float:
        """The share of its convex outline a blob fills (a hull, even cut by its gem,
        fills most of it; specks scattered over water do not)."""
        outline = cv2.convexHull(np.column_stack([xs, ys]).astype(np.int32))
        return len(ys) / max(cv2.contourArea(outline), 1.0)

    @staticmethod
    def _envelope(ys: np.ndarray, xs: np.ndarray) -> float:
        (_, _), (bw, bh), _ = cv2.minAreaRect(np.column_stack([xs, ys]).astype(np.float32))
        return float(bw * bh)

    def _join_halves(self, pieces: list[tuple[np.ndarray, np.ndarray]]
                     ) -> list[tuple[np.ndarray, np.ndarray]]:
        """Join pieces of one colour that together make one canoe's size: a hull cut in
        two by its gem (a blue gem in a brown hull can look like water)."""
        reach = 8.0 * self.scale
        pieces = list(pieces)
        joined = True
        while joined and len(pieces) > 1:
            joined = False
            for a in range(len(pieces)):
                for b in range(a + 1, len(pieces)):
                    (ya, xa), (yb, xb) = pieces[a], pieces[b]
                    if (xa.min() > xb.max() + reach or xb.min() > xa.max() + reach
                            or ya.min() > yb.max() + reach or yb.min() > ya.max() + reach):
                        continue
                    ys, xs = np.concatenate([ya, yb]), np.concatenate([xa, xb])
                    if self._envelope(ys, xs) <= 1.25 * self.canoe_box \
                            and max(len(ya), len(yb)) < 0.9 * self.canoe_px:
                        pieces[a] = (ys, xs)
                        del pieces[b]
                        joined = True
                        break
                if joined:
                    break
        return pieces

    def _split(self, ys: np.ndarray, xs: np.ndarray,
               count: int) -> list[tuple[np.ndarray, np.ndarray]]:
        """The pixels of one canoe, or of two canoes of one colour touching each other:
        side by side (as two canoes share a disc) they are cut across the blob's
        shorter side, end to end across its longer one, where the two halves are each
        most compact (two-means along that direction)."""
        if count == 1 or len(xs) < 4:
            return [(ys, xs)]
        pts = np.column_stack([xs, ys]).astype(np.float32)
        box = cv2.boxPoints(cv2.minAreaRect(pts))
        e1, e2 = box[1] - box[0], box[2] - box[1]
        short, long_ = (e1, e2) if np.linalg.norm(e1) <= np.linalg.norm(e2) else (e2, e1)
        _, width = self._sides(ys, xs)
        cut = short if width >= TWO_CANOES else long_
        return self._split_along(ys, xs, cut)[0]

    def _two_hulls(self, ys: np.ndarray, xs: np.ndarray
                   ) -> list[tuple[np.ndarray, np.ndarray]] | None:
        """Two canoes of one colour touching, cut whichever way (every 180 / TURNS
        degrees) gives two whole hulls, the most compact halves of those; None when no
        way does."""
        best: tuple[float, list[tuple[np.ndarray, np.ndarray]]] | None = None
        for k in range(TURNS):
            a = math.pi * k / TURNS
            halves, spread = self._split_along(ys, xs, np.array([math.cos(a), math.sin(a)]))
            if (best is None or spread < best[0]) and all(self._whole_hull(*hv)
                                                          for hv in halves):
                best = (spread, halves)
        return None if best is None else best[1]

    @staticmethod
    def _split_along(ys: np.ndarray, xs: np.ndarray, cut: np.ndarray
                     ) -> tuple[list[tuple[np.ndarray, np.ndarray]], float]:
        """Pixels cut in two across direction `cut` (x, y) where the two halves are each
        most compact (two-means along it), and the halves' spread along it."""
        pts = np.column_stack([xs, ys]).astype(np.float32)
        t = pts @ (cut / max(float(np.linalg.norm(cut)), 1e-6)).astype(np.float32)
        order = np.argsort(t)
        ts = t[order].astype(np.float64)
        n = len(ts)
        k = np.arange(1, n)
        s1, q1 = np.cumsum(ts)[:-1], np.cumsum(ts * ts)[:-1]
        s2, q2 = ts.sum() - s1, float((ts * ts).sum()) - q1
        spread = (q1 - s1 * s1 / k) + (q2 - s2 * s2 / (n - k))
        at = int(np.argmin(spread)) + 1
        first, second = order[:at], order[at:]
        return [(ys[first], xs[first]), (ys[second], xs[second])], float(spread[at - 1])


def _crop(ys: np.ndarray, xs: np.ndarray, pad: int) -> np.ndarray:
    """A mask of some pixels in the rectangle around them, with `pad` empty pixels all
    round: an erosion takes what lies beyond a crop's edge as set, and would keep a thin
    line that runs along it."""
    part = np.zeros((ys.max() - ys.min() + 1 + 2 * pad, xs.max() - xs.min() + 1 + 2 * pad),
                    np.uint8)
    part[ys - ys.min() + pad, xs - xs.min() + pad] = 1
    return part


def hull_spread(img: np.ndarray, ys: np.ndarray, xs: np.ndarray) -> float:
    """How uneven a hull's pixels of a light-corrected board image are: their brightness's
    standard deviation over its mean (a lamp's strength cancels out)."""
    lum = img[ys, xs].sum(axis=1, dtype=np.float64)
    return float(lum.std() / max(float(lum.mean()), 1.0))


__all__ = ["CanoeFinder", "hull_spread"]
