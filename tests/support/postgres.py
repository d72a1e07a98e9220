"""A PostgreSQL cluster of a test's own, which it may restart: the suite's shared server must stay up.

``initdb`` into a temporary directory, ``pg_ctl`` on a free loopback port, trust authentication,
no durability (``fsync=off``: nothing here must survive a power cut, only a server restart).
As root (containers, CI) the server runs as the ``postgres`` system user, as ``initdb`` refuses root.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.support.processes import free_port, port_open, wait_for


def _postgres_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}")) or [shutil.which(name) or ""]
    if not found[-1]:
        pytest.fail(f"{name} not found: install PostgreSQL's server package", pytrace=False)
    return found[-1]


class PrivatePostgres:
    """One cluster in a new temporary directory; ``url()`` for a database in it, ``restart()`` under its clients."""

    def __init__(self) -> None:
        # Not under pytest's tmp_path: its parents are private to root, and the server runs as postgres.
        self.directory = Path(tempfile.mkdtemp(prefix="lineup-pg-"))
        self.data = self.directory / "data"
        self.log = self.directory / "postgres.log"
        self.port = free_port()
        self._as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def _run(self, *argv: str) -> None:
        done = subprocess.run([*self._as_postgres, *argv], capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            pytest.fail(f"{' '.join(argv)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}", pytrace=False)

    def init(self) -> PrivatePostgres:
        if self._as_postgres:
            shutil.chown(self.directory, "postgres", "postgres")
        self._run(_postgres_bin("initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync")
        return self

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.directory} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c log_connections=on"
        )
        self._run(_postgres_bin("pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")
        wait_for(lambda: port_open(self.port), timeout=30, what="the private PostgreSQL to listen")

    def restart(self) -> None:
        """Fast shutdown (every client connection is terminated, transactions roll back) and start."""
        self._run(_postgres_bin("pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")
        self.start()

    def stop(self) -> None:
        """Stop the server and delete the cluster."""
        if (self.data / "postmaster.pid").exists():
            self._run(_postgres_bin("pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.directory, ignore_errors=True)

    def create_database(self, name: str) -> str:
        self._run(_postgres_bin("createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)
        return self.url(name)

    def url(self, name: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def connections_authorized(self, database: str) -> int:
        """How many client connections to ``database`` the server has accepted so far (its log)."""
        pattern = re.compile(rf"connection authorized: user=\S+ database={re.escape(database)}\b")
        return len(pattern.findall(self.log.read_text(errors="replace")))
