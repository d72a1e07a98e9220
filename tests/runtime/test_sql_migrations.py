"""The migrations create what ``runtime.sql`` says, from frozen copies of their own (runtime/sql/__init__.py).

``runtime_start_operation`` has no text in ``runtime.sql`` any more (decision 0055: the start's
statements run from Python on both engines); the previous release still calls it, so the database
must hold it as migration 0027 left it (its frozen copy) until the next release drops it.

A migration that imported its SQL from ``runtime.sql`` would create, on a fresh database, whatever
the module says today, not what it created when it was applied: so no migration imports it, and the
functions a migrated database holds must be the module's current text (a change to a function
without its new migration fails here).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.db import connection

from runtime.migrations import _start_0027
from runtime.sql import settle

MIGRATIONS = Path(__file__).resolve().parents[2] / "runtime" / "migrations"


def _body(create: str) -> str:
    """The text between a ``CREATE FUNCTION``'s dollar quotes, as ``pg_proc.prosrc`` keeps it."""
    match = re.search(r"AS (\$\w*\$)(.*)\1", create, re.S)
    assert match, "no dollar-quoted body"
    return match.group(2)


def test_no_migration_imports_runtime_sql() -> None:
    offenders = []
    for path in sorted(MIGRATIONS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            if any(name == "runtime.sql" or name.startswith("runtime.sql.") for name in names):
                offenders.append(path.name)
    assert offenders == []


@pytest.mark.django_db
@pytest.mark.postgres
@pytest.mark.parametrize(
    ("function", "create"),
    [
        ("runtime_settle_batch", settle.CREATE),
        ("runtime_settle_single", settle.CREATE_ONE),
        # No code calls it any more (decision 0055); v2026.12.3 does until the next release drops it
        # (docs/releases.md): it stays exactly as 0027 left it.
        ("runtime_start_operation", _start_0027.FUNCTION),
    ],
    ids=["runtime_settle_batch", "runtime_settle_single", "runtime_start_operation"],
)
def test_migrated_function_is_the_current_text(function: str, create: str) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL functions")
    with connection.cursor() as cursor:
        cursor.execute("SELECT prosrc FROM pg_proc WHERE proname = %s", [function])
        rows = cursor.fetchall()
    assert len(rows) == 1
    assert rows[0][0] == _body(create)


# v2026.12.2's functions (the names before 0024's) were dropped by the contract migration 0027 once no
# release calls them (decision 0053); v2026.12.3 calls only the three above.
@pytest.mark.django_db
@pytest.mark.postgres
def test_the_functions_of_releases_before_0024_are_gone() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL functions")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT proname FROM pg_proc WHERE proname IN ('runtime_settle', 'runtime_settle_one', 'lineup_start_operation')"
        )
        assert cursor.fetchall() == []


@pytest.mark.django_db
def test_the_indexes_of_releases_before_0024_are_gone() -> None:
    with connection.cursor() as cursor:
        indexes = connection.introspection.get_constraints(cursor, "runtime_operation")
    assert {"focusing_by_ends_at", "focusing_settle_retries"} & set(indexes) == set()


def test_no_code_calls_the_settlement_functions_the_previous_release_keeps() -> None:
    """``runtime_settle_batch`` and ``runtime_settle_single`` stay for v2026.12.3 only (decision 0056):
    no module outside their text (runtime/sql/settle.py) and the migrations calls them."""
    root = MIGRATIONS.parents[1]
    callers = [
        str(path.relative_to(root))
        for folder in ("runtime", "interact", "lineup", "miniapps", "agents")
        for path in sorted((root / folder).rglob("*.py"))
        if "migrations" not in path.parts
        and path != root / "runtime" / "sql" / "settle.py"
        and re.search(r"runtime_settle_(batch|single)\s*\(", path.read_text(encoding="utf-8"))
    ]
    assert callers == []
