"""What the table refuses is a ValueError of one kind; the web layer alone gives each
kind its HTTP status, in one table (companion.web.STATUS)."""

from __future__ import annotations

import pytest

from companion.app import (
    Conflict,
    Forbidden,
    Illegal,
    Invalid,
    NotFound,
    NotSeated,
    Table,
    TableError,
)
from companion.store import Store
from companion.web import NotJson, status_of


@pytest.mark.parametrize(("kind", "status"), [
    (Invalid, 400), (NotJson, 415), (NotSeated, 401), (Forbidden, 403), (NotFound, 404),
    (Conflict, 409), (Illegal, 409), (TableError, 400),
])
def test_each_kind_of_refusal_has_one_status(kind, status):
    assert status_of(kind("why", None)) == status


def test_every_kind_is_a_value_error_with_a_message_and_a_rule():
    err = Illegal("the game is over", "R-WIN-2")
    assert isinstance(err, ValueError) and isinstance(err, Conflict)
    assert (err.message, err.rule, str(err)) == ("the game is over", "R-WIN-2",
                                                 "the game is over")


def test_the_domain_carries_no_http_status():
    table = Table(Store(":memory:"))
    with pytest.raises(Conflict) as err:
        table.undo()
    assert not hasattr(err.value, "status")


def test_a_seat_that_is_not_in_the_game_is_not_found():
    table = Table(Store(":memory:"))
    table.new_game(["blue", "green", "yellow"])
    with pytest.raises(NotFound, match="'red' is not a seat"):
        table.choose("red", 3)
