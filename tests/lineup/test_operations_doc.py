"""docs/operations.md's processes start as written: the systemd units' own ``ExecStart`` lines.

Only what this machine can not have is replaced: the install paths (``/opt/lineup/venv/bin/python``
is the test's Python, ``/opt/lineup/app`` this checkout, ``/var/lib/lineup`` a directory standing in
for the beat unit's ``StateDirectory=``), the port of the templated Daphne (``%i``), the queue
(the test's own), and the built-in Agent's URLs of two Daphnes (both the test's one).
With them running, a one-second focus started by an Agent is settled by the worker, whose log
then has the decision line at INFO (LineUp's logging, not Celery's ``-l`` default), and none of the
beat sweep's bookkeeping; Daphne logs JSON access lines and no plain-text ones.
"""

from __future__ import annotations

import json
import re
import shlex
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from tests.support.live import Agent
from tests.support.processes import (
    BEAT_READY,
    PYTHON,
    ROOT,
    WORKER_READY,
    free_port,
    lineup_env,
    manage_py_argv,
    purge_celery_queue,
    supervised_processes,
    wait_for,
)

pytestmark = [pytest.mark.celery, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

UNITS = ROOT / "docs" / "operations" / "systemd"


def unit(name: str) -> dict[str, str]:
    """The ``Key=value`` lines of a unit file (comments and sections left out)."""
    lines = (UNITS / name).read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if "=" in line and not line.startswith("#"))


def exec_start(name: str, *, state: Path, port: int, queue: str, agent_port: int = 0) -> list[str]:
    command = unit(name)["ExecStart"]
    command = command.replace("/opt/lineup/venv/bin/python", PYTHON).replace("/var/lib/lineup", str(state))
    command = command.replace("%i", str(port))
    for daphne in ("8001", "8002"):  # the agent's one URL per Daphne: here the test's one Daphne
        command = command.replace(f"ws://127.0.0.1:{daphne}/", f"ws://127.0.0.1:{agent_port}/")
    argv = shlex.split(command)
    if "-Q" in argv:
        argv[argv.index("-Q") + 1] = queue
    return argv


def test_every_unit_runs_as_lineup_restarts_and_has_the_documented_command():
    documented = (ROOT / "docs" / "operations.md").read_text()
    for name in ("lineup-daphne@.service", "lineup-worker.service", "lineup-beat.service", "lineup-agent.service"):
        fields = unit(name)
        assert (fields["User"], fields["Restart"], fields["WorkingDirectory"]) == (
            "lineup",
            "always",
            "/opt/lineup/app",
        )
        assert fields["EnvironmentFile"] == "/etc/lineup/lineup.env"
        assert f"operations/systemd/{name}" in documented
    assert "-l INFO" in unit("lineup-worker.service")["ExecStart"]
    beat = unit("lineup-beat.service")
    assert beat["StateDirectory"] == "lineup" and "-s /var/lib/lineup/" in beat["ExecStart"]


def test_the_documented_processes_start_and_settle_a_focus(request, tmp_path, live_server_env):
    env, queue = live_server_env
    state = tmp_path / "state"
    state.mkdir()  # what StateDirectory=lineup makes before the beat unit starts
    port = free_port()
    get_user_model().objects.create_user(username="ada", password="pw-ada-123")
    with supervised_processes(request, tmp_path) as processes:
        daphne = processes.start(
            "daphne", exec_start("lineup-daphne@.service", state=state, port=port, queue=queue), env=env
        )
        wait_for(lambda: _status(port, "/readyz") == 200, timeout=60, what="Daphne ready", describe=processes.describe)
        worker = processes.start(
            "worker",
            exec_start("lineup-worker.service", state=state, port=port, queue=queue),
            env=env,
            ready=WORKER_READY,
        )
        beat = processes.start(
            "beat", exec_start("lineup-beat.service", state=state, port=port, queue=queue), env=env, ready=BEAT_READY
        )
        processes.start(
            "agent",
            exec_start("lineup-agent.service", state=state, port=port, queue=queue, agent_port=port),
            env=env,
            ready=re.compile(r"reference_agent\.supervisor_started"),
        )
        token = processes.run("token", manage_py_argv("create_agent_token", "doc-test", "--user", "ada"), env=env)
        agent = Agent(f"ws://127.0.0.1:{port}/ws/agent/", token.strip().splitlines()[-1])
        assert agent.call("pomodoro.start", duration_seconds=1)["type"] == "tool.accepted"
        assert agent.wait_for_result()["result"]["state"] == "completed"

        worker.wait_for_log(r'"event": "operation\.completed"')  # LineUp's INFO line, through Celery
        assert any(
            e.get("event") == "operation.completed" and e.get("lag_ms") is not None
            for e in _json_lines(worker.log_text())
        )
        # Two sweeps at least have run by now (every 2 s): none of them is in any log at INFO.
        wait_for(
            lambda: "beat-schedule" in " ".join(p.name for p in state.iterdir()), timeout=10, what="the schedule file"
        )
        for process in (worker, beat):
            assert not [e for e in _json_lines(process.log_text()) if "sweep_due" in json.dumps(e)], process.log_text()
            # --quiet: no plain-text start-up banner before the JSON lines (a log shipper parses every line).
            # (Only Celery's warning about running as root may precede them: the units run as lineup.)
            assert "[queues]" not in process.log_text() and "LocalTime ->" not in process.log_text()
        assert beat.log_text().splitlines()[0].startswith("{"), beat.log_text()
        assert _status(port, "/accounts/login/") == 200

        def logged() -> bool:  # the access line is written once the response is sent
            access = [e for e in _json_lines(daphne.log_text()) if e.get("event") == "http.access"]
            return any(e["path"] == "/accounts/login/" and e["status"] == 200 for e in access)

        wait_for(logged, timeout=10, what="the http.access line", describe=processes.describe)
        assert not re.search(r'"GET /accounts/login/ HTTP', daphne.log_text())  # no plain NCSA line

        # The request id: nginx's (X-Request-Id, docs/operations/nginx.conf) on the access line and sent back;
        # a new one when the header is missing or not a plain token.
        for sent, expected in (
            ("0f3c9a7be2d14c55a1b2c3d4e5f60718", "0f3c9a7be2d14c55a1b2c3d4e5f60718"),
            ("<script> x", None),
        ):
            asked = urllib.request.Request(
                f"http://127.0.0.1:{port}/accounts/login/?rid", headers={"X-Request-Id": sent}
            )
            with urllib.request.urlopen(asked, timeout=5) as response:
                answered = response.headers["X-Request-Id"]
            assert answered == expected if expected else re.fullmatch(r"[0-9a-f]{32}", answered), answered

            def access_line(rid: str = answered) -> dict | None:
                lines = [e for e in _json_lines(daphne.log_text()) if e.get("event") == "http.access"]
                return next((e for e in lines if e.get("request_id") == rid), None)

            line = wait_for(access_line, timeout=10, what="the access line with its request id")
            assert line["path"] == "/accounts/login/" and line["status"] == 200


@pytest.fixture
def live_server_env(django_db_setup, tmp_path) -> tuple[dict[str, str], str]:
    env = lineup_env(
        LINEUP_LOG_FORMAT="json", LINEUP_METRICS_DIR=str(tmp_path / "metrics"), LINEUP_REFERENCE_AGENT_URL=""
    )
    queue = env["LINEUP_CELERY_QUEUE"]
    purge_celery_queue(queue)
    return env, queue


def _status(port: int, path: str) -> int | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return None


def _json_lines(text: str) -> list[dict]:
    found = []
    for line in text.splitlines():
        if line.startswith("{"):
            try:
                found.append(json.loads(line))
            except ValueError:
                continue
    return found
