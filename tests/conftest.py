"""Shared fixtures. Scenario data is built through the real services (tests/support/factories.py)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db.utils import OperationalError
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from hypothesis.database import DirectoryBasedExampleDatabase
from psycopg.errors import DeadlockDetected

from tests.support.nightly import NIGHTLY

# Hypothesis budgets (README "Test it"). "ci", the default, draws new examples on every run within a
# fixed budget; a failure prints its falsifying example, the @reproduce_failure blob and, when
# Hypothesis can only replay it by seed, the seed; it is also saved in .hypothesis/examples, so the
# next run on that checkout tries it first. "nightly" (``LINEUP_NIGHTLY=1`` or
# ``scripts/test --hypothesis-profile nightly``) explores 200 examples x 50 steps.
EXAMPLE_DATABASE = DirectoryBasedExampleDatabase(Path(__file__).resolve().parents[1] / ".hypothesis" / "examples")
hypothesis_settings.register_profile(
    "ci",
    max_examples=70,
    stateful_step_count=15,
    derandomize=False,
    database=EXAMPLE_DATABASE,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
hypothesis_settings.register_profile(
    "nightly",
    parent=hypothesis_settings.get_profile("ci"),
    max_examples=200,
    stateful_step_count=50,
)
hypothesis_settings.load_profile("nightly" if NIGHTLY else "ci")


def _flush_retrying_deadlocks(flush: Callable[..., None]) -> Callable[..., None]:
    """A transactional test's teardown TRUNCATEs every table while a module's live Daphne or worker may
    still be settling or redelivering; PostgreSQL can then pick the TRUNCATE as a deadlock's victim
    (seen in the LLM Agent's end-to-end module). The flush is one transaction, so trying it again is safe."""

    @functools.wraps(flush)
    def execute_sql_flush(self: Any, sql_list: list[str]) -> None:
        for attempt in range(5):
            try:
                return flush(self, sql_list)
            except OperationalError as error:
                if not isinstance(error.__cause__, DeadlockDetected) or attempt == 4:
                    raise

    return execute_sql_flush


def _sqlite_test_database_in_a_file() -> None:
    """On SQLite the test database is a file next to the configured one (``test_`` + its name, as
    PostgreSQL's test database is named), not Django's default shared-cache in-memory database:
    there, threads racing a decision get "database table is locked" at once (shared-cache locks
    ignore the busy timeout, unlike the embedded default's file), and a subprocess can not open it
    (tests/support/processes.py hands it the file)."""
    database = settings.DATABASES["default"]
    test = database.setdefault("TEST", {})
    if database["ENGINE"] == "django.db.backends.sqlite3" and not test.get("NAME"):
        name = Path(database["NAME"])
        test["NAME"] = str(name.with_name(f"test_{name.name}"))


def pytest_configure(config: pytest.Config) -> None:
    # Tests drive deadlines themselves unless they ask for Celery (tests/support/processes.py).
    settings.LINEUP_SCHEDULER = "none"
    _sqlite_test_database_in_a_file()
    from django.db.backends.base.operations import BaseDatabaseOperations  # once the app registry is ready

    BaseDatabaseOperations.execute_sql_flush = _flush_retrying_deadlocks(BaseDatabaseOperations.execute_sql_flush)
    # Password hashing is not under test and costs ~0.7 s per user with the default hasher.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


POSTGRES_ONLY = (
    "PostgreSQL only (row locks, PL/pgSQL, pg_stat_activity or the production topology's processes); "
    "this run's database is SQLite"
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On SQLite, a test marked ``postgres`` is skipped with its reason (``-rs`` lists them), so a
    SQLite run passes or fails on what SQLite decides; on PostgreSQL (CI) nothing is skipped."""
    if "postgresql" in settings.DATABASES["default"]["ENGINE"]:
        return
    for item in items:
        marker = item.get_closest_marker("postgres")
        if marker is not None:
            reason = marker.kwargs.get("reason")
            item.add_marker(pytest.mark.skip(reason=f"{POSTGRES_ONLY}: {reason}" if reason else POSTGRES_ONLY))


@pytest.fixture(autouse=True)
def fresh_stranger_memory() -> Iterator[None]:
    """Every test starts and ends with this process's memory of strangers empty: the unknown token
    digests (runtime.refused_tokens) and the unauthenticated budgets and trusted tokens
    (lineup.doors.strangers). Otherwise one in-process test's 401s spend the next one's budget."""
    from lineup.doors import strangers
    from runtime import refused_tokens

    strangers.reset()
    refused_tokens.clear()
    yield
    strangers.reset()
    refused_tokens.clear()


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user(username="ada", password="pw-ada-123")


@pytest.fixture
def other_user(django_user_model):
    return django_user_model.objects.create_user(username="bob", password="pw-bob-123")


@pytest.fixture
def conversation(user):
    from runtime.services.conversations import conversation_get_or_create_default

    return conversation_get_or_create_default(user=user)


@pytest.fixture
def caller(user):
    from runtime.tool_router import Caller

    return Caller(label="agent:test", user_id=user.id)


@pytest.fixture
def agent(caller, conversation):
    """An Agent bound to ``conversation`` that calls tools through the real Tool Router."""
    from tests.support.factories import AgentDriver

    return AgentDriver(caller=caller, conversation=conversation)


@pytest.fixture
def probe():
    """The probe MiniApp (tests/support/miniapps/probe) plugged in for one test: the generic
    operation's other policies (not exclusive, survives leaving, runs alone, bad results)."""
    from tests.support.miniapps.probe import plugged_in

    with plugged_in():
        yield
