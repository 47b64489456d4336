"""Nothing acknowledged is lost when the power goes: `companion serve` killed with
SIGKILL 50 times at random moments of games played over HTTP (tests/appliance/
crashing.py says how each kill is checked). benchmarks/power_cut.py does more."""

from .crashing import PowerCuts


def test_fifty_kills_lose_and_duplicate_nothing_acknowledged(tmp_path):
    tally = PowerCuts(tmp_path, kills=50, seed=11).run()
    print(tally.line())
    assert tally.kills == 50
    assert tally.kills_mid_request >= 10  # the kills did land inside requests
    assert tally.acknowledged_events >= 50  # a busy machine plays less between kills
    assert tally.problems == []
    assert tally.lost == 0 and tally.duplicated == 0
