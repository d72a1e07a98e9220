"""The generic deadline operation with another app's policies: not Pomodoro-shaped.

A probe MiniApp is plugged in for these tests exactly as a real one is (a manifest the Runtime
validates, handlers registered through ``runtime.api``): ``probe.start`` is not exclusive and is
not ended by leaving the app, ``probe.solo`` is exclusive with its own rejection code, and the
result is scored from the instance's last snapshot. Pomodoro runs beside it, untouched.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from runtime import miniapps
from runtime.api import (
    OperationView,
    ToolRequest,
    interrupt_operation,
    register_miniapp,
    standard_result,
    start_operation,
)
from runtime.manifests import load_manifest, registry
from runtime.models import AppInstance, InstanceSnapshot, Operation, OutboxEntry
from runtime.services.lifecycle import close_instance, return_to_interact, switch_app
from runtime.services.operations import settle_operation
from runtime.tool_calls import Accepted, Receipt, Rejected
from runtime.transitions import LifecycleState, OperationState, Trigger
from tests.support.factories import AgentDriver, at

pytestmark = pytest.mark.django_db

RESULT_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["state", "operation_id", "started_at", "ends_at", "ended_at", "score"],
    "properties": {
        "state": {"enum": ["completed", "interrupted"]},
        "operation_id": {"type": "string"},
        "started_at": {"type": "string"},
        "ends_at": {"type": "string"},
        "ended_at": {"type": "string"},
        "interruption_reason": {"type": "string"},
        "score": {"type": "integer"},
    },
}
INPUT_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["minutes"],
    "properties": {"minutes": {"type": "integer", "minimum": 1}, "topic": {"type": "string"}},
}


def _operation_tool(name: str, policy: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": name,
        "version": 1,
        "call_model": "operation",
        "description": "A probe operation.",
        "conversation_scopes": ["personal"],
        "deadline_operation": policy,
        "input_schema": INPUT_SCHEMA,
        "result_schema": RESULT_SCHEMA,
    }


MANIFEST = {
    "manifest_version": 1,
    "app_id": "probe",
    "name": "Probe",
    "version": "1.0.0",
    "kind": "bundled",
    "features": ["app.instance-state.v1"],
    "instance_state": {
        "state_schema_version": 1,
        "state_schema": {"type": "object", "properties": {"answers": {"type": "array"}}},
        "max_bytes": 4096,
        "retention": "retain_readonly",
    },
    "tools": [
        _operation_tool(
            "probe.start",
            {"exclusive": False, "ends_when_left": False, "max_duration_seconds": 600, "duration_argument": "minutes"},
        ),
        _operation_tool(
            "probe.solo",
            {
                "exclusive": True,
                "busy_rejection_code": "probe_busy",
                "ends_when_left": False,
                "duration_argument": "minutes",
            },
        ),
        {
            "name": "probe.stop",
            "version": 1,
            "call_model": "short",
            "description": "Stop the probe.",
            "conversation_scopes": ["personal"],
            "input_schema": {"type": "object", "additionalProperties": False},
            "result_schema": {"type": "object"},
        },
    ],
}


def _start(request: ToolRequest) -> Accepted:
    # "minutes" as seconds keeps the test clock short; the policy names the argument.
    return start_operation(
        request,
        duration_seconds=request.arguments["minutes"],
        details={"topic": request.arguments.get("topic")},
        initial_state={"answers": []},
    )


def _stop(request: ToolRequest) -> Receipt:
    return interrupt_operation(request)


def _result(view: OperationView) -> dict[str, Any]:
    answers = (view.instance_state or {}).get("answers", [])
    return {**standard_result(view), "score": sum(1 for a in answers if a == "right")}


def _projection(view: OperationView) -> dict[str, Any]:
    return {"topic": view.details.get("topic")}


@pytest.fixture
def probe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(MANIFEST))
    manifest = load_manifest(path, runtime_tools=frozenset({"probe.start", "probe.solo", "probe.stop"}))
    monkeypatch.setitem(registry(), "probe", manifest)
    monkeypatch.delitem(miniapps._REGISTERED, "probe", raising=False)
    register_miniapp(
        "probe",
        tools={"probe.start": _start, "probe.solo": _start, "probe.stop": _stop},
        result=_result,
        projection=_projection,
    )
    yield
    miniapps._REGISTERED.pop("probe", None)


@pytest.fixture
def driver(probe, caller, conversation) -> AgentDriver:
    return AgentDriver(caller=caller, conversation=conversation)


def _front(conversation) -> str:
    return AppInstance.objects.get(conversation=conversation, lifecycle_state=LifecycleState.FOREGROUND).app_id


@pytest.mark.spec("R-3.3", "R-3.11")
def test_a_non_exclusive_operation_runs_twice_in_the_background_and_is_scored_from_its_snapshot(driver, conversation):
    first = driver.call("probe.start", {"minutes": 60, "topic": "乘法"}, now=at(0))
    second = driver.call("probe.start", {"minutes": 90}, now=at(1))
    assert isinstance(first, Accepted) and isinstance(second, Accepted)
    assert Operation.objects.filter(app_id="probe", state=OperationState.RUNNING).count() == 2
    assert Operation.objects.get(pk=first.operation_id).details == {"topic": "乘法"}

    # Leaving does not end it (ends_when_left: false): it waits in the background.
    return_to_interact(conversation_id=conversation.id, now=at(2))
    assert _front(conversation) == "interact"
    assert Operation.objects.get(pk=second.operation_id).state == OperationState.RUNNING
    assert AppInstance.objects.get(pk=second.instance_id).lifecycle_state == LifecycleState.BACKGROUND

    InstanceSnapshot.objects.filter(instance_id=first.instance_id).update(
        state={"answers": ["right", "wrong", "right"]}, revision=1
    )
    settle_operation(operation_id=first.operation_id, trigger=Trigger.DEADLINE, now=at(60))
    entry = OutboxEntry.objects.get(operation_id=first.operation_id)
    assert entry.payload["tool"] == "probe.start"
    assert (entry.payload["result"]["state"], entry.payload["result"]["score"]) == ("completed", 2)
    assert _front(conversation) == "interact"  # a background app ending does not take the front

    # The short tool stops the app's latest running one.
    stopped = driver.call("probe.stop", {}, now=at(61))
    assert stopped.receipt == {"status": "interrupted", "operation_id": str(second.operation_id)}
    assert driver.call("probe.stop", {}, now=at(62)).receipt["status"] == "operation_already_final"


@pytest.mark.spec("R-3.12", "R-3.8")
def test_an_exclusive_operation_is_refused_with_its_apps_code_and_closing_the_app_ends_it(driver, conversation):
    assert driver.call("probe.stop", {}, now=at(0)).receipt == {"status": "no_active_operation"}
    solo = driver.call("probe.solo", {"minutes": 60}, now=at(0))
    assert isinstance(solo, Accepted)
    busy = driver.call("probe.solo", {"minutes": 60}, now=at(1))
    assert isinstance(busy, Rejected) and busy.code == "probe_busy"
    # Pomodoro beside it: another app, so not refused; and starting it leaves the probe running.
    focus = driver.start(600, now=at(2))
    assert isinstance(focus, Accepted)
    assert Operation.objects.get(pk=solo.operation_id).state == OperationState.RUNNING
    assert _front(conversation) == "pomodoro"

    # Switching to the probe from Pomodoro ends the focus (Pomodoro's policy), not the probe.
    switch_app(conversation_id=conversation.id, instance_id=solo.instance_id, now=at(3))
    assert Operation.objects.get(pk=focus.operation_id).interruption_reason == "switched_app"
    close_instance(conversation_id=conversation.id, instance_id=solo.instance_id, now=at(4))
    operation = Operation.objects.get(pk=solo.operation_id)
    assert (operation.state, operation.interruption_reason) == (OperationState.INTERRUPTED, "app_closed")


@pytest.mark.spec("R-3.11")
def test_the_manifests_maximum_and_duration_argument_are_enforced(driver):
    refused = driver.call("probe.start", {"minutes": 601}, now=at(0))
    assert isinstance(refused, Rejected) and refused.code == "invalid_arguments"
    assert refused.detail == "minutes: 601 is more than the limit of 600"
    assert isinstance(driver.call("probe.start", {"minutes": 600}, now=at(0)), Accepted)
