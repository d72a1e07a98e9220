"""Host lifecycle events of runtime.services.lifecycle on PostgreSQL (SPEC R-3.8, §4.2, acceptance 3-4).

Going back to Interact, switching or opening another app and closing Pomodoro end a running focus
``interrupted`` with the start's single result; dimming, hiding and reloading do not. Closing
restores the previous valid foreground app and never rewrites a final start.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from runtime.errors import Rejection, RejectionCode
from runtime.manifests import get_manifest
from runtime.models import (
    AppInstance,
    AppSession,
    AppSessionState,
    Conversation,
    LifecycleEvent,
    Operation,
    OutboxEntry,
    ToolCall,
    ToolCallStatus,
)
from runtime.services.conversations import conversation_get_or_create_default
from runtime.services.lifecycle import (
    close_instance,
    close_workspace,
    open_app,
    report_surface_reloaded,
    return_to_interact,
    set_visibility,
    switch_app,
)
from runtime.services.recovery import settle_due
from runtime.tool_calls import Accepted
from runtime.transitions import InterruptionReason, LifecycleState, OperationState
from tests.support.factories import T0, AgentDriver, at, new_call_id

pytestmark = pytest.mark.django_db


# --- helpers ----------------------------------------------------------------------------------


def start(agent: AgentDriver, seconds: int = 60, *, now: datetime = T0) -> Accepted:
    outcome = agent.start(seconds, activity="write the report", now=now)
    assert isinstance(outcome, Accepted), outcome
    return outcome


def interact_of(conversation: Conversation) -> AppInstance:
    return AppInstance.objects.get(conversation=conversation, is_system=True)


def foreground_of(conversation: Conversation) -> AppInstance:
    return AppInstance.objects.get(conversation=conversation, lifecycle_state=LifecycleState.FOREGROUND)


def state_of(instance_id: Any) -> str:
    return AppInstance.objects.get(pk=instance_id).lifecycle_state


def world(conversation: Conversation) -> dict[str, Any]:
    """Everything a lifecycle decision could change in one conversation, for before/after comparisons."""
    return {
        "instances": list(
            AppInstance.objects.filter(conversation=conversation)
            .order_by("id")
            .values_list("id", "lifecycle_state", "focus_seq", "closed_at", "close_reason")
        ),
        "sessions": list(
            AppSession.objects.filter(conversation=conversation).order_by("id").values_list("id", "state", "ended_at")
        ),
        "operations": list(
            Operation.objects.filter(conversation=conversation)
            .order_by("id")
            .values_list("id", "state", "ended_at", "interruption_reason")
        ),
        "tool_calls": list(
            ToolCall.objects.filter(conversation=conversation).order_by("id").values_list("id", "status", "result")
        ),
        "outbox": list(OutboxEntry.objects.filter(conversation=conversation).order_by("id").values_list("id")),
    }


def assert_settled(
    started: Accepted,
    state: OperationState,
    *,
    reason: InterruptionReason | None,
    ended_at: datetime,
    closed_at: datetime,
) -> dict[str, Any]:
    """The start ended ``state`` with exactly one result and outbox entry; Pomodoro closed, sub-session ended."""
    operation = Operation.objects.get(pk=started.operation_id)
    assert operation.state == state
    assert operation.interruption_reason == reason
    assert operation.ended_at == ended_at

    entries = list(OutboxEntry.objects.filter(conversation_id=operation.conversation_id))
    assert len(entries) == 1
    result = entries[0].payload["result"]
    assert entries[0].operation_id == operation.id
    assert result["state"] == state
    assert result.get("interruption_reason") == reason
    # The one result satisfies the frozen result_schema of pomodoro.start (SPEC §3.1).
    descriptor = next(t for t in get_manifest("pomodoro").tools if t.name == "pomodoro.start")
    assert list(descriptor.result_validator.iter_errors(result)) == []

    call = ToolCall.objects.get(pk=operation.tool_call_id)
    assert call.status == ToolCallStatus.SUCCEEDED
    assert call.result == result
    # A lifecycle exit is no Agent tool call: the start stays the conversation's only call.
    assert ToolCall.objects.filter(conversation_id=operation.conversation_id).count() == 1

    instance = AppInstance.objects.get(pk=started.instance_id)
    assert instance.lifecycle_state == LifecycleState.CLOSED
    assert instance.closed_at == closed_at
    session = AppSession.objects.get(pk=started.app_session_id)
    assert session.state == AppSessionState.ENDED
    assert session.ended_at == closed_at
    return result


@pytest.fixture
def other_conversation(other_user) -> Conversation:
    return conversation_get_or_create_default(user=other_user)


# --- exits that interrupt -------------------------------------------------------------------


@pytest.mark.spec("R-3.8", "R-4.1.2", "R-4.2.6")
def test_return_to_interact_interrupts_the_focus_and_brings_interact_back(agent, conversation):
    """Going back to Interact during a focus ends it interrupted(returned_to_interact) with one result,
    closes Pomodoro, ends its sub-session and puts Interact in the foreground."""
    started = start(agent)
    assert foreground_of(conversation).pk == started.instance_id
    assert state_of(interact_of(conversation).pk) == LifecycleState.BACKGROUND

    returned = return_to_interact(conversation_id=conversation.id, now=at(10))

    assert returned.pk == interact_of(conversation).pk
    result = assert_settled(
        started,
        OperationState.INTERRUPTED,
        reason=InterruptionReason.RETURNED_TO_INTERACT,
        ended_at=at(10),
        closed_at=at(10),
    )
    assert result["ended_at"] == "2026-01-05T09:00:10.000Z"
    assert AppInstance.objects.get(pk=started.instance_id).close_reason == "returned_to_interact"
    assert foreground_of(conversation).pk == interact_of(conversation).pk


@pytest.mark.spec("R-3.8", "R-4.2.6")
def test_switch_app_to_an_open_notes_instance_interrupts_switched_app(agent, conversation):
    """Switching to an open notes instance ends the focus interrupted(switched_app); notes comes to the front."""
    notes = open_app(conversation_id=conversation.id, app_id="notes", now=T0)
    started = start(agent, now=at(1))
    assert state_of(notes.pk) == LifecycleState.BACKGROUND

    switched = switch_app(conversation_id=conversation.id, instance_id=notes.pk, now=at(20))

    assert switched.pk == notes.pk
    assert_settled(
        started, OperationState.INTERRUPTED, reason=InterruptionReason.SWITCHED_APP, ended_at=at(20), closed_at=at(20)
    )
    assert foreground_of(conversation).pk == notes.pk
    assert state_of(interact_of(conversation).pk) == LifecycleState.BACKGROUND


@pytest.mark.spec("R-3.8", "R-4.1.2")
def test_opening_notes_while_focusing_interrupts_switched_app(agent, conversation):
    """Opening another MiniApp is switching to it: the focus ends interrupted(switched_app), the new notes is in front."""
    started = start(agent)

    notes = open_app(conversation_id=conversation.id, app_id="notes", now=at(5))

    assert_settled(
        started, OperationState.INTERRUPTED, reason=InterruptionReason.SWITCHED_APP, ended_at=at(5), closed_at=at(5)
    )
    assert foreground_of(conversation).pk == notes.pk
    assert AppSession.objects.get(instance=notes).state == AppSessionState.OPEN


@pytest.mark.spec("R-3.8", "R-4.2.4", "R-4.2.6", "R-4.2.8")
def test_closing_pomodoro_interrupts_app_closed_and_restores_interact(agent, conversation):
    """Closing Pomodoro during a focus ends it interrupted(app_closed) first, then closes it; Interact returns."""
    started = start(agent)

    close_instance(conversation_id=conversation.id, instance_id=started.instance_id, now=at(30))

    assert_settled(
        started, OperationState.INTERRUPTED, reason=InterruptionReason.APP_CLOSED, ended_at=at(30), closed_at=at(30)
    )
    assert foreground_of(conversation).pk == interact_of(conversation).pk


@pytest.mark.spec("R-3.2", "R-3.9")
def test_a_close_after_ends_at_but_before_the_sweep_settles_completed(agent, conversation):
    """A close arriving once ends_at has passed (the sweep a moment behind) settles completed at ends_at,
    not interrupted: the agreed duration was reached."""
    started = start(agent, 60)

    close_instance(conversation_id=conversation.id, instance_id=started.instance_id, now=at(61))

    assert_settled(started, OperationState.COMPLETED, reason=None, ended_at=at(60), closed_at=at(61))
    assert foreground_of(conversation).pk == interact_of(conversation).pk


@pytest.mark.spec("R-3.7", "R-4.2.6")
def test_closing_again_changes_nothing(agent, conversation):
    """A second close of the closed Pomodoro never rewrites the terminal state nor adds an outbox row."""
    started = start(agent)
    close_instance(conversation_id=conversation.id, instance_id=started.instance_id, now=at(30))
    before = world(conversation)

    close_instance(conversation_id=conversation.id, instance_id=started.instance_id, now=at(40))
    return_to_interact(conversation_id=conversation.id, now=at(41))
    close_workspace(conversation_id=conversation.id, now=at(42))

    after = world(conversation)
    assert after["operations"] == before["operations"]
    assert after["tool_calls"] == before["tool_calls"]
    assert after["outbox"] == before["outbox"]
    assert after["sessions"] == before["sessions"]
    assert AppInstance.objects.get(pk=started.instance_id).closed_at == at(30)
    assert_settled(
        started, OperationState.INTERRUPTED, reason=InterruptionReason.APP_CLOSED, ended_at=at(30), closed_at=at(30)
    )


@pytest.mark.spec("R-3.10", "R-4.2.4", "R-4.2.6")
def test_closing_after_completion_changes_nothing(agent, conversation):
    """Once the deadline completed the focus (and closed Pomodoro), a late close keeps completed and one outbox row."""
    started = start(agent, 60)
    assert settle_due(now=at(60)).settled == [started.operation_id]
    assert foreground_of(conversation).pk == interact_of(conversation).pk
    before = world(conversation)

    close_instance(conversation_id=conversation.id, instance_id=started.instance_id, now=at(70))

    assert world(conversation) == before
    assert_settled(started, OperationState.COMPLETED, reason=None, ended_at=at(60), closed_at=at(60))
    assert AppInstance.objects.get(pk=started.instance_id).close_reason == "completed"


@pytest.mark.spec("R-4.2.6")
def test_close_cancels_other_pending_tool_calls_but_keeps_the_final_start(agent, conversation):
    """On close, a non-final ordinary tool call of the instance is settled cancelled(app_closed); the final
    pomodoro.start stays succeeded with its interrupted result; calls of other instances are untouched."""
    notes = open_app(conversation_id=conversation.id, app_id="notes", now=T0)
    started = start(agent, now=at(1))

    def pending_call(instance_id: Any) -> ToolCall:
        # As a Surface-delivered ordinary tool would be: pending on the instance, no operation.
        return ToolCall.objects.create(
            conversation=conversation,
            source_tool_call_id=new_call_id("surface"),
            tool="pomodoro.show_hint",
            arguments={},
            caller="agent:test",
            status=ToolCallStatus.PENDING,
            instance_id=instance_id,
            created_at=at(2),
        )

    on_pomodoro = pending_call(started.instance_id)
    on_notes = pending_call(notes.pk)

    close_instance(conversation_id=conversation.id, instance_id=started.instance_id, now=at(30))

    on_pomodoro.refresh_from_db()
    assert on_pomodoro.status == ToolCallStatus.CANCELLED
    assert on_pomodoro.cancel_reason == "app_closed"
    assert on_pomodoro.result == {"status": "cancelled", "reason": "app_closed"}
    assert on_pomodoro.finished_at == at(30)
    start_call = ToolCall.objects.get(source_tool_call_id=started.source_tool_call_id)
    assert start_call.status == ToolCallStatus.SUCCEEDED
    assert start_call.result["state"] == OperationState.INTERRUPTED
    assert start_call.result["interruption_reason"] == InterruptionReason.APP_CLOSED
    assert start_call.cancel_reason == ""
    on_notes.refresh_from_db()
    assert on_notes.status == ToolCallStatus.PENDING
    assert OutboxEntry.objects.filter(conversation=conversation).count() == 1

    close_instance(conversation_id=conversation.id, instance_id=notes.pk, now=at(31))

    on_notes.refresh_from_db()
    assert on_notes.status == ToolCallStatus.CANCELLED
    assert on_notes.cancel_reason == "app_closed"
    assert OutboxEntry.objects.filter(conversation=conversation).count() == 1


@pytest.mark.spec("R-4.2.6")
def test_a_deadline_settlement_cancels_the_pending_calls_its_lock_read_and_skips_the_update_without(
    agent, conversation
):
    """The settlement's lock reads whether the instance has calls to cancel (decision 0056): with
    one, the deadline's close cancels it and the audit row names it; without, nothing is cancelled."""
    started = start(agent, now=at(1))
    pending = ToolCall.objects.create(
        conversation=conversation,
        source_tool_call_id=new_call_id("surface"),
        tool="pomodoro.show_hint",
        arguments={},
        caller="agent:test",
        status=ToolCallStatus.PENDING,
        instance_id=started.instance_id,
        created_at=at(2),
    )

    settle_due(now=at(62))

    pending.refresh_from_db()
    assert (pending.status, pending.cancel_reason) == (ToolCallStatus.CANCELLED, "app_closed")
    event = LifecycleEvent.objects.get(kind="operation.completed", operation_id=started.operation_id)
    assert event.data["cancelled"] == [
        {"source_tool_call_id": pending.source_tool_call_id, "tool": "pomodoro.show_hint"}
    ]

    later = start(agent, now=at(100))
    settle_due(now=at(161))
    event = LifecycleEvent.objects.get(kind="operation.completed", operation_id=later.operation_id)
    assert event.data["cancelled"] == []


# --- not exits ------------------------------------------------------------------------------


@pytest.mark.spec("R-3.8", "R-4.2.2", "R-4.4.5")
def test_hiding_and_reloading_do_not_end_the_focus_and_the_deadline_still_completes_it(agent, conversation):
    """Dim/lock (visibility false), coming back and a Surface reload keep the focus running; Pomodoro goes
    suspended and back to the foreground, and the deadline later completes it as usual."""
    started = start(agent, 60)

    set_visibility(conversation_id=conversation.id, visible=False, now=at(10))
    assert state_of(started.instance_id) == LifecycleState.SUSPENDED
    assert Operation.objects.get(pk=started.operation_id).state == OperationState.RUNNING

    set_visibility(conversation_id=conversation.id, visible=True, now=at(20))
    assert foreground_of(conversation).pk == started.instance_id

    report_surface_reloaded(conversation_id=conversation.id, instance_id=started.instance_id, now=at(25))
    assert foreground_of(conversation).pk == started.instance_id
    assert Operation.objects.get(pk=started.operation_id).state == OperationState.RUNNING
    assert not OutboxEntry.objects.filter(conversation=conversation).exists()
    kinds = set(LifecycleEvent.objects.filter(conversation_id=conversation.id).values_list("kind", flat=True))
    assert {"lifecycle.visibility", "instance.suspended", "surface.reloaded"} <= kinds

    assert settle_due(now=at(59)).settled == []
    assert settle_due(now=at(60)).settled == [started.operation_id]
    assert_settled(started, OperationState.COMPLETED, reason=None, ended_at=at(60), closed_at=at(60))
    assert foreground_of(conversation).pk == interact_of(conversation).pk


@pytest.mark.spec("R-3.8", "R-4.2.2")
def test_return_to_interact_while_hidden_still_interrupts(agent, conversation):
    """A suspended (hidden) Pomodoro is still the app in front: going back to Interact interrupts the focus."""
    started = start(agent)
    set_visibility(conversation_id=conversation.id, visible=False, now=at(10))
    assert state_of(started.instance_id) == LifecycleState.SUSPENDED

    return_to_interact(conversation_id=conversation.id, now=at(15))

    assert_settled(
        started,
        OperationState.INTERRUPTED,
        reason=InterruptionReason.RETURNED_TO_INTERACT,
        ended_at=at(15),
        closed_at=at(15),
    )
    assert foreground_of(conversation).pk == interact_of(conversation).pk


# --- focus stack ----------------------------------------------------------------------------


@pytest.mark.spec("R-4.2.8")
def test_close_restores_the_previous_valid_foreground_app(agent, conversation):
    """Open notes, start a focus, close Pomodoro: notes (not Interact) returns; closing notes then restores Interact."""
    notes = open_app(conversation_id=conversation.id, app_id="notes", now=T0)
    started = start(agent, now=at(1))
    assert foreground_of(conversation).pk == started.instance_id

    close_instance(conversation_id=conversation.id, instance_id=started.instance_id, now=at(10))

    assert foreground_of(conversation).pk == notes.pk
    assert state_of(interact_of(conversation).pk) == LifecycleState.BACKGROUND
    assert_settled(
        started, OperationState.INTERRUPTED, reason=InterruptionReason.APP_CLOSED, ended_at=at(10), closed_at=at(10)
    )

    close_instance(conversation_id=conversation.id, instance_id=notes.pk, now=at(11))

    assert foreground_of(conversation).pk == interact_of(conversation).pk
    assert state_of(notes.pk) == LifecycleState.CLOSED
    assert AppInstance.objects.get(pk=notes.pk).close_reason == "closed_by_user"
    assert AppSession.objects.get(instance=notes).state == AppSessionState.ENDED


@pytest.mark.spec("R-4.2.8")
def test_closing_a_background_app_leaves_the_foreground_alone(conversation):
    """Closing an app that is not in front does not move the foreground."""
    first = open_app(conversation_id=conversation.id, app_id="notes", now=T0)
    second = open_app(conversation_id=conversation.id, app_id="notes", now=at(1))
    assert state_of(first.pk) == LifecycleState.BACKGROUND

    close_instance(conversation_id=conversation.id, instance_id=first.pk, now=at(2))

    assert foreground_of(conversation).pk == second.pk
    assert state_of(first.pk) == LifecycleState.CLOSED


@pytest.mark.spec("R-3.8", "R-4.2.6", "R-4.4.5")
def test_close_workspace_closes_every_miniapp_with_one_result_for_the_running_focus(agent, conversation):
    """The host window closing closes notes and Pomodoro; the running focus gets exactly one result
    (interrupted(app_closed)); Interact stays open and in front; closing the workspace again changes nothing."""
    notes = open_app(conversation_id=conversation.id, app_id="notes", now=T0)
    started = start(agent, now=at(1))

    assert close_workspace(conversation_id=conversation.id, now=at(10)) == 2

    assert_settled(
        started, OperationState.INTERRUPTED, reason=InterruptionReason.APP_CLOSED, ended_at=at(10), closed_at=at(10)
    )
    assert state_of(notes.pk) == LifecycleState.CLOSED
    assert AppInstance.objects.get(pk=notes.pk).close_reason == "host_closed"
    assert not AppSession.objects.filter(conversation=conversation, state=AppSessionState.OPEN).exists()
    assert foreground_of(conversation).pk == interact_of(conversation).pk
    before = world(conversation)

    assert close_workspace(conversation_id=conversation.id, now=at(20)) == 0
    assert world(conversation) == before


# --- rejections -----------------------------------------------------------------------------


@pytest.mark.spec("R-4.2.8")
def test_interact_can_not_be_closed(agent, conversation):
    """Closing Interact is rejected not_allowed and changes nothing, even with a focus running."""
    started = start(agent)
    before = world(conversation)

    with pytest.raises(Rejection) as rejected:
        close_instance(conversation_id=conversation.id, instance_id=interact_of(conversation).pk, now=at(5))

    assert rejected.value.code == RejectionCode.NOT_ALLOWED
    assert world(conversation) == before
    assert Operation.objects.get(pk=started.operation_id).state == OperationState.RUNNING


@pytest.mark.spec("R-3.6", "R-4.2.5")
@pytest.mark.parametrize("action", ["switch_app", "close_instance", "report_surface_reloaded"])
def test_lifecycle_calls_naming_another_conversations_instance_are_rejected(
    action, agent, conversation, other_conversation
):
    """A lifecycle call naming an instance of another conversation is unknown_instance and touches neither side."""
    started = start(agent)
    theirs = open_app(conversation_id=other_conversation.id, app_id="notes", now=T0)
    mine_before, theirs_before = world(conversation), world(other_conversation)
    service = {
        "switch_app": switch_app,
        "close_instance": close_instance,
        "report_surface_reloaded": report_surface_reloaded,
    }[action]

    with pytest.raises(Rejection) as rejected:
        service(conversation_id=conversation.id, instance_id=theirs.pk, now=at(5))

    assert rejected.value.code == RejectionCode.UNKNOWN_INSTANCE
    assert world(conversation) == mine_before
    assert world(other_conversation) == theirs_before
    assert Operation.objects.get(pk=started.operation_id).state == OperationState.RUNNING
    assert foreground_of(other_conversation).pk == theirs.pk


@pytest.mark.spec("R-3.13", "R-4.2.5")
def test_switching_to_a_closed_instance_is_rejected(agent, conversation):
    """A closed instance can not come back to the foreground: switch_app and reload are instance_closed."""
    started = start(agent)
    close_instance(conversation_id=conversation.id, instance_id=started.instance_id, now=at(5))
    before = world(conversation)

    for service in (switch_app, report_surface_reloaded):
        with pytest.raises(Rejection) as rejected:
            service(conversation_id=conversation.id, instance_id=started.instance_id, now=at(6))
        assert rejected.value.code == RejectionCode.INSTANCE_CLOSED

    assert world(conversation) == before
    assert state_of(started.instance_id) == LifecycleState.CLOSED


@pytest.mark.spec("R-4.1.2")
@pytest.mark.parametrize(
    ("app_id", "code"),
    [
        ("pomodoro", RejectionCode.NOT_ALLOWED),  # started by the Agent, not user-launchable
        ("interact", RejectionCode.UNKNOWN_APP),  # the system app is always there
        ("no-such-app", RejectionCode.UNKNOWN_APP),
    ],
)
def test_open_app_rejects_apps_the_user_can_not_launch(app_id, code, agent, conversation):
    """open_app of Pomodoro, Interact or an unknown app is rejected and creates nothing; a running focus continues."""
    started = start(agent)
    before = world(conversation)

    with pytest.raises(Rejection) as rejected:
        open_app(conversation_id=conversation.id, app_id=app_id, now=at(5))

    assert rejected.value.code == code
    assert world(conversation) == before
    assert Operation.objects.get(pk=started.operation_id).state == OperationState.RUNNING


# --- after close ----------------------------------------------------------------------------


@pytest.mark.spec("R-4.2.5", "R-3.13", "R-4.3.5")
def test_after_close_a_new_start_creates_a_new_instance_and_the_old_one_stays_closed(agent, conversation):
    """After close nothing is delivered to the old instance: a new pomodoro.start gets a new instance,
    sub-session and operation, and the closed instance keeps its lifecycle_state, close time and one call."""
    first = start(agent)
    close_instance(conversation_id=conversation.id, instance_id=first.instance_id, now=at(5))

    second = start(agent, now=at(10))

    assert second.instance_id != first.instance_id
    assert second.app_session_id != first.app_session_id
    assert second.operation_id != first.operation_id
    old = AppInstance.objects.get(pk=first.instance_id)
    assert old.lifecycle_state == LifecycleState.CLOSED
    assert old.closed_at == at(5)
    assert list(ToolCall.objects.filter(instance=old).values_list("source_tool_call_id", flat=True)) == [
        first.source_tool_call_id
    ]
    assert AppSession.objects.get(pk=first.app_session_id).state == AppSessionState.ENDED
    assert foreground_of(conversation).pk == second.instance_id
    assert Operation.objects.get(pk=second.operation_id).state == OperationState.RUNNING
    new_call = ToolCall.objects.get(source_tool_call_id=second.source_tool_call_id)
    assert new_call.instance_id == second.instance_id
