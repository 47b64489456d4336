"""The rule IDs of rules.md: every one has tests named after it here, and the engine
cites no ID that rules.md does not have."""

import re
from pathlib import Path

import companion.rules

# rules.md (shared/spec), sections 2–8, in order.
RULE_IDS = (
    "R-GEO-1 R-GEO-2 R-GEO-3 R-GEO-4 R-SETUP-1 R-SETUP-2 R-SETUP-3 R-SETUP-4 "
    "R-BUY-1 R-BUY-2 R-BUY-3 R-CARD-1 R-CARD-2 R-CARD-3 R-TURN-1 R-TURN-2 "
    "R-RIVER-1 R-RIVER-2 R-RIVER-3 R-RIVER-4 R-RIVER-5 R-RING-1 "
    "R-WHICH-1 R-WHICH-2 R-WHICH-3 R-WHICH-4 R-WHICH-5 R-PTS-1 R-PTS-2 R-PTS-3 "
    "R-MOVE-1 R-MOVE-2 R-MOVE-3 R-MOVE-4 R-MOVE-5 R-MOVE-6 R-MOVE-7 "
    "R-GEM-1 R-GEM-2 R-GEM-3 R-GEM-4 R-GEM-5 R-GEM-6 "
    "R-STEAL-1 R-STEAL-2 R-STEAL-3 R-STEAL-4 R-STEAL-5 R-LAND-1 R-LAND-2 R-LAND-3 "
    "R-WEATHER-1 R-WEATHER-2 R-WIN-1 R-WIN-2"
).split()

HERE = Path(__file__).parent
ENGINE = Path(companion.rules.__file__).parent


def _test_names() -> list[str]:
    names = []
    for path in sorted(HERE.glob("test_r_*.py")):
        names += re.findall(r"^def (test_\w+)\(", path.read_text(), re.MULTILINE)
    return names


def test_every_rule_id_has_at_least_two_tests_named_after_it():
    names = _test_names()
    for rule in RULE_IDS:
        prefix = "test_" + rule.replace("-", "_") + "_"
        assert sum(n.startswith(prefix) for n in names) >= 2, rule


def test_the_engine_cites_only_rule_ids_of_rules_md():
    cited = set()
    for path in ENGINE.glob("*.py"):
        cited |= set(re.findall(r"\bR-[A-Z]+-\d+\b", path.read_text()))
    assert cited and cited <= set(RULE_IDS), sorted(cited - set(RULE_IDS))
