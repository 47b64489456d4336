"""Recognition conditioned on the state: a place whose pixels did not change between the
picture before a move and the one after keeps what the state says it holds."""

from __future__ import annotations

import copy

import cv2
import numpy as np
import pytest

from companion.rules import Game
from companion.vision.board import CANOE_REACH
from companion.vision.conditioned import (
    ROW_END,
    SPILL_HULLS,
    WEATHER,
    Changes,
    _place_labels,
    _place_pixels,
    changed_places,
    condition,
)
from companion.vision.expected import canoes_of, expected_observation
from companion.vision.inference import compare, infer, read_observation
from companion.vision.observer import Vision
from companion.vision.pile_changes import (
    DEPOSIT_CHANGE,
    FAINT,
    PILE_AROUND_MM,
    deposit_boxes,
    gem_width,
    pile_changes,
)
from companion.vision.render import Nuisance
from companion.vision.surface import PIXEL_CHANGE, largest_change
from companion.vision.thresholds import _odd


@pytest.fixture(scope="module")
def vision(board, profile):
    return Vision(board, profile, settle=1)


@pytest.fixture(scope="module")
def picture(vision, renderer, mid_game):
    """The light-corrected board image of a rendered mid-game board."""
    vision.reset()
    assert vision.observe(renderer.render(mid_game.state, seed=3,
                                          nuisance=Nuisance.mild()).image) is not None
    return vision.last_reading.corrected.copy()


def gem_blob(image: np.ndarray, vision: Vision, at_mm: tuple[float, float],
             colour: tuple[int, int, int] = (40, 40, 200)) -> np.ndarray:
    """The image with a gem-sized blob painted at a point of the board."""
    out = image.copy()
    s = vision.detector.scale
    radius = int(round(np.sqrt(vision.detector.gem_px / np.pi)))
    cv2.circle(out, (int(at_mm[0] * s), int(at_mm[1] * s)), max(radius, 2), colour, -1)
    return out


def test_a_picture_compared_with_itself_changed_nowhere(vision, picture):
    assert changed_places(vision.detector, picture, picture) == set()


def test_sensor_noise_is_no_change(vision, picture):
    rng = np.random.default_rng(1)
    noisy = np.clip(picture + rng.normal(0, 6, picture.shape), 0, 255).astype(np.uint8)
    assert changed_places(vision.detector, picture, noisy) == set()


def test_a_gem_put_on_a_slot_changes_that_slot_only(vision, board, picture):
    after = gem_blob(picture, vision, board.slots["4"])
    assert changed_places(vision.detector, picture, after) == {"4"}


def test_a_hull_leaving_water_of_nearly_its_colour_changes_its_slot(vision, board, picture):
    # A blue hull on blue water: every channel moves, none by PIXEL_CHANGE; the colour
    # does (the tuned g111's blue canoe leaving 7L, calibrated from its setup photo).
    after = picture.copy()
    s = vision.detector.scale
    mask = np.zeros(picture.shape[:2], np.uint8)
    x, y = board.slots["4"]
    cv2.ellipse(mask, (int(x * s), int(y * s)), (int(20 * s), int(7 * s)), 0, 0, 360, 1, -1)
    lift = np.where(picture[mask > 0] > 128, -28, 28)
    after[mask > 0] = (picture[mask > 0].astype(np.int16) + lift).astype(np.uint8)
    assert int(largest_change(picture, after).max()) <= PIXEL_CHANGE
    assert changed_places(vision.detector, picture, after) == {"4"}


def test_a_canoe_leaving_the_end_of_a_crowded_slots_row_changes_that_slot(vision, board,
                                                                          picture):
    # Six canoes on one slot lie side by side across the river, the outer ones beyond
    # the disc (the tuned g102's green canoe leaving 3's row): where a canoe on a slot
    # may lie, its leaving changes that slot (R-MOVE-3: any number share a slot).
    (ax, ay), (bx, by) = board.slots["2"], board.slots["4"]
    along = np.array([bx - ax, by - ay]) / np.hypot(bx - ax, by - ay)
    across = np.array([-along[1], along[0]])
    r = board.disc_radius_mm
    centre = np.array(board.slots["3"])
    for side in (1, -1):
        at = centre + side * 1.5 * r * across
        if board.place_at(tuple(at)) == "3":
            break
    assert board.place_at(tuple(at)) == "3"
    after = picture.copy()
    s = vision.detector.scale
    angle = float(np.degrees(np.arctan2(along[1], along[0])))
    cv2.ellipse(after, (int(at[0] * s), int(at[1] * s)), (int(20 * s), int(4.5 * s)), angle,
                0, 360, (30, 60, 200), -1)
    assert changed_places(vision.detector, picture, after) == {"3"}


def test_a_change_beyond_the_discs_in_reach_of_two_slots_is_neithers(vision, board,
                                                                     picture):
    # The tips of one slot's row pushed aside reach towards its neighbour: where two
    # slots' canoes may lie, a change off both discs tells neither apart.
    # Beside the river between 2 and 3, off both discs and in both canoe reaches: a
    # round patch of more than ROW_END of a hull.
    (ax, ay), (bx, by) = board.slots["2"], board.slots["3"]
    r = board.disc_radius_mm
    far = 0.25 * 1.3 * r + 0.75 * CANOE_REACH * r
    half = np.hypot(bx - ax, by - ay) / 2
    across = np.array([ay - by, bx - ax]) / (2 * half)
    spot = np.array([(ax + bx) / 2, (ay + by) / 2]) + np.sqrt(far ** 2 - half ** 2) * across
    if board.place_at(tuple(spot)) is None or board.place_at(tuple(spot)) in ("D", "F"):
        spot = np.array([(ax + bx) / 2, (ay + by) / 2]) - np.sqrt(far ** 2 - half ** 2) * across
    s = vision.detector.scale
    mask = np.zeros(picture.shape[:2], np.uint8)
    cv2.circle(mask, (int(spot[0] * s), int(spot[1] * s)), round(9 * s), 1, -1)
    _, where = _place_labels(vision.detector, _place_pixels(vision.detector))
    inside = mask > 0
    assert np.count_nonzero(where[inside] < 0) > 0.6 * np.count_nonzero(inside)
    assert np.count_nonzero(inside) > ROW_END * vision.detector.canoe_px
    after = picture.copy()
    after[inside] = (30, 60, 200)
    assert changed_places(vision.detector, picture, after) == set()


def test_a_gem_put_on_a_pile_changes_that_deposit_only(vision, board, picture):
    poly = np.asarray(board.deposits["violet"], float)
    after = gem_blob(picture, vision, tuple(poly.mean(axis=0)), colour=(240, 240, 240))
    assert changed_places(vision.detector, picture, after) == {"deposit:violet"}
    game = Game(["red", "blue", "green"])
    seen = condition(expected_observation(game), game,
                     changed_places(vision.detector, picture, after))
    assert seen["deposits_changed"] == ["violet"]


def _brightened_around(image: np.ndarray, vision: Vision, at_mm: tuple[float, float],
                       levels: float, sigma_mm: float) -> np.ndarray:
    """The image brighter by up to `levels` in a smooth patch around a point (a shadow
    leaving, the light correction following a canoe put down nearby)."""
    s = vision.detector.scale
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    bump = levels * np.exp(-(((xx + 0.5) / s - at_mm[0]) ** 2 + ((yy + 0.5) / s - at_mm[1]) ** 2)
                           / (2 * sigma_mm ** 2))
    return np.clip(image + bump[..., None], 0, 255).astype(np.uint8)


def test_a_pile_brightened_smoothly_by_a_shadow_leaving_is_no_gem_gone(vision, board,
                                                                        picture):
    # A canoe moved next to a deposit: its shadow leaves the pile, or the light
    # correction, which follows the pieces' shading, brightens it all by 30 levels.
    corner = np.asarray(board.deposits["violet"], float).min(axis=0)
    after = _brightened_around(picture, vision, tuple(corner), 30.0, 25.0)
    assert not any(p.startswith("deposit:") for p in
                   changed_places(vision.detector, picture, after))


def test_a_clear_gem_put_on_a_brightened_pile_is_still_seen(vision, board, picture):
    poly = np.asarray(board.deposits["violet"], float)
    after = _brightened_around(picture, vision, tuple(poly.min(axis=0)), 30.0, 25.0)
    # A clear gem differs from its pile by 20-30 levels only.
    centre = tuple(poly.mean(axis=0))
    s = vision.detector.scale
    spot = tuple(int(v) for v in after[int(centre[1] * s), int(centre[0] * s)] + 25)
    after = gem_blob(after, vision, centre, colour=spot)
    assert "deposit:violet" in changed_places(vision.detector, picture, after)


def test_each_pile_is_measured_as_against_the_whole_board(vision, board, picture):
    # The median around each pixel is taken per deposit that changed, for speed: at
    # every deposit pixel it says what the median over the whole board says.
    rng = np.random.default_rng(4)
    after = np.clip(picture + rng.normal(0, 12, picture.shape), 0, 255).astype(np.uint8)
    for n, name in enumerate(board.deposits):
        poly = np.asarray(board.deposits[name], float)
        after = _brightened_around(after, vision, tuple(poly.min(axis=0)), 10.0 * n, 25.0)
        after = gem_blob(after, vision, tuple(poly.mean(axis=0)), colour=(60 * n, 200, 90))
    most = largest_change(picture, after)
    k = _odd(PILE_AROUND_MM * vision.detector.scale)
    everywhere = cv2.subtract(most, cv2.medianBlur(most, k))
    detector = vision.detector
    boxes = deposit_boxes(detector)
    assert len(boxes) == len(board.deposits)
    for least in (3.0, 20.0, 60.0):
        per_pile, _, _ = pile_changes(detector, most, least)
        for _, ys, xs, _ in boxes:
            assert (per_pile[ys, xs] == (everywhere[ys, xs] > least)).all()


def test_a_pile_that_changed_by_no_more_than_the_threshold_is_not_measured(vision, board,
                                                                           picture):
    # Only gems painted on all piles but the first, nothing else changed: around each
    # gem the median change is nought, so its strongest pixel passes a threshold just
    # below it; the untouched pile, skipped, has nothing passing.
    after = picture.copy()
    names = list(board.deposits)
    for name in names[1:]:
        poly = np.asarray(board.deposits[name], float)
        after = gem_blob(after, vision, tuple(poly.mean(axis=0)), colour=(250, 250, 250))
    most = largest_change(picture, after)
    detector = vision.detector
    pixels = {name: _place_pixels(detector)[f"deposit:{name}"] for name in names}
    assert int(most[pixels[names[0]]].max()) == 0
    for name in names[1:]:
        strongest = int(most[pixels[name]].max())
        assert pile_changes(detector, most, strongest - 1.0)[0][pixels[name]].any()
        assert not pile_changes(detector, most, float(strongest))[0][pixels[name]].any()
    assert not any(m[pixels[names[0]]].any() for m in pile_changes(detector, most, 0.0)[:2])


def _raised(image: np.ndarray, ys: np.ndarray, xs: np.ndarray, by: int) -> np.ndarray:
    out = image.astype(np.int16)
    out[ys, xs] += by
    return np.clip(out, 0, 255).astype(np.uint8)


def test_a_faint_change_a_gem_wide_changes_its_pile(vision, board, picture):
    # A clear gem on a grey print changes each of its pixels by less than the threshold
    # (two pictures without noise: DEPOSIT_CHANGE), all of its area by more than FAINT
    # of it: the pile changed, though no pixel alone says so.
    s = vision.detector.scale
    centre = np.asarray(board.deposits["violet"], float).mean(axis=0) * s
    radius = 1.3 * np.sqrt(vision.detector.gem_px / np.pi)
    yy, xx = np.mgrid[0:picture.shape[0], 0:picture.shape[1]]
    ys, xs = np.nonzero(np.hypot(xx + 0.5 - centre[0], yy + 0.5 - centre[1]) <= radius)
    after = _raised(picture, ys, xs, int(np.ceil((FAINT + 0.2) * DEPOSIT_CHANGE)))
    changes = changed_places(vision.detector, picture, after)
    assert "deposit:violet" in changes
    plain, _, _ = pile_changes(vision.detector, largest_change(picture, after), DEPOSIT_CHANGE)
    assert not plain.any()
    # (Nothing to name a gem taken by: its plain change is what names it.)
    assert len(changes.piles["violet"][0]) == 0


def test_faint_specks_over_a_pile_are_no_gem(vision, board, picture):
    # Every third pixel of the pile as faint as that gem: no gem-wide patch moved.
    ys, xs = _place_pixels(vision.detector)["deposit:violet"]
    every = (ys + xs) % 3 == 0
    after = _raised(picture, ys[every], xs[every], int(np.ceil((FAINT + 0.2) * DEPOSIT_CHANGE)))
    assert "deposit:violet" not in changed_places(vision.detector, picture, after)


def test_a_faint_change_beside_a_canoe_come_off_the_pile_is_no_gem(vision, board, picture):
    # A canoe's bow come next to a deposit blurs into the pile's edge: there the pile's
    # faint change is the canoe's (the tuned g101: a red canoe beside the blue pile).
    detector = vision.detector
    ys, xs = _place_pixels(detector)["deposit:blue"]
    g = _odd(2 * np.sqrt(detector.gem_px / np.pi))
    middle = int(np.median(ys))
    rows = np.arange(middle - 8, middle + 9)
    left = int(xs[np.isin(ys, rows)].min())
    band = np.arange(left, left + g // 2)
    halo = tuple(np.meshgrid(rows, band, indexing="ij"))
    halo_ys, halo_xs = halo[0].ravel(), halo[1].ravel()
    faintly = _raised(picture, halo_ys, halo_xs, int(0.9 * DEPOSIT_CHANGE))
    _, alone, _ = pile_changes(detector, largest_change(picture, faintly), DEPOSIT_CHANGE)
    assert alone[halo_ys, halo_xs].any()
    # (A bow two pixels wide: a wider one fills half the median around the pile's edge,
    # which then takes the halo's change out by itself.)
    bow = tuple(np.meshgrid(rows, np.arange(left - 2, left), indexing="ij"))
    after = _raised(faintly, bow[0].ravel(), bow[1].ravel(), 100)
    _, faint, _ = pile_changes(detector, largest_change(picture, after), DEPOSIT_CHANGE)
    assert not faint[halo_ys, halo_xs].any()


def _hull_towards(image: np.ndarray, vision: Vision, start: tuple[float, float],
                  end: tuple[float, float], colour: tuple[int, int, int] = (30, 60, 200)
                  ) -> np.ndarray:
    """The image with a hull-wide stroke painted from one board point to another."""
    out = image.copy()
    s = vision.detector.scale
    width = 2 * int(round(np.sqrt(vision.detector.gem_px / np.pi)))
    cv2.line(out, (int(start[0] * s), int(start[1] * s)), (int(end[0] * s), int(end[1] * s)),
             colour, max(width, 2))
    return out


def _towards(board, a: str, b: str, share: float) -> tuple[float, float]:
    (ax, ay), (bx, by) = board.slots[a], board.slots[b]
    return ax + share * (bx - ax), ay + share * (by - ay)


def test_a_canoe_reaching_over_its_neighbour_changes_it_as_a_spill(vision, board, picture):
    # A canoe on 6L whose end lies over 7L's nearer half: 7L changed only as part of
    # 6L's change.
    after = _hull_towards(picture, vision, board.slots["6L"], _towards(board, "6L", "7L", 0.7))
    changed = changed_places(vision.detector, picture, after)
    assert {"6L", "7L"} <= changed
    assert changed.spills["7L"] == {"6L"}
    assert "6L" not in changed.spills
    game = Game(["red", "blue", "green"])
    seen = condition(expected_observation(game), game, changed)
    assert seen["places_spilled"]["7L"] == ["6L"]


def test_a_gem_of_its_own_beside_a_neighbours_spill_is_a_change_of_its_own(vision, board,
                                                                            picture):
    after = _hull_towards(picture, vision, board.slots["6L"], _towards(board, "6L", "7L", 0.7))
    after = gem_blob(after, vision, _towards(board, "7L", "6L", -0.3))
    changed = changed_places(vision.detector, picture, after)
    assert "7L" in changed and "7L" not in changed.spills


def test_canoes_leaving_a_crowded_disc_together_spill_as_one_does(vision, board, picture):
    # Three canoes' change on 6L, one patch of more than SPILL_HULLS hulls, lying on
    # 6L but for the end that reaches over 7L's nearer half.
    after = _hull_towards(picture, vision, board.slots["6L"], _towards(board, "6L", "7L", 0.7))
    s = vision.detector.scale
    radius = np.sqrt(1.2 * SPILL_HULLS * vision.detector.canoe_px / np.pi)
    x, y = board.slots["6L"]
    cv2.circle(after, (int(x * s), int(y * s)), int(radius), (30, 60, 200), -1)
    changed = changed_places(vision.detector, picture, after)
    assert {"6L", "7L"} <= changed
    assert changed.spills["7L"] == {"6L"}


def test_a_change_larger_than_canoes_spills_nowhere(vision, board, picture):
    # The light changed over half the board: no canoe's doing.
    after = picture.copy()
    h, w = after.shape[:2]
    after[:, : w // 2] = np.clip(after[:, : w // 2].astype(int) + 80, 0, 255)
    changed = changed_places(vision.detector, picture, after)
    assert len(changed & set(board.slots)) >= 3 and not changed.spills


def test_the_cloud_moved_changes_the_weather_track(vision, board, picture):
    after = gem_blob(picture, vision, list(board.weather_mm.values())[3], colour=(250, 250, 250))
    assert WEATHER in changed_places(vision.detector, picture, after)


def test_pictures_of_another_size_are_refused(vision, picture):
    with pytest.raises(ValueError, match="not of the same board"):
        changed_places(vision.detector, picture, picture[:-2])


def test_unchanged_places_keep_the_state_whatever_was_read(mid_game):
    seen = expected_observation(mid_game)
    misread = copy.deepcopy(seen)
    misread["slots"]["1"]["canoes"] = []            # a canoe lost on an unfamiliar print
    misread["slots"]["6L"]["disc"] = False          # glare on a disc
    misread["weather"] = 2
    assert condition(misread, mid_game, changed=set()) == seen
    # pixels compared say which piles and places changed (here: none); readings
    # compared cannot
    assert condition(misread, mid_game, Changes()) == seen | {"deposits_changed": [],
                                                               "places_changed": [],
                                                               "places_spilled": {}}
    assert misread["slots"]["1"]["canoes"] == []     # the observation given is not modified


def test_changed_places_are_taken_from_the_reading(mid_game):
    seen = expected_observation(mid_game)
    after = copy.deepcopy(seen)
    after["slots"]["2"]["canoes"].append({"player": "blue", "gem": None})
    after["slots"]["1"]["canoes"] = []
    out = condition(after, mid_game, changed={"2"})
    assert out["slots"]["2"] == after["slots"]["2"]
    assert out["slots"]["1"] == seen["slots"]["1"]
    # pixels compared also name the places that changed, for the turns to explain
    pixels = condition(after, mid_game, Changes({"2", "D", "deposit:violet"}))
    assert pixels["places_changed"] == ["D", "2"]
    assert pixels["deposits_changed"] == ["violet"]


def test_an_unchanged_board_misread_is_still_the_game_as_it_stands(mid_game):
    # Issue 12 item 4: a misread on a board nobody touched made the referee flag a
    # move nobody made. With the picture before, nothing changed, so nothing is judged.
    seen = expected_observation(mid_game)
    seen["slots"]["7L"]["disc"] = False
    laden = next(slot for slot in seen["slots"].values() if slot["canoes"])
    laden["canoes"][0]["gem"] = "violet" if laden["canoes"][0]["gem"] != "violet" else None
    before = canoes_of(mid_game.state)
    assert compare(before, read_observation(seen), mid_game.players)[0] > 0
    kept = read_observation(condition(seen, mid_game, changed=set()))
    assert compare(before, kept, mid_game.players, weather=mid_game.state.weather)[0] == 0


def test_a_move_is_decided_from_the_places_it_changed():
    game = Game(["blue", "green", "yellow"])
    game.apply({"event": "cards", "cards": {"blue": 6, "green": "cloud", "yellow": 5}})
    after = game.copy()
    after.apply({"event": "turn", "player": "blue",
                 "canoes": [{"from": "D", "to": "4", "post": ["load:clear"]}]})
    seen = expected_observation(after)
    seen["slots"]["7L"]["disc"] = False      # misread where the move changed nothing
    result = infer(game, condition(seen, game, Changes({"D", "4", "deposit:clear"})))
    assert result.status == "exact" and result.turn == after.events[-1]
    assert not result.unexplained


def _spot_disc(centre: tuple[int, int], radius: float, side: int) -> np.ndarray:
    """A disc of an image `side` pixels square (bool), centred at (row, column)."""
    yy, xx = np.mgrid[0:side, 0:side]
    return np.hypot(yy - centre[0], xx - centre[1]) <= radius


def _noisy(image: np.ndarray, seed: int, sigma: float) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(image + rng.normal(0.0, sigma, image.shape), 0, 255).astype(np.uint8)


def test_a_clear_gem_taken_in_a_still_view_changes_its_pile(vision, board, picture):
    # A clear gem changes its pile by 8 levels; the noise is a level in each
    # picture. No pixel count notices it (each pixel's change must stand out of the
    # pictures' noise), but its spot stands out of the change around it.
    detector = vision.detector
    s = detector.scale
    centre = np.asarray(board.deposits["violet"], float).mean(axis=0) * s
    gem = _spot_disc((int(centre[1]), int(centre[0])), gem_width(detector) / 2,
                     side=max(picture.shape[:2]))[:picture.shape[0], :picture.shape[1]]
    before = _noisy(picture, 1, 1.0)
    lifted = picture.astype(np.float32)
    lifted[gem] += 8.0
    after = _noisy(lifted, 2, 1.0)
    most = largest_change(before, after)
    least = DEPOSIT_CHANGE + 3 * float(np.median(most[::4, ::4]))  # (as changed_places)
    plain, faint, spots = pile_changes(detector, most, least)
    idx = _place_pixels(detector)["deposit:violet"]
    assert np.count_nonzero(plain[idx] | faint[idx]) < detector.gem_px
    assert "deposit:violet" in spots
    changed = changed_places(detector, before, after)
    assert "deposit:violet" in changed
    assert not {p for p in changed if p.startswith("deposit:")} - {"deposit:violet"}


def test_a_spot_beside_a_canoes_change_off_the_pile_is_no_gem(vision, board, picture):
    # A canoe come next to a deposit changes the board beside it by far more than a
    # gem (PIXEL_CHANGE): a faint spot at the pile's edge there does not stand out of
    # the change around it, the canoe's in its ring.
    detector = vision.detector
    ys, xs = _place_pixels(detector)["deposit:violet"]
    g = gem_width(detector)
    row = int(np.median(ys))
    left = int(xs[ys == row].min())
    spot = _spot_disc((row, left + g // 2), g / 2, side=max(picture.shape[:2])
                      )[:picture.shape[0], :picture.shape[1]]
    lifted = picture.astype(np.float32)
    lifted[spot] += 8.0
    after = lifted.astype(np.uint8)
    most = largest_change(picture, after)
    assert "deposit:violet" in pile_changes(detector, most, DEPOSIT_CHANGE)[2]
    bow = np.zeros(picture.shape[:2], bool)
    bow[row - g:row + g + 1, left - g - 3:left - g] = True
    lifted[bow] += 2 * PIXEL_CHANGE
    most = largest_change(picture, np.clip(lifted, 0, 255).astype(np.uint8))
    assert "deposit:violet" not in pile_changes(detector, most, DEPOSIT_CHANGE)[2]
