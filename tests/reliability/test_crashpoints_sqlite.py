"""Crash at every step, on SQLite: the same kinds in the embedded product (``manage.py run_embedded``).

The harness of ``test_crashpoints.py`` (tests/reliability/crashpoints.py) with an ``EmbeddedRig``:
one embedded server on the test database's SQLite file is Daphne, worker and beat; the worker's
kinds are the in-process scheduler's (``eta``: its wake-up at ``ends_at``; ``sweep``: its first pass
after a restart; ``recover``: ``manage.py recover_runtime`` on the file while the server is down).

On a SQLite run of the suite these tests run here. On PostgreSQL (CI) the sample runs in a child
pytest on a SQLite test database of its own (``test_the_sample_on_a_sqlite_database``), so CI
covers both engines. ``python -m bench.crashpoints --engine sqlite`` runs the enumeration.
"""

from __future__ import annotations

import os
import re
import subprocess

import pytest
from django.conf import settings

from tests.reliability.crashpoints import EMBEDDED_KINDS, KINDS, run_kind, run_sample, run_seed
from tests.support.processes import PYTHON, ROOT

SQLITE = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
on_sqlite = pytest.mark.skipif(not SQLITE, reason="runs on a SQLite test database (the child pytest below)")

# CI's share on SQLite: two seeded kinds, each its uncrashed run and one k (~45 s with the child
# pytest's start on the 2-core machine).
KINDS_PER_RUN = int(os.environ.get("LINEUP_CRASHPOINTS_SQLITE_KINDS", "2"))
CHILD_TIMEOUT = 280.0  # under the suite's 300 s per test


def test_every_kind_of_postgresql_exists_on_sqlite():
    """A kind added to one engine's table and not the other's fails here (issue 39: both engines)."""
    assert list(EMBEDDED_KINDS) == list(KINDS)
    for kind, (decision, role) in EMBEDDED_KINDS.items():
        assert role in ("server", "recover_runtime"), kind
        if KINDS[kind][1] == "daphne":
            assert decision == KINDS[kind][0], kind  # the server's decisions are Daphne's own


@on_sqlite
@pytest.mark.spec("R-2.2.8", "R-3.5", "R-4.2.7", "R-4.4.1", "R-4.4.2")
def test_a_sample_of_crash_points_on_sqlite_keeps_every_promise(embedded_rig, django_user_model, tmp_path):
    """``KINDS_PER_RUN`` seeded kinds, each its uncrashed run and one seeded k, on one embedded server."""
    run_sample(embedded_rig, django_user_model, tmp_path, KINDS_PER_RUN)


@on_sqlite
@pytest.mark.spec("R-2.2.8", "R-3.5", "R-4.2.7", "R-4.4.1", "R-4.4.2")
@pytest.mark.parametrize("kind", list(EMBEDDED_KINDS))
def test_every_crash_point_on_sqlite_keeps_every_promise(kind, embedded_rig, django_user_model, tmp_path):
    """``python -m bench.crashpoints --engine sqlite`` (``LINEUP_CRASHPOINTS=all``) or a selection."""
    if not os.environ.get("LINEUP_CRASHPOINTS", "").strip():
        pytest.skip("the enumeration: python -m bench.crashpoints --engine sqlite (CI runs the sample)")
    run_kind(kind, embedded_rig, django_user_model, tmp_path, run_seed())


@pytest.mark.skipif(SQLITE, reason="this run is on SQLite: the sample above runs in this process")
@pytest.mark.spec("R-2.2.8", "R-3.5", "R-4.2.7", "R-4.4.1", "R-4.4.2")
def test_the_sample_on_a_sqlite_database(tmp_path):
    """On PostgreSQL (CI): the sample above in a child pytest whose database is a SQLite file."""
    if os.environ.get("LINEUP_CRASHPOINTS", "").strip():
        pytest.skip("LINEUP_CRASHPOINTS is set: bench.crashpoints --engine sqlite runs the selection")
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'lineup.sqlite3'}",
        "LINEUP_CRASH_SEED": str(run_seed()),
    }
    child = subprocess.run(
        [
            PYTHON,
            "-m",
            "pytest",
            f"{__file__}::test_a_sample_of_crash_points_on_sqlite_keeps_every_promise",
            "-q",
            "-s",
            "-p",
            "no:cacheprovider",
            f"--basetemp={tmp_path / 'child'}",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=CHILD_TIMEOUT,
        check=False,
    )
    print(child.stdout[-6000:])
    assert child.returncode == 0, f"the SQLite sample failed:\n{child.stdout[-12000:]}\n{child.stderr[-3000:]}"
    assert re.search(r"^1 passed", child.stdout, re.MULTILINE), (
        f"the SQLite sample did not run:\n{child.stdout[-3000:]}"
    )
