"""A slot's disc told by this table's looks of its slots (companion.vision.disc_looks):
learned from the calibration layout (7R without its disc) and from confirmed pictures
(every slot holds one at rest, R-SETUP-2)."""

from __future__ import annotations

import json

import pytest

from companion.rules import SLOTS
from companion.vision.disc_looks import ENOUGH, KEEP, SAME, DiscLooks
from companion.vision.learn import LAYOUT_NO_DISC, layout_state, learn_profile
from companion.vision.observer import Vision
from companion.vision.profile import ProfileError
from companion.vision.profile_file import parse_profile
from companion.vision.render import Nuisance


def _looks(own: float = 0.78, bare: float = 0.98, times: int = ENOUGH) -> DiscLooks:
    looks = DiscLooks()
    for _ in range(times):
        looks.learn({"4": own}, with_disc=True)
    looks.learn({"7R": bare}, with_disc=False)
    return looks


def test_R_SETUP_2_a_ring_like_the_water_around_it_where_the_disc_shows_plainly_has_none():
    looks = _looks()
    assert looks.missing("4", 0.98 - SAME / 2) is True
    assert looks.missing("4", 0.80) is False        # as it looks with its disc
    assert looks.missing("4", 0.88) is False        # between: no plain evidence


def test_R_SETUP_2_nothing_is_said_until_a_slots_look_is_known_well():
    assert _looks(times=ENOUGH - 1).missing("4", 0.98) is None   # calibration alone
    assert _looks().missing("5", 0.98) is None                   # never seen
    assert DiscLooks({"4": [0.78] * ENOUGH}, []).missing("4", 0.98) is None  # no bare look
    assert _looks().missing("4", None) is None                   # ring hidden


def test_R_SETUP_2_a_slot_whose_disc_looks_like_the_water_is_never_judged():
    # A disc whose tint the print under it hides: the two looks too alike to tell.
    assert _looks(own=0.98 - 1.5 * SAME).missing("4", 0.98) is None


def test_only_the_newest_looks_are_kept_and_they_round_trip():
    looks = _looks(times=KEEP + 5)
    assert len(looks.with_disc["4"]) == KEEP
    again = DiscLooks.from_json(json.loads(json.dumps(looks.to_json())))
    assert again.to_json() == looks.to_json()


def test_a_profile_with_damaged_disc_looks_is_refused_in_one_line(profile):
    data = json.loads(json.dumps(profile.to_json()))
    data["disc_looks"] = {"with_disc": {"4": "dark"}, "without": []}
    with pytest.raises(ProfileError, match="disc_looks is damaged"):
        parse_profile(data)


@pytest.fixture(scope="module")
def layout_profile(board, renderer):
    shots = [renderer.render(layout_state(), seed=s, nuisance=Nuisance.mild(),
                             missing_discs=(LAYOUT_NO_DISC,)).image for s in (1, 2)]
    return learn_profile(board, shots)


def test_the_calibration_layout_teaches_each_slots_look_and_one_without_a_disc(
        layout_profile, tmp_path):
    looks = layout_profile.discs
    assert looks is not None and len(looks.without) == 2          # 7R in both photos
    assert LAYOUT_NO_DISC not in looks.with_disc
    assert {"6L", "6R", "7L"} <= set(looks.with_disc)             # discs no canoe hides
    path = tmp_path / "p.json"
    layout_profile.save(path)
    again = parse_profile(json.loads(path.read_text())).discs
    assert again is not None and again.to_json() == looks.to_json()


def test_confirmed_pictures_teach_the_table_its_slots_and_then_a_missing_disc_shows(
        board, renderer, layout_profile, mid_game):
    vision = Vision(board, layout_profile, settle=1)
    detector = vision.detector
    for seed in range(ENOUGH):
        vision.reset()
        vision.observe(renderer.render(mid_game.state, seed=30 + seed,
                                       nuisance=Nuisance.mild()).image)
        reading = vision.last_reading
        assert reading is not None
        detector.disc_looks.learn(reading.disc_contrasts, with_disc=True)
    vision.reset()
    full = vision.observe(renderer.render(mid_game.state, seed=50,
                                          nuisance=Nuisance.mild()).image)
    assert all(full["slots"][s]["disc"] for s in SLOTS)
    held = {place for canoes in mid_game.state.canoes.values() for place, _ in canoes}
    empty = [s for s in SLOTS if s not in held]
    judged = [s for s in empty if detector.disc_looks.missing(s, 1.0) is not None]
    assert judged, "the renderer's discs should show against its water"
    slot = judged[0]
    vision.reset()
    gone = vision.observe(renderer.render(mid_game.state, seed=51, nuisance=Nuisance.mild(),
                                          missing_discs=[slot]).image)
    assert gone["slots"][slot]["disc"] is False
    assert all(gone["slots"][s]["disc"] for s in SLOTS if s != slot)
