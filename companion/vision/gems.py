"""Evidence: the gem in each canoe.

A canoe's middle is read from the camera frame itself (sharper), against the canoe's own
hull: pixels unlike the hull give the direction in which the middle leaves the hull's
colour, towards one gem's colour; a middle paler than this table's empty hulls of the
colour is a clear gem (``looks.PieceLooks.pale_gem``), and so is one that looks as the
clear gems this table confirmed in such hulls did (``clear_look``); a faceted middle of
the hull's own colour is that colour's gem, and so is a smooth one that looks as this
table's gems of that colour did in such hulls (``own_look``). On the river the gem
model (``gem_model``, fitted on many tables) weighs what these rules say: it names a
coloured gem they missed and leaves a colour it contradicts unknown. Unsure is
"unknown".
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import cv2
import numpy as np

from .gem_model import gem_features, weigh
from .locate import Location
from .looks import EMPTY
from .profile import (
    MIN_SIGMA,
    features,
)
from .sighting import UNKNOWN
from .stage import GemEvidence, GemRead, Stage
from .thresholds import (
    CACHE_MM,
    FACETED_OVER_EMPTY,
    GEM_ANGLE,
    GEM_BEYOND,
    GEM_CORE,
    GEM_FILL,
    GEM_MARGIN,
    GEM_PX_PER_MM,
    GEM_TEXTURE,
    GEM_UNLIKE,
    HULL_D2,
    LOOK_CHROMA,
    PALEST,
    PLAIN_ENOUGH,
    SAME_MIDDLE,
)


class GemReader(Stage):
    """The gems stage of ``Detector`` (its state lives on the detector: see
    ``Detector.__init__``)."""

    def _evidence_cached(self, image: np.ndarray, location: Location, img: np.ndarray,
                         centre: tuple[float, float], player: str,
                         cache: dict[tuple[str, int, int], tuple[np.ndarray, GemEvidence | None]],
                         hull: tuple[np.ndarray, np.ndarray] | None = None
                         ) -> GemEvidence | None:
        """What the middle of a canoe shows (``gem_evidence``). It is measured again
        only if it changed since it was measured (a still camera sees the same canoe
        view after view); it is judged every time (``_gem``), against what the
        table has learned by now. `hull`: the canoe's pixels (ys, xs), which give the
        direction it lies in.

        Changed means changed where a gem lies: over the gem-sized disc at the middle,
        by more than a still view's noise (SAME_MIDDLE). (Averaged over the hull around
        it too, a violet gem leaving a brown or blue hull, both about as bright, changed
        the middle by less than the noise allowed, and the robbed canoe kept showing the
        gem.)"""
        radius = math.sqrt(self.gem_px / math.pi)
        r = int(math.ceil(radius))
        x, y = int(centre[0] * self.scale), int(centre[1] * self.scale)
        y0, x0 = max(y - r, 0), max(x - r, 0)
        middle = img[y0:y + r + 1, x0:x + r + 1].astype(np.int16)
        key = (player, int(centre[0] // CACHE_MM), int(centre[1] // CACHE_MM))
        last = self._gem_cache.get(key)
        if last is not None and last[0].shape == middle.shape and \
                _change(middle, last[0], (y - y0, x - x0), radius) < SAME_MIDDLE:
            # Kept with the crop it was measured from: changes too small to see from one
            # view to the next (a lamp dimming) still add up to one that is seen.
            cache[key] = last
            return last[1]
        axis = self._axis(*hull) if hull is not None else None
        evidence = self.gem_evidence(image, location, centre, player, axis)
        cache[key] = (middle, evidence)
        return evidence

    @staticmethod
    def _plain_texture(evidence: Iterable[GemEvidence | None]) -> float | None:
        """How uneven the plain middles of one picture's canoes look (those showing
        nothing unlike their hull: mostly empty ones): their median texture, or None
        when there are fewer than PLAIN_ENOUGH. Until the table has shown its empty
        hulls, a middle is faceted only against these (``_faceted``)."""
        plain = [e.texture for e in evidence if e is not None and e.unlike < GEM_UNLIKE]
        return float(np.median(plain)) if len(plain) >= PLAIN_ENOUGH else None

    def _gem(self, evidence: GemEvidence | None, player: str, ashore: bool = False,
             plain: float | None = None) -> GemRead:
        """The gem in the middle of a canoe of `player` (``gem_evidence``): None for an
        empty canoe, a gem colour, or "unknown".

        The camera blurs a gem's colour into its hull's, so a gem is judged by the
        direction in which the canoe's middle leaves the hull's own colour: towards which
        gem's colour (and, where two gems' colours lie the same way, how far). The hull
        is the local light reference, so shadows do not matter.
        Also returns what ``looks`` learns: how faceted and how pale the middle is, and
        the colour of its part least like the hull when something stood out there.
        `plain`: how uneven the picture's plain middles are (``_plain_texture``)."""
        if evidence is None:
            return GemRead("unknown", None, None, None)
        gem = self._judge_gem(evidence, player, ashore, plain)
        stood_out = (tuple(float(c) for c in evidence.core)
                     if evidence.unlike >= GEM_UNLIKE else None)
        return GemRead(gem, evidence.texture, stood_out,  # type: ignore[arg-type]
                       evidence.look)

    def _faceted(self, texture: float, player: str, plain: float | None = None
                 ) -> bool | None:
        """Is a canoe's middle uneven as a cut gem is? Against the sensor noise, and
        against how uneven this table's empty canoes of this colour looked (a hull's
        own shading and gloss: ``PieceLooks``); before the table has shown any, against
        `plain`, the plain middles of the same picture (``_plain_texture``: mostly empty
        hulls); None (cannot tell) when there is neither.
        How uneven an empty hull's middle looks depends on the lamp and the hull's
        make: on the tuned 3-D worlds their medians lie from 4 to 27 times the noise,
        so against the noise alone it is no evidence of a gem."""
        if texture <= GEM_TEXTURE:
            return False
        empty = self.looks.empty_texture(player)
        if empty is None:
            empty = plain
        return None if empty is None else texture > FACETED_OVER_EMPTY * empty

    def _judge_gem(self, evidence: GemEvidence, player: str, ashore: bool,
                   plain: float | None = None) -> str | None:
        ruled = self._ruled_gem(evidence, player, ashore, plain)
        if ashore or self.gem_model is None:
            return ruled
        return self._weighed_gem(ruled, evidence, player)

    def _weighed_gem(self, ruled: str | None, evidence: GemEvidence, player: str
                     ) -> str | None:
        """The hand rules' gem for a canoe on the river (`ruled`), weighed by the gem
        model (``gem_model.weigh``)."""
        assert self.gem_model is not None
        return weigh(ruled, self.gem_model.shares(
            gem_features(evidence, player, self._gem_colours)))

    def _ruled_gem(self, evidence: GemEvidence, player: str, ashore: bool,
                   plain: float | None = None) -> str | None:
        """The gem the hand rules read (what ``_judge_gem`` weighs)."""
        unlike, hull, core, texture, middle, look = evidence
        own = player if player in self._gem_idx else None
        if unlike < GEM_UNLIKE:
            # Nothing of another colour than the hull's. A clear gem shows the hull
            # through it: paler in the middle than this table's empty hulls of this
            # colour ever look (``PieceLooks.pale_gem``, once it has seen them), or, once
            # it has seen clear gems in such hulls too, looking as they did rather than
            # as the empty ones (``clear_look``: under a glossy lamp an empty hull's
            # gloss is paler than the clear gem that covers it). Else
            # empty, unless the middle is faceted: then a gem of the hull's own colour
            # (a red gem in a red canoe), if there is such a gem; unsure while this
            # table has shown nothing to tell a faceted middle by; or unless it looks
            # as this table's gems of the hull's own colour did (below). (Only looks
            # learned of both, the empty hulls and that gem, ENOUGH times, name a gem
            # here, as ``middle_gem`` does not: a gem claimed where none is costs the
            # inference far more than one missed, and a look of a few sightings is no
            # evidence that a gem is there at all.)
            if ashore:
                return None
            clear = self.looks.pale_gem(player, evidence.pale)
            if clear != "clear":
                clear = self.looks.clear_look(player, look) or clear
            if clear == "clear" and "clear" in self._gem_idx:
                return "clear"
            faceted = self._faceted(texture, player, plain)
            if faceted:
                return own or UNKNOWN
            if clear == UNKNOWN or (faceted is None and own):
                return UNKNOWN
            # Smooth as an empty hull, but looking as this table's gems of the hull's
            # own colour did in such hulls (``own_look``): under a soft lamp such a
            # gem's facets hardly show (the tuned g112: 18 of 19 yellow gems in the
            # yellow hull read empty by their texture; by their looks, through
            # ``benchmarks/worlds_gems.py``, 13 more of the tuned games' 201 yellow
            # gems were read right, and no empty hull was read as one).
            return self.looks.own_look(player, look) if own else None
        v = core - hull
        angles = []
        for g in self._gem_idx:
            u = self._gem_colour(g, player) - hull
            cos = float(v @ u / max(np.linalg.norm(v) * np.linalg.norm(u), 1e-6))
            angles.append((math.degrees(math.acos(max(-1.0, min(1.0, cos)))), g))
        angles.sort()
        gem = angles[0][1]
        faceted = self._faceted(texture, player, plain)
        if own and gem != own and faceted is not False and not ashore \
                and self._blend(middle, hull, gem, player) < GEM_FILL:
            # A gem of the hull's own colour leaves the hull's colour mostly at its
            # highlights, which point towards white as a clear gem does. But a gem
            # fills most of the canoe's middle: if the middle's mean colour is hardly
            # on the way from the hull's colour to that gem's, the gem is not there;
            # the faceted middle is the hull's own gem (unsure when how uneven this
            # table's empty hulls look is not known yet).
            return own if faceted else UNKNOWN
        if (standing := _stands_out(angles)) is not None:
            return standing
        if ashore:
            # Empty by the rules (R-LAND-2, R-RIVER-4), and no gem plainly there.
            return None
        # No gem's colour stands out: the look of the gem (or of an empty hull) this
        # table's confirmed pictures showed in hulls of this colour that the middle is
        # nearest (``looks``), once it has learned two.
        learned = self.looks.middle_gem(player, look)
        if learned == EMPTY:
            return None
        if learned is None:
            # Before the table has learned such looks: gems whose colours lie the same
            # way from the hull's (a violet gem and a clear one in a yellow hull) differ
            # in how far. The middle's part least like the hull (its core) past a gem's
            # colour on the way to it is no mix of hull and that gem, so not that gem; of
            # the others, one that stands out by its direction is. (``_blend`` measures
            # the way against the gem's colour as seen in canoes once learned, the
            # direction test against its colour anywhere: on the stills both are the
            # profile's, as GEM_BEYOND was measured.)
            reached = _stands_out([(angle, g) for angle, g in angles
                                   if self._blend(core, hull, g, player) <= GEM_BEYOND])
            if reached is not None:
                return reached
        return learned if learned in self._gem_idx else UNKNOWN

    def _gem_colour(self, gem: str, player: str) -> np.ndarray:
        """A gem's colour in a canoe of `player`'s colour here: as this table showed it
        in confirmed pictures (``looks``), else the profile's."""
        learned = self.looks.gem_colour(gem, hull=player)
        return learned if learned is not None else self.profile.classes[f"gem:{gem}"].bgr

    def _blend(self, colour: np.ndarray, hull: np.ndarray, gem: str, player: str) -> float:
        """How far a colour lies on the way from a hull's colour to a gem's as seen in a
        canoe (0 the hull, 1 the gem): the share of the gem in a blur of both. (A pile's
        colour is the gem's own, purer than any canoe shows it: not a measure here.)"""
        learned = self.looks.gem_colour(gem, in_canoe=True, hull=player)
        u = (learned if learned is not None else self.profile.classes[f"gem:{gem}"].bgr) - hull
        return float((colour - hull) @ u / max(float(u @ u), 1e-6))

    def _gem_geometry(self) -> tuple[float, float, int, np.ndarray, np.ndarray, np.ndarray]:
        """The patch a canoe's middle is read from: gem radius and patch half-size (mm),
        patch side (px), and its zones: hull ring, gem area, gem middle."""
        if self._gem_zones is None:
            p = GEM_PX_PER_MM
            gem_r = math.sqrt(self.profile.sizes_mm2["gem"] / math.pi)
            half = gem_r + 5.0
            n = int(round(2 * half * p))
            yy, xx = np.mgrid[0:n, 0:n]
            dist = np.hypot((xx + 0.5) / p - half, (yy + 0.5) / p - half)
            self._gem_zones = (gem_r, half, n, dist > gem_r + 2.0, dist <= gem_r + 1.5,
                               dist <= 0.75 * gem_r)
        return self._gem_zones

    def _gem_middle(self, axis: tuple[float, float]) -> np.ndarray:
        """The gem's zone of a canoe's middle patch for a canoe lying along `axis`: as
        long as the round zone, as wide as the gem."""
        p = GEM_PX_PER_MM
        gem_r, half, n, _, _, _ = self._gem_geometry()
        yy, xx = np.mgrid[0:n, 0:n]
        dx, dy = (xx + 0.5) / p - half, (yy + 0.5) / p - half
        along = dx * axis[0] + dy * axis[1]
        across = dy * axis[0] - dx * axis[1]
        return np.square(along / (gem_r + 1.5)) + np.square(across / gem_r) <= 1.0

    @staticmethod
    def _axis(ys: np.ndarray, xs: np.ndarray) -> tuple[float, float] | None:
        """The long direction of a hull's pixels (a unit vector), None if it has none."""
        if len(xs) < 8:
            return None
        evals, evecs = np.linalg.eigh(np.cov(np.vstack([xs, ys]).astype(np.float64)))
        if evals[1] < 1.5 * max(evals[0], 1e-9):
            return None  # about round: no direction to trust
        return float(evecs[0, 1]), float(evecs[1, 1])

    def _gain_at(self, centre: tuple[float, float]) -> np.ndarray:
        """The light (and shadow) correction at a board point, from the last frame."""
        if self._gain is None:
            return self.light.gain_at(centre)
        h, w = self._gain.shape[:2]
        x = min(max(int(centre[0] * self.scale), 0), w - 1)
        y = min(max(int(centre[1] * self.scale), 0), h - 1)
        return self._gain[y, x]

    def gem_evidence(self, image: np.ndarray, location: Location, centre: tuple[float, float],
                     player: str, axis: tuple[float, float] | None = None
                     ) -> GemEvidence | None:
        """What the middle of a canoe shows (``GemEvidence``), colours in the canoe's
        own light (the hull taken as the profile's hull colour).
        Read from the camera frame itself, sharper than the board image. None if no hull
        is seen. `axis`: the canoe's long direction (board mm), if known; across it the
        middle is read only as wide as a gem, so the water beside a narrow hull, which
        the camera blurs into it, is not taken for a gem's colour."""
        p = GEM_PX_PER_MM
        gem_r, half, n, ring_zone, middle, facets = self._gem_geometry()
        if axis is not None:
            middle = self._gem_middle(axis)
        patch = location.patch(image, centre, half, p)
        gain = self._gain_at(centre)
        scalar = (float(gain[0]), float(gain[1]), float(gain[2]), 0.0)
        # OpenCV takes a scalar for src2; its stubs know only arrays there.
        patch = cv2.multiply(patch, scalar)  # type: ignore[call-overload]
        labels = self.profile.classify(patch)
        ring = ring_zone & (labels == self._canoe_idx[player])
        if np.count_nonzero(ring) < 8:
            return None
        hull_px = patch[ring].astype(np.float32)
        hull_f = features(hull_px)
        hull_mean = np.median(hull_f, axis=0)
        hull_cov = np.cov(hull_f, rowvar=False) + np.diag(np.square(MIN_SIGMA))
        px = patch[middle].astype(np.float32)
        d = features(px) - hull_mean
        d2 = np.einsum("ni,ij,nj->n", d, np.linalg.inv(hull_cov), d)
        area = self.profile.sizes_mm2["gem"] * p * p
        unlike = np.count_nonzero(d2 > HULL_D2)
        # The gem's purest part: the pixels least like the hull (its edges are blurred
        # into the hull, its middle much less).
        take = max(4, int(min(max(int(unlike), 1), GEM_CORE * area)))
        core = px[np.argpartition(d2, len(d2) - take)[-take:]]
        hull = np.median(hull_px, axis=0)
        # A shadow dims all channels alike: one factor, from the hull's brightness.
        light = float(np.clip(self.profile.classes[f"canoe:{player}"].bgr.sum()
                              / max(hull.sum(), 1.0), 0.5, 2.0))
        # A cut gem's facets make its middle uneven; a hull's middle is as smooth as the
        # rest of the hull. How uneven is measured against the sensor noise, taken from
        # the hull's own pixels (the median Laplacian: a hull's edges and its darker
        # inside are too few to move it).
        lum = patch.sum(axis=2, dtype=np.int32).astype(np.float32)
        noise = float(np.median(np.abs(cv2.Laplacian(lum, cv2.CV_32F)[ring])))
        texture = float(np.std(lum[facets])) / max(noise, 1.0)
        mean_mid = patch[facets].astype(np.float32).mean(axis=0)
        palest = np.sort(_saturation(px))[:max(3, len(px) // PALEST)]
        pale = float(palest.mean()) / max(float(_saturation(hull[None])[0]), 1e-3)
        shift = LOOK_CHROMA * (_chroma(px.mean(axis=0)) - _chroma(hull))
        look = (pale, float(shift[0]), float(shift[1]), float(shift[2]))
        return GemEvidence(unlike / area, hull * light, np.median(core, axis=0) * light,
                           texture, mean_mid * light, look)


def _chroma(bgr: np.ndarray) -> np.ndarray:
    """A colour's chromaticity: its channels over their sum, whatever the brightness."""
    return bgr / max(float(bgr.sum()), 1.0)


def _saturation(bgr: np.ndarray) -> np.ndarray:
    """HSV saturation of (n, 3) colours: how far from grey, whatever the brightness."""
    top = bgr.max(axis=1)
    return (top - bgr.min(axis=1)) / np.maximum(top, 1.0)


def _stands_out(angles: list[tuple[float, str]]) -> str | None:
    """Of gems by how far (degrees) a canoe's middle points off each one's colour, best
    first: the first, when within GEM_ANGLE and GEM_MARGIN nearer than the next."""
    if not angles or angles[0][0] > GEM_ANGLE:
        return None
    if len(angles) > 1 and angles[1][0] - angles[0][0] < GEM_MARGIN:
        return None
    return angles[0][1]


def _change(middle: np.ndarray, before: np.ndarray, at: tuple[int, int], radius: float
            ) -> float:
    """The mean grey-level change between two crops of a middle (the absolute 8-bit
    difference, over B, G and R), over the disc of `radius` pixels about `at` (row,
    column) in them."""
    ys, xs = np.ogrid[:middle.shape[0], :middle.shape[1]]
    disc = (ys - at[0]) ** 2 + (xs - at[1]) ** 2 <= radius * radius
    return float(np.abs(middle[disc] - before[disc]).mean())


__all__ = ["GemReader"]
