"""The database constraints of runtime/models.py, proven on PostgreSQL.

Each test writes one bad row straight through the ORM (as a buggy service would) and expects the
named constraint to refuse it inside its own ``transaction.atomic`` block; the same row without
the fault is then accepted, so the refusal is that constraint's and no other's. The lifecycle log
is append-only on PostgreSQL (trigger of migration 0002): its RAISE EXCEPTION reaches Django as a
DatabaseError (psycopg maps SQLSTATE P0001 to ProgrammingError), not an IntegrityError.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction

from runtime.events import record_event
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
from runtime.tool_calls import Accepted
from runtime.transitions import InterruptionReason, LifecycleState, OperationState
from tests.support.factories import T0, AgentDriver, at, new_call_id

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


@pytest.fixture(autouse=True)
def _on_postgresql() -> None:
    # The partial unique indexes behave the same on SQLite, the append-only trigger does not exist
    # there: these tests are only meaningful on the production database.
    assert connection.vendor == "postgresql", "run the suite with DATABASE_URL pointing at PostgreSQL"


@contextmanager
def refused_by(constraint: str) -> Iterator[None]:
    """The statements in the block are refused with an IntegrityError naming ``constraint``."""
    with pytest.raises(IntegrityError, match=constraint), transaction.atomic():
        yield


@pytest.fixture
def started(agent: AgentDriver) -> Accepted:
    outcome = agent.start(60, now=T0)
    assert isinstance(outcome, Accepted), outcome
    return outcome


def new_instance(conversation: Conversation, **fields: Any) -> AppInstance:
    defaults = {"app_id": "pomodoro", "lifecycle_state": LifecycleState.BACKGROUND}
    return AppInstance.objects.create(conversation=conversation, opened_at=at(1), **{**defaults, **fields})


def new_round(conversation: Conversation) -> dict[str, Any]:
    """Valid instance, sub-session and tool call rows for one more operation, and its valid fields."""
    instance = new_instance(conversation)
    session = AppSession.objects.create(instance=instance, conversation=conversation, opened_at=at(1))
    call = ToolCall.objects.create(
        conversation=conversation,
        source_tool_call_id=new_call_id(),
        tool="pomodoro.start",
        arguments={"duration_seconds": 60},
        caller="agent:test",
        status=ToolCallStatus.ACCEPTED,
        instance=instance,
        created_at=at(1),
    )
    return {
        "conversation": conversation,
        "instance": instance,
        "app_session": session,
        "tool_call": call,
        "source_tool_call_id": call.source_tool_call_id,
        "app_id": "pomodoro",
        "details": {"activity": None},
        "started_at": at(1),
        "ends_at": at(61),
    }


# --- operations -------------------------------------------------------------------------------


@pytest.mark.spec("R-3.12")
def test_two_focusing_operations_in_one_conversation_are_refused(started, conversation):
    """A second running exclusive operation of an app in a conversation violates the partial unique
    index; a final one is fine, and so is a running one that is not exclusive."""
    fields = new_round(conversation)

    with refused_by("one_running_exclusive_operation_per_app"):
        Operation.objects.create(**fields)

    Operation.objects.create(**fields, state=OperationState.COMPLETED, ended_at=at(61), settled_at=at(61))
    assert Operation.objects.filter(conversation=conversation).count() == 2
    Operation.objects.create(**{**new_round(conversation), "exclusive": False})
    assert Operation.objects.filter(conversation=conversation, state=OperationState.RUNNING).count() == 2


@pytest.mark.spec("R-3.13")
def test_one_operation_per_instance(started, conversation):
    """An instance runs one round only: a second operation on the same instance is refused."""
    Operation.objects.filter(pk=started.operation_id).update(
        state=OperationState.COMPLETED, ended_at=at(60), settled_at=at(60)
    )
    fields = new_round(conversation)

    with refused_by("instance_id"):
        Operation.objects.create(**{**fields, "instance": AppInstance.objects.get(pk=started.instance_id)})

    Operation.objects.create(**fields)


# The focusing operation of ``started`` (T0 .. T0+60s) changed into a bad row, and the fix that makes it valid.
BAD_OPERATION_UPDATES = {
    "interrupted-without-reason": (
        "operation_interrupted_iff_reason",
        {"state": OperationState.INTERRUPTED, "ended_at": at(5), "settled_at": at(5)},
        {"interruption_reason": InterruptionReason.APP_CLOSED},
    ),
    "completed-with-a-reason": (
        "operation_interrupted_iff_reason",
        {
            "state": OperationState.COMPLETED,
            "ended_at": at(60),
            "settled_at": at(60),
            "interruption_reason": InterruptionReason.APP_CLOSED,
        },
        {"interruption_reason": None},
    ),
    "completed-without-ended_at": (
        "operation_final_iff_ended",
        {"state": OperationState.COMPLETED, "settled_at": at(60)},
        {"ended_at": at(60)},
    ),
    "completed-without-settled_at": (
        "operation_final_iff_ended",
        {"state": OperationState.COMPLETED, "ended_at": at(60)},
        {"settled_at": at(60)},
    ),
    "focusing-with-ended_at": (
        "operation_final_iff_ended",
        {"ended_at": at(5), "settled_at": at(5)},
        {"ended_at": None, "settled_at": None},
    ),
    "ends_at-equal-to-started_at": ("operation_ends_after_start", {"ends_at": T0}, {"ends_at": at(0.001)}),
    "ends_at-before-started_at": ("operation_ends_after_start", {"ends_at": at(-60)}, {"ends_at": at(60)}),
}


@pytest.mark.spec("R-3.2", "R-3.3")
@pytest.mark.parametrize(("constraint", "bad", "fix"), BAD_OPERATION_UPDATES.values(), ids=BAD_OPERATION_UPDATES)
def test_bad_operation_rows_are_refused(constraint, bad, fix, started):
    """Terminal fields exist exactly for terminal states, a reason exactly for interrupted, the duration is
    positive and ends_at is after started_at."""
    rows = Operation.objects.filter(pk=started.operation_id)

    with refused_by(constraint):
        rows.update(**bad)

    assert rows.update(**{**bad, **fix}) == 1


@pytest.mark.spec("R-3.3")
def test_a_new_operation_of_duration_0_is_refused(started, conversation):
    """A duration of 0 (ends_at == started_at) is refused on insert too, not only on update."""
    fields = new_round(conversation)
    Operation.objects.filter(pk=started.operation_id).update(
        state=OperationState.COMPLETED, ended_at=at(60), settled_at=at(60)
    )

    with refused_by("operation_ends_after_start"):
        Operation.objects.create(**{**fields, "ends_at": fields["started_at"]})


# --- tool calls and outbox --------------------------------------------------------------------


@pytest.mark.spec("R-3.5")
def test_a_duplicate_source_tool_call_id_in_one_conversation_is_refused(started, conversation, other_user):
    """(conversation, source_tool_call_id) is the idempotency key; another conversation may reuse the id."""
    fields = {
        "source_tool_call_id": started.source_tool_call_id,
        "tool": "pomodoro.interrupt",
        "arguments": {},
        "caller": "agent:test",
        "status": ToolCallStatus.SUCCEEDED,
        "created_at": at(2),
    }

    with refused_by("unique_source_tool_call_id"):
        ToolCall.objects.create(conversation=conversation, **fields)

    other = Conversation.objects.create(owner=other_user, title="other")
    ToolCall.objects.create(conversation=other, **fields)


@pytest.mark.spec("R-2.2.5", "R-3.7")
def test_one_outbox_entry_per_operation_and_per_tool_call(agent, conversation):
    """A second outbox entry for an operation, or for its tool call, is refused: one result per start."""
    first = agent.start(60, now=T0)
    agent.interrupt(now=at(5))
    second = agent.start(60, now=at(10))
    assert isinstance(first, Accepted) and isinstance(second, Accepted)
    op1, op2 = Operation.objects.get(pk=first.operation_id), Operation.objects.get(pk=second.operation_id)
    assert OutboxEntry.objects.filter(operation=op1).count() == 1

    def entry(operation: Operation, call_id: Any) -> OutboxEntry:
        return OutboxEntry.objects.create(
            conversation=conversation,
            operation=operation,
            tool_call_id=call_id,
            payload={"result": {}},
            created_at=at(20),
        )

    with refused_by("operation_id"):
        entry(op1, op2.tool_call_id)
    with refused_by("tool_call_id"):
        entry(op2, op1.tool_call_id)

    entry(op2, op2.tool_call_id)
    assert OutboxEntry.objects.filter(conversation=conversation).count() == 2


# --- instances, sub-sessions, snapshots --------------------------------------------------------


@pytest.mark.spec("R-4.1.1")
def test_two_foreground_instances_in_one_conversation_are_refused(started, conversation):
    """At most one foreground instance per conversation (Pomodoro is in front already)."""
    with refused_by("one_foreground_instance_per_conversation"):
        new_instance(conversation, lifecycle_state=LifecycleState.FOREGROUND)

    new_instance(conversation, lifecycle_state=LifecycleState.SUSPENDED)


@pytest.mark.spec("R-4.2.5")
@pytest.mark.parametrize(
    ("bad", "fix"),
    [
        pytest.param({"lifecycle_state": LifecycleState.CLOSED}, {"closed_at": at(2)}, id="closed-without-closed_at"),
        pytest.param({"closed_at": at(2)}, {"lifecycle_state": LifecycleState.CLOSED}, id="open-with-closed_at"),
    ],
)
def test_closed_exactly_when_closed_at_is_set(bad, fix, started):
    """An instance is closed if and only if it has closed_at."""
    rows = AppInstance.objects.filter(pk=started.instance_id)

    with refused_by("instance_closed_iff_closed_at"):
        rows.update(**bad)

    assert rows.update(**{**bad, **fix}) == 1


@pytest.mark.spec("R-4.2.8")
def test_interact_is_one_instance_that_never_closes(started, conversation):
    """Interact (the system app) exists once per conversation and can not be stored closed."""
    interact = AppInstance.objects.get(conversation=conversation, is_system=True)

    with refused_by("one_system_instance_per_app_and_conversation"):
        new_instance(conversation, app_id=interact.app_id, is_system=True)
    with refused_by("system_instance_never_closed"):
        AppInstance.objects.filter(pk=interact.pk).update(lifecycle_state=LifecycleState.CLOSED, closed_at=at(2))

    assert AppInstance.objects.get(pk=interact.pk).lifecycle_state == LifecycleState.BACKGROUND


@pytest.mark.spec("R-4.3.1", "R-4.3.5")
@pytest.mark.parametrize(
    ("bad", "fix"),
    [
        pytest.param({"state": AppSessionState.ENDED}, {"ended_at": at(2)}, id="ended-without-ended_at"),
        pytest.param({"ended_at": at(2)}, {"state": AppSessionState.ENDED}, id="open-with-ended_at"),
    ],
)
def test_a_sub_session_is_ended_exactly_when_ended_at_is_set(bad, fix, started):
    """A sub-session is ended if and only if it has ended_at."""
    rows = AppSession.objects.filter(pk=started.app_session_id)

    with refused_by("app_session_ended_iff_ended_at"):
        rows.update(**bad)

    assert rows.update(**{**bad, **fix}) == 1


@pytest.mark.spec("R-4.3.1")
def test_one_sub_session_per_instance(started, conversation):
    """An instance has exactly one sub-session."""
    with refused_by("instance_id"):
        AppSession.objects.create(instance_id=started.instance_id, conversation=conversation, opened_at=at(1))


@pytest.mark.spec("R-2.2.4")
@pytest.mark.parametrize(
    ("bad", "fix"),
    [
        pytest.param({"state": {"display_state": "focusing"}}, {"revision": 1}, id="state-without-revision"),
        pytest.param({"revision": 1}, {"state": {"display_state": "focusing"}}, id="revision-without-state"),
    ],
)
def test_a_snapshot_has_state_exactly_when_it_has_a_revision(bad, fix, started):
    """Revision 0 means no state yet; any saved state has a revision above 0."""
    rows = InstanceSnapshot.objects.filter(instance_id=started.instance_id)
    assert rows.values_list("revision", "state").get() == (0, None)

    with refused_by("snapshot_state_iff_revision"):
        rows.update(**bad)

    assert rows.update(**{**bad, **fix}) == 1


# --- the append-only lifecycle log ------------------------------------------------------------


@pytest.mark.spec("R-4.4.5")
def test_lifecycle_events_can_not_be_updated_or_deleted(started, conversation):
    """On PostgreSQL the event log refuses UPDATE and DELETE (queryset or instance); rows stay as written."""
    record_event("test.marker", at=at(3), conversation_id=conversation.id, note="original")
    event = LifecycleEvent.objects.get(kind="test.marker")
    everything = list(LifecycleEvent.objects.values_list("id", "kind", "data"))

    attempts = [
        ("UPDATE", lambda: LifecycleEvent.objects.filter(pk=event.pk).update(kind="rewritten")),
        ("UPDATE", lambda: LifecycleEvent.objects.update(data={})),
        ("DELETE", lambda: LifecycleEvent.objects.filter(pk=event.pk).delete()),
        ("DELETE", lambda: event.delete()),
    ]
    for statement, attempt in attempts:
        with pytest.raises(DatabaseError, match=rf"append-only \({statement} refused\)"), transaction.atomic():
            attempt()

    assert list(LifecycleEvent.objects.values_list("id", "kind", "data")) == everything
    assert LifecycleEvent.objects.get(pk=event.pk).data == {"note": "original"}
    # Appending is what the log is for.
    record_event("test.marker", at=at(4), conversation_id=conversation.id)
    assert LifecycleEvent.objects.filter(kind="test.marker").count() == 2


@pytest.mark.spec("R-4.4.5")
def test_an_event_row_survives_a_saved_model_update(started):
    """Even Model.save() of an existing event (an UPDATE) is refused."""
    event = LifecycleEvent.objects.filter(conversation_id__isnull=False).first()
    assert event is not None
    event.kind = "rewritten"

    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        event.save()

    assert LifecycleEvent.objects.get(pk=event.pk).kind != "rewritten"
