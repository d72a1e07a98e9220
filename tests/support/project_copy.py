"""A fresh copy of the project, as a new MiniApp author gets it, and its embedded server.

``copy_project`` copies the repository's files (no history, no local data, no caches) into a
directory of the test's; ``manage`` runs ``manage.py`` there with only what a fresh shell has
(``project_env``: SQLite in the test's data directory, no PostgreSQL or Redis of the suite's);
``EmbeddedServer`` boots ``manage.py run_embedded`` on a free port and waits for it (it migrates the
copy's database itself, then runs the in-process deadline scheduler and the in-memory channel layer), and ``issue_agent_token`` gives an Agent token
with its MCP URL and conversation. ``copy_with_new_miniapp`` makes a copy with one app from
``startminiapp`` (and checks no Agent code changed), ``WorkspacePage`` is the person's signed-in page
on its ``/ws/workspace/`` socket, saying words and reading the Agent's answers from the copy's
database. Used by ``tests/lineup/test_startminiapp.py``, ``tests/lineup/test_new_miniapp_author.py``
and ``tests/agents/llm/test_new_miniapp.py``.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TypeVar

import httpx2
from websockets.sync.client import ClientConnection, connect

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


def copy_with_new_miniapp(tmp_path: Path, name: str) -> tuple[Path, dict[str, str]]:
    """A fresh copy at ``tmp_path/project`` with ``manage.py startminiapp NAME`` run, and its environment.

    The Agents must learn the new app without their code being edited: the copy's ``agents/`` is
    checked to be the repository's, byte for byte.
    """
    project = copy_project(tmp_path / "project")
    env = project_env(tmp_path / "data")
    manage(project, "startminiapp", name, env=env)
    assert tree_digest(project / "agents") == tree_digest(ROOT / "agents"), "startminiapp edited an Agent"
    return project, env


class WorkspacePage:
    """The person's page on an embedded server: signed in with the embedded login, its
    ``/ws/workspace/`` socket open, the first conversation's id from ``hello``; the Agent's answers
    are read from the copy's SQLite database."""

    def __init__(self, server: EmbeddedServer) -> None:
        self.server = server
        self.database = server.data_dir / "db.sqlite3"
        self.socket: ClientConnection | None = None
        self.conversation_id = ""

    def __enter__(self) -> WorkspacePage:
        url = self.server.url
        with httpx2.Client(base_url=url, timeout=5) as client:
            form = client.get("/accounts/login/")
            signed_in = client.post(
                "/accounts/login/",
                data={**self.server.login(), "csrfmiddlewaretoken": form.cookies["csrftoken"]},
                headers={"Referer": f"{url}/accounts/login/"},
            )
            assert signed_in.status_code == 302, signed_in.text[:500]
            cookie = "; ".join(f"{name}={value}" for name, value in client.cookies.items())
        self.socket = connect(
            f"ws://127.0.0.1:{self.server.port}/ws/workspace/",
            additional_headers={"Origin": url, "Cookie": cookie},
            open_timeout=10,
        )
        self.conversation_id = self.frame("hello")["conversations"][0]
        return self

    def __exit__(self, *exc: object) -> None:
        if self.socket is not None:
            self.socket.close()

    def frame(self, kind: str, timeout: float = 15) -> dict[str, Any]:
        """The next frame of ``kind`` on the socket (events in between are the page's, not ours)."""
        assert self.socket is not None
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            frame = json.loads(self.socket.recv(timeout=left))
            if frame.get("type") == kind:
                return frame
            assert frame.get("type") != "error", f"the page's socket refused a frame: {frame}"
        raise AssertionError(f"no {kind!r} frame within {timeout}s")

    def rows(self, sql: str) -> list[tuple[Any, ...]]:
        with sqlite3.connect(self.database, timeout=10) as db:
            return db.execute(sql).fetchall()

    def agent_messages(self) -> list[tuple[str, str | None]]:
        """(text, app_session_id) of the Agent's messages, oldest first."""
        return self.rows(  # type: ignore[return-value]
            "SELECT text, app_session_id FROM interact_message WHERE author_kind = 'agent' ORDER BY created_at, id"
        )

    def say(
        self, words: str, language: str, answered: Callable[[str], bool], *, timeout: float = 30
    ) -> tuple[str, str | None]:
        """Send ``words`` as the person, and wait for the Agent's first new message ``answered`` accepts:
        its (text, app_session_id)."""
        assert self.socket is not None
        before = len(self.agent_messages())
        message = {"type": "message.send", "conversation_id": self.conversation_id, "text": words}
        self.socket.send(json.dumps({**message, "language": language}))
        self.frame("ok")
        return poll(
            lambda: next((m for m in self.agent_messages()[before:] if answered(m[0])), None),
            timeout=timeout,
            what=f"the Agent's answer to {words!r}: {self.agent_messages()[before:]}\n{self.server.log_tail()}",
        )
