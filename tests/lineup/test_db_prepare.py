"""Prepared statements on PostgreSQL (``LINEUP_DB_PREPARE``, decision 0038): on by default with a
PostgreSQL ``DATABASE_URL``, off with ``LINEUP_DB_PREPARE=0`` or any other engine, and a statement
run often enough on one connection is really prepared on the server."""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from django.db import connection

from tests.support.processes import PYTHON, ROOT

pytestmark = pytest.mark.spec("R-2.2.8")

POSTGRES = "postgres://postgres@127.0.0.1:5432/never_connected"
PRINT_OPTIONS = "import json, lineup.settings as s; print(json.dumps(s.DATABASES['default'].get('OPTIONS', {})))"


def database_options(database_url: str, prepare: str | None) -> dict:
    """The default database's OPTIONS as a fresh process reads them from this environment."""
    env = {key: value for key, value in os.environ.items() if key != "LINEUP_DB_PREPARE"}
    env.update(
        DATABASE_URL=database_url, LINEUP_SECRET_KEY="lineup-test-suite-only-not-a-secret-0123456789abcdefghijklmnop"
    )
    if prepare is not None:
        env["LINEUP_DB_PREPARE"] = prepare
    completed = subprocess.run(
        [PYTHON, "-c", PRINT_OPTIONS], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=True
    )
    return json.loads(completed.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    ("database_url", "prepare", "expected"),
    [
        (POSTGRES, None, {"server_side_binding": True, "prepare_threshold": 5}),
        (POSTGRES, "12", {"server_side_binding": True, "prepare_threshold": 12}),
        (POSTGRES, "0", {}),
        ("sqlite:////tmp/lineup-never-opened.db", None, {}),  # psycopg's options would break sqlite3.connect
    ],
)
def test_prepared_statements_are_the_postgresql_default_and_zero_turns_them_off(database_url, prepare, expected):
    options = database_options(database_url, prepare)

    assert {key: options[key] for key in ("server_side_binding", "prepare_threshold") if key in options} == expected


@pytest.mark.django_db
@pytest.mark.postgres
def test_a_statement_run_often_on_one_connection_is_prepared_on_the_server(settings):
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    threshold = settings.DATABASES["default"].get("OPTIONS", {}).get("prepare_threshold")
    if not threshold:
        pytest.skip("LINEUP_DB_PREPARE=0 in this run")
    marker = "SELECT %s::int AS lineup_prepare_probe"

    with connection.cursor() as cursor:
        for number in range(threshold + 1):
            cursor.execute(marker, [number])
            assert cursor.fetchone() == (number,)
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s", ["%lineup_prepare_probe%"]
        )
        (prepared,) = cursor.fetchone()

    assert prepared == 1
