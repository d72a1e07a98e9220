"""The generic running state is ``running``; each app's wire says its own word (decision 0040).

The Runtime stores ``running`` for any app's operation; what the Agent and the page see while it
runs is the app's manifest's ``running_label`` (Pomodoro: ``focusing``, its frozen wire). And since
the previous release stored ``focusing`` and may run beside this one during a rolling upgrade, a
row it wrote is still running here: this release settles it (an interrupt, a sweep's batch) and a
start is refused while it runs. Runs on PostgreSQL (the SQL functions, the previous release's
start function writing the row) and on SQLite (the ORM paths).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from interact.selectors import workspace_snapshot
from runtime.models import Operation, OutboxEntry
from runtime.services.operations import operation_projection
from runtime.services.recovery import settle_due
from runtime.sql import start as start_sql
from runtime.tool_calls import Accepted, Rejected
from runtime.tool_router import Caller
from runtime.transitions import PREVIOUS_RUNNING_STATE, RUNNING_STATES, OperationState
from tests.support.factories import AgentDriver, at

pytestmark = pytest.mark.django_db

QUIZ = {"duration_seconds": 300, "questions": [{"prompt": "1+1", "answer": "2"}]}


@pytest.fixture
def previous_release(monkeypatch):
    """Start as the previous release would: on PostgreSQL through its own start function
    (``lineup_start_operation``, left by migration 0024 as it was), which writes its running word;
    on SQLite its ORM path wrote the same row with that word."""
    if connection.vendor == "postgresql":
        monkeypatch.setattr(
            start_sql, "CALL", start_sql.CALL.replace("runtime_start_operation", "lineup_start_operation")
        )

    def start(agent: AgentDriver, *, seconds: int, now_s: float) -> Accepted:
        started = agent.start(seconds, "old", now=at(now_s))
        assert isinstance(started, Accepted), started
        if connection.vendor != "postgresql":
            Operation.objects.filter(pk=started.operation_id).update(state=PREVIOUS_RUNNING_STATE)
        assert Operation.objects.get(pk=started.operation_id).state == PREVIOUS_RUNNING_STATE
        return started

    return start


def _other_agent(django_user_model, name: str) -> AgentDriver:
    from runtime.services.conversations import conversation_get_or_create_default

    user = django_user_model.objects.create_user(username=name, password="pw")
    return AgentDriver(
        caller=Caller(label=f"agent:{name}", user_id=user.id),
        conversation=conversation_get_or_create_default(user=user),
    )


def test_any_app_is_stored_running_and_the_quiz_says_running(agent) -> None:
    quiz = agent.call("quiz.start", QUIZ, now=at(0))
    focus = agent.start(600, "reading", now=at(1))
    assert isinstance(quiz, Accepted) and isinstance(focus, Accepted)
    stored = dict(Operation.objects.values_list("app_id", "state"))
    assert stored == {"quiz": OperationState.RUNNING, "pomodoro": OperationState.RUNNING}
    # The quiz says nothing of its own: the Runtime's word, in its projection and its busy rejection.
    operation = Operation.objects.select_related("tool_call").get(pk=quiz.operation_id)
    assert operation_projection(operation)["state"] == "running"
    busy = agent.call("quiz.start", QUIZ, now=at(2))
    assert isinstance(busy, Rejected) and busy.code == "active_quiz"
    assert busy.detail == "this conversation already has a running operation; interrupt it or wait for its result"


def test_pomodoro_wire_still_says_focusing(agent, user, conversation) -> None:
    focus = agent.start(600, "reading", now=at(0))
    operation = Operation.objects.select_related("tool_call").get(pk=focus.operation_id)
    assert operation.state == OperationState.RUNNING
    assert operation_projection(operation)["state"] == "focusing"
    assert workspace_snapshot(user=user, conversation_id=conversation.id, now=at(1))["operation"]["state"] == "focusing"
    # Its published busy rejection, byte for byte as before.
    busy = agent.start(60, now=at(2))
    assert isinstance(busy, Rejected) and busy.code == "active_focusing_operation"
    assert busy.detail == "this conversation already has a focusing operation; interrupt it or wait for its result"
    assert agent.interrupt(now=at(3)).receipt == {"status": "interrupted", "operation_id": str(focus.operation_id)}
    assert OutboxEntry.objects.get(operation_id=focus.operation_id).payload["result"]["state"] == "interrupted"


def test_a_previous_release_row_is_interrupted_by_this_one(
    agent, user, conversation, previous_release, monkeypatch
) -> None:
    old = previous_release(agent, seconds=600, now_s=0)
    # This release sees it running: the page shows it in Pomodoro's word and a second start is busy.
    assert workspace_snapshot(user=user, conversation_id=conversation.id, now=at(1))["operation"]["state"] == "focusing"
    busy = agent.start(60, now=at(2))
    assert isinstance(busy, Rejected) and busy.code == "active_focusing_operation"

    stopped = agent.interrupt(now=at(10))
    assert stopped.receipt == {"status": "interrupted", "operation_id": str(old.operation_id)}
    settled = Operation.objects.get(pk=old.operation_id)
    assert (settled.state, settled.interruption_reason, settled.ended_at) == ("interrupted", "agent_interrupt", at(10))
    assert OutboxEntry.objects.get(operation_id=old.operation_id).payload["result"]["state"] == "interrupted"
    # And this release's next start writes its word.
    monkeypatch.undo()
    again = agent.start(60, now=at(11))
    assert isinstance(again, Accepted)
    assert Operation.objects.get(pk=again.operation_id).state == OperationState.RUNNING


def test_previous_release_rows_are_settled_by_this_ones_sweep(
    agent, django_user_model, previous_release, monkeypatch
) -> None:
    """Two conversations' due rows of the previous release and one of this release settle in one
    sweep (on PostgreSQL, one batch through ``runtime_settle_batch``), each completed once."""
    other, third = _other_agent(django_user_model, "other"), _other_agent(django_user_model, "third")
    old = [previous_release(agent, seconds=5, now_s=0), previous_release(other, seconds=5, now_s=0)]
    monkeypatch.undo()  # this release's start
    new = third.start(5, now=at(0))
    assert Operation.objects.get(pk=new.operation_id).state == OperationState.RUNNING

    with CaptureQueriesContext(connection) as queries:
        summary = settle_due(now=at(6))
    if connection.vendor == "postgresql":
        assert sum("runtime_settle_batch(" in q["sql"] for q in queries.captured_queries) == 1
    ids = {started.operation_id for started in [*old, new]}
    assert set(summary.settled) == ids
    rows = Operation.objects.filter(pk__in=ids)
    assert {(row.state, row.ended_at) for row in rows} == {("completed", at(0) + timedelta(seconds=5))}
    assert OutboxEntry.objects.filter(operation_id__in=ids).count() == 3
    assert not Operation.objects.filter(state__in=RUNNING_STATES).exists()
    assert settle_due(now=at(7)).settled == []
