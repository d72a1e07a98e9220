"""A small soak on SQLite in CI: ``python -m bench.soak --engine sqlite`` with 100 operations under 5 faults.

The embedded product (one ``manage.py run_embedded`` on a SQLite file of the run's own) under its
faults: the server SIGKILLed and started again, an Agent's connection dropped, another process
holding the file's write lock (``BEGIN IMMEDIATE``) for seconds. The same clients and the same
history checker as the PostgreSQL soak (``test_soak.py``); no PostgreSQL, Redis or Celery, so it
runs whichever database the suite is on. ``LINEUP_CRASH_SEED`` replays a run's plan; a failure
prints the seed.
"""

from __future__ import annotations

import json
import os
import random
import subprocess

import pytest

from tests.support.processes import PYTHON, ROOT

OPS, CYCLES = 100, 5


@pytest.mark.spec("R-2.2.5", "R-2.2.6", "R-2.2.8", "R-3.7", "R-3.8", "R-3.9", "R-4.2.7", "R-4.4.1", "R-4.4.3")
def test_a_small_soak_on_sqlite_loses_doubles_and_misdelivers_nothing(tmp_path):
    """Every operation final once with its one result at its own Agent, every message delivered, no
    focus left behind, no unhandled exception in the server's logs; the faults happened, and only
    the embedded topology's kinds; the verdict says PASS."""
    configured = os.environ.get("LINEUP_CRASH_SEED", "").strip()
    seed = int(configured) if configured else random.SystemRandom().randrange(10**6)
    argv = [PYTHON, "-m", "bench.soak", "--engine", "sqlite", "--ops", str(OPS), "--cycles", str(CYCLES)]
    argv += ["--seed", str(seed)]
    completed = subprocess.run(
        [*argv, "--dir", str(tmp_path / "soak"), "--max-seconds", "180"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=280,  # under the suite's 300 s per test
        check=False,
    )
    lines = completed.stdout.strip().splitlines()
    context = f"seed={seed} (replay: {' '.join(argv[1:])})\n--- stdout ---\n{completed.stdout[-6000:]}\n--- stderr ---\n{completed.stderr[-6000:]}"
    assert len(lines) >= 2, context
    verdict, report = lines[-2], json.loads(lines[-1])
    print(f"\n[soak sqlite] {verdict}")
    assert completed.returncode == 0 and report["ok"], context
    assert verdict.startswith(f"soak seed={seed}: PASS"), context
    assert "--engine sqlite" in report["replay"], context
    figures = report["figures"]
    assert figures["ops_done"] == OPS and figures["faults"] == CYCLES, context
    # Each of the topology's kinds at least once (bench.soak.plan_faults, 3 kinds in 5 faults).
    assert set(figures["faults_by_kind"]) == {"server", "sqlite_lock", "agent_drop"}, context
    assert (figures["lost"], figures["duplicated"], figures["misdelivered"], figures["messages_lost"]) == (0, 0, 0, 0)
    accounting = figures["accounting"]["overall"]  # Jepsen-style, after the final drain
    assert (accounting["lost"], accounting["duplicated"], accounting["unexpected"]) == (0, 0, 0), context
    assert accounting["results"] == sum(row["results"] for row in figures["accounting"]["per_agent"].values())
    assert figures["operations"] > OPS // 2, context  # most operations are focuses, the rest messages
