"""Real subprocesses for tests: Celery worker and beat today, Daphne later.

A ``ManagedProcess`` runs one command in its own process group with stdout and stderr in a log
file under the test's ``tmp_path``. It polls that log for a readiness line (never a fixed
sleep), and stops the whole group — ``terminate`` (SIGTERM, SIGKILL after a grace period) or
``kill`` (SIGKILL at once: the crash a restart test needs; the group, so prefork children die
with their parent).

A ``ProcessSupervisor`` owns every process one test started: ``supervised_processes`` kills
whatever is still running at teardown and, when the test failed, writes each log's tail to the
terminal. ``describe()`` returns the same tails for assertion messages.

``lineup_env`` builds the environment a LineUp process needs to share the test's world: the
pytest-django test database (only known after ``django_db_setup``), the test's Redis and
Celery queue. ``celery_worker_argv`` / ``celery_beat_argv`` are the production commands.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar
from urllib.parse import quote

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable  # the venv python running the tests (scripts/test: .venv/bin/python)

WORKER_READY = re.compile(r"\bready\.")  # celery.apps.worker logs "<node> ready." once it consumes
BEAT_READY = re.compile(r"beat: Starting")

T = TypeVar("T")


def wait_for(
    probe: Callable[[], T | None],
    *,
    timeout: float,
    interval: float = 0.05,
    what: str = "condition",
    describe: Callable[[], str] | None = None,
) -> T:
    """Poll ``probe`` until it returns something truthy; fail after ``timeout`` seconds.

    The failure message carries ``describe()`` (e.g. the process logs), so a timeout says why.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() >= deadline:
            details = describe() if describe is not None else ""
            pytest.fail(f"timed out after {timeout:.1f}s waiting for {what}\n{details}", pytrace=False)
        time.sleep(interval)


@dataclass
class ManagedProcess:
    """One subprocess in its own process group, logging to ``log_path``."""

    name: str
    argv: list[str]
    log_path: Path
    env: dict[str, str]
    cwd: Path = ROOT
    popen: subprocess.Popen[bytes] | None = field(default=None, init=False)
    started_at: float = field(default=0.0, init=False)

    def start(self) -> ManagedProcess:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            # A new session makes the child the leader of its own process group, so kill() and
            # terminate() reach its children too and nothing leaks into the next test.
            self.popen = subprocess.Popen(
                self.argv,
                cwd=self.cwd,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.started_at = time.monotonic()
        return self

    @property
    def pid(self) -> int:
        assert self.popen is not None, f"{self.name} was never started"
        return self.popen.pid

    @property
    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def tail(self, lines: int = 40) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    def wait_for_log(self, pattern: str | re.Pattern[str], *, timeout: float = 30.0) -> re.Match[str]:
        """Wait until the log matches ``pattern``; fail early if the process died first."""
        regex = re.compile(pattern) if isinstance(pattern, str) else pattern

        def probe() -> re.Match[str] | None:
            match = regex.search(self.log_text())
            if match is None and not self.alive:
                pytest.fail(
                    f"{self.name} exited with {self.popen.returncode if self.popen else '?'} before "
                    f"logging {regex.pattern!r}\n--- {self.name} ---\n{self.tail()}",
                    pytrace=False,
                )
            return match

        return wait_for(
            probe,
            timeout=timeout,
            what=f"{self.name} to log {regex.pattern!r}",
            describe=lambda: f"--- {self.name} ---\n{self.tail()}",
        )

    def kill(self) -> None:
        """SIGKILL the whole group now: no shutdown handlers, no acks — a crash."""
        self.signal_group(signal.SIGKILL)
        self.reap(timeout=10.0)

    def terminate(self, grace: float = 5.0) -> None:
        """SIGTERM (a warm shutdown), then SIGKILL whatever is left after ``grace`` seconds."""
        if not self.alive:
            self.signal_group(signal.SIGKILL)  # children of a dead leader may still run
            return
        self.signal_group(signal.SIGTERM)
        try:
            self.popen.wait(timeout=grace)  # type: ignore[union-attr]
        except subprocess.TimeoutExpired:
            pass
        self.signal_group(signal.SIGKILL)
        self.reap(timeout=10.0)

    def signal_group(self, sig: signal.Signals) -> None:
        """Send ``sig`` to the whole process group (a no-op once it is gone)."""
        if self.popen is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.popen.pid, sig)  # the pgid is the leader's pid (start_new_session)

    def reap(self, *, timeout: float) -> None:
        """Wait (bounded) for the leader to exit, so it leaves no zombie."""
        if self.popen is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(timeout=timeout)


class ProcessSupervisor:
    """Starts processes for one test and guarantees they are gone when it ends."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.processes: list[ManagedProcess] = []

    def start(
        self,
        name: str,
        argv: list[str],
        *,
        env: dict[str, str],
        ready: str | re.Pattern[str] | None = None,
        timeout: float = 30.0,
        cwd: Path = ROOT,
    ) -> ManagedProcess:
        """Start ``argv`` (logging to ``<log_dir>/<name>.log``) in ``cwd`` (another release's code
        runs from its own tree); wait for ``ready`` if given."""
        process = ManagedProcess(name=name, argv=argv, log_path=self.log_dir / f"{name}.log", env=env, cwd=cwd)
        self.processes.append(process)
        process.start()
        if ready is not None:
            process.wait_for_log(ready, timeout=timeout)
        return process

    def run(self, name: str, argv: list[str], *, env: dict[str, str], timeout: float = 60.0, cwd: Path = ROOT) -> str:
        """Run a command to completion; return its stdout; fail (with its output) on a non-zero exit."""
        completed = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)
        (self.log_dir / f"{name}.log").write_text(
            f"$ {' '.join(argv)}\n--- stdout ---\n{completed.stdout}\n--- stderr ---\n{completed.stderr}"
        )
        if completed.returncode != 0:
            pytest.fail(
                f"{name} exited {completed.returncode}\n--- stdout ---\n{completed.stdout}\n"
                f"--- stderr ---\n{completed.stderr[-4000:]}\n{self.describe()}",
                pytrace=False,
            )
        return completed.stdout

    def describe(self, lines: int = 40) -> str:
        return "\n".join(
            f"--- {p.name} ({'running' if p.alive else 'stopped'}, {p.log_path}) ---\n{p.tail(lines)}"
            for p in self.processes
        )

    def stop_all(self, grace: float = 5.0) -> None:
        """Stop every process: with a ``grace``, SIGTERM them all at once (a worker's warm shutdown
        hands its unacked tasks back to the broker) and SIGKILL what is left after it — one grace
        period in all, not one each; with none, SIGKILL at once."""
        for process in self.processes:
            if process.alive and grace > 0:
                process.signal_group(signal.SIGTERM)
        deadline = time.monotonic() + grace
        for process in self.processes:
            if process.popen is not None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.popen.wait(timeout=max(0.0, deadline - time.monotonic()))
            process.signal_group(signal.SIGKILL)  # stragglers, and children of a dead leader
            process.reap(timeout=10.0)


@contextlib.contextmanager
def supervised_processes(
    request: pytest.FixtureRequest, log_dir: Path, *, graceful: bool = False
) -> Iterator[ProcessSupervisor]:
    """A supervisor for one test: stops its processes at the end, dumps their logs if it failed.

    By default teardown SIGKILLs (a Celery warm shutdown costs ~2 s per test, and the test's
    queue is purged anyway); ``graceful=True`` gives each process a SIGTERM and a grace period.
    """
    supervisor = ProcessSupervisor(log_dir)
    failed_before = request.session.testsfailed
    try:
        yield supervisor
    finally:
        # The call phase's report is logged before teardown, so a failure already counts here.
        failed = request.session.testsfailed > failed_before
        if failed and supervisor.processes:
            _write_to_terminal(
                request, f"\n===== process logs of {request.node.nodeid} =====\n{supervisor.describe(80)}"
            )
        supervisor.stop_all(grace=5.0 if graceful else 0.0)


def _write_to_terminal(request: pytest.FixtureRequest, text: str) -> None:
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(text)
    else:
        sys.stderr.write(text + "\n")


# --- LineUp processes ----------------------------------------------------------------------------


def subprocess_database_url(*, sqlite: bool = False) -> str:
    """A ``DATABASE_URL`` for the database this test process uses (pytest-django's test database).

    Only meaningful once ``django_db_setup`` ran: before that ``NAME`` is still the real one.
    ``sqlite``: the subprocess only runs Django code (no Daphne or Celery of the production
    topology), so a SQLite test database, a file (tests/conftest.py), is handed over too.
    """
    db = settings.DATABASES["default"]
    if sqlite and db["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{db['NAME']}"
    if "postgresql" not in db["ENGINE"]:
        # The production topology (Daphne, Celery workers on Redis) is PostgreSQL's; SQLite is the
        # embedded default's, which tests/test_embedded_default.py and the reliability tests start.
        pytest.skip(f"PostgreSQL only: the production topology's processes, not {db['ENGINE']}")
    credentials = quote(db.get("USER") or "", safe="")
    if db.get("PASSWORD"):
        credentials += ":" + quote(db["PASSWORD"], safe="")
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return f"postgres://{credentials}{'@' if credentials else ''}{host}:{port}/{quote(str(db['NAME']), safe='')}"


def lineup_env(**overrides: str) -> dict[str, str]:
    """The environment for a LineUp subprocess sharing this test's database, Redis and queue."""
    redis_url = os.environ.get("REDIS_URL", "")
    if not redis_url:
        pytest.fail("subprocess tests need Redis: set REDIS_URL (scripts/test does)", pytrace=False)
    env = {
        **os.environ,
        "DATABASE_URL": subprocess_database_url(),
        "REDIS_URL": redis_url,
        "LINEUP_SCHEDULER": "celery",
        "LINEUP_CELERY_QUEUE": settings.CELERY_TASK_DEFAULT_QUEUE,
        "LINEUP_SECRET_KEY": os.environ.get("LINEUP_SECRET_KEY")
        or "lineup-test-suite-only-not-a-secret-0123456789abcdefghijklmnop",
        "LINEUP_LOG_LEVEL": "INFO",
        "PYTHONUNBUFFERED": "1",  # log lines reach the file at once, so readiness polling sees them
    }
    env.pop("LINEUP_DEBUG", None)
    env.update(overrides)
    return env


def celery_worker_argv(*, queue: str, node: str = "w1@%h", concurrency: int = 2) -> list[str]:
    return [
        PYTHON,
        "-m",
        "celery",
        "-A",
        "lineup",
        "worker",
        "-Q",
        queue,
        "--concurrency",
        str(concurrency),
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        "-n",
        node,
    ]


def celery_beat_argv(*, schedule_file: Path) -> list[str]:
    return [PYTHON, "-m", "celery", "-A", "lineup", "beat", "-s", str(schedule_file)]


def manage_py_argv(*args: str) -> list[str]:
    return [PYTHON, str(ROOT / "manage.py"), *args]


def purge_celery_queue(queue: str) -> int:
    """Drop every message waiting in ``queue`` (tasks an earlier test left behind)."""
    from lineup.celery import app

    with app.connection_for_write() as conn:
        return conn.default_channel.queue_purge(queue) or 0


def start_celery_worker(
    supervisor: ProcessSupervisor, *, env: dict[str, str], name: str = "worker", wait: bool = True
) -> ManagedProcess:
    """A real worker on the test's queue (prefork, 2 children); ``wait`` for it to consume."""
    process = supervisor.start(name, celery_worker_argv(queue=env["LINEUP_CELERY_QUEUE"]), env=env)
    if wait:
        process.wait_for_log(WORKER_READY)
    return process


def start_celery_beat(
    supervisor: ProcessSupervisor, *, env: dict[str, str], name: str = "beat", wait: bool = True
) -> ManagedProcess:
    """The one beat, sending the sweep every ``LINEUP_SWEEP_SECONDS`` to the test's queue."""
    schedule_file = supervisor.log_dir / f"{name}-schedule"
    process = supervisor.start(name, celery_beat_argv(schedule_file=schedule_file), env=env)
    if wait:
        process.wait_for_log(BEAT_READY)
    return process


def queued_celery_headers(queue: str) -> list[dict]:
    """The headers (task name, eta, argsrepr, ...) of the messages waiting in ``queue`` on Redis."""
    import json

    from lineup.celery import app

    with app.connection_for_write() as conn:
        raw = conn.default_channel.client.lrange(queue, 0, -1)
    return [json.loads(item)["headers"] for item in raw]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def port_open(port: int) -> bool:
    """Whether something accepts connections on 127.0.0.1:``port``."""
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def start_daphne(
    processes: ProcessSupervisor,
    name: str,
    *,
    env: dict[str, str],
    asgi: str = "lineup.asgi:application",
    timeout: float = 60,
    cwd: Path = ROOT,
    port: int | None = None,
    options: Sequence[str] = (),
) -> tuple[int, ManagedProcess]:
    """Start Daphne serving ``asgi`` (from the code in ``cwd``) on ``port`` (a free loopback port when
    not given: a restart keeps its scrape target's), with Daphne's ``options`` (e.g. ``-v 0``);
    return once it listens."""
    port = port or free_port()
    argv = [PYTHON, "-m", "daphne", *options, "-b", "127.0.0.1", "-p", str(port), asgi]
    process = processes.start(name, argv, env=env, cwd=cwd)

    def listening() -> bool:
        if not process.alive:
            pytest.fail(f"{name} exited early\n{process.tail()}", pytrace=False)
        return port_open(port)

    wait_for(listening, timeout=timeout, what=f"{name} to listen", describe=processes.describe)
    return port, process


# --- a PostgreSQL cluster of one's own -------------------------------------------------------------


@dataclass
class PostgresCluster:
    """A PostgreSQL cluster in ``data_dir`` (``initdb``), served on a loopback ``port`` with ``pg_ctl``,
    stopped and started again at will: for fault tests that must restart the database, which the
    machine's shared server can not be.

    PostgreSQL refuses to run as root: then every command runs as the ``postgres`` system user
    (``runuser``), which must be able to reach ``data_dir`` (``create`` makes it so).
    """

    data_dir: Path
    port: int
    bin_dir: Path
    run_as: str | None = None
    log_connections: bool = False  # every accepted connection in the log (``connections_authorized``)

    @property
    def log_path(self) -> Path:
        return self.data_dir.parent / "postgresql.log"

    def url(self, dbname: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{dbname}"

    @classmethod
    def create(cls, base: Path, *, port: int | None = None) -> PostgresCluster:
        """``initdb`` a new cluster (trust authentication on loopback, user postgres) under ``base``,
        or, when it must run as the ``postgres`` user, in a new directory of the system's temporary
        directory that user can reach (``base`` may sit under directories only root may enter)."""
        candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name))
        if not candidates:
            raise RuntimeError("no PostgreSQL server binaries under /usr/lib/postgresql/*/bin (apt postgresql)")
        run_as = "postgres" if os.geteuid() == 0 else None
        if run_as is None:
            home = base / "postgres"
            home.mkdir(parents=True)
        else:
            import pwd
            import tempfile

            home = Path(tempfile.mkdtemp(prefix="lineup-postgres-"))
            entry = pwd.getpwnam(run_as)
            os.chown(home, entry.pw_uid, entry.pw_gid)
        cluster = cls(data_dir=home / "data", port=port or free_port(), bin_dir=candidates[-1].parent, run_as=run_as)
        cluster._run("initdb", "-D", str(cluster.data_dir), "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8")
        return cluster

    def destroy(self) -> None:
        """Stop the server if it runs and delete the cluster's directory."""
        import shutil

        if self.running():
            self.stop("immediate")
        shutil.rmtree(self.data_dir.parent, ignore_errors=True)

    def _run(self, tool: str, *args: str, timeout: float = 120) -> str:
        argv = [str(self.bin_dir / tool), *args]
        if self.run_as is not None:
            argv = ["runuser", "-u", self.run_as, "--", *argv]
        completed = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
        if completed.returncode != 0:
            raise RuntimeError(f"{tool} exited {completed.returncode}: {completed.stderr.strip() or completed.stdout}")
        return completed.stdout

    def start(self) -> None:
        """Start the server and wait until it accepts connections."""
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.data_dir.parent} -c max_connections=300 "
            "-c fsync=off -c full_page_writes=off"  # durable against process crashes, not the machine's
        )
        if self.log_connections:
            options += " -c log_connections=on"
        self._run(
            "pg_ctl", "-D", str(self.data_dir), "-l", str(self.log_path), "-o", options, "-w", "-t", "60", "start"
        )

    def stop(self, mode: str = "fast") -> None:
        """``pg_ctl stop -m fast``: roll back open transactions, end every session, shut down cleanly."""
        self._run("pg_ctl", "-D", str(self.data_dir), "-m", mode, "-w", "-t", "60", "stop")

    def create_database(self, name: str) -> str:
        """A new database in the cluster; its URL."""
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)
        return self.url(name)

    def connections_authorized(self, database: str) -> int:
        """How many client connections to ``database`` the server has accepted so far (needs
        ``log_connections``)."""
        pattern = re.compile(rf"connection authorized: user=\S+ database={re.escape(database)}\b")
        return len(pattern.findall(self.log_path.read_text(errors="replace")))

    def running(self) -> bool:
        status = subprocess.run(
            [str(self.bin_dir / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(self.port)], check=False
        )
        return status.returncode == 0
