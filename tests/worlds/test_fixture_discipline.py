"""The committed worlds as a whole: several boards, whole games, and the not-for-tuning
discipline (a seed family on a board no tuned world uses)."""

from tests.worlds.test_fixtures import GAME_DIRS, WORLD_DIRS, _meta


def test_worlds_are_committed_on_at_least_three_boards_and_some_are_not_for_tuning():
    assert len(WORLD_DIRS) >= 4
    metas = [_meta(d) for d in WORLD_DIRS]
    assert len({m["board_file"] for m in metas}) >= 3
    assert any(not m["tuning"] for m in metas)


def test_not_for_tuning_is_a_seed_family_and_a_board_no_tuned_world_uses():
    metas = [_meta(d) for d in WORLD_DIRS]
    untuned_boards = {m["board_file"] for m in metas if not m["tuning"]}
    tuned_boards = {m["board_file"] for m in metas if m["tuning"]}
    assert untuned_boards and not untuned_boards & tuned_boards
    for m in metas:
        assert (m["world"]["seed"] // 100 == 9) == (not m["tuning"]), m["world"]["name"]


def test_whole_games_are_committed_on_tuned_and_not_for_tuning_worlds():
    worlds = {d.parents[1].name for d in GAME_DIRS}
    tuning = {_meta(d.parents[1])["tuning"] for d in GAME_DIRS}
    assert worlds and tuning == {True, False}


def test_ten_games_are_committed_not_for_tuning_so_that_9_of_10_can_be_measured():
    # Issue 10: "the final log equals the truth in at least 9 games of 10", on the worlds
    # not for tuning; with fewer than ten such games that figure cannot be told.
    untuned = [d for d in GAME_DIRS if not _meta(d.parents[1])["tuning"]]
    assert len(untuned) >= 10
    assert len({d.parents[1].name for d in untuned}) >= 6
