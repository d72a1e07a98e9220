"""A small soak in CI: ``python -m bench.soak`` with 100 operations under 5 faults passes the history checker.

The command owns its world (a PostgreSQL cluster and a Redis of its own, two Daphne, a worker, the
beat, WebSocket and MCP Agents, people at the workspace) and checks the history itself
(``bench.history``); this test runs it as an operator would and reads its verdict and report. The
full size (1 000 operations, 100 faults) is run by hand: docs/reliability.md has its figures.
``LINEUP_CRASH_SEED`` replays a run's plan; a failure prints the seed.
"""

from __future__ import annotations

import json
import os
import random
import subprocess

import pytest

from tests.support.processes import PYTHON, ROOT

pytestmark = [pytest.mark.celery, pytest.mark.postgres]

OPS, CYCLES = 100, 5


@pytest.mark.spec("R-2.2.5", "R-2.2.6", "R-2.2.8", "R-3.7", "R-3.8", "R-3.9", "R-4.2.7", "R-4.4.1", "R-4.4.3")
def test_a_small_soak_loses_doubles_and_misdelivers_nothing(tmp_path):
    """Every operation final once with its one result at its own Agent, every message delivered, no
    focus left behind, no unhandled exception in a log; the faults happened; the verdict says PASS."""
    configured = os.environ.get("LINEUP_CRASH_SEED", "").strip()
    seed = int(configured) if configured else random.SystemRandom().randrange(10**6)
    argv = [PYTHON, "-m", "bench.soak", "--ops", str(OPS), "--cycles", str(CYCLES), "--seed", str(seed)]
    completed = subprocess.run(
        [*argv, "--dir", str(tmp_path / "soak"), "--max-seconds", "240"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=420,
        check=False,
    )
    lines = completed.stdout.strip().splitlines()
    context = f"seed={seed} (replay: {' '.join(argv[1:])})\n--- stdout ---\n{completed.stdout[-6000:]}\n--- stderr ---\n{completed.stderr[-6000:]}"
    assert len(lines) >= 2, context
    verdict, report = lines[-2], json.loads(lines[-1])
    print(f"\n[soak] {verdict}")
    assert completed.returncode == 0 and report["ok"], context
    assert verdict.startswith(f"soak seed={seed}: PASS"), context
    figures = report["figures"]
    assert figures["ops_done"] == OPS and figures["faults"] == CYCLES, context
    assert (figures["lost"], figures["duplicated"], figures["misdelivered"], figures["messages_lost"]) == (0, 0, 0, 0)
    accounting = figures["accounting"]["overall"]  # Jepsen-style, after the final drain
    assert (accounting["lost"], accounting["duplicated"], accounting["unexpected"]) == (0, 0, 0), context
    assert accounting["results"] == sum(row["results"] for row in figures["accounting"]["per_agent"].values())
    assert figures["operations"] > OPS // 2, context  # most operations are focuses, the rest messages
