"""A canoe's shadow is no canoe (canoes.CanoeFinder._not_shadows): on pale water it can
take a dark hull's colour class and shape, but it is far smoother than the hulls this
table's calibration layout showed (ColourProfile.hull_spread). Pinned on
tests/fixtures/worlds/w106, a world kept for tuning whose lamp throws each canoe's
shadow beside it, read as a blue hull."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter

import cv2
import pytest

from companion.rules import SLOTS
from companion.vision.observer import Vision
from companion.vision.profile import ProfileError, parse_profile

from .conftest import W106 as WORLD


def _river(obs: dict) -> Counter:
    return Counter((s, c["player"]) for s in SLOTS for c in obs["slots"][s]["canoes"])


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
    plain = dataclasses.replace(profile, hull_spread=None)   # as before it was learned
    lines = [json.loads(x) for x in (WORLD / "stills.jsonl").read_text().splitlines()]
    invented_before = invented_now = 0
    for line in lines:
        if line["hand"]:
            continue
        still = cv2.imread(str(WORLD / line["file"]))
        seen_before = Vision(board, plain, settle=1).observe(still)
        seen_now = Vision(board, profile, settle=1).observe(still)
        if seen_before is None:   # (one still whose markers this camera does not find)
            assert seen_now is None
            continue
        truth, before, now = _river(line["truth"]), _river(seen_before), _river(seen_now)
        assert now & truth == before & truth, line["file"]    # every canoe still seen
        invented_before += sum((before - truth).values())
        invented_now += sum((now - truth).values())
    assert invented_now <= invented_before / 2
