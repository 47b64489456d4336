"""A canoe's shadow is no canoe. On pale water it can take a dark hull's colour class and
shape, but it is far smoother than the hulls this table's calibration layout showed
(canoes.CanoeFinder._not_shadows, ColourProfile.hull_spread); and where the layout's
canoes cast theirs on their discs the calibration learns how that shaded water looks
(profile.SHADOW, learn_board.canoe_shadow_pixels), which a hull is measured against. Pinned on
tests/fixtures/worlds/w106, a world kept for tuning whose lamp throws each canoe's
shadow beside it, read as a blue hull."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter

import cv2
import numpy as np
import pytest

from companion.rules import SLOTS
from companion.vision.board import Board
from companion.vision.detect import _odd
from companion.vision.dock_canoes import DockCanoe, find_slot_canoe
from companion.vision.learn_board import SHADOW_LEAST_MM2, canoe_shadow_pixels
from companion.vision.observer import Vision
from companion.vision.profile import SHADOW, ColourProfile, ProfileError
from companion.vision.profile_file import parse_profile
from companion.vision.thresholds import SMOOTH_MM

from .conftest import W106 as WORLD


def _river(obs: dict) -> Counter:
    return Counter((s, c["player"]) for s in SLOTS for c in obs["slots"][s]["canoes"])


def _unshaded(profile: ColourProfile) -> ColourProfile:
    """`profile` as it was before the water in the canoes' shadows was learned."""
    return dataclasses.replace(
        profile, classes={n: c for n, c in profile.classes.items() if n != SHADOW}, _lut=None)


def _invented(board: Board, a: ColourProfile, b: ColourProfile) -> tuple[int, int]:
    """Canoes invented on the river over w106's calm stills, read with `a` and with `b`;
    asserts that `b` sees every canoe `a` sees."""
    lines = [json.loads(x) for x in (WORLD / "stills.jsonl").read_text().splitlines()]
    invented_a = invented_b = 0
    for line in lines:
        if line["hand"]:
            continue
        still = cv2.imread(str(WORLD / line["file"]))
        seen_a = Vision(board, a, settle=1).observe(still)
        seen_b = Vision(board, b, settle=1).observe(still)
        if seen_a is None:   # (one still whose markers this camera does not find)
            assert seen_b is None
            continue
        truth, by_a, by_b = _river(line["truth"]), _river(seen_a), _river(seen_b)
        assert by_b & truth == by_a & truth, line["file"]    # every canoe still seen
        invented_a += sum((by_a - truth).values())
        invented_b += sum((by_b - truth).values())
    return invented_a, invented_b


def test_the_calibration_learns_how_uneven_this_tables_hulls_look(w106):
    _, profile, _ = w106
    assert profile.hull_spread is not None and 0 < profile.hull_spread < 1
    again = parse_profile(json.loads(json.dumps(profile.to_json())))
    assert again.hull_spread == pytest.approx(profile.hull_spread, abs=1e-4)


def test_a_damaged_hull_spread_is_refused_with_one_line(w106):
    _, profile, _ = w106
    data = json.loads(json.dumps(profile.to_json()))
    data["hull_spread"] = -1
    with pytest.raises(ProfileError, match="hull_spread is damaged"):
        parse_profile(data)


def test_shadows_read_as_hulls_are_dropped_and_no_canoe_is_lost(w106):
    board, profile, _ = w106
    unshaded = _unshaded(profile)
    before, now = _invented(board, dataclasses.replace(unshaded, hull_spread=None), unshaded)
    assert now <= before / 2


def test_the_calibration_learns_the_water_in_the_canoes_shadows(w106):
    _, profile, _ = w106
    assert SHADOW in profile.classes
    again = parse_profile(json.loads(json.dumps(profile.to_json())))
    assert np.allclose(again.classes[SHADOW].mean, profile.classes[SHADOW].mean, atol=1e-3)
    # (No pixel is labelled a shadow: its colour overlaps dark hulls' and gems'.)
    assert profile.index(SHADOW) not in profile.lut()


def test_a_shadow_learned_as_the_board_is_no_hull_and_no_canoe_is_lost(w106):
    board, profile, _ = w106
    before, now = _invented(board, _unshaded(profile), profile)
    assert before > 0 and now == 0


def _disc_scene(board: Board, shadow: bool) -> tuple[np.ndarray, DockCanoe, np.ndarray]:
    """A straightened, smoothed picture (1 px/mm, as the calibration reads it) of pale
    water with a red canoe with a dark rim on slot 3's disc, lying at 37 degrees, and
    beside it, along its length, its shadow if `shadow`; the canoe as the calibration
    finds it (``find_slot_canoe``: its angle is a multiple of 15 degrees, so its rim
    shows beyond the outline it gives), the empty discs' pixels."""
    rng = np.random.default_rng(3)
    img = np.clip(rng.normal((180, 170, 120), 2.0, (400, 600, 3)), 0, 255).astype(np.uint8)
    if shadow:
        cv2.ellipse(img, (194, 210), (22, 8), 37.0, 0, 360, (110, 95, 50), -1)
    cv2.ellipse(img, (200, 200), (22, 8), 37.0, 0, 360, (40, 40, 200), -1)
    cv2.ellipse(img, (200, 200), (22, 8), 37.0, 0, 360, (30, 30, 60), 2)
    img = cv2.blur(img, (_odd(SMOOTH_MM), _odd(SMOOTH_MM)))
    canoe = find_slot_canoe(img, board, "3", "red", 1.0)
    assert canoe is not None
    disc = np.clip(rng.normal((180, 170, 120), 2.0, (500, 3)), 0, 255).astype(np.uint8)
    return img, canoe, disc


def test_the_water_in_a_canoes_shadow_is_taken_and_neither_the_canoe_nor_lit_water(board):
    where = _slot_board(board)
    img, canoe, disc = _disc_scene(where, shadow=True)
    shadow = canoe_shadow_pixels(img, where, [("3", canoe)], disc, 1.0)
    assert len(shadow) >= SHADOW_LEAST_MM2
    # (Its blurred edge, half water or half hull, comes along: the class is centred on it.)
    assert np.abs(np.median(shadow, axis=0) - (110, 95, 50)).max() <= 10


def test_no_shadow_is_learned_where_the_light_casts_none_nor_from_a_hulls_rim(board):
    where = _slot_board(board)
    img, canoe, disc = _disc_scene(where, shadow=False)
    assert len(canoe_shadow_pixels(img, where, [("3", canoe)], disc, 1.0)) == 0


def test_a_disc_of_one_flat_colour_teaches_no_shadow(board):
    where = _slot_board(board)
    img, canoe, _ = _disc_scene(where, shadow=False)
    flat = np.full((500, 3), (180, 170, 120), np.uint8)   # (no spread at all)
    assert len(canoe_shadow_pixels(img, where, [("3", canoe)], flat, 1.0)) == 0


def _slot_board(board: Board) -> Board:
    """`board` with slot 3 at (200, 200) mm and a disc radius of 40 mm."""
    return dataclasses.replace(board, slots={**board.slots, "3": (200.0, 200.0)},
                               disc_radius_mm=40.0)
