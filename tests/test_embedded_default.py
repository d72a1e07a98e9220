"""The embedded default: with nothing configured LineUp boots on SQLite and settles deadlines itself.

Runs the product the way the README does (``manage.py run_embedded`` in a clean environment: no
DATABASE_URL, no REDIS_URL), then starts a 2-second focus from another process and watches the
in-process scheduler settle it.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.support.processes import free_port, port_open

ROOT = Path(__file__).resolve().parent.parent

START_FOCUS = """
from django.contrib.auth.models import User
from django.utils import timezone
from runtime.services.conversations import conversation_get_or_create_default
from runtime.inventory import inventory_for_scope
from runtime.tool_router import Caller, route_tool_call
user = User.objects.get(username="lineup")
conversation = conversation_get_or_create_default(user=user)
outcome = route_tool_call(
    caller=Caller(label="agent:embedded-test", user_id=user.id),
    conversation_id=str(conversation.id),
    source_tool_call_id="embedded-1",
    tool="pomodoro.start",
    arguments={"duration_seconds": 2, "activity": "reading"},
    inventory_revision=inventory_for_scope(conversation.scope).revision,
    now=timezone.now(),
)
print("OPERATION", outcome.operation_id)
"""


def _clean_env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG", "TMPDIR"}}
    env.update(LINEUP_DATA_DIR=str(data_dir), LINEUP_LOG_FORMAT="json", LINEUP_LOG_LEVEL="INFO")
    return env


def _poll(predicate, *, timeout: float, interval: float = 0.1, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def _http_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1) as response:
            return response.status == 200
    except OSError:
        return False


def _manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def _parse(ts: str) -> datetime:
    # Django stores SQLite datetimes as "YYYY-MM-DD HH:MM:SS[.ffffff]" in UTC.
    return datetime.fromisoformat(ts).replace(tzinfo=UTC)


@pytest.mark.spec("R-4.2.3", "R-4.4.1")
def test_embedded_default_boots_with_nothing_set_and_settles_a_2_second_focus(tmp_path):
    """check, migrate, serve, and the in-process scheduler completes a focus at its ends_at."""
    env = _clean_env(tmp_path)
    check = _manage("check", env=env)
    assert check.returncode == 0, check.stderr
    migrate = _manage("migrate", "--noinput", env=env)
    assert migrate.returncode == 0, migrate.stderr
    assert (tmp_path / "db.sqlite3").exists()

    port = free_port()
    out = (tmp_path / "server.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "manage.py", "run_embedded", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=out,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        _poll(lambda: _http_ok(f"http://127.0.0.1:{port}/admin/login/"), timeout=30, what="the embedded server")
        banner = (tmp_path / "server.log").read_text()
        assert f"http://127.0.0.1:{port}/" in banner
        login = json.loads((tmp_path / "login.json").read_text())
        assert f"login:     {login['username']}" in banner and login["password"] in banner
        assert "the built-in reference Agent answers in the IM" in banner

        started = _manage("shell", "-c", START_FOCUS, env=env)
        assert started.returncode == 0, started.stderr
        operation_id = started.stdout.split("OPERATION", 1)[1].split()[0].replace("-", "")

        db = sqlite3.connect(tmp_path / "db.sqlite3", timeout=10)

        def settled_row():
            return db.execute(
                "SELECT state, ends_at, ended_at, settled_at FROM runtime_operation WHERE id = ?", (operation_id,)
            ).fetchone()

        row = _poll(
            lambda: (r := settled_row()) and r[0] in ("completed", "interrupted") and r, timeout=15, what="settlement"
        )
        state, ends_at, ended_at, settled_at = row
        assert state == "completed"
        assert _parse(ended_at) == _parse(ends_at)
        lag = (_parse(settled_at) - _parse(ends_at)).total_seconds()
        assert 0 <= lag < 1.5, f"settled {lag:.3f}s after ends_at"
        assert db.execute("SELECT COUNT(*) FROM runtime_outboxentry").fetchone()[0] == 1
        (trigger,) = db.execute(
            "SELECT json_extract(data, '$.trigger') FROM runtime_lifecycleevent WHERE kind = 'operation.completed'"
        ).fetchone()
        assert trigger == "deadline"
        db.close()

        def completed_logged():
            for line in (tmp_path / "server.log").read_text().splitlines():
                if line.startswith("{") and json.loads(line).get("event") == "operation.completed":
                    return json.loads(line)
            return None

        logged = _poll(completed_logged, timeout=5, what="the operation.completed log line")
        assert logged["operation_id"].replace("-", "") == operation_id
    finally:
        server.terminate()
        server.wait(timeout=10)
        out.close()


def _serve(data_dir: Path, *args: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen, int, Path]:
    port = free_port()
    log = data_dir / f"server-{port}.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [sys.executable, "manage.py", "run_embedded", "--port", str(port), *args],
            cwd=ROOT,
            env=env or _clean_env(data_dir),
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
        )
    _poll(lambda: port_open(port), timeout=30, what="the embedded server")
    return server, port, log


def _stop(server: subprocess.Popen) -> None:
    server.terminate()
    server.wait(timeout=10)


@pytest.mark.spec("R-4.2.3")
@pytest.mark.spec("R-4.2.3")
def test_the_banner_says_when_the_built_in_agent_is_turned_off(tmp_path):
    """An empty LINEUP_REFERENCE_AGENT_URL turns the built-in Agent off: the banner says so instead of
    promising an answer in the IM."""
    server, _port, log = _serve(tmp_path, env={**_clean_env(tmp_path), "LINEUP_REFERENCE_AGENT_URL": ""})
    try:
        banner = log.read_text()
        assert "the built-in reference Agent is off" in banner
        assert "answers in the IM" not in banner
    finally:
        _stop(server)


def test_embedded_default_runs_without_debug_and_with_its_own_persistent_key(tmp_path):
    """Nothing configured: DEBUG is off (a 404 names no URL pattern, static files are still served),
    the SECRET_KEY is this install's own (made once in var/secret_key, readable only by its owner,
    not another install's), and a session signed in before a restart is still signed in after it —
    also behind a TLS proxy (LINEUP_BEHIND_TLS_PROXY), which adds HSTS and redirects plain HTTP.
    ``--debug`` turns the debug pages on."""
    import httpx2

    server, port, _log = _serve(tmp_path)
    base = f"http://127.0.0.1:{port}"
    try:
        missing = httpx2.get(f"{base}/no-such-page/", timeout=5)
        assert missing.status_code == 404
        assert "URLconf" not in missing.text and "accounts/login/" not in missing.text
        assert httpx2.get(f"{base}/static/workspace/lineup.css", timeout=5).status_code == 200

        key_file = tmp_path / "secret_key"
        key = key_file.read_text().strip()
        assert len(key) >= 50 and key_file.stat().st_mode & 0o077 == 0
        login = json.loads((tmp_path / "login.json").read_text())
        client = httpx2.Client(base_url=base, timeout=5)
        form = client.get("/accounts/login/")
        signed_in = client.post(
            "/accounts/login/",
            data={**login, "csrfmiddlewaretoken": form.cookies["csrftoken"]},
            headers={"Referer": f"{base}/accounts/login/"},
        )
        assert (signed_in.status_code, signed_in.headers["location"]) == (302, "/workspace/")
        assert client.get("/workspace/").status_code == 200
    finally:
        _stop(server)

    other = tmp_path / "another-install"
    assert _manage("check", env=_clean_env(other)).returncode == 0
    assert (other / "secret_key").read_text().strip() != key

    proxied = {**_clean_env(tmp_path), "LINEUP_BEHIND_TLS_PROXY": "1"}
    server, port, _log = _serve(tmp_path, env=proxied)
    try:
        client.base_url = httpx2.URL(f"http://127.0.0.1:{port}")
        workspace = client.get("/workspace/", headers={"X-Forwarded-Proto": "https"})
        assert workspace.status_code == 200, "the session signed with the same key survived the restart"
        assert workspace.headers["strict-transport-security"] == "max-age=31536000; includeSubDomains; preload"
        plain = client.get("/workspace/")
        assert (plain.status_code, plain.headers["location"]) == (301, f"https://127.0.0.1:{port}/workspace/")
        assert key_file.read_text().strip() == key
    finally:
        _stop(server)

    server, port, log = _serve(tmp_path, "--debug")
    try:
        assert "URLconf" in httpx2.get(f"http://127.0.0.1:{port}/no-such-page/", timeout=5).text
        assert "debug:     on" in log.read_text()
    finally:
        _stop(server)


PRODUCTION = {
    "DATABASE_URL": "postgres://lineup@db.internal:5432/lineup",
    "LINEUP_SECRET_KEY": "a-production-key-of-sixty-characters-0123456789-abcdefghijkl",
}


@pytest.mark.spec("R-4.2.3")
def test_check_deploy_is_clean_when_served_over_https(tmp_path):
    """``manage.py check --deploy`` finds nothing with LINEUP_HTTPS or behind a TLS proxy, in the
    embedded default and with a production database; without either it names what HTTPS fixes."""
    for configuration in ({"LINEUP_HTTPS": "1"}, {"LINEUP_BEHIND_TLS_PROXY": "1"}, {"LINEUP_HTTPS": "1", **PRODUCTION}):
        checked = _manage("check", "--deploy", env={**_clean_env(tmp_path), **configuration})
        assert checked.returncode == 0, checked.stderr
        assert "System check identified no issues (0 silenced)." in checked.stdout, (configuration, checked.stderr)
    over_http = _manage("check", "--deploy", env={**_clean_env(tmp_path), **PRODUCTION})
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in over_http.stderr, over_http.stderr


def test_a_command_without_database_url_on_an_empty_database_says_so(tmp_path):
    """An operator's ``manage.py recover_runtime`` without the environment file: the embedded default's
    SQLite has no tables, and the error says that DATABASE_URL is unset and how to load it (issue 41);
    no traceback."""
    done = _manage("recover_runtime", env=_clean_env(tmp_path))
    assert done.returncode == 1
    assert "no such table" in done.stderr and "DATABASE_URL is not set" in done.stderr, done.stderr
    assert str(tmp_path / "db.sqlite3") in done.stderr and ". /etc/lineup/lineup.env" in done.stderr
    assert "Traceback" not in done.stderr
