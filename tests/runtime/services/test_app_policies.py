"""One rule across apps (issue 35, decision 0041): a start beside an operation that runs alone, a
stop that names its operation or is refused as ambiguous, and one result for every operation even
when its app shapes a bad one. Driven by the probe MiniApp (tests/support/miniapps/probe) beside the
bundled Pomodoro and quiz, through the real Tool Router (on either database engine: one settlement path, decision 0056).
"""

from __future__ import annotations

import uuid

import pytest

from runtime.models import AppInstance, LifecycleEvent, Operation, OutboxEntry, ToolCall
from runtime.services.operation_views import operation_projection
from runtime.services.recovery import recover_runtime
from runtime.services.settlements import settle_due_batch, settle_operation
from runtime.tool_calls import Accepted, Receipt, Rejected
from runtime.transitions import LifecycleState, OperationState, Trigger
from tests.support.factories import AgentDriver, at

pytestmark = pytest.mark.django_db

QUIZ = {"duration_seconds": 300, "questions": [{"prompt": "1 + 1 =", "answer": "2"}]}


@pytest.fixture
def driver(probe, caller, conversation) -> AgentDriver:
    return AgentDriver(caller=caller, conversation=conversation)


def _front(conversation) -> str:
    return AppInstance.objects.get(conversation=conversation, lifecycle_state=LifecycleState.FOREGROUND).app_id


# --- A start beside an operation that runs alone -------------------------------------------------


@pytest.mark.spec("R-3.8", "R-3.10")
def test_a_quiz_started_during_a_focus_switches_and_ends_the_focus_switched_app(agent, conversation):
    focus = agent.start(600, now=at(0))
    quiz = agent.call("quiz.start", QUIZ, now=at(5))
    assert isinstance(quiz, Accepted)

    ended = Operation.objects.get(pk=focus.operation_id)
    assert (ended.state, ended.interruption_reason) == (OperationState.INTERRUPTED, "switched_app")
    [entry] = OutboxEntry.objects.filter(operation_id=focus.operation_id)
    assert entry.payload["tool"] == "pomodoro.start"
    assert entry.payload["result"]["interruption_reason"] == "switched_app"
    assert AppInstance.objects.get(pk=focus.instance_id).lifecycle_state == LifecycleState.CLOSED
    assert _front(conversation) == "quiz"
    assert Operation.objects.get(pk=quiz.operation_id).state == OperationState.RUNNING

    # Its retry is answered from the stored rows; the focus stays as it ended.
    again = agent.call("quiz.start", QUIZ, now=at(6), call_id=quiz.source_tool_call_id)
    assert isinstance(again, Accepted) and again.replayed and again.operation_id == quiz.operation_id
    assert OutboxEntry.objects.filter(operation_id=focus.operation_id).count() == 1


@pytest.mark.spec("R-3.8")
def test_a_focus_started_during_a_quiz_leaves_the_quiz_running_behind_it(agent, conversation):
    # The quiz may run beside another app (its manifest says nothing else): the focus comes to the front.
    quiz = agent.call("quiz.start", QUIZ, now=at(0))
    focus = agent.start(600, now=at(1))
    assert isinstance(focus, Accepted)
    assert Operation.objects.get(pk=quiz.operation_id).state == OperationState.RUNNING
    assert AppInstance.objects.get(pk=quiz.instance_id).lifecycle_state == LifecycleState.BACKGROUND
    assert _front(conversation) == "pomodoro"


@pytest.mark.spec("R-3.11", "R-3.12")
def test_an_operation_that_runs_alone_refuses_another_apps_start_and_writes_nothing(driver, agent, conversation):
    alone = driver.call("probe.alone", {"minutes": 60}, now=at(0))
    assert isinstance(alone, Accepted)
    counts = (AppInstance.objects.count(), Operation.objects.count(), ToolCall.objects.count())

    for refused in (agent.call("quiz.start", QUIZ, now=at(1)), agent.start(600, now=at(1))):
        assert isinstance(refused, Rejected) and refused.code == "probe_alone"
    assert (AppInstance.objects.count(), Operation.objects.count(), ToolCall.objects.count()) == counts
    assert Operation.objects.get(pk=alone.operation_id).state == OperationState.RUNNING
    assert LifecycleEvent.objects.filter(kind="tool.rejected", data__code="probe_alone").count() == 2

    # Once it has ended, the other app starts.
    driver.call("probe.stop", {}, now=at(2))
    assert isinstance(agent.call("quiz.start", QUIZ, now=at(3)), Accepted)


@pytest.mark.spec("R-3.8")
def test_operations_that_may_run_beside_others_are_not_switched(driver, agent, conversation):
    probe = driver.call("probe.start", {"minutes": 60}, now=at(0))
    solo = driver.call("probe.solo", {"minutes": 60}, now=at(0))
    focus = agent.start(600, now=at(1))
    assert isinstance(focus, Accepted)
    running = Operation.objects.filter(state=OperationState.RUNNING)
    assert set(running.values_list("pk", flat=True)) == {probe.operation_id, solo.operation_id, focus.operation_id}


# --- A stop names its operation, or is refused as ambiguous -------------------------------------


@pytest.mark.spec("R-3.6", "R-3.7")
def test_an_ambiguous_stop_is_refused_with_the_candidates_and_a_named_stop_ends_that_one(driver, conversation):
    first = driver.call("probe.start", {"minutes": 60, "topic": "乘法"}, now=at(0))
    second = driver.call("probe.start", {"minutes": 90}, now=at(1))

    ambiguous = driver.call("probe.stop", {}, now=at(2), call_id="stop-1")
    assert isinstance(ambiguous, Rejected) and ambiguous.code == "ambiguous_operation"
    assert ambiguous.candidates == [
        {
            "operation_id": str(first.operation_id),
            "app_id": "probe",
            "started_at": "2026-01-05T09:00:00.000Z",
            "label": "乘法",  # the app's own label
        },
        {
            "operation_id": str(second.operation_id),
            "app_id": "probe",
            "started_at": "2026-01-05T09:00:01.000Z",
            "label": "Probe",  # none of its own: the app's name
        },
    ]
    assert not ToolCall.objects.filter(source_tool_call_id="stop-1").exists()
    assert Operation.objects.filter(state=OperationState.RUNNING).count() == 2

    named = driver.call("probe.stop", {"operation_id": str(second.operation_id)}, now=at(3), call_id="stop-2")
    assert named.receipt == {"status": "interrupted", "operation_id": str(second.operation_id)}
    assert Operation.objects.get(pk=first.operation_id).state == OperationState.RUNNING
    # Its retry is answered as stored; the same key with another target is another call.
    assert driver.call("probe.stop", {"operation_id": str(second.operation_id)}, now=at(4), call_id="stop-2").replayed
    reused = driver.call("probe.stop", {"operation_id": str(first.operation_id)}, now=at(4), call_id="stop-2")
    assert isinstance(reused, Rejected) and reused.code == "idempotency_key_reused"

    again = driver.call("probe.stop", {"operation_id": str(second.operation_id)}, now=at(5))
    assert again.receipt == {"status": "operation_already_final", "operation_id": str(second.operation_id)}
    for unknown in (str(uuid.uuid4()), "not-an-id"):
        refused = driver.call("probe.stop", {"operation_id": unknown}, now=at(5))
        assert isinstance(refused, Rejected) and refused.code == "unknown_operation"
    # One left running: a stop without a target binds it.
    assert driver.call("probe.stop", {}, now=at(6)).receipt == {
        "status": "interrupted",
        "operation_id": str(first.operation_id),
    }


@pytest.mark.spec("R-3.6")
def test_a_stop_can_not_name_another_apps_operation(driver, agent):
    focus = agent.start(600, now=at(0))
    refused = driver.call("probe.stop", {"operation_id": str(focus.operation_id)}, now=at(1))
    assert isinstance(refused, Rejected) and refused.code == "unknown_operation"
    assert Operation.objects.get(pk=focus.operation_id).state == OperationState.RUNNING


# --- Every operation ends with its one result -----------------------------------------------


@pytest.mark.spec("R-3.9", "R-3.10", "R-4.2.4")
@pytest.mark.parametrize("outcome", ["invalid", "raise"])
def test_a_bad_result_reaches_the_agent_as_one_error_result_and_is_flagged(driver, conversation, outcome):
    started = driver.call("probe.start", {"minutes": 60, "outcome": outcome}, now=at(0))
    settled = settle_operation(operation_id=started.operation_id, trigger=Trigger.DEADLINE, now=at(61))
    assert settled.settled

    operation = Operation.objects.select_related("tool_call").get(pk=started.operation_id)
    assert operation.state == OperationState.COMPLETED
    [entry] = OutboxEntry.objects.filter(operation_id=operation.pk)
    expected = {
        "isError": True,
        "error": {"code": "result_invalid", "detail": "the app could not shape this operation's result"},
        "state": "completed",
        "operation_id": str(operation.pk),
        "started_at": "2026-01-05T09:00:00.000Z",
        "ends_at": "2026-01-05T09:01:00.000Z",
        "ended_at": "2026-01-05T09:01:00.000Z",
    }
    assert entry.payload["result"] == operation.tool_call.result == expected
    # The person sees it ended with a problem; the operator sees it flagged with the reason.
    assert operation_projection(operation)["problem"] == "result_invalid"
    assert operation.settle_flagged_at is not None
    reason = "score: 'many' is not of type 'integer'" if outcome == "invalid" else "RuntimeError"
    assert reason in operation.last_settle_error
    [event] = LifecycleEvent.objects.filter(kind="operation.result_invalid", operation_id=operation.pk)
    assert reason in event.data["reason"]
    assert AppInstance.objects.get(pk=started.instance_id).lifecycle_state == LifecycleState.CLOSED
    # A retry of the start gets the same one result.
    again = driver.call(
        "probe.start", {"minutes": 60, "outcome": outcome}, now=at(62), call_id=started.source_tool_call_id
    )
    assert again.result == expected


@pytest.mark.spec("R-3.9")
def test_an_interrupt_of_an_operation_with_a_bad_result_is_answered_and_the_result_is_the_error(driver):
    started = driver.call("probe.start", {"minutes": 60, "outcome": "raise"}, now=at(0))
    stopped = driver.call("probe.stop", {}, now=at(5))
    assert stopped.receipt == {"status": "interrupted", "operation_id": str(started.operation_id)}
    [entry] = OutboxEntry.objects.filter(operation_id=started.operation_id)
    assert entry.payload["result"]["isError"] is True
    assert entry.payload["result"]["interruption_reason"] == "agent_interrupt"


@pytest.mark.spec("R-3.11")
def test_a_good_result_has_no_problem(driver):
    started = driver.call("probe.start", {"minutes": 60}, now=at(0))
    settle_operation(operation_id=started.operation_id, trigger=Trigger.DEADLINE, now=at(61))
    operation = Operation.objects.select_related("tool_call").get(pk=started.operation_id)
    assert operation.tool_call.result["score"] == 0 and "problem" not in operation_projection(operation)
    assert operation.settle_flagged_at is None


@pytest.mark.spec("R-3.11")
def test_a_handlers_own_bad_receipt_is_answered_with_an_error_and_logged(driver):
    # probe.echo answers a receipt of its own making that breaks its result_schema.
    refused = driver.call("probe.echo", {}, now=at(0), call_id="echo-1")
    assert isinstance(refused, Rejected) and refused.code == "receipt_invalid"
    assert "echo" in refused.detail
    assert not ToolCall.objects.filter(source_tool_call_id="echo-1").exists()
    [event] = LifecycleEvent.objects.filter(kind="tool.rejected", data__code="receipt_invalid")
    assert event.source_tool_call_id == "echo-1"


@pytest.mark.spec("R-3.11")
def test_a_runtime_stop_with_a_receipt_its_schema_refuses_writes_nothing(driver, conversation):
    # Nothing has run: the receipt would be "no_active_operation", which probe.halt's schema lacks.
    refused = driver.call("probe.halt", {}, now=at(0), call_id="halt-1")
    assert isinstance(refused, Rejected) and refused.code == "receipt_invalid"
    assert not ToolCall.objects.filter(source_tool_call_id="halt-1").exists()
    assert not LifecycleEvent.objects.filter(kind="tool.receipt").exists()
    # With one running, its receipt is valid: it is stopped.
    started = driver.call("probe.start", {"minutes": 60}, now=at(1))
    stopped = driver.call("probe.halt", {}, now=at(2))
    assert isinstance(stopped, Receipt) and stopped.receipt["status"] == "interrupted"
    assert Operation.objects.get(pk=started.operation_id).state == OperationState.INTERRUPTED


# --- Recovery of several due operations of one conversation -----------------------------------


@pytest.mark.spec("R-4.4.1", "R-3.10")
def test_one_batch_settles_several_due_operations_of_one_conversation(driver, conversation):
    # Two probes of one conversation (one in front, one behind it) and a quiz behind both, all due:
    # what start-up recovery meets after a restart. One batch settles them all, without an error.
    quiz = driver.call("quiz.start", QUIZ, now=at(0))
    first = driver.call("probe.start", {"minutes": 60}, now=at(1))
    second = driver.call("probe.start", {"minutes": 60}, now=at(2))
    ids = [quiz.operation_id, first.operation_id, second.operation_id]

    outcomes = settle_due_batch(operation_ids=ids, now=at(400))
    assert sorted(str(o.operation_id) for o in outcomes if o.settled) == sorted(str(i) for i in ids)
    assert not Operation.objects.filter(state=OperationState.RUNNING).exists()
    assert OutboxEntry.objects.filter(operation_id__in=ids).count() == 3
    open_apps = AppInstance.objects.filter(conversation=conversation).exclude(lifecycle_state=LifecycleState.CLOSED)
    assert [(i.app_id, i.lifecycle_state) for i in open_apps] == [("interact", LifecycleState.FOREGROUND)]


@pytest.mark.spec("R-4.4.1")
def test_start_up_recovery_of_one_conversations_due_operations_logs_no_batch_failure(driver, conversation, caplog):
    for k in range(3):
        driver.call("probe.start", {"minutes": 60}, now=at(k))
    summary = recover_runtime(now=at(400))
    assert summary.counts()["settled"] == 3
    assert "settlement.batch_failed" not in caplog.text and "IntegrityError" not in caplog.text
