"""``manage.py upgrade_check`` says what ``migrate`` would do, before it does it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from lineup.management.commands.upgrade_check import estimated_rows

ROOT = Path(__file__).resolve().parents[2]


def _manage(data_dir: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG", "TMPDIR"}}
    env["LINEUP_DATA_DIR"] = str(data_dir)
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_an_upgrade_from_v2026_12_1_is_a_stop_before_migrate_with_a_data_migration(tmp_path) -> None:
    """A SQLite database at v2026.12.1's runtime schema (0011) with one user: the check names 0012 and 0014
    as contractions of v2026.12.2, 0013 as a data migration over runtime_operation with its rows, and says
    to stop first; once migrated, it has nothing to say."""
    _manage(tmp_path, "migrate", "runtime", "0011", "--noinput")
    report = _manage(tmp_path, "upgrade_check")
    assert (
        "runtime.0014_operation_generic_columns_only: contract: drops operation.activity [ships in v2026.12.2]"
        in report
    )
    assert "runtime.0012_operation_app_id_exclusive_details: contract: adds required column operation.app_id" in report
    assert (
        "runtime.0013_operation_details_from_pomodoro_columns: data: Python over existing rows (forward); runtime_operation: ~0 rows"
        in report
    )
    assert "Stop before migrate" in report and "Rolling upgrade" not in report
    # The running state's contraction rolls from v2026.12.3 only: named for this older database too.
    assert (
        "runtime.0027_running_only: contracts what releases before v2026.12.3 use, and this database is older" in report
    )
    _manage(tmp_path, "migrate", "--noinput")
    assert "No unapplied migrations" in _manage(tmp_path, "upgrade_check")


@pytest.mark.django_db
def test_a_migrated_database_has_nothing_to_do_and_tables_have_estimates(capsys) -> None:
    call_command("upgrade_check")
    assert "No unapplied migrations" in capsys.readouterr().out
    assert estimated_rows(connection, "runtime_operation") >= 0
    assert estimated_rows(connection, "no_such_table") is None


def test_an_upgrade_from_v2026_12_3_rolls_through_the_running_state_contraction(tmp_path) -> None:
    """A database at v2026.12.3's runtime schema (0025): 0026 and 0027 take away only what v2026.12.2 used,
    so the check says the upgrade rolls; from v2026.12.2's (0023) it says to stop first (decision 0053)."""
    _manage(tmp_path, "migrate", "runtime", "0023", "--noinput")
    older = _manage(tmp_path, "upgrade_check")
    assert "runtime.0026_running_rows: contracts what releases before v2026.12.3 use" in older
    assert "Stop before migrate" in older
    _manage(tmp_path, "migrate", "runtime", "0025", "--noinput")
    report = _manage(tmp_path, "upgrade_check")
    assert "runtime.0026_running_rows: data: Python over existing rows (convert); runtime_operation: ~0 rows" in report
    assert (
        "runtime.0027_running_only: contracts only what releases before v2026.12.3 used (rolling from v2026.12.3)"
        in report
    )
    assert "Rolling upgrade" in report and "Stop before migrate" not in report
