"""The alert rules fed by a real Prometheus scraping real processes, and a worker killed under them.

tests/lineup/test_alert_rules.py runs the rules on hand-written series (promtool); here Prometheus
(Debian's ``prometheus``) scrapes a real Daphne's ``/metrics`` while a real Celery worker and beat run
the sweep, and evaluates docs/operations/prometheus-alerts.yml with its durations scaled from minutes
to seconds (``scaled_rules``: the same expressions, so a wrong selector or label fails here too). The
host's two Daphnes are scraped as the docs say (each shows the host's sums). On the healthy system no
rule may fire. One Daphne is SIGKILLed: LineUpNotReady fires for that one and the sweeps still show
through the other. Then the worker is SIGKILLed: its counter files stay in ``LINEUP_METRICS_DIR``, the
sweep count stops growing, and LineUpWorkerStopped must fire.
"""

from __future__ import annotations

import json
import re
import shutil
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings

from tests.support.processes import (
    ProcessSupervisor,
    free_port,
    lineup_env,
    purge_celery_queue,
    start_celery_beat,
    start_celery_worker,
    start_daphne,
    supervised_processes,
    wait_for,
)

pytestmark = [pytest.mark.celery, pytest.mark.postgres]

RULES = Path(__file__).resolve().parents[2] / "docs" / "operations" / "prometheus-alerts.yml"
SECONDS_PER_MINUTE = 2  # a rule's minute here: scrapes and evaluations every second, sweeps every 0.5 s


def scaled_rules(text: str) -> str:
    """The rules with each duration in minutes (range selectors ``[3m]``, ``for: 1m``) made that
    many times ``SECONDS_PER_MINUTE`` seconds; nothing else changes."""
    scaled = re.sub(r"\[(\d+)m\]", lambda m: f"[{int(m[1]) * SECONDS_PER_MINUTE}s]", text)
    scaled = re.sub(r"for: (\d+)m\b", lambda m: f"for: {int(m[1]) * SECONDS_PER_MINUTE}s", scaled)
    assert "m]" not in scaled and not re.search(r"for: \d+m\b", scaled), "a duration the scaling missed"
    return scaled


def start_prometheus(processes: ProcessSupervisor, tmp_path: Path, *, targets: list[str]) -> int:
    """A real Prometheus scraping ``targets`` as the docs' job (``job="lineup"``, a ``host`` label)."""
    binary = shutil.which("prometheus")
    if binary is None:
        pytest.fail("prometheus is missing: apt-get install prometheus (.ci/run installs it)", pytrace=False)
    (tmp_path / "rules.yml").write_text(scaled_rules(RULES.read_text()))
    config = {
        "global": {"scrape_interval": "1s", "scrape_timeout": "1s", "evaluation_interval": "1s"},
        "rule_files": [str(tmp_path / "rules.yml")],
        "scrape_configs": [{"job_name": "lineup", "static_configs": [{"targets": targets, "labels": {"host": "h1"}}]}],
    }
    (tmp_path / "prometheus.yml").write_text(json.dumps(config))  # JSON is YAML
    port = free_port()
    processes.start(
        "prometheus",
        [
            binary,
            f"--config.file={tmp_path / 'prometheus.yml'}",
            f"--storage.tsdb.path={tmp_path / 'tsdb'}",
            f"--web.listen-address=127.0.0.1:{port}",
        ],
        env={"PATH": "/usr/bin:/bin"},
        ready="Server is ready to receive web requests",
    )
    return port


def api(port: int, path: str, **params: str) -> dict:
    query = f"?{urllib.parse.urlencode(params)}" if params else ""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/{path}{query}", timeout=5) as response:
        body = json.loads(response.read())
    assert body["status"] == "success", body
    return body["data"]


def rule_states(port: int) -> dict[str, tuple[str, float]]:
    """Each alert's state (inactive, pending, firing) and when Prometheus last evaluated it."""
    return {
        rule["name"]: (rule["state"], _unix(rule["lastEvaluation"]))
        for group in api(port, "rules", type="alert")["groups"]
        for rule in group["rules"]
    }


def _unix(stamp: str) -> float:
    from datetime import datetime

    whole, _, fraction = stamp.rstrip("Z").partition(".")
    return datetime.fromisoformat(whole + "+00:00").timestamp() + float(f"0.{fraction or 0}")


@pytest.mark.django_db(transaction=True)
def test_lineup_worker_stopped_fires_on_a_real_scrape_after_the_worker_is_killed(request, tmp_path) -> None:
    env = lineup_env(
        LINEUP_METRICS_DIR=str(tmp_path / "metrics"),
        LINEUP_SWEEP_SECONDS="0.5",
        LINEUP_LOG_FORMAT="json",
        LINEUP_REFERENCE_AGENT_URL="",
    )
    purge_celery_queue(settings.CELERY_TASK_DEFAULT_QUEUE)
    with supervised_processes(request, tmp_path) as processes:
        worker = start_celery_worker(processes, env=env)
        start_celery_beat(processes, env=env)
        daphne_port, _ = start_daphne(processes, "daphne", env=env)
        other_port, other = start_daphne(processes, "daphne-2", env=env)
        targets = [f"127.0.0.1:{daphne_port}", f"127.0.0.1:{other_port}"]
        port = start_prometheus(processes, tmp_path, targets=targets)
        window = 3 * SECONDS_PER_MINUTE  # LineUpWorkerStopped's [3m]

        def sweeping() -> bool:
            query = f'sum(max without (instance) (increase(lineup_sweeps_total{{path="sweep"}}[{window}s])))'
            result = api(port, "query", query=query)["result"]
            return bool(result) and float(result[0]["value"][1]) > 0

        wait_for(sweeping, timeout=60, what="Prometheus to see the sweeps", describe=processes.describe)
        # Healthy: for a full window and the rule's `for` after the sweeps show, evaluations raise nothing.
        healthy_since = time.time()
        seen: dict[str, str] = {}

        def evaluated_since(since: float) -> bool:
            states = rule_states(port)
            seen.update({name: state for name, (state, _) in states.items() if state != "inactive"})
            return min(at for _, at in states.values()) > since

        wait_for(
            lambda: evaluated_since(healthy_since + window + 2 * SECONDS_PER_MINUTE),
            timeout=60,
            what="healthy evaluations",
            describe=processes.describe,
        )
        assert seen == {}, f"alerts on a healthy system: {seen}"

        other.kill()  # one scraped Daphne gone: that target is down, the other still shows the sums
        killed_at = time.time()

        def firing(alertname: str) -> dict | None:
            alerts = [a for a in api(port, "alerts")["alerts"] if a["labels"]["alertname"] == alertname]
            return next((a for a in alerts if a["state"] == "firing"), None)

        not_ready = wait_for(
            lambda: firing("LineUpNotReady"), timeout=60, what="LineUpNotReady", describe=processes.describe
        )
        assert not_ready["labels"]["instance"] == f"127.0.0.1:{other_port}"
        seen.clear()
        # A full window after the kill the sweeps still show through the first Daphne: no false stop.
        wait_for(
            lambda: evaluated_since(killed_at + window + 2 * SECONDS_PER_MINUTE),
            timeout=60,
            what="evaluations after the Daphne's death",
            describe=processes.describe,
        )
        assert "LineUpWorkerStopped" not in seen and "LineUpTargetsMissing" not in seen, seen

        worker.kill()  # SIGKILL, children too: the sweep tasks pile up in Redis, nobody counts them
        killed_at = time.time()
        stopped = wait_for(
            lambda: firing("LineUpWorkerStopped"),
            timeout=60,
            what="LineUpWorkerStopped to fire",
            describe=processes.describe,
        )
        after = time.time() - killed_at
        # The window must empty of sweeps, then the `for` must pass: about 3 + 1 scaled minutes.
        assert after >= window, f"fired {after:.1f} s after the kill, before the window emptied"
        assert stopped["labels"]["severity"] == "critical"
        assert firing("LineUpTargetsMissing") is None  # the first Daphne still answers
