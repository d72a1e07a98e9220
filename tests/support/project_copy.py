"""A fresh copy of the project, as a new MiniApp author gets it, and its embedded server.

``copy_project`` copies the repository's files (no history, no local data, no caches) into a
directory of the test's; ``manage`` runs ``manage.py`` there with only what a fresh shell has
(``project_env``: SQLite in the test's data directory, no PostgreSQL or Redis of the suite's);
``EmbeddedServer`` boots ``manage.py run_embedded`` on a free port and waits for it (it migrates the
copy's database itself, then runs the in-process deadline scheduler and the in-memory channel layer), and ``issue_agent_token`` gives an Agent token
with its MCP URL and conversation. Used by ``tests/lineup/test_startminiapp.py`` and
``tests/lineup/test_new_miniapp_author.py``, each booting one copy and one server per module.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TypeVar

from tests.support.processes import ROOT, free_port

T = TypeVar("T")

# What a fresh clone would not have: history, local data, caches, installed node modules.
NOT_COPIED = shutil.ignore_patterns(
    ".git", "var", "node_modules", "__pycache__", ".venv", "*.sqlite3", ".pytest_cache", ".hypothesis", ".ruff_cache"
)


def copy_project(target: Path) -> Path:
    """The repository's files at ``target`` (which must not exist), as a fresh clone has them."""
    shutil.copytree(ROOT, target, ignore=NOT_COPIED)
    return target


def project_env(data_dir: Path) -> dict[str, str]:
    """What a fresh shell has, plus the copy's own data directory (its SQLite database and login)."""
    env = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG", "TMPDIR"}}
    env.update(LINEUP_DATA_DIR=str(data_dir), LINEUP_LOG_FORMAT="json", LINEUP_LOG_LEVEL="WARNING")
    return env


def manage(project: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``python manage.py ARGS`` in the copy; fails the test (with its stderr) when it fails."""
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=project, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr[-4000:]
    return result


def poll(predicate: Callable[[], T], *, timeout: float, what: str) -> T:
    """``predicate()`` once it is truthy; fails after ``timeout`` seconds naming ``what``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def http_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1) as response:
            return response.status == 200
    except OSError:
        return False


def tree_digest(root: Path) -> dict[str, str]:
    """Every file under ``root`` (caches aside) with its SHA-256: equal digests, untouched trees."""
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


@dataclass
class AgentAccess:
    """An Agent token of the embedded login's, with its MCP URL and its conversation."""

    token: str
    mcp_url: str
    conversation_id: str


@dataclass
class EmbeddedServer:
    """``manage.py run_embedded`` of a project copy on a free loopback port."""

    project: Path
    env: dict[str, str]
    log_path: Path
    port: int = 0
    process: subprocess.Popen[bytes] | None = None
    _log: IO[str] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def data_dir(self) -> Path:
        return Path(self.env["LINEUP_DATA_DIR"])

    def login(self) -> dict[str, str]:
        """The embedded login (``username``, ``password``) the first start wrote."""
        return json.loads((self.data_dir / "login.json").read_text("utf-8"))

    def start(self) -> EmbeddedServer:
        self.port = free_port()
        self._log = self.log_path.open("w")
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "run_embedded", "--port", str(self.port)],
            cwd=self.project,
            env=self.env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )

        def up() -> bool:
            assert self.process is not None and self.process.poll() is None, self.log_tail()
            return http_ok(f"{self.url}/admin/login/")

        poll(up, timeout=120, what="the embedded server (its migrations first)")
        return self

    def log_tail(self, characters: int = 4000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-characters:]
        except FileNotFoundError:
            return ""

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self._log is not None:
            self._log.close()

    def issue_agent_token(self, name: str) -> AgentAccess:
        """``manage.py create_agent_token NAME --user lineup``, its MCP URL pointed at this server."""
        issued = manage(self.project, "create_agent_token", name, "--user", "lineup", env=self.env)
        token = issued.stdout.strip().splitlines()[-1]
        mcp_url = next(line for line in issued.stderr.splitlines() if "MCP URL" in line).split(": ", 1)[1]
        mcp_url = mcp_url.replace("http://127.0.0.1:8000", self.url).strip()
        return AgentAccess(token=token, mcp_url=mcp_url, conversation_id=mcp_url.rstrip("/").rsplit("/", 1)[1])
