"""The production topology as real processes a crash test can SIGKILL and start again.

``CrashRig`` runs, under the test's ``ProcessSupervisor``:

* its **own** ``redis-server`` on a free port, with no persistence, so a restart loses every
  queued eta task, every channel-layer group and every hint in flight (the worst case; the shared
  Redis of the suite can not be restarted);
* one Daphne serving ``lineup.asgi:application`` with ``LINEUP_SCHEDULER=celery``: a start
  enqueues its eta task on commit, as in production;
* one Celery worker and the one beat (sweep every ``SWEEP_SECONDS``);

all on pytest-django's test database. Each role can be killed (SIGKILL of its process group) and
started again on the same port; every incarnation logs to its own file (``daphne-2.log``), so the
logs shown for a failed test tell the incarnations apart. ``start`` does not wait, so a test can
keep driving its Agent while a process comes up; ``wait_ready`` blocks.

``EmbeddedRig`` is the same for the embedded product on SQLite: one ``manage.py run_embedded``
process (Daphne, the in-memory channel layer and the in-process deadline scheduler in one) on the
test database's SQLite file plays Daphne, the worker and the beat. Both are a ``Rig``: what the
crash-point harness (tests/reliability/crashpoints.py) drives — start a role, kill it (the armed
crash), start it again, observe whether it is ready.
"""

from __future__ import annotations

import json
import os
import shutil
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import pytest
import redis
from django.conf import settings

from tests.support.processes import (
    BEAT_READY,
    PYTHON,
    WORKER_READY,
    ManagedProcess,
    ProcessSupervisor,
    celery_beat_argv,
    celery_worker_argv,
    free_port,
    lineup_env,
    manage_py_argv,
    port_open,
    subprocess_database_url,
    supervised_processes,
    wait_for,
)

ROLES = ("redis", "daphne", "worker", "beat")
SWEEP_SECONDS = "0.5"  # the beat's safety net: a lost eta task costs at most this much lateness
REDELIVERY_SECONDS = "1"
TEST_SECRET_KEY = "lineup-test-suite-only-not-a-secret-0123456789abcdefghijklmnop"  # an unacked tool.result is sent again on the same connection after this


class Rig(Protocol):
    """What the crash-point harness needs of a topology: roles it can start (armed or not: the
    environment is ``env`` at the call), SIGKILL and start again, and observe."""

    engine: str  # "postgresql" or "sqlite"
    roles: tuple[str, ...]  # every long-running role, in the order they are started
    env: dict[str, str]
    current: dict[str, ManagedProcess]
    down: set[str]
    daphne_port: int  # where the Agent and the page connect

    @property
    def agent_url(self) -> str: ...

    def start(self, role: str) -> ManagedProcess: ...

    def kill(self, role: str) -> None: ...

    def ready(self, role: str) -> bool: ...

    def wait_ready(self, *roles: str, timeout: float = 30.0) -> None: ...

    def recover_runtime(self) -> dict[str, Any]: ...

    def describe(self) -> str: ...


class SupervisedRoles:
    """What both rigs do the same way with their processes: kill a role, start again what exited by
    itself, wait until roles are ready, run the operator's recovery, describe the logs."""

    processes: ProcessSupervisor
    env: dict[str, str]
    current: dict[str, ManagedProcess]
    kills: Counter[str]
    self_exits: Counter[str]
    down: set[str]

    def start(self, role: str) -> ManagedProcess:
        raise NotImplementedError

    def ready(self, role: str) -> bool:
        raise NotImplementedError

    def kill(self, role: str) -> None:
        """SIGKILL the running incarnation of ``role``: no shutdown handler, no ack, no flush."""
        self.current[role].kill()
        self.kills[role] += 1
        self.down.add(role)

    def supervise(self) -> list[str]:
        """Start again every role whose process exited without being killed, as a process
        supervisor (systemd ``Restart=always``) does in production; return those roles.

        Nothing is expected to exit by itself (the worker used to, when Redis restarted under it:
        tests/reliability/test_worker_and_redis.py); the count of such exits is reported.
        """
        exited = [role for role, p in self.current.items() if role not in self.down and not p.alive]
        for role in exited:
            self.self_exits[role] += 1
            self.start(role)
        return exited

    def wait_ready(self, *roles: str, timeout: float = 30.0) -> None:
        wait_for(
            lambda: all(self.ready(role) for role in roles),
            timeout=timeout,
            what=f"{', '.join(roles)} to be ready",
            describe=self.processes.describe,
        )

    def recover_runtime(self) -> dict[str, Any]:
        """``manage.py recover_runtime --json`` as the operator runs it (on either engine); its summary."""
        n = sum(1 for p in self.processes.processes if p.name.startswith("recover_runtime"))
        out = self.processes.run(f"recover_runtime-{n + 1}", manage_py_argv("recover_runtime", "--json"), env=self.env)
        return json.loads(out.strip().splitlines()[-1])

    def describe(self) -> str:
        return self.processes.describe(60)


@dataclass
class CrashRig(SupervisedRoles):
    """Redis, Daphne, worker and beat of one test, each killable and restartable by role."""

    processes: ProcessSupervisor
    log_dir: Path
    redis_port: int
    daphne_port: int
    env: dict[str, str]
    current: dict[str, ManagedProcess] = field(default_factory=dict)
    incarnations: Counter[str] = field(default_factory=Counter)
    kills: Counter[str] = field(default_factory=Counter)
    self_exits: Counter[str] = field(default_factory=Counter)  # incarnations that died without a kill
    down: set[str] = field(default_factory=set)  # roles killed and not started again yet
    # More Daphne roles behind the same services (the soak runs two): role name -> port.
    more_daphnes: dict[str, int] = field(default_factory=dict)
    engine: str = "postgresql"
    roles: tuple[str, ...] = ROLES

    @property
    def agent_url(self) -> str:
        return f"ws://127.0.0.1:{self.daphne_port}/ws/agent/"

    def port_of(self, role: str) -> int:
        """The port a Daphne role (``daphne`` or one of ``more_daphnes``) listens on."""
        return self.more_daphnes.get(role, self.daphne_port)

    def _argv(self, role: str, incarnation: int) -> list[str]:
        if role == "redis":
            redis_server = shutil.which("redis-server") or "redis-server"
            port = ["--port", str(self.redis_port), "--bind", "127.0.0.1"]
            return [redis_server, *port, "--save", "", "--appendonly", "no", "--daemonize", "no"]
        if role == "daphne" or role in self.more_daphnes:
            return [PYTHON, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port_of(role)), "lineup.asgi:application"]
        if role == "worker":
            return celery_worker_argv(queue=self.env["LINEUP_CELERY_QUEUE"], node=f"crash{incarnation}@%h")
        if role == "beat":
            # One schedule file for every incarnation, as in production: a beat killed while writing
            # it must cope with what it left behind.
            return celery_beat_argv(schedule_file=self.log_dir / "beat-schedule")
        raise ValueError(role)

    def start(self, role: str) -> ManagedProcess:
        """Start a new incarnation of ``role`` (without waiting for it to be ready)."""
        self.incarnations[role] += 1
        argv = self._argv(role, self.incarnations[role])
        process = self.processes.start(f"{role}-{self.incarnations[role]}", argv, env=self.env)
        self.current[role] = process
        self.down.discard(role)
        return process

    def ready(self, role: str) -> bool:
        process = self.current[role]
        if not process.alive:
            return False  # (supervise() starts it again; wait_ready's timeout shows its log)
        if role == "redis":
            return port_open(self.redis_port)
        if role == "daphne" or role in self.more_daphnes:
            return port_open(self.port_of(role))
        return (WORKER_READY if role == "worker" else BEAT_READY).search(process.log_text()) is not None

    def redis_client(self) -> redis.Redis:
        """A client of this rig's Redis (for faults a kill can not make, e.g. a full Redis)."""
        return redis.Redis(host="127.0.0.1", port=self.redis_port, socket_timeout=5)


@pytest.fixture
def crash_rig(request, transactional_db, tmp_path) -> Iterator[CrashRig]:
    """Every role started and ready; all of it SIGKILLed when the test ends (before the tables
    are flushed: the fixture needs ``transactional_db`` first, so it is torn down after)."""
    if shutil.which("redis-server") is None:
        pytest.fail("the crash tests start their own redis-server: install Redis (apt redis-server)", pytrace=False)
    redis_port = free_port()
    env = lineup_env(
        REDIS_URL=f"redis://127.0.0.1:{redis_port}/0",
        LINEUP_SCHEDULER="celery",
        LINEUP_CELERY_QUEUE=settings.CELERY_TASK_DEFAULT_QUEUE,
        LINEUP_SWEEP_SECONDS=SWEEP_SECONDS,
        LINEUP_OUTBOX_REDELIVERY_SECONDS=REDELIVERY_SECONDS,
        LINEUP_LOG_FORMAT="json",
        LINEUP_REFERENCE_AGENT_URL="",
        LINEUP_CRASH_APP="1",  # the instance calls no bundled app publishes (tests/reliability/crash_app)
    )
    with supervised_processes(request, tmp_path) as processes:
        rig = CrashRig(processes=processes, log_dir=tmp_path, redis_port=redis_port, daphne_port=free_port(), env=env)
        for role in ROLES:
            rig.start(role)
        rig.wait_ready(*ROLES)
        yield rig


EMBEDDED_ROLES = ("server",)


@dataclass
class EmbeddedRig(SupervisedRoles):
    """The embedded product (``manage.py run_embedded``: SQLite, the in-memory channel layer, the
    in-process deadline scheduler) on the test database's SQLite file: one role, ``server``, which
    is Daphne, worker and beat at once. Killed, everything it held in memory is lost (the channel
    layer's groups, the scheduler's wake-ups); started again, its scheduler's first pass recovers
    from the file alone."""

    processes: ProcessSupervisor
    log_dir: Path
    daphne_port: int
    env: dict[str, str]
    current: dict[str, ManagedProcess] = field(default_factory=dict)
    incarnations: Counter[str] = field(default_factory=Counter)
    kills: Counter[str] = field(default_factory=Counter)
    self_exits: Counter[str] = field(default_factory=Counter)  # incarnations that died without a kill
    down: set[str] = field(default_factory=set)
    engine: str = "sqlite"
    roles: tuple[str, ...] = EMBEDDED_ROLES

    @property
    def agent_url(self) -> str:
        return f"ws://127.0.0.1:{self.daphne_port}/ws/agent/"

    def start(self, role: str) -> ManagedProcess:
        if role != "server":
            raise ValueError(role)
        self.incarnations[role] += 1
        argv = manage_py_argv("run_embedded", "--port", str(self.daphne_port))
        process = self.processes.start(f"{role}-{self.incarnations[role]}", argv, env=self.env)
        self.current[role] = process
        self.down.discard(role)
        return process

    def ready(self, role: str) -> bool:
        process = self.current[role]
        return process.alive and port_open(self.daphne_port)


def embedded_env(data_dir: Path, database_url: str | None = None, **overrides: str) -> dict[str, str]:
    """The embedded product's environment on this test's SQLite database (or ``database_url``, a
    ``sqlite:///`` file: the soak's, bench/soak.py): no Redis (so the in-memory channel layer and
    the in-process scheduler), its data directory (the login file) its own."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "LINEUP_DEBUG", "LINEUP_CELERY_QUEUE")}
    env.update(
        DATABASE_URL=database_url or subprocess_database_url(sqlite=True),
        LINEUP_SECRET_KEY=os.environ.get("LINEUP_SECRET_KEY") or TEST_SECRET_KEY,
        LINEUP_LOG_LEVEL="INFO",
        PYTHONUNBUFFERED="1",
        LINEUP_SCHEDULER="embedded",
        LINEUP_DATA_DIR=str(data_dir),
        **overrides,
    )
    return env


@pytest.fixture
def embedded_rig(request, transactional_db, tmp_path) -> Iterator[EmbeddedRig]:
    """The embedded server started and ready on the test database's SQLite file; SIGKILLed when
    the test ends (before the tables are flushed, as ``crash_rig``)."""
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
        pytest.skip("the embedded rig runs on the test database's SQLite file; this run's database is PostgreSQL")
    env = embedded_env(
        tmp_path / "data",
        LINEUP_OUTBOX_REDELIVERY_SECONDS=REDELIVERY_SECONDS,
        LINEUP_LOG_FORMAT="json",
        LINEUP_REFERENCE_AGENT_URL="",  # no built-in Agent: the harness' Agent is the only one
        LINEUP_CRASH_APP="1",
    )
    with supervised_processes(request, tmp_path) as processes:
        rig = EmbeddedRig(processes=processes, log_dir=tmp_path, daphne_port=free_port(), env=env)
        rig.start("server")
        rig.wait_ready("server", timeout=60)
        yield rig
