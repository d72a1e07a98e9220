"""docs/operations/backup.sh backs up with a password-protected role, writes 0600, and restores.

A PostgreSQL cluster of the test's own whose ``lineup`` role needs its password over TCP (scram), as on
a production host: the script finds it in ``~/.pgpass`` through the service in ``~/.pg_service.conf``
(docs/operations.md § 8). Without the password it fails and leaves no file. The restore drill of § 8
runs on the dump (100 000 events, a migrated schema) and must give back every row.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from tests.support.processes import PYTHON, ROOT, PostgresCluster

pytestmark = pytest.mark.postgres(reason="pg_dump and pg_restore of a PostgreSQL cluster")

SCRIPT = ROOT / "docs" / "operations" / "backup.sh"
PASSWORD = "s3cret-for-the-backup-test"  # a throwaway cluster's
EVENTS = 100_000


def _psql(cluster: PostgresCluster, sql: str, database: str = "postgres") -> str:
    return cluster._run(
        "psql", "-h", "127.0.0.1", "-p", str(cluster.port), "-U", "postgres", "-d", database, "-tA", "-c", sql
    )


@pytest.fixture
def cluster(tmp_path):
    cluster = PostgresCluster.create(tmp_path)
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.destroy()


def test_backup_with_a_password_writes_0600_and_restores(cluster, tmp_path) -> None:
    _psql(cluster, f"CREATE ROLE lineup LOGIN PASSWORD '{PASSWORD}'")
    _psql(cluster, "CREATE DATABASE lineup OWNER lineup")
    env = {k: v for k, v in os.environ.items() if k in {"PATH", "LANG"}}
    env["DATABASE_URL"] = f"postgres://lineup:{PASSWORD}@127.0.0.1:{cluster.port}/lineup"
    env["LINEUP_SECRET_KEY"] = "backup-test-" + "0123456789abcdef" * 4  # start-up refuses a short key
    migrated = subprocess.run(
        [PYTHON, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert migrated.returncode == 0, migrated.stderr
    _psql(
        cluster,
        "INSERT INTO runtime_lifecycleevent (at, kind, source_tool_call_id, data) "
        f"SELECT now() - g * interval '1 minute', 'operation.started', '', jsonb_build_object('n', g) "
        f"FROM generate_series(1, {EVENTS}) g",
        "lineup",
    )
    # From now on the role's password is needed over TCP (the postgres superuser stays trusted for setup).
    hba = cluster.data_dir / "pg_hba.conf"
    hba.write_text(
        "local all all trust\nhost all postgres 127.0.0.1/32 trust\nhost all all 127.0.0.1/32 scram-sha-256\n"
    )
    cluster._run("pg_ctl", "-D", str(cluster.data_dir), "reload")

    home = tmp_path / "home"
    home.mkdir()
    (home / ".pg_service.conf").write_text(
        f"[lineup]\nhost=127.0.0.1\nport={cluster.port}\ndbname=lineup\nuser=lineup\n"
    )
    backups = tmp_path / "backups"
    run_env = {"PATH": f"{cluster.bin_dir}:{os.environ['PATH']}", "HOME": str(home), "LANG": "C.UTF-8"}

    def backup() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", str(SCRIPT), str(backups)], env=run_env, capture_output=True, text=True, timeout=300
        )

    refused = backup()  # no ~/.pgpass yet: the password is really asked for
    assert refused.returncode != 0 and "password" in refused.stderr, refused.stderr
    assert list(backups.iterdir()) == []

    pgpass = home / ".pgpass"
    pgpass.write_text(f"127.0.0.1:{cluster.port}:*:lineup:{PASSWORD}\n")
    pgpass.chmod(0o600)
    began = time.monotonic()
    done = backup()
    dumped = time.monotonic() - began
    assert done.returncode == 0, done.stderr
    dump = Path(done.stdout.strip())
    assert [p.name for p in backups.iterdir()] == [dump.name] and dump.name.endswith(".dump")
    assert dump.stat().st_mode & 0o777 == 0o600
    assert backups.stat().st_mode & 0o077 == 0

    # The drill (§ 8): a new database, the dump restored as the lineup role.
    _psql(cluster, "CREATE DATABASE lineup_restored OWNER lineup")
    began = time.monotonic()
    restored = subprocess.run(
        ["pg_restore", "--no-owner", "--role=lineup", "--no-password", "--exit-on-error",
         "--dbname=service=lineup dbname=lineup_restored", str(dump)],
        env=run_env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    took = time.monotonic() - began
    assert restored.returncode == 0, restored.stderr
    count = "SELECT count(*) FROM runtime_lifecycleevent"
    assert _psql(cluster, count, "lineup_restored").strip() == str(EVENTS)
    tables = "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
    assert _psql(cluster, tables, "lineup_restored") == _psql(cluster, tables, "lineup")
    print(f"\nbackup of {EVENTS} events: dump {dumped:.2f}s ({dump.stat().st_size} bytes), restore {took:.2f}s")
