"""The board's printed landscape, drawn procedurally as an image (2 px per mm).

Grass and banks with rocks and trees, a rippled river that runs through the slots and
splits round the island, a foaming waterfall, the dock's planks, deposits printed as
rocky caves, the weather track's circles and numbered rings under the discs. The style
(hues, flat or painted, outlines, ripples) comes from the world. The markers are not
printed: they are paper stuck on the board (scene.py).
"""

from __future__ import annotations

import colorsys
import math
from typing import Any

import cv2
import numpy as np

from companion.vision.board import Board

PX_PER_MM = 2.0


def _hsv(h: float, s: float, v: float) -> tuple[int, int, int]:
    r, g, b = colorsys.hsv_to_rgb(h % 1.0, min(1, max(0, s)), min(1, max(0, v)))
    return int(b * 255), int(g * 255), int(r * 255)   # BGR for OpenCV


def _noise(rng: np.random.Generator, shape: tuple[int, int], grain: float) -> np.ndarray:
    """Smooth noise in [-1, 1] with features about `grain` px."""
    h, w = shape
    small = rng.standard_normal((max(2, int(h / grain) + 2), max(2, int(w / grain) + 2)))
    big = cv2.resize(small.astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    return np.clip(big / 2.0, -1, 1)


def _pts(points: list[tuple[float, float]]) -> np.ndarray:
    return np.round(np.asarray(points) * PX_PER_MM).astype(np.int32)


def board_print(board: Board, style: dict[str, Any]) -> np.ndarray:
    """The printed board (BGR uint8), size_mm * PX_PER_MM."""
    rng = np.random.default_rng(style["seed"])
    w, h = (int(round(v * PX_PER_MM)) for v in board.size_mm)
    s = PX_PER_MM
    grass = np.array(_hsv(style["grass_hue"], style["grass_sat"], style["grass_val"]), np.float32)
    img = np.empty((h, w, 3), np.float32)
    img[:] = grass
    # Grass at several scales, as printed art of a meadow has: patches, tufts, blades.
    for amount, grain in ((0.16, 120), (0.14, 40), (0.10, 12), (0.07, 4)):
        img *= (1 + amount * _noise(rng, (h, w), grain))[..., None]
    hue_shift = np.array(_hsv(style["grass_hue"] + 0.04, style["grass_sat"] * 0.8,
                              style["grass_val"] * 1.1), np.float32)
    patch = np.clip(_noise(rng, (h, w), 70) * 1.5, 0, 1)[..., None] * 0.4
    img = img * (1 - patch) + hue_shift * (1 + 0.1 * _noise(rng, (h, w), 3))[..., None] * patch
    # Earthy banks along the board edges and under the dock.
    bank = np.array(style["bank_rgb"][::-1], np.float32)
    bank_mask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(bank_mask, [_pts(list(board.dock))], 255)
    cv2.fillPoly(bank_mask, [_pts(list(board.falls))], 255)
    bank_mask = cv2.dilate(bank_mask, np.ones((41, 41), np.uint8))
    edge = (_noise(rng, (h, w), 60) > 0.35).astype(np.uint8) * 255
    bank_mask = cv2.GaussianBlur(np.maximum(bank_mask, edge), (0, 0), 6)
    a = (bank_mask.astype(np.float32) / 255)[..., None]
    grit = 1 + 0.12 * _noise(rng, (h, w), 10) + 0.08 * _noise(rng, (h, w), 2)
    bank_tex = bank * grit[..., None]
    img = img * (1 - a) + bank_tex * a
    # Pebbles printed over the banks.
    ys, xs = np.nonzero(bank_mask > 160)
    for k in rng.choice(len(xs), size=min(len(xs), 900), replace=False) if len(xs) else []:
        rad = float(rng.uniform(0.6, 2.2) * s)
        tone = bank * rng.uniform(0.55, 1.35)
        cv2.ellipse(img, (int(xs[k]), int(ys[k])), (max(1, int(rad)), max(1, int(rad * 0.7))),
                    float(rng.uniform(0, 180)), 0, 360, tone.tolist(), -1, cv2.LINE_AA)
    # The river: a wide band through the slots, splitting round the island into the falls.
    r = board.disc_radius_mm
    river = np.zeros((h, w), np.uint8)
    sl = board.slots
    fall_c = np.mean(np.asarray(board.falls), axis=0)
    dock_c = np.mean(np.asarray(board.dock), axis=0)
    courses = [[tuple(dock_c), sl["1"], sl["2"], sl["3"], sl["4"], sl["5"]],
               [sl["5"], sl["6L"], sl["7L"], tuple(fall_c)],
               [sl["5"], sl["6R"], sl["7R"], tuple(fall_c)]]
    for course in courses:
        cv2.polylines(river, [_pts(course)], False, 255, int(2.7 * r * s), cv2.LINE_AA)
        for p in course[1:-1]:
            cv2.circle(river, tuple(_pts([p])[0]), int(1.45 * r * s), 255, -1, cv2.LINE_AA)
    wobble = _noise(rng, (h, w), 30)
    river_f = cv2.GaussianBlur(river, (0, 0), 4).astype(np.float32) / 255 + 0.25 * wobble
    water_mask = (river_f > 0.5).astype(np.float32)
    # The island between the branches stays land.
    island = _pts([sl["6L"], sl["6R"], sl["7R"], sl["7L"]])
    centre = island.mean(axis=0)
    island = ((island - centre) * 0.6 + centre).astype(np.int32)
    iso = np.zeros((h, w), np.uint8)
    cv2.fillPoly(iso, [island], 255)
    iso = cv2.GaussianBlur(iso, (0, 0), 5).astype(np.float32) / 255
    land = (iso > 0.5).astype(np.float32)
    for poly in board.deposits.values():  # deposits are caves on land, never in the water
        cv2.fillPoly(land, [_pts(list(poly))], 1.0)
    land = cv2.dilate(land, np.ones((int(6 * s), int(6 * s)), np.uint8))
    water_mask = np.clip(water_mask - land, 0, 1)
    soft = cv2.GaussianBlur(water_mask, (0, 0), 1.5 + 4 * style["painterly"])
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ripple = (np.sin((yy * 0.35 + 6 * _noise(rng, (h, w), 25)) + xx * 0.05) *
              style["ripples"])
    water = np.array(_hsv(style["water_hue"], style["water_sat"], style["water_val"]), np.float32)
    shade = 1 + 0.10 * ripple + 0.12 * _noise(rng, (h, w), 50)
    water_img = water[None, None, :] * shade[..., None]
    light = np.array(_hsv(style["water_hue"], style["water_sat"] * 0.4,
                          min(1.0, style["water_val"] + 0.3)), np.float32)
    crest = np.clip(ripple - 0.6, 0, 1)[..., None] * 0.6
    water_img = water_img * (1 - crest) + light * crest
    # Depth: darker towards the middle of the stream, lighter shallows, then foam where
    # the water meets the bank.
    dist = cv2.distanceTransform((water_mask > 0.5).astype(np.uint8), cv2.DIST_L2, 5) / s
    deep = np.clip(dist / (1.2 * r), 0, 1)[..., None]
    water_img = water_img * (1.18 - 0.38 * deep)
    foam_band = np.clip(1 - dist / 3.0, 0, 1) * np.clip(0.6 + _noise(rng, (h, w), 3), 0, 1)
    foam_band = foam_band[..., None] * 0.55 * (dist > 0)[..., None]
    water_img = water_img * (1 - foam_band) + np.float32(235) * foam_band
    img = img * (1 - soft[..., None]) + water_img * soft[..., None]
    # Rocks along the banks of the river.
    rock = np.array(style["rock_rgb"][::-1], np.float32)
    shore = cv2.Canny((water_mask * 255).astype(np.uint8), 50, 150)
    ys, xs = np.nonzero(shore)
    for k in rng.choice(len(xs), size=min(len(xs), 140), replace=False) if len(xs) else []:
        rad = int(rng.uniform(2.5, 7) * s)
        shade = rock * rng.uniform(0.7, 1.2)
        cv2.ellipse(img, (int(xs[k]), int(ys[k])), (rad, int(rad * rng.uniform(0.6, 1))),
                    float(rng.uniform(0, 180)), 0, 360, shade.tolist(), -1, cv2.LINE_AA)
        cv2.ellipse(img, (int(xs[k]) - rad // 3, int(ys[k]) - rad // 3), (rad // 3, rad // 4),
                    0, 0, 360, (shade * 1.3).tolist(), -1, cv2.LINE_AA)
    # Trees on the land (dark round crowns with a highlight), never on water or pieces' places.
    keep_out = water_mask.copy()
    for poly in [board.dock, board.falls, *board.deposits.values()]:
        cv2.fillPoly(keep_out, [_pts(list(poly))], 1.0)
    for p in board.weather_mm.values():
        cv2.circle(keep_out, tuple(_pts([p])[0]), int(25 * s), 1.0, -1)
    for m in board.markers.centres_mm.values():
        cv2.circle(keep_out, tuple(_pts([m])[0]), int(board.markers.size_mm * s), 1.0, -1)
    for _ in range(style["trees"]):
        x, y = int(rng.uniform(0, w)), int(rng.uniform(0, h))
        rad = int(rng.uniform(6, 14) * s)
        if keep_out[max(0, y - rad):y + rad, max(0, x - rad):x + rad].any():
            continue
        dark = grass * rng.uniform(0.45, 0.65)
        cv2.circle(img, (x + rad // 4, y + rad // 4), rad, (grass * 0.35).tolist(), -1, cv2.LINE_AA)
        cv2.circle(img, (x, y), rad, dark.tolist(), -1, cv2.LINE_AA)
        cv2.circle(img, (x - rad // 3, y - rad // 3), rad // 2, (grass * 0.9).tolist(), -1,
                   cv2.LINE_AA)
    # The waterfall: white foam stripes in the falls area.
    fpoly = _pts(list(board.falls))
    fm = np.zeros((h, w), np.uint8)
    cv2.fillPoly(fm, [fpoly], 255)
    foam = (0.75 + 0.25 * np.sin(xx * 0.5 + 3 * _noise(rng, (h, w), 12))).astype(np.float32)
    foam_img = np.clip(water[None, None, :] * 0.5 + 200 * foam[..., None], 0, 255)
    fa = (cv2.GaussianBlur(fm, (0, 0), 3).astype(np.float32) / 255)[..., None] * 0.85
    img = img * (1 - fa) + foam_img * fa
    # The dock: wooden planks.
    dpoly = _pts(list(board.dock))
    dm = np.zeros((h, w), np.uint8)
    cv2.fillPoly(dm, [dpoly], 255)
    wood = np.array(_hsv(0.08, 0.45, 0.62), np.float32)
    planks = (1 + 0.15 * np.sign(np.sin(yy / (9 * s) * math.pi)) * 0.5
              + 0.1 * _noise(rng, (h, w), 8))
    wood_img = wood[None, None, :] * planks[..., None]
    da = (dm.astype(np.float32) / 255)[..., None]
    img = img * (1 - da) + wood_img * da
    outline = style["outline"]
    if outline:
        cv2.polylines(img, [dpoly], True, (40, 45, 50), outline, cv2.LINE_AA)
    # Deposits: dark rocky caves with a rim of the gem's colour.
    gem_rim = {"violet": (160, 60, 130), "clear": (220, 220, 220), "yellow": (20, 170, 230),
               "blue": (200, 90, 40), "red": (60, 30, 190)}
    for dep, poly in board.deposits.items():
        p = _pts(list(poly))
        cave = np.zeros((h, w), np.uint8)
        cv2.fillPoly(cave, [p], 255)
        cave = cv2.GaussianBlur(cave, (0, 0), 3).astype(np.float32)[..., None] / 255
        stone = rock * 0.55 * (1 + 0.2 * _noise(rng, (h, w), 5))[..., None]
        img = img * (1 - cave) + stone * cave
        cv2.polylines(img, [p], True, gem_rim[dep], max(2, outline + 1), cv2.LINE_AA)
    img = np.clip(img, 0, 255).astype(np.uint8)
    water = water.clip(0, 255)
    # Weather track: four printed circles with their numbers, and the rings under discs.
    for value, (x, y) in board.weather_mm.items():
        c = tuple(_pts([(x, y)])[0])
        cv2.circle(img, c, int(15 * s), (225, 225, 215), -1, cv2.LINE_AA)
        cv2.circle(img, c, int(15 * s), (60, 60, 70), 2, cv2.LINE_AA)
        text = f"{value:+d}" if value else "0"
        cv2.putText(img, text, (c[0] - int(9 * s), c[1] + int(5 * s)), cv2.FONT_HERSHEY_SIMPLEX,
                    0.45 * s, (60, 60, 70), 2, cv2.LINE_AA)
    if style["slot_ring"]:
        for name, (x, y) in board.slots.items():
            c = tuple(_pts([(x, y)])[0])
            cv2.circle(img, c, int(r * s), (water * 1.35).clip(0, 255).tolist(), 2, cv2.LINE_AA)
            cv2.putText(img, name, (c[0] - int((r - 4) * s), c[1] - int((r - 10) * s)),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.35 * s, (water * 1.5).clip(0, 255).tolist(),
                        1, cv2.LINE_AA)
    if style["painterly"] > 0.5:
        img = cv2.GaussianBlur(img, (0, 0), style["painterly"] * 1.2)
    # Paper grain of the print: fibres (a little long) and a fine speckle, and the faint
    # rosette a four-colour halftone leaves.
    fibre = cv2.resize(rng.standard_normal((h // 2, w // 8)).astype(np.float32), (w, h))
    img = img * (1 + 0.012 * rng.standard_normal((h, w)).astype(np.float32)
                 + 0.02 * fibre)[..., None]
    rosette = np.sin(xx * 1.9 + yy * 0.6) * np.sin(yy * 1.9 - xx * 0.6)
    img = img * (1 + 0.01 * rosette)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)
