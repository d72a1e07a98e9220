"""The alert rules and the dashboard: valid, tested on incidents, and reading series a real scrape has.

``promtool test rules`` runs docs/operations/prometheus-alerts.test.yml: a healthy deployment alerts
nothing; a killed Daphne raises LineUpNotReady for that one; every target gone raises
LineUpTargetsMissing; a killed worker raises LineUpWorkerStopped and LineUpOverdue; a lag incident
raises LineUpSettlementLagHigh, which clears five minutes after it ends, also when the late
settlements carry the previous release's labels (a rolling upgrade). The rules on main before issue 41
fail four of those cases.

Every ``lineup_*`` series a rule, that test or a dashboard panel selects (name and exact label values)
is in a real scrape of ``/metrics`` of a process that has settled one focus and done nothing else: a
panel over a series that does not exist shows "No data" on a healthy system, and an ``increase(...) == 0``
rule over it can never fire. A panel over what a healthy system may never do (a rejection) ends in
``or vector(0)``.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from runtime.services.settlements import settle_operation
from runtime.transitions import Trigger
from tests.support.factories import T0, at

OPERATIONS = Path(__file__).resolve().parents[2] / "docs" / "operations"
SELECTOR = re.compile(r"\b(lineup_\w+)(\{[^}]*\})?")
MATCHER = re.compile(r'(\w+)\s*=\s*"([^"]*)"')  # equality matchers only (=~ selects by pattern)


def _promtool(*args: str) -> str:
    promtool = shutil.which("promtool")
    if promtool is None:
        pytest.fail("promtool is missing: apt-get install prometheus (.ci/run installs it)", pytrace=False)
    done = subprocess.run([promtool, *args], cwd=OPERATIONS, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_rules_are_valid_and_pass_their_incident_tests() -> None:
    assert "SUCCESS: 7 rules found" in _promtool("check", "rules", "prometheus-alerts.yml")
    assert "SUCCESS" in _promtool("test", "rules", "prometheus-alerts.test.yml")


def _expressions() -> list[str]:
    rules = (OPERATIONS / "prometheus-alerts.yml").read_text()
    tests = (OPERATIONS / "prometheus-alerts.test.yml").read_text()
    exprs = re.findall(r"^\s*expr: (.*)$", rules, re.MULTILINE)
    # A series marked "previous release" is the release before's labels, which the rules still read
    # during a rolling upgrade: this release's scrape has it no more.
    exprs += [
        series
        for line in tests.splitlines()
        if "# previous release" not in line
        for series in re.findall(r"series: '([^']*)'", line)
    ]
    dashboard = json.loads((OPERATIONS / "grafana-dashboard.json").read_text())

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "expr" and isinstance(value, str):
                    exprs.append(value)
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(dashboard)
    return exprs


@pytest.mark.django_db(transaction=True)  # the metrics are counted after commit
def test_every_series_the_rules_and_the_dashboard_select_is_in_a_real_scrape(client, agent) -> None:
    """A healthy system's first minutes: one focus started and settled at its deadline, then a scrape."""
    started = agent.start(1, now=T0)
    settle_operation(operation_id=started.operation_id, trigger=Trigger.DEADLINE, now=at(2))
    scrape = client.get("/metrics")
    assert scrape.status_code == 200
    samples = [
        (sample.name, sample.labels)
        for family in text_string_to_metric_families(scrape.content.decode())
        for sample in family.samples
    ]
    selected = [
        (name, dict(MATCHER.findall(labels or "")))
        for e in _expressions()
        if not e.rstrip().endswith("or vector(0)")
        for name, labels in SELECTOR.findall(e)
    ]
    assert len(selected) > 30
    ignored = {"job", "instance", "host"}  # Prometheus' target labels, not the process's
    missing = sorted(
        {
            f"{name}{labels}"
            for name, labels in selected
            if not any(
                n == name and all(got.get(k) == v for k, v in labels.items() if k not in ignored) for n, got in samples
            )
        }
    )
    assert not missing, f"selected but not in the scrape (No data on a healthy system): {missing}"
