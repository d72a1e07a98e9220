"""The generic deadline operation with another app's policies: not Pomodoro-shaped.

The probe MiniApp (tests/support/miniapps/probe) is plugged in for these tests exactly as a real one
is (a manifest the Runtime validates, handlers registered through ``runtime.api``): ``probe.start``
is not exclusive and is not ended by leaving the app, ``probe.solo`` is exclusive with its own
rejection code, and the result is scored from the instance's last snapshot. Pomodoro runs beside
it, untouched.
"""

from __future__ import annotations

import uuid

import pytest

from runtime.api import ToolRequest, start_operation
from runtime.models import AppInstance, InstanceSnapshot, Operation, OutboxEntry
from runtime.services.lifecycle import close_instance, return_to_interact, switch_app
from runtime.services.settlements import settle_operation
from runtime.tool_calls import Accepted, Rejected
from runtime.transitions import LifecycleState, OperationState, Trigger
from tests.support.factories import AgentDriver, at

pytestmark = pytest.mark.django_db


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


@pytest.mark.spec("R-3.11")
def test_an_app_asking_for_a_deadline_at_its_own_start_is_told_so_and_nothing_is_written(probe, conversation):
    request = ToolRequest(
        conversation_id=conversation.id,
        source_tool_call_id="zero",
        tool="probe.start",
        arguments={"minutes": 1},
        now=at(0),
        caller="agent:test",
        agent_id=uuid.uuid4(),
        channel="agent_socket",
    )
    with pytest.raises(ValueError, match="duration_seconds must be at least 1, not 0"):
        start_operation(request, duration_seconds=0)
    assert not Operation.objects.filter(conversation=conversation).exists()
