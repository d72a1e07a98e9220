"""The hostile-load suite at CI size: ``python -m bench.abuse --small`` against a Daphne of its own.

Junk before hello, oversized frames, a flood, a connection storm on one token, parallel MCP requests,
huge bodies and slow headers, each for two seconds while another user's Agent calls a tool: every
door answers as documented, the server's memory stays flat and nothing is handled after the flooding
client left. The victim's latency is printed, not asserted here (the CI machine's timing is not a
figure); the full size (``python -m bench.abuse``) checks it and docs/reliability.md has its figures.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.bench.test_bench_smoke import _bench_env
from tests.support.processes import PYTHON, ROOT

pytestmark = [pytest.mark.postgres]

RSS_BOUND_MB = 64


@pytest.mark.spec("R-2.2.3")
def test_every_attack_is_bounded_and_leaves_no_work_behind():
    run = subprocess.run(
        [PYTHON, "-m", "bench.abuse", "--small", "--json", "--max-seconds", "150"],
        cwd=ROOT,
        env=_bench_env(),
        capture_output=True,
        text=True,
        timeout=200,
        check=False,
    )
    context = f"{run.stdout[-4000:]}\n{run.stderr[-3000:]}"
    assert run.returncode == 0, context
    report = json.loads(run.stdout.strip().splitlines()[-1])
    details = report["details"]
    print(f"\n[abuse] victim p99 quiet {report['baseline']['value']} ms, worst {report['measured']['value']} ms")
    assert details["failed_checks"] == [], context
    assert details["work_after_disconnect"] == 0, context
    assert details["attacks"]["flood"]["handled"] > 0, context  # the flood was handled while it lasted
    assert details["max_rss_growth_mb"] < RSS_BOUND_MB, context
    assert details["attacks"]["junk_before_hello"]["answers"]["close 4401"] == 2, context
    assert details["attacks"]["storm"]["answers"]["welcome"] == 32, context  # the cap per token


@pytest.mark.spec("R-2.2.3")
def test_strangers_with_random_tokens_are_refused_at_both_doors():
    """``bench.abuse --strangers`` at CI size: ten anonymous clients, a fresh random token per attempt,
    three seconds on each door (three one-second slices, between quiet ones) while other users'
    Agents call ``tools/list``: both doors answer them (401 / ``unauthorized``, and 429 /
    ``rate_limited`` past the budgets) and the Agents are served throughout. Latency and CPU are
    printed, not asserted (decision 0045 has the full-size figures). With ``--watch-loop`` each
    slice also says what the Daphne's event loop and collector did (bench.loop_watch, decision 0059)."""
    run = subprocess.run(
        [
            PYTHON,
            "-m",
            "bench.abuse",
            "--strangers",
            "--small",
            "--clients",
            "10",
            "--seconds",
            "3",
            "--watch-loop",
            "--json",
        ],
        cwd=ROOT,
        env=_bench_env(),
        capture_output=True,
        text=True,
        timeout=200,
        check=False,
    )
    context = f"{run.stdout[-4000:]}\n{run.stderr[-3000:]}"
    assert run.returncode == 0, context
    details = json.loads(run.stdout.strip().splitlines()[-1])["details"]
    mcp, ws = details["random_tokens_mcp"], details["random_tokens_ws"]
    print(f"\n[strangers] Daphne {mcp['daphne_cpu_of_a_core']:.0%} / {ws['daphne_cpu_of_a_core']:.0%} of a core")
    assert mcp["answers"].get("401", 0) > 0 and ws["answers"].get("unauthorized", 0) > 0, context
    assert details["victim_failures"] == 0, context
    assert mcp["victim_calls"] > 0 and ws["victim_calls"] > 0, context
    for door in (mcp, ws):
        assert len(door["slices"]) == 3, context  # --cycles 3: one attack and one quiet slice each
        for one in door["slices"]:
            print(f"[strangers] slice {json.dumps(one)}")
            assert one["attack_loop"]["callbacks"] > 0 and one["quiet_loop"]["callbacks"] > 0, context
            assert set(one) >= {"attack_p99_ms", "quiet_p99_ms", "attack_loop", "quiet_loop"}, context
