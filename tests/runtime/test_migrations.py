"""The conversation moved from Interact to the Runtime (runtime 0005-0006, interact 0003) and kept
every row, id and relation, on PostgreSQL and on the embedded SQLite (docs/decisions/0010-layers.md);
Pomodoro's operation columns became generic operation details (runtime 0012-0014) and kept every
row (docs/decisions/0022-miniapps-plug-in.md).

Each backend gets a fresh database in a subprocess (tests/runtime/conversation_move_probe.py), so
the suite's own test database never migrates backwards.
"""

from __future__ import annotations

import json
import os
import subprocess
import uuid
from typing import Any

import psycopg
import pytest
from django.conf import settings

from tests.support.processes import PYTHON, ROOT

pytestmark = pytest.mark.spec("R-2.2.8", "R-3.13")


def _run_probe(env: dict[str, str], probe: str = "tests.runtime.conversation_move_probe") -> dict[str, Any]:
    result = subprocess.run(
        [PYTHON, "-m", probe],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def _base_env(**overrides: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(LINEUP_SCHEDULER="none", LINEUP_LOG_LEVEL="WARNING", **overrides)
    return env


@pytest.fixture
def fresh_postgres_url():
    db = settings.DATABASES["default"]
    if db["ENGINE"] != "django.db.backends.postgresql":
        pytest.fail("set DATABASE_URL to a PostgreSQL server (scripts/test does)", pytrace=False)
    name = f"lineup_migration_{uuid.uuid4().hex[:12]}"
    server = {"host": db.get("HOST") or "127.0.0.1", "port": db.get("PORT") or 5432, "user": db.get("USER") or None}
    with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgres://{server['user'] or ''}@{server['host']}:{server['port']}/{name}"
    finally:
        with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _assert_everything_kept(report: dict[str, Any]) -> None:
    ids, after = report["ids"], report["after"]
    conversation = ids["conversation"]
    assert after["conversation"] == {
        "id": conversation,
        "owner": "ada",
        "title": "Main",
        "is_default": True,
        "scope": "personal",
    }
    assert after["workspace_focus_seq"] == 3
    assert after["instance_conversation"] == conversation
    assert after["session_instance"] == ids["instance"]
    assert after["tool_call_arguments"] == {"duration_minutes": 25, "activity": "数学"}
    assert after["operation"] == {
        "conversation": conversation,
        "tool_call": ids["tool_call"],
        "state": "completed",
        "activity": "数学",
    }
    assert after["outbox"] == {"id": ids["outbox"], "conversation": conversation}
    assert after["message"] == {"conversation": conversation, "session": ids["session"]}
    assert after["interaction"] == {"conversation": conversation, "agent": ids["agent"]}
    assert after["conversation_rows"] == {"messages": 1, "interactions": 1, "operations": 1}
    # The permission granted on conversations before the move is granted on them after it.
    assert after["group_permissions"] == ["runtime.view_conversation"]
    # One table, renamed, and the database's own foreign keys follow it.
    assert after["tables"] == ["runtime_conversation"]
    assert after["message_conversation_fk"] == [["runtime_conversation", "id"]]
    assert after["orphan_message_refused"] is True


@pytest.mark.postgres
def test_the_move_keeps_every_row_on_postgresql(fresh_postgres_url):
    report = _run_probe(_base_env(DATABASE_URL=fresh_postgres_url, LINEUP_SECRET_KEY="probe-" + "0123456789abcdef" * 4))
    assert report["vendor"] == "postgresql"
    _assert_everything_kept(report)


def test_the_move_keeps_every_row_on_the_embedded_sqlite(tmp_path):
    report = _run_probe(_base_env(LINEUP_DATA_DIR=str(tmp_path)))
    assert report["vendor"] == "sqlite"
    assert (tmp_path / "db.sqlite3").exists()
    _assert_everything_kept(report)


GENERIC_PROBE = "tests.runtime.generic_operation_probe"


def _assert_operations_kept(report: dict[str, Any]) -> None:
    written, after = report["written"], report["after"]
    rows = after["rows"]
    assert after["operations"] == 4
    expected = {
        # name: (state, details, planned seconds, interruption reason)
        # Written in the old running word; converted by the contract migrations 0026-0027 (decision 0053).
        "focusing": ("running", {"activity": "reading"}, 1500, None),
        "completed": ("completed", {"activity": "数学"}, 1500, None),
        "interrupted": ("interrupted", {"activity": None}, 600, "agent_interrupt"),
        # Its stored duration disagreed with its times: kept in its details, not lost.
        "odd": ("completed", {"activity": "", "duration_seconds": 60}, 61, None),
    }
    for name, (state, details, planned, reason) in expected.items():
        row = rows[name]
        assert (row["app_id"], row["exclusive"], row["state"]) == ("pomodoro", True, state), name
        assert row["details"] == details, name
        assert row["planned_seconds"] == planned, name
        assert row["interruption_reason"] == reason, name
        assert row["instance"] == written["rows"][name]["instance"], name
        assert row["snapshot"] == written["rows"][name]["snapshot"], name
        assert row["payload"] == written["rows"][name].get("payload"), name
    # The partial unique index still keeps one running Pomodoro per conversation.
    assert after["second_running_refused"] is True


@pytest.mark.postgres
@pytest.mark.spec("R-3.12", "R-2.2.8")
def test_operations_keep_every_row_as_generic_details_on_postgresql(fresh_postgres_url):
    report = _run_probe(
        _base_env(DATABASE_URL=fresh_postgres_url, LINEUP_SECRET_KEY="probe-" + "0123456789abcdef" * 4), GENERIC_PROBE
    )
    assert report["vendor"] == "postgresql"
    _assert_operations_kept(report)
    # What v2026.12.2 used was still there at 0025 (0024 kept it for the rolling upgrade).
    assert report["contraction"]["before"] == {
        "functions": ["lineup_start_operation", "runtime_settle", "runtime_settle_one"],
        "indexes": ["focusing_by_ends_at", "focusing_settle_retries"],
    }
    _assert_contracted(report["contraction"])


@pytest.mark.spec("R-3.12", "R-2.2.8")
def test_operations_keep_every_row_as_generic_details_on_the_embedded_sqlite(tmp_path):
    report = _run_probe(_base_env(LINEUP_DATA_DIR=str(tmp_path)), GENERIC_PROBE)
    assert report["vendor"] == "sqlite"
    _assert_operations_kept(report)
    _assert_contracted(report["contraction"])


def _assert_contracted(report: dict[str, Any]) -> None:
    """Runtime 0026 converted every row of the old running word in batches (here of 2: the five
    written at 0025 and the generic probe's focusing one, 2 + 2 + 2), 0027 found
    none left, and v2026.12.2's functions and indexes are gone; a row in the old word is refused
    (decision 0053)."""
    written, after = report["written"], report["after"]
    assert after == {pk: "running" if state == "focusing" else state for pk, state in written.items()}
    assert report["updates"] == [2, 2, 2, 0]  # 0026's three batches, then 0027's sweep-up
    assert report["leftovers"] == {"functions": [], "indexes": []}
    assert report["old_word_refused"] is True
