"""Every benchmark still runs and reports a figure, its baseline, a ratio and no errors.

The figures themselves are not asserted (timing belongs in ``bench/``, not in tests): this keeps
the scripts from rotting. Each runs as ``python -m bench.<name>`` (a ``name:variant`` key is the same
module with other arguments) with tiny parameters, against a database of its own next to the test
database (a bench empties its database) and its own queue.
"""

from __future__ import annotations

import json
import os
import subprocess
import uuid
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings

from tests.support.processes import PYTHON, ROOT

pytestmark = [pytest.mark.postgres, pytest.mark.celery]

BENCH_TIMEOUT_SECONDS = 180

SMOKE_RUNS = {
    "tool_call_rtt": ["--samples", "10", "--warmup", "2", "--block", "5"],
    "decision_throughput": ["--pairs", "20", "--rounds", "2"],
    "settlement_lag": ["--agents", "1", "--conversations", "2", "--rounds", "1", "--spread", "0.2"],
    "recovery_throughput": ["--count", "30", "--workers", "2"],
    "recovery_throughput:running": ["--running", "30"],
    "load": ["--agents", "2", "--conversations", "1", "--duration", "3", "--max-focus", "1"],
    "sweep": ["--rows", "200", "--repeats", "5"],
    "scale": [
        *("--max-daphne 2 --agents-per-daphne 1 --conversations 1 --duration 1 --warmup 0.3").split(),
        *("--floor-seconds 0.3").split(),
    ],
}


def _bench_env() -> dict[str, str]:
    test_db = urlsplit(os.environ["DATABASE_URL"])
    bench_db = urlunsplit(test_db._replace(path=f"/{settings.DATABASES['default']['NAME']}_bench"))
    return {
        **os.environ,
        "LINEUP_BENCH_DATABASE_URL": bench_db,
        "LINEUP_BENCH_REDIS_URL": settings.REDIS_URL,
        "LINEUP_BENCH_QUEUE": f"lineup-bench-smoke-{uuid.uuid4().hex[:8]}",
    }


@pytest.mark.parametrize("bench", SMOKE_RUNS)
def test_the_benchmark_runs_and_reports_a_ratio_with_no_errors(bench):
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        pytest.fail("benchmarks need PostgreSQL: run with DATABASE_URL=postgres://...")
    module = bench.partition(":")[0]
    run = subprocess.run(
        [PYTHON, "-m", f"bench.{module}", *SMOKE_RUNS[bench], "--json"],
        cwd=ROOT,
        env=_bench_env(),
        capture_output=True,
        text=True,
        timeout=BENCH_TIMEOUT_SECONDS,
    )
    assert run.returncode == 0, f"bench.{module} failed\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["bench"] == module
    assert report["errors"] == 0
    assert report["measured"]["value"] > 0 and report["baseline"]["value"] > 0
    assert report["ratio"] > 0
    assert f"ratio: {report['ratio']:.2f}x" in run.stdout  # the human report says it too


def _dbos_python() -> str:
    return os.environ.get("LINEUP_DBOS_PYTHON", "")


def test_the_dbos_peer_bench_skips_cleanly_without_a_dbos_virtualenv():
    env = {k: v for k, v in _bench_env().items() if k != "LINEUP_DBOS_PYTHON"}
    run = subprocess.run(
        [PYTHON, "-m", "bench.peer_dbos", "--dbos-python", str(ROOT / "no-such-venv" / "python")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=BENCH_TIMEOUT_SECONDS,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.startswith("skipped: no DBOS python")


@pytest.mark.skipif(not os.path.exists(_dbos_python()), reason="LINEUP_DBOS_PYTHON: a virtualenv with dbos")
def test_the_dbos_peer_bench_runs_both_sides_with_no_errors():
    run = subprocess.run(
        [
            PYTHON,
            "-m",
            "bench.peer_dbos",
            *"--pairs 10 --rounds 1 --late-count 2 --recover 20 --hold 10".split(),
            "--json",
        ],
        cwd=ROOT,
        env=_bench_env(),
        capture_output=True,
        text=True,
        timeout=BENCH_TIMEOUT_SECONDS,
    )
    assert run.returncode == 0, f"{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["errors"] == 0
    assert report["measured"]["value"] > 0 and report["baseline"]["value"] > 0
    assert report["details"]["lateness"]["dbos_p99_ms"] > 0
    assert report["details"]["recovery"]["dbos_per_s"] > 0 and report["details"]["recovery"]["lineup_per_s"] > 0
