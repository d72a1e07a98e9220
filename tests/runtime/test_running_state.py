"""The generic running state is ``running``; each app's wire says its own word (decisions 0040, 0053).

The Runtime stores ``running`` for any app's operation; what the Agent and the page see while it
runs is the app's manifest's ``running_label`` (Pomodoro: ``focusing``, its frozen wire). The word
releases before migration 0024 stored was converted by 0026 and is refused since 0027. Runs on
PostgreSQL (the SQL functions) and on SQLite (the ORM paths).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from interact.selectors import workspace_snapshot
from runtime.models import Operation, OutboxEntry
from runtime.services.operation_views import operation_projection
from runtime.services.recovery import settle_due
from runtime.tool_calls import Accepted, Rejected
from runtime.tool_router import Caller
from runtime.transitions import RUNNING_STATES, OperationState
from tests.support.factories import AgentDriver, at

pytestmark = pytest.mark.django_db

QUIZ = {"duration_seconds": 300, "questions": [{"prompt": "1+1", "answer": "2"}]}


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


def test_the_database_refuses_the_old_running_word(agent) -> None:
    """Since the contract migrations (0026 converted the rows, 0027 narrowed the check; decision 0053)
    ``running`` is the only running state the database accepts: a row in the word of releases before
    0024 is refused, whatever writes it."""
    started = agent.start(600, "reading", now=at(0))
    with pytest.raises(IntegrityError, match="operation_final_iff_ended"), transaction.atomic():
        Operation.objects.filter(pk=started.operation_id).update(state="focusing")
    assert Operation.objects.get(pk=started.operation_id).state == OperationState.RUNNING


def test_running_rows_of_several_conversations_settle_in_one_sweep(agent, django_user_model) -> None:
    """Due operations of three conversations settle in one sweep: one batch, whose compare-and-set is
    one ``UPDATE … RETURNING`` over the three (its running set is ``running`` alone since 0027), on
    either engine (decision 0056), each completed once."""
    other, third = _other_agent(django_user_model, "other"), _other_agent(django_user_model, "third")
    started = [driver.start(5, now=at(0)) for driver in (agent, other, third)]

    with CaptureQueriesContext(connection) as queries:
        summary = settle_due(now=at(6))
    compare_and_set = [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].startswith('UPDATE "runtime_operation"') and "RETURNING" in q["sql"]
    ]
    assert len(compare_and_set) == 1, compare_and_set
    ids = {s.operation_id for s in started}
    assert set(summary.settled) == ids
    rows = Operation.objects.filter(pk__in=ids)
    assert {(row.state, row.ended_at) for row in rows} == {("completed", at(0) + timedelta(seconds=5))}
    assert OutboxEntry.objects.filter(operation_id__in=ids).count() == 3
    assert not Operation.objects.filter(state__in=RUNNING_STATES).exists()
    assert settle_due(now=at(7)).settled == []
