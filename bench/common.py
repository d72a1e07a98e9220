"""What the benchmarks share: configuration, the bench database, processes, Agents, statistics, reports.

Importing this module points the process at the bench's own services and sets Django up (like
``manage.py``), so a bench module imports it before any model. Environment (all optional):

    LINEUP_BENCH_DATABASE_URL  postgres://postgres@127.0.0.1:5432/lineup_bench — created and
                               migrated on first use; every bench empties its tables first.
                               ``sqlite:///FILE`` (only ``bench.soak --engine sqlite``): a new
                               file, migrated; no Redis, no Celery settings
    LINEUP_BENCH_REDIS_URL     redis://127.0.0.1:6379/14 — broker and channel layer
    LINEUP_BENCH_QUEUE         lineup-bench — the Celery queue, purged before and after a run
    LINEUP_BENCH_LOG_DIR       where process logs go (default: a new temporary directory)

The servers a bench starts are the production processes (Daphne, a Celery worker, beat) with the
production settings (``LINEUP_SCHEDULER=celery``, the channels_redis layer, JSON logs at INFO);
only the bench process itself logs at WARNING, so its terminal shows the report.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/lineup_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/14"
DEFAULT_QUEUE = "lineup-bench"

DATABASE_URL = os.environ.get("LINEUP_BENCH_DATABASE_URL") or DEFAULT_DATABASE_URL
REDIS_URL = os.environ.get("LINEUP_BENCH_REDIS_URL") or DEFAULT_REDIS_URL
QUEUE = os.environ.get("LINEUP_BENCH_QUEUE") or DEFAULT_QUEUE

# A ``sqlite:///FILE`` bench database is the embedded product's (``bench.soak --engine sqlite``):
# no Redis, no Celery; the bench process only reads and seeds the file its server decides on.
ENGINE = "sqlite" if DATABASE_URL.startswith("sqlite:") else "postgresql"

# The bench's services, never whatever DATABASE_URL the calling shell has: a benchmark empties its
# database. Servers inherit this environment (tests.support.processes.lineup_env).
os.environ["DATABASE_URL"] = DATABASE_URL
if ENGINE == "sqlite":
    os.environ["REDIS_URL"] = ""  # the in-memory channel layer, as the embedded server's
    os.environ["LINEUP_SCHEDULER"] = "none"  # the bench process schedules nothing: its server does
else:
    os.environ["REDIS_URL"] = REDIS_URL
    os.environ["LINEUP_CELERY_QUEUE"] = QUEUE
    os.environ["LINEUP_SCHEDULER"] = "celery"
os.environ["LINEUP_REFERENCE_AGENT_URL"] = ""
os.environ.setdefault("LINEUP_SECRET_KEY", "lineup-bench-only-not-a-secret-0123456789abcdefghijklmnopqrstuv")
os.environ.setdefault("LINEUP_LOG_LEVEL", "WARNING")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lineup.settings")

import django  # noqa: E402

django.setup()

import pytest  # noqa: E402  (tests.support.processes fails with pytest.fail; caught in run())
from django.conf import settings  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from tests.support.processes import (  # noqa: E402
    BEAT_READY,
    WORKER_READY,
    ManagedProcess,
    ProcessSupervisor,
    celery_beat_argv,
    celery_worker_argv,
    lineup_env,
    purge_celery_queue,
    start_daphne,
)

LOOPBACK = "127.0.0.1"  # every server a bench starts listens here, and every client connects here


class BenchError(Exception):
    """A benchmark could not produce a trustworthy figure (a wrong answer, a timeout, an error)."""


# --- the bench database ----------------------------------------------------------------------


def prepare_database() -> None:
    """Create the bench database if it is missing, migrate it if needed, and empty its tables."""
    import psycopg
    from django.core.management import call_command
    from django.db.migrations.executor import MigrationExecutor
    from psycopg import sql

    db = settings.DATABASES["default"]
    if db["ENGINE"] == "django.db.backends.sqlite3":
        # Only the SQLite soak: its file is new for every run, so migrated is empty.
        call_command("migrate", interactive=False, verbosity=0)
        return
    if "postgresql" not in db["ENGINE"]:
        raise BenchError(f"benchmarks need PostgreSQL, not {db['ENGINE']}")
    with psycopg.connect(**_psycopg_params(dbname="postgres"), autocommit=True) as admin:
        exists = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [db["NAME"]]).fetchone()
        if not exists:
            admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(db["NAME"])))
    executor = MigrationExecutor(connection)
    if executor.migration_plan(executor.loader.graph.leaf_nodes()):
        call_command("migrate", interactive=False, verbosity=0)
    empty_tables()


def empty_tables() -> None:
    """TRUNCATE the Runtime's, Interact's and the users' tables (the audit log's trigger refuses
    DELETE, not TRUNCATE); content types and permissions stay."""
    from django.apps import apps

    models = [
        *apps.get_app_config("runtime").get_models(include_auto_created=True),
        *apps.get_app_config("interact").get_models(include_auto_created=True),
        *apps.get_app_config("sessions").get_models(),
        *apps.get_app_config("admin").get_models(),
    ]
    user_model = apps.get_model("auth", "User")
    models += [user_model, *(f.remote_field.through for f in user_model._meta.local_many_to_many)]
    tables = ", ".join(connection.ops.quote_name(m._meta.db_table) for m in models)
    with connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {tables} RESTART IDENTITY CASCADE")


def psycopg_connect(**kwargs: Any):
    """A plain psycopg connection to the bench database (the raw baselines use these)."""
    import psycopg

    return psycopg.connect(**_psycopg_params(), **kwargs)


def stats_connection():
    """An autocommit psycopg connection to the cluster's ``postgres`` database, for ``postgres_usage``."""
    import psycopg

    return psycopg.connect(**_psycopg_params(dbname="postgres"), autocommit=True)


def _psycopg_params(**overrides: str) -> dict[str, Any]:
    db = settings.DATABASES["default"]
    params = {
        "dbname": db["NAME"],
        "user": db.get("USER") or None,
        "password": db.get("PASSWORD") or None,
        "host": db.get("HOST") or LOOPBACK,
        "port": db.get("PORT") or 5432,
    }
    params.update(overrides)
    return {k: v for k, v in params.items() if v is not None}


# --- the floor of one atomic decision: a compare-and-set UPDATE ------------------------------

CAS_TABLE = "bench_cas"


def create_cas_table(rows: int) -> None:
    """A table of ``rows`` one-row state machines for ``cas_updater`` (dropped by ``drop_cas_table``)."""
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {CAS_TABLE}")
        cursor.execute(f"CREATE TABLE {CAS_TABLE} (id bigint PRIMARY KEY, state varchar(16) NOT NULL, version bigint)")
        cursor.execute(f"INSERT INTO {CAS_TABLE} SELECT g, 'focusing', 0 FROM generate_series(0, %s) g", [rows - 1])


def drop_cas_table() -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {CAS_TABLE}")


def cas_updater(row_id: int) -> Callable[[int], None]:
    """``update(k)``: one autocommit compare-and-set transaction on row ``row_id`` (its own connection),
    flipping it between two states; raises if the compare fails."""
    conn = psycopg_connect(autocommit=True)
    with conn.cursor() as cursor:
        cursor.execute(f"SELECT state FROM {CAS_TABLE} WHERE id = %s", [row_id])
        first = cursor.fetchone()[0]
    states = (first, "interrupted" if first == "focusing" else "focusing")

    def update(k: int) -> None:
        cursor = conn.execute(
            f"UPDATE {CAS_TABLE} SET state = %s, version = version + 1 WHERE id = %s AND state = %s",
            [states[(k + 1) % 2], row_id, states[k % 2]],
        )
        if cursor.rowcount != 1:
            raise BenchError(f"compare-and-set lost on row {row_id}")

    update.backend_pid = conn.info.backend_pid  # so a bench counting the server's backends leaves it out
    return update


# --- processes -------------------------------------------------------------------------------


@dataclass
class Server:
    """One live Daphne process on the loopback interface."""

    name: str
    port: int
    process: ManagedProcess

    def url(self, path: str = "/ws/agent/") -> str:
        return f"ws://{LOOPBACK}:{self.port}{path}"


DAPHNE_OPTIONS = ("-v", "0")


class Rig:
    """The processes of one bench run; all of them are stopped (and the queue purged) at exit."""

    def __init__(self, name: str) -> None:
        base = os.environ.get("LINEUP_BENCH_LOG_DIR")
        if base:
            Path(base).mkdir(parents=True, exist_ok=True)
        self.log_dir = Path(tempfile.mkdtemp(prefix=f"lineup-bench-{name}-", dir=base or None))
        self.supervisor = ProcessSupervisor(self.log_dir)

    def __enter__(self) -> Rig:
        purge_celery_queue(QUEUE)
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if exc is not None and self.supervisor.processes:
            print(f"--- process logs ({self.log_dir}) ---\n{self.supervisor.describe(40)}", file=sys.stderr)
        self.supervisor.stop_all(grace=5.0)
        purge_celery_queue(QUEUE)

    def env(self, **overrides: str) -> dict[str, str]:
        """The production environment of a LineUp server process on the bench's services."""
        return lineup_env(
            LINEUP_SCHEDULER="celery",
            LINEUP_LOG_FORMAT="json",
            LINEUP_REFERENCE_AGENT_URL="",
            LINEUP_SERVE_STATIC="0",
            **overrides,
        )

    def daphne(self, name: str = "daphne", *, asgi: str = "lineup.asgi:application", **env: str) -> Server:
        # ``-v 0`` as the shipped unit runs it (docs/operations/systemd/lineup-daphne@.service):
        # at Daphne's default verbosity it also writes an access line per request to its stdout.
        port, process = start_daphne(self.supervisor, name, env=self.env(**env), asgi=asgi, options=DAPHNE_OPTIONS)
        return Server(name=name, port=port, process=process)

    def worker(self, *, include: Sequence[str] = (), concurrency: int = 2, **env: str) -> ManagedProcess:
        """The production worker command (prefork), plus ``--include`` modules a bench needs."""
        argv = celery_worker_argv(queue=QUEUE, concurrency=concurrency)
        if include:
            argv += ["--include", ",".join(include)]
        process = self.supervisor.start("worker", argv, env=self.env(**env))
        process.wait_for_log(WORKER_READY, timeout=60)
        return process

    def beat(self, **env: str) -> ManagedProcess:
        argv = celery_beat_argv(schedule_file=self.log_dir / "beat-schedule")
        process = self.supervisor.start("beat", argv, env=self.env(**env))
        process.wait_for_log(BEAT_READY, timeout=60)
        return process


# --- Agents ----------------------------------------------------------------------------------


@dataclass
class BenchAgent:
    """A user, its Agent's token and its conversations (the default one first)."""

    user_id: int
    agent_id: str
    token: str
    conversation_ids: list[str]


def create_agents(count: int, conversations_each: int, *, prefix: str = "bench") -> list[BenchAgent]:
    """``count`` users, each with ``conversations_each`` conversations and one Agent token."""
    from django.contrib.auth import get_user_model

    from runtime.models import Conversation
    from runtime.services.agents import create_agent_token
    from runtime.services.conversations import conversation_get_or_create_default
    from runtime.services.workspace_locks import lock_workspace

    agents = []
    for index in range(count):
        user = get_user_model()(username=f"{prefix}-{index}")
        user.set_unusable_password()  # no password hashing: logins are not under test
        user.save()
        conversations = [conversation_get_or_create_default(user=user)]
        for number in range(1, conversations_each):
            with transaction.atomic():  # as the default conversation: its workspace comes with it
                conversation = Conversation.objects.create(owner=user, title=f"bench {number}")
                lock_workspace(conversation.id, now=timezone.now())
            conversations.append(conversation)
        agent, token = create_agent_token(user=user, name=f"{prefix}-agent", now=timezone.now())
        agents.append(
            BenchAgent(
                user_id=user.pk,
                agent_id=str(agent.id),
                token=token,
                conversation_ids=[str(c.id) for c in conversations],
            )
        )
    return agents


# --- CPU time from /proc, PostgreSQL's side -------------------------------------------------------

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float | None:
    """utime + stime of ``pid`` in seconds (Linux /proc), or None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = text.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def process_tree(root: int) -> list[int]:
    """``root`` and its descendants (a prefork worker's pool children)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry.name))
    found, pending = [], [root]
    while pending:
        pid = pending.pop()
        found.append(pid)
        pending.extend(children.get(pid, []))
    return found


@dataclass(frozen=True)
class PostgresUsage:
    """One reading of the bench database's server side: each backend's CPU so far, and the
    database's counters (``pg_stat_database``; a busy backend reports them up to a second late)."""

    cpu: dict[int, float]  # CPU seconds of each server process connected to the bench database
    transactions: int  # xact_commit + xact_rollback
    rows_inserted: int

    def cpu_since(self, before: PostgresUsage) -> float:
        """CPU seconds the backends spent since ``before``; one born since spent all of its CPU
        since (near enough), one that exited meanwhile is missed."""
        return sum(seconds - before.cpu.get(pid, 0.0) for pid, seconds in self.cpu.items())

    def counted_since(self, before: PostgresUsage) -> tuple[int, int]:
        """(transactions, rows inserted) since ``before``."""
        return self.transactions - before.transactions, self.rows_inserted - before.rows_inserted


def postgres_usage(conn: Any, *, exclude: Collection[int] = ()) -> PostgresUsage:
    """Read the bench database's backends' CPU from /proc (PostgreSQL runs on this machine: the
    loopback bench) and its ``pg_stat_database`` counters, through ``conn`` (psycopg, autocommit).

    ``conn`` should be on another database of the cluster (``stats_connection()``), so its own
    readings count in none of the bench database's figures; ``exclude``: backends to
    leave out (a floor's own connection)."""
    dbname = _psycopg_params()["dbname"]
    pids = [pid for (pid,) in conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [dbname])]
    cpu = {pid: seconds for pid in pids if pid not in exclude and (seconds := cpu_seconds(pid)) is not None}
    row = conn.execute(
        "SELECT xact_commit + xact_rollback, tup_inserted FROM pg_stat_database WHERE datname = %s", [dbname]
    ).fetchone()
    return PostgresUsage(cpu=cpu, transactions=int(row[0]), rows_inserted=int(row[1]))


# --- statistics ------------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100), linearly interpolated between the closest ranks."""
    if not values:
        raise BenchError("no samples")
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def latency_summary(seconds: Sequence[float]) -> dict[str, float]:
    """count, p50, p90, p99 and max of a list of durations, in milliseconds."""
    ms = [s * 1000 for s in seconds]
    return {
        "count": len(ms),
        "p50_ms": round(percentile(ms, 50), 3),
        "p90_ms": round(percentile(ms, 90), 3),
        "p99_ms": round(percentile(ms, 99), 3),
        "max_ms": round(max(ms), 3),
    }


def run_threads(threads: int, per_thread: int, make_worker: Callable[[int], Callable[[int], None]]) -> float:
    """Run ``per_thread`` operations in each of ``threads`` threads; return the wall time of the ops.

    ``make_worker(i)`` runs in thread ``i`` before the clock starts (connect, warm up) and returns
    the operation ``op(k)``; the clock runs from when every thread is ready until the last is done.
    """
    ready = threading.Barrier(threads + 1)
    errors: list[BaseException] = []

    def body(index: int) -> None:
        try:
            op = make_worker(index)
        except BaseException as error:
            errors.append(error)
            ready.abort()
            raise
        try:
            ready.wait()
            for k in range(per_thread):
                op(k)
        except BaseException as error:
            errors.append(error)
            raise

    workers = [threading.Thread(target=body, args=(i,), name=f"bench-{i}") for i in range(threads)]
    for worker in workers:
        worker.start()
    try:
        ready.wait()
    except threading.BrokenBarrierError:
        pass
    started = time.perf_counter()
    for worker in workers:
        worker.join()
    elapsed = time.perf_counter() - started
    if errors:
        raise BenchError(f"{len(errors)} thread(s) failed: {errors[0]!r}") from errors[0]
    return elapsed


# --- the report ------------------------------------------------------------------------------


@dataclass
class Figure:
    label: str
    value: float
    unit: str

    def text(self) -> str:
        return f"{self.label} = {self.value:,.3f} {self.unit}"


@dataclass
class Report:
    """What a bench prints: its parameters, the measured value, the baseline and their ratio.

    ``ratio`` always reads "how many times the floor": measured/baseline for latencies,
    baseline/measured for rates. ``errors`` must be 0 for the figures to count.
    """

    bench: str
    params: dict[str, Any]
    measured: Figure
    baseline: Figure
    ratio: float
    ratio_meaning: str
    details: dict[str, Any] = field(default_factory=dict)
    errors: int = 0
    log_dir: str = ""

    def text(self) -> str:
        lines = [
            f"bench: {self.bench}",
            "params: " + " ".join(f"{k}={v}" for k, v in self.params.items()),
            f"measured: {self.measured.text()}",
            f"baseline: {self.baseline.text()}",
            f"ratio: {self.ratio:.2f}x ({self.ratio_meaning})",
        ]
        for key, value in self.details.items():
            lines.append(f"  {key}: {json.dumps(value) if isinstance(value, dict | list) else value}")
        lines.append(f"errors: {self.errors}")
        if self.log_dir:
            lines.append(f"logs: {self.log_dir}")
        return "\n".join(lines)


def machine_notes() -> dict[str, Any]:
    return {"cpus": os.cpu_count(), "load_avg_1m": round(os.getloadavg()[0], 2), "python": sys.version.split()[0]}


def parser(description: str) -> argparse.ArgumentParser:
    result = argparse.ArgumentParser(description=description)
    result.add_argument("--json", action="store_true", help="also print the report as one JSON line at the end")
    return result


def run(main: Callable[[argparse.Namespace], Report], arguments: argparse.ArgumentParser) -> int:
    """The entry point of every bench: parse, run, print; exit 1 on errors or a failed run."""
    args = arguments.parse_args()
    try:
        report = main(args)
    except (BenchError, pytest.fail.Exception) as failure:  # wait_for's timeouts raise pytest's Failed
        print(f"bench failed: {failure}", file=sys.stderr)
        return 1
    report.details.setdefault("machine", machine_notes())
    print(report.text(), flush=True)
    if args.json:
        print(json.dumps(asdict(report), default=str), flush=True)
    return 1 if report.errors else 0


def run_async(coroutine: Any) -> Any:
    return asyncio.run(coroutine)
