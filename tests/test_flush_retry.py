"""The test harness's flush (tests/conftest.py): a TRUNCATE chosen as a deadlock's victim is tried again."""

from __future__ import annotations

import pytest
from django.db.utils import OperationalError
from psycopg.errors import DeadlockDetected

from tests.conftest import _flush_retrying_deadlocks


def _deadlock() -> OperationalError:
    try:
        raise OperationalError("deadlock detected") from DeadlockDetected("deadlock detected")
    except OperationalError as error:
        return error


def test_a_flush_that_lost_a_deadlock_is_tried_again():
    attempts: list[list[str]] = []

    def flush(self, sql_list):
        attempts.append(sql_list)
        if len(attempts) < 3:
            raise _deadlock()

    _flush_retrying_deadlocks(flush)(None, ["TRUNCATE x"])
    assert attempts == [["TRUNCATE x"]] * 3


def test_other_errors_and_a_lasting_deadlock_are_raised():
    def broken(self, sql_list):
        raise OperationalError("connection lost")

    with pytest.raises(OperationalError, match="connection lost"):
        _flush_retrying_deadlocks(broken)(None, [])

    def always(self, sql_list):
        raise _deadlock()

    with pytest.raises(OperationalError, match="deadlock"):
        _flush_retrying_deadlocks(always)(None, [])
