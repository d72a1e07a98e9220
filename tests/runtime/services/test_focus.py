"""Focus services: start, interrupt and settlement of Pomodoro deadline operations (SPEC §3, §4.2).

Driven through the real Tool Router (``agent``) and ``settle_operation``, on PostgreSQL, with the
clock passed in (``at(seconds)``). Every test checks the rows, not only the returned values.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from runtime.clock import isoformat, to_millis
from runtime.inventory import inventory_for_scope
from runtime.models import (
    AppInstance,
    AppSession,
    AppSessionState,
    Conversation,
    InstanceSnapshot,
    LifecycleEvent,
    Operation,
    OutboxEntry,
    ToolCall,
    ToolCallStatus,
)
from runtime.services.lifecycle import open_app
from runtime.services.operation_views import operation_result
from runtime.services.settlements import settle_operation
from runtime.tool_calls import Accepted, Receipt, Rejected
from runtime.tool_router import Caller
from runtime.transitions import AlreadyFinal, LifecycleState, NotDue, OperationState, Settle, Trigger
from tests.support.factories import T0, AgentDriver, activity_of, at, new_call_id, planned_seconds

pytestmark = pytest.mark.django_db

DURATION = 25 * 60
ENDS = DURATION  # seconds after T0 at which a focus started at T0 is due


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # Creating the fixture users with the default PBKDF2 costs ~0.6 s each; these tests never log in.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def world() -> dict[str, Any]:
    """Everything a decision could change, by identity and state (so counts are covered too)."""
    return {
        "instances": sorted(
            (str(i.id), i.app_id, i.is_system, i.lifecycle_state, i.focus_seq, i.closed_at)
            for i in AppInstance.objects.all()
        ),
        "sessions": sorted((str(s.id), s.state, s.ended_at) for s in AppSession.objects.all()),
        "operations": sorted((str(o.id), o.state, o.ended_at, o.interruption_reason) for o in Operation.objects.all()),
        "tool_calls": sorted((str(c.id), c.status, repr(c.result), repr(c.receipt)) for c in ToolCall.objects.all()),
        "outbox": sorted(str(e.id) for e in OutboxEntry.objects.all()),
        "snapshots": sorted((str(s.instance_id), s.revision) for s in InstanceSnapshot.objects.all()),
    }


def foreground_app(conversation: Conversation) -> str | None:
    instance = AppInstance.objects.filter(conversation=conversation, lifecycle_state=LifecycleState.FOREGROUND).first()
    return instance.app_id if instance else None


def start_result_validator() -> Any:
    return inventory_for_scope("personal").get("pomodoro.start").result_validator


def interrupt_result_validator() -> Any:
    return inventory_for_scope("personal").get("pomodoro.interrupt").result_validator


def assert_settled(operation: Operation, *, state: OperationState, ended_at, reason: str | None) -> None:
    """The full aftermath of a settlement (R-3.10, R-4.2.4, R-4.2.6): one result, then closed."""
    operation.refresh_from_db()
    assert operation.state == state
    assert operation.ended_at == ended_at
    assert operation.interruption_reason == reason
    assert operation.settled_at is not None

    entries = list(OutboxEntry.objects.filter(operation=operation))
    assert len(entries) == 1
    assert OutboxEntry.objects.filter(tool_call_id=operation.tool_call_id).count() == 1
    payload = entries[0].payload
    assert payload["source_tool_call_id"] == operation.source_tool_call_id
    assert payload["tool"] == "pomodoro.start"
    assert payload["conversation_id"] == str(operation.conversation_id)
    result = payload["result"]
    assert list(start_result_validator().iter_errors(result)) == []
    expected = {
        "state": str(state),
        "operation_id": str(operation.id),
        "started_at": isoformat(operation.started_at),
        "ends_at": isoformat(operation.ends_at),
        "ended_at": isoformat(ended_at),
    }
    if reason is not None:
        expected["interruption_reason"] = reason
    assert result == expected

    # The long start is final with that same result; never rewritten to cancelled(app_closed).
    start_call = ToolCall.objects.get(pk=operation.tool_call_id)
    assert start_call.status == ToolCallStatus.SUCCEEDED
    assert start_call.result == result
    assert start_call.cancel_reason == ""
    assert start_call.finished_at is not None

    instance = AppInstance.objects.get(pk=operation.instance_id)
    assert instance.lifecycle_state == LifecycleState.CLOSED
    assert instance.closed_at is not None
    assert instance.close_reason == (reason or "completed")
    session = AppSession.objects.get(pk=operation.app_session_id)
    assert session.state == AppSessionState.ENDED
    assert session.ended_at is not None


def accepted(outcome: object) -> Accepted:
    assert isinstance(outcome, Accepted), outcome
    return outcome


def receipt_of(outcome: object) -> dict[str, Any]:
    assert isinstance(outcome, Receipt), outcome
    assert list(interrupt_result_validator().iter_errors(outcome.receipt)) == []
    return outcome.receipt


# --- start -------------------------------------------------------------------------------------


@pytest.mark.spec("R-2.2.1", "R-3.1", "R-3.3", "R-3.5", "R-4.3.1", "R-4.1.2")
def test_start_creates_one_instance_session_and_operation_and_brings_pomodoro_to_the_front(agent, conversation):
    """pomodoro.start creates exactly one instance, one sub-session and one focusing operation — three
    distinct ids — with the R-3.3 fields, ends_at = started_at + duration, Pomodoro in the foreground."""
    call_id = new_call_id("start")
    outcome = accepted(agent.start(DURATION, "homework", now=T0, call_id=call_id))

    assert outcome.replayed is False
    assert outcome.result is None
    assert len({outcome.operation_id, outcome.instance_id, outcome.app_session_id}) == 3

    instance = AppInstance.objects.get(is_system=False)
    session = AppSession.objects.get()
    operation = Operation.objects.get()
    assert (instance.id, session.id, operation.id) == (
        outcome.instance_id,
        outcome.app_session_id,
        outcome.operation_id,
    )
    assert instance.app_id == "pomodoro"
    assert instance.conversation_id == conversation.id
    assert session.instance_id == instance.id
    assert session.state == AppSessionState.OPEN
    assert session.ended_at is None

    # operation_id, source_tool_call_id, activity?, duration_seconds, started_at, ends_at,
    # state, ended_at?, interruption_reason?
    assert operation.source_tool_call_id == call_id
    assert activity_of(operation) == "homework"
    assert planned_seconds(operation) == DURATION
    assert operation.started_at == T0
    assert operation.ends_at == operation.started_at + timedelta(seconds=DURATION)
    assert operation.state == OperationState.RUNNING
    assert operation.ended_at is None
    assert operation.interruption_reason is None
    assert operation.instance_id == instance.id
    assert operation.app_session_id == session.id

    start_call = ToolCall.objects.get()
    assert start_call.pk == operation.tool_call_id
    assert start_call.status == ToolCallStatus.ACCEPTED
    assert start_call.tool == "pomodoro.start"
    assert start_call.arguments == {"duration_seconds": DURATION, "activity": "homework"}
    assert start_call.instance_id == instance.id
    assert start_call.result is None

    assert OutboxEntry.objects.count() == 0
    assert foreground_app(conversation) == "pomodoro"
    interact = AppInstance.objects.get(is_system=True, conversation=conversation)
    assert interact.app_id == "interact"
    assert interact.lifecycle_state == LifecycleState.BACKGROUND

    # One audit event for the whole start, naming what it opened and what went to the background.
    [started] = LifecycleEvent.objects.filter(operation_id=operation.id)
    assert (started.kind, started.instance_id, started.app_session_id) == ("operation.started", instance.id, session.id)
    assert started.data["app_id"] == "pomodoro"
    assert started.data["backgrounded"] == {
        "instance_id": str(interact.id),
        "app_id": "interact",
        "previous": "foreground",
    }


@pytest.mark.spec("R-3.3", "R-3.4")
def test_start_without_activity_stores_no_activity_and_truncates_time_to_milliseconds(agent):
    """activity is optional (absent, not empty); started_at is kept at millisecond precision so the
    stored time and its ISO text are the same instant, and ends_at follows from it."""
    now = T0 + timedelta(microseconds=123_456)
    accepted(agent.start(60, now=now))
    operation = Operation.objects.get()
    assert activity_of(operation) is None
    assert ToolCall.objects.get().arguments == {"duration_seconds": 60}
    assert operation.started_at == to_millis(now) == T0 + timedelta(microseconds=123_000)
    assert operation.ends_at == operation.started_at + timedelta(seconds=60)


@pytest.mark.spec("R-3.5", "R-3.1")
def test_a_retry_of_the_start_returns_the_same_operation_before_and_after_it_is_final(agent):
    """The same source_tool_call_id returns the existing operation (no new rows) while focusing, and
    once final returns it again with the final result."""
    call_id = new_call_id("start")
    first = accepted(agent.start(DURATION, "reading", now=T0, call_id=call_id))
    before = world()

    retry = accepted(agent.start(DURATION, "reading", now=at(5), call_id=call_id))
    assert retry.replayed is True
    assert retry.result is None
    assert (retry.operation_id, retry.instance_id, retry.app_session_id) == (
        first.operation_id,
        first.instance_id,
        first.app_session_id,
    )
    assert world() == before

    assert receipt_of(agent.interrupt(now=at(30)))["status"] == "interrupted"
    after_final = world()

    late = accepted(agent.start(DURATION, "reading", now=at(ENDS + 100), call_id=call_id))
    operation = Operation.objects.get(pk=first.operation_id)
    assert late.replayed is True
    assert late.operation_id == first.operation_id
    assert late.result == operation_result(operation)
    assert late.result["state"] == "interrupted"
    assert late.result["interruption_reason"] == "agent_interrupt"
    assert world() == after_final


@pytest.mark.spec("R-3.12")
def test_a_second_start_with_another_call_id_is_rejected_and_creates_nothing(agent, conversation):
    """While one focus runs, another pomodoro.start is rejected active_focusing_operation: no
    instance, sub-session, operation, tool call, outbox or focus change; the running one goes on."""
    first = accepted(agent.start(DURATION, now=T0))
    before = world()
    last_event = LifecycleEvent.objects.order_by("-id").values_list("id", flat=True).first()

    call_id = new_call_id("start")
    outcome = agent.start(60, "other", now=at(10), call_id=call_id)

    assert isinstance(outcome, Rejected)
    assert outcome.code == "active_focusing_operation"
    assert outcome.source_tool_call_id == call_id
    assert "focusing operation" in outcome.detail
    assert world() == before
    assert foreground_app(conversation) == "pomodoro"
    assert Operation.objects.get().state == OperationState.RUNNING
    # The only trace is the rejection itself, naming the operation that blocked it.
    new_events = list(LifecycleEvent.objects.filter(id__gt=last_event).order_by("id"))
    assert [e.kind for e in new_events] == ["tool.rejected"]
    assert new_events[0].data["code"] == "active_focusing_operation"
    assert new_events[0].operation_id == first.operation_id
    assert new_events[0].source_tool_call_id == call_id


@pytest.mark.spec("R-3.12")
def test_the_rejected_second_start_can_not_be_replayed_into_an_operation(agent):
    """A rejected call stores nothing, so retrying its id after the first focus ended starts a focus
    of its own instead of being answered with the rejection or with the first operation."""
    first = accepted(agent.start(DURATION, now=T0))
    call_id = new_call_id("start")
    assert isinstance(agent.start(60, now=at(10), call_id=call_id), Rejected)
    receipt_of(agent.interrupt(now=at(20)))

    second = accepted(agent.start(60, now=at(30), call_id=call_id))
    assert second.replayed is False
    assert second.operation_id != first.operation_id
    assert Operation.objects.get(pk=second.operation_id).state == OperationState.RUNNING


@pytest.mark.spec("R-3.12")
def test_focus_in_one_conversation_does_not_block_another(agent, user):
    """At most one focusing operation per conversation, not per user: another conversation starts its own."""
    accepted(agent.start(DURATION, now=T0))
    second = Conversation.objects.create(owner=user, title="Second")
    other = AgentDriver(caller=agent.caller, conversation=second)
    outcome = accepted(other.start(60, now=at(1)))
    assert Operation.objects.filter(state=OperationState.RUNNING).count() == 2
    assert foreground_app(second) == "pomodoro"
    assert Operation.objects.get(pk=outcome.operation_id).conversation_id == second.id


# --- interrupt ---------------------------------------------------------------------------------


@pytest.mark.spec("R-3.6", "R-3.7", "R-3.10", "R-4.2.4", "R-4.2.6", "R-4.2.8")
def test_interrupt_settles_the_focus_interrupted_and_restores_interact(agent, conversation):
    """pomodoro.interrupt({}) binds the conversation's focusing operation, settles it interrupted at
    now with one outbox entry, closes Pomodoro, ends the sub-session and brings Interact back."""
    start = accepted(agent.start(DURATION, "homework", now=T0))
    call_id = new_call_id("interrupt")

    receipt = receipt_of(agent.interrupt(now=at(90), call_id=call_id))

    assert receipt == {"status": "interrupted", "operation_id": str(start.operation_id)}
    operation = Operation.objects.get(pk=start.operation_id)
    assert_settled(operation, state=OperationState.INTERRUPTED, ended_at=at(90), reason="agent_interrupt")
    assert foreground_app(conversation) == "interact"

    interrupt_call = ToolCall.objects.get(source_tool_call_id=call_id)
    assert interrupt_call.tool == "pomodoro.interrupt"
    assert interrupt_call.status == ToolCallStatus.SUCCEEDED
    assert interrupt_call.arguments == {}
    assert interrupt_call.receipt == receipt
    assert OutboxEntry.objects.count() == 1  # the receipt is not a second result


@pytest.mark.spec("R-3.7")
def test_a_second_interrupt_gets_operation_already_final_and_changes_nothing(agent):
    """A later interrupt (another call id) answers operation_already_final for the same operation and
    never rewrites the terminal state nor adds an outbox entry."""
    start = accepted(agent.start(DURATION, now=T0))
    receipt_of(agent.interrupt(now=at(10)))
    before = world()

    receipt = receipt_of(agent.interrupt(now=at(20)))

    assert receipt == {"status": "operation_already_final", "operation_id": str(start.operation_id)}
    operation = Operation.objects.get(pk=start.operation_id)
    assert operation.state == OperationState.INTERRUPTED
    assert operation.ended_at == at(10)
    assert OutboxEntry.objects.count() == 1
    after = world()
    # Only the new interrupt's own tool call row was added.
    assert {k: v for k, v in after.items() if k != "tool_calls"} == {
        k: v for k, v in before.items() if k != "tool_calls"
    }
    assert len(after["tool_calls"]) == len(before["tool_calls"]) + 1


@pytest.mark.spec("R-3.7")
def test_interrupt_in_a_conversation_that_never_focused_gets_no_active_focusing_operation(agent, user):
    """In a fresh conversation the receipt is no_active_focusing_operation, with no operation id and
    no instance, session, operation or outbox created."""
    fresh = Conversation.objects.create(owner=user, title="Fresh")
    driver = AgentDriver(caller=agent.caller, conversation=fresh)

    receipt = receipt_of(driver.interrupt(now=at(5)))

    assert receipt == {"status": "no_active_focusing_operation"}
    assert AppInstance.objects.filter(is_system=False).count() == 0
    assert AppSession.objects.count() == 0
    assert Operation.objects.count() == 0
    assert OutboxEntry.objects.count() == 0
    assert foreground_app(fresh) == "interact"


@pytest.mark.spec("R-3.7", "R-3.6")
def test_a_retry_of_the_same_interrupt_returns_the_same_receipt_and_adds_no_rows(agent):
    """The interrupt's source_tool_call_id is its idempotency key: a retry, even after a new focus
    started, returns the stored receipt and touches nothing (it does not interrupt the new focus)."""
    start = accepted(agent.start(DURATION, now=T0))
    call_id = new_call_id("interrupt")
    first = receipt_of(agent.interrupt(now=at(10), call_id=call_id))
    before = world()

    retry = agent.interrupt(now=at(11), call_id=call_id)
    assert isinstance(retry, Receipt)
    assert retry.replayed is True
    assert retry.receipt == first == {"status": "interrupted", "operation_id": str(start.operation_id)}
    assert world() == before

    second = accepted(agent.start(60, now=at(20)))
    before = world()
    late_retry = agent.interrupt(now=at(21), call_id=call_id)
    assert isinstance(late_retry, Receipt)
    assert late_retry.receipt == first
    assert world() == before
    assert Operation.objects.get(pk=second.operation_id).state == OperationState.RUNNING


@pytest.mark.spec("R-3.7", "R-3.9")
def test_a_retry_of_a_no_active_receipt_stays_no_active_after_a_focus_starts(agent):
    """A replayed receipt is the stored one: no_active_focusing_operation stays that, it does not bind
    a focus started later."""
    call_id = new_call_id("interrupt")
    assert receipt_of(agent.interrupt(now=at(0), call_id=call_id)) == {"status": "no_active_focusing_operation"}
    start = accepted(agent.start(60, now=at(1)))
    retry = agent.interrupt(now=at(2), call_id=call_id)
    assert isinstance(retry, Receipt)
    assert retry.receipt == {"status": "no_active_focusing_operation"}
    assert Operation.objects.get(pk=start.operation_id).state == OperationState.RUNNING


@pytest.mark.spec("R-3.9", "R-4.4.1", "R-3.7")
@pytest.mark.parametrize("late_by", [0, 1, 3600])
def test_an_interrupt_at_or_after_ends_at_settles_completed_at_ends_at(agent, conversation, late_by):
    """Once ends_at is reached the agreed duration was reached: an interrupt then settles completed
    with ended_at == ends_at (however late) and its receipt is operation_already_final."""
    start = accepted(agent.start(DURATION, now=T0))

    receipt = receipt_of(agent.interrupt(now=at(ENDS + late_by)))

    assert receipt == {"status": "operation_already_final", "operation_id": str(start.operation_id)}
    operation = Operation.objects.get(pk=start.operation_id)
    assert_settled(operation, state=OperationState.COMPLETED, ended_at=at(ENDS), reason=None)
    assert foreground_app(conversation) == "interact"


@pytest.mark.spec("R-3.9")
def test_an_interrupt_one_millisecond_before_ends_at_still_interrupts(agent):
    """The boundary is exact: just before ends_at the interrupt wins as interrupted."""
    start = accepted(agent.start(60, now=T0))
    now = at(60) - timedelta(milliseconds=1)
    assert receipt_of(agent.interrupt(now=now))["status"] == "interrupted"
    operation = Operation.objects.get(pk=start.operation_id)
    assert_settled(operation, state=OperationState.INTERRUPTED, ended_at=now, reason="agent_interrupt")


# --- deadline settlement -----------------------------------------------------------------------


@pytest.mark.spec("R-4.2.3", "R-3.4")
def test_a_deadline_before_ends_at_is_not_due_and_changes_nothing(agent, conversation):
    """settle_operation(DEADLINE) before ends_at answers NotDue: still focusing, no outbox, Pomodoro
    still in front."""
    start = accepted(agent.start(DURATION, now=T0))
    before = world()

    for now in (at(0), at(ENDS - 1), at(ENDS) - timedelta(milliseconds=1)):
        outcome = settle_operation(operation_id=start.operation_id, trigger=Trigger.DEADLINE, now=now)
        assert outcome.decision == NotDue()
        assert outcome.settled is False

    assert world() == before
    assert foreground_app(conversation) == "pomodoro"


@pytest.mark.spec("R-2.2.5", "R-3.10", "R-4.2.4", "R-4.2.8", "R-4.4.1")
@pytest.mark.parametrize("late_by", [0, 7200])
def test_the_deadline_at_ends_at_completes_and_restores_interact(agent, conversation, late_by):
    """At (or long after) ends_at the deadline settles completed with ended_at = ends_at, writes one
    outbox entry whose result satisfies the manifest's result_schema, closes Pomodoro, ends the
    sub-session and brings Interact back."""
    start = accepted(agent.start(DURATION, "meditation", now=T0))

    outcome = settle_operation(operation_id=start.operation_id, trigger=Trigger.DEADLINE, now=at(ENDS + late_by))

    assert outcome.settled is True
    assert outcome.decision == Settle(OperationState.COMPLETED, ended_at=at(ENDS))
    operation = Operation.objects.get(pk=start.operation_id)
    assert_settled(operation, state=OperationState.COMPLETED, ended_at=at(ENDS), reason=None)
    assert operation.settled_at == at(ENDS + late_by)
    assert foreground_app(conversation) == "interact"
    assert AppInstance.objects.get(is_system=True, conversation=conversation).lifecycle_state == (
        LifecycleState.FOREGROUND
    )


@pytest.mark.spec("R-2.2.5", "R-3.7", "R-3.9")
def test_settling_twice_adds_nothing(agent):
    """A second deadline (a redelivered eta, the sweep) and a late interrupt find the operation final:
    no second outbox entry, no rewritten result."""
    start = accepted(agent.start(60, now=T0))
    settle_operation(operation_id=start.operation_id, trigger=Trigger.DEADLINE, now=at(60))
    before = world()

    again = settle_operation(operation_id=start.operation_id, trigger=Trigger.DEADLINE, now=at(61))
    assert again.decision == AlreadyFinal(OperationState.COMPLETED)
    assert again.settled is False
    for trigger in Trigger:
        assert settle_operation(operation_id=start.operation_id, trigger=trigger, now=at(62)).settled is False
    assert world() == before
    assert OutboxEntry.objects.count() == 1


@pytest.mark.spec("R-3.6", "R-4.2.3")
def test_settlement_needs_no_surface(agent):
    """Nothing ever loaded a Surface or saved a snapshot (revision 0, no state): the deadline and the
    interrupt settle all the same, and the snapshot stays unwritten."""
    first = accepted(agent.start(60, now=T0))
    snapshot = InstanceSnapshot.objects.get(instance_id=first.instance_id)
    assert (snapshot.revision, snapshot.state) == (0, None)

    assert settle_operation(operation_id=first.operation_id, trigger=Trigger.DEADLINE, now=at(60)).settled
    assert_settled(
        Operation.objects.get(pk=first.operation_id), state=OperationState.COMPLETED, ended_at=at(60), reason=None
    )

    second = accepted(agent.start(60, now=at(100)))
    assert receipt_of(agent.interrupt(now=at(110)))["status"] == "interrupted"
    assert_settled(
        Operation.objects.get(pk=second.operation_id),
        state=OperationState.INTERRUPTED,
        ended_at=at(110),
        reason="agent_interrupt",
    )
    for instance_id in (first.instance_id, second.instance_id):
        snapshot = InstanceSnapshot.objects.get(instance_id=instance_id)
        assert (snapshot.revision, snapshot.state) == (0, None)


# --- continue ----------------------------------------------------------------------------------


@pytest.mark.spec("R-3.13", "R-4.3.5", "R-4.3.1")
def test_a_new_start_after_a_final_one_creates_a_new_instance_session_and_operation(agent, conversation):
    """Continuing never reuses the closed instance or the ended sub-session: a new start after a final
    one gets three new ids, and the old rows stay closed / ended / final."""
    old = accepted(agent.start(60, now=T0))
    settle_operation(operation_id=old.operation_id, trigger=Trigger.DEADLINE, now=at(60))
    old_result = ToolCall.objects.get(operation__id=old.operation_id).result

    new = accepted(agent.start(60, "round two", now=at(70)))

    old_ids = {old.operation_id, old.instance_id, old.app_session_id}
    new_ids = {new.operation_id, new.instance_id, new.app_session_id}
    assert len(new_ids) == 3
    assert old_ids.isdisjoint(new_ids)
    assert AppInstance.objects.filter(is_system=False).count() == 2
    assert AppSession.objects.count() == 2
    assert Operation.objects.count() == 2

    assert AppInstance.objects.get(pk=old.instance_id).lifecycle_state == LifecycleState.CLOSED
    assert AppSession.objects.get(pk=old.app_session_id).state == AppSessionState.ENDED
    old_operation = Operation.objects.get(pk=old.operation_id)
    assert old_operation.state == OperationState.COMPLETED
    assert ToolCall.objects.get(operation__id=old.operation_id).result == old_result

    assert AppInstance.objects.get(pk=new.instance_id).lifecycle_state == LifecycleState.FOREGROUND
    assert AppSession.objects.get(pk=new.app_session_id).state == AppSessionState.OPEN
    assert Operation.objects.get(pk=new.operation_id).state == OperationState.RUNNING
    assert foreground_app(conversation) == "pomodoro"
    assert OutboxEntry.objects.count() == 1

    # The new round settles on its own, with its own single outbox entry.
    receipt = receipt_of(agent.interrupt(now=at(80)))
    assert receipt["operation_id"] == str(new.operation_id)
    assert OutboxEntry.objects.count() == 2
    assert Operation.objects.get(pk=old.operation_id).ended_at == at(60)


@pytest.mark.spec("R-4.2.8")
def test_settlement_restores_the_previous_valid_foreground_app(agent, conversation):
    """When Pomodoro was started over another open app, settling brings that app back, not Interact."""
    notes = open_app(conversation_id=conversation.id, app_id="notes", now=T0)
    assert foreground_app(conversation) == "notes"
    start = accepted(agent.start(60, now=at(1)))
    assert foreground_app(conversation) == "pomodoro"
    assert AppInstance.objects.get(pk=notes.id).lifecycle_state == LifecycleState.BACKGROUND

    settle_operation(operation_id=start.operation_id, trigger=Trigger.DEADLINE, now=at(61))

    assert AppInstance.objects.get(pk=start.instance_id).lifecycle_state == LifecycleState.CLOSED
    assert AppInstance.objects.get(pk=notes.id).lifecycle_state == LifecycleState.FOREGROUND
    assert AppInstance.objects.get(is_system=True, conversation=conversation).lifecycle_state == (
        LifecycleState.BACKGROUND
    )


@pytest.mark.spec("R-3.6", "R-2.2.3")
def test_interrupt_binds_only_the_calling_conversations_focus(agent, user):
    """Two conversations focusing: an interrupt in one settles its own operation only."""
    mine = accepted(agent.start(60, now=T0))
    second = Conversation.objects.create(owner=user, title="Second")
    other = AgentDriver(caller=Caller(label="agent:two", user_id=user.id), conversation=second)
    theirs = accepted(other.start(60, now=T0))

    receipt = receipt_of(other.interrupt(now=at(5)))

    assert receipt["operation_id"] == str(theirs.operation_id)
    assert Operation.objects.get(pk=theirs.operation_id).state == OperationState.INTERRUPTED
    assert Operation.objects.get(pk=mine.operation_id).state == OperationState.RUNNING
    assert AppInstance.objects.get(pk=mine.instance_id).lifecycle_state == LifecycleState.FOREGROUND
