"""A decision reads what its conversation has open, not its history (issue 16, runtime migration 0010).

Every SELECT a start and two interrupts run is captured and run again under ``EXPLAIN (ANALYZE,
FORMAT JSON)``; the rows its scans touch (returned or filtered out) are added up. A conversation
with 1 000 closed instances, sub-sessions, tool calls and operations behind it must cost what a
fresh one costs: without the partial index ``open_instances_by_focus`` the previous valid
instance and the host-closing reads filtered the whole closed history, and without
``operations_by_conversation`` an interrupt with nothing focusing sorted every operation. A
decision's statements are top-level on both engines (decisions 0055, 0056: no PL/pgSQL function
hides a read), so a start's, an interrupt's and a sweep's batch reads are measured alike. On
PostgreSQL only (the plans are PostgreSQL's).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from runtime.models import AppInstance, AppSession, AppSessionState, Operation, ToolCall, ToolCallStatus
from runtime.services.conversations import conversation_get_or_create_default
from runtime.services.lifecycle import close_workspace
from runtime.services.recovery import settle_due
from runtime.tool_calls import Accepted, Receipt
from runtime.tool_router import Caller
from runtime.transitions import LifecycleState, OperationState
from tests.support.factories import AgentDriver, at

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.spec("R-4.2.8")]

HISTORY = 1_000
SLACK_ROWS = 20  # the few rows that differ between two conversations (ids, one more Interact row)


def closed_history(conversation_id: uuid.UUID, count: int) -> None:
    """``count`` Pomodoro rounds that ended long ago, as settlements leave them."""
    instances, sessions, calls, operations = [], [], [], []
    for k in range(count):
        started = at(-86_400 + k * 60)
        ended = started + timedelta(seconds=30)
        instance = AppInstance(
            id=uuid.uuid4(),
            conversation_id=conversation_id,
            app_id="pomodoro",
            lifecycle_state=LifecycleState.CLOSED,
            focus_seq=0,
            opened_at=started,
            closed_at=ended,
            close_reason="completed",
        )
        session = AppSession(
            id=uuid.uuid4(),
            instance_id=instance.id,
            conversation_id=conversation_id,
            state=AppSessionState.ENDED,
            opened_at=started,
            ended_at=ended,
        )
        call = ToolCall(
            id=uuid.uuid4(),
            conversation_id=conversation_id,
            source_tool_call_id=f"history-{k}",
            tool="pomodoro.start",
            arguments={"duration_seconds": 30},
            caller="agent:test",
            status=ToolCallStatus.SUCCEEDED,
            instance_id=instance.id,
            created_at=started,
            finished_at=ended,
        )
        operation = Operation(
            conversation_id=conversation_id,
            instance_id=instance.id,
            app_session_id=session.id,
            tool_call_id=call.id,
            source_tool_call_id=call.source_tool_call_id,
            app_id="pomodoro",
            details={"activity": None},
            started_at=started,
            ends_at=ended,
            state=OperationState.COMPLETED,
            ended_at=ended,
            settled_at=ended,
        )
        instances.append(instance)
        sessions.append(session)
        calls.append(call)
        operations.append(operation)
    AppInstance.objects.bulk_create(instances)
    AppSession.objects.bulk_create(sessions)
    ToolCall.objects.bulk_create(calls)
    Operation.objects.bulk_create(operations)


def rows_touched(plan: dict[str, Any]) -> int:
    """Rows the scans of a plan returned or read and threw away."""
    touched = 0
    if plan["Node Type"].endswith("Scan"):
        touched += plan["Actual Rows"] * plan["Actual Loops"]
        touched += plan.get("Rows Removed by Filter", 0) + plan.get("Rows Removed by Index Recheck", 0)
    return touched + sum(rows_touched(child) for child in plan.get("Plans", []))


def reads_cost(run: Callable[[], object]) -> dict[str, int]:
    """Rows each SELECT that ``run`` ran touched, replayed under ``EXPLAIN (ANALYZE)``."""
    with CaptureQueriesContext(connection) as captured:
        run()
    selects = [q["sql"] for q in captured.captured_queries if q["sql"].lstrip().upper().startswith("SELECT")]
    assert selects, "no SELECT captured"
    cost: dict[str, int] = {}
    with connection.cursor() as cursor:
        for number, sql in enumerate(selects):
            cursor.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}")
            (document,) = cursor.fetchone()
            plan = (json.loads(document) if isinstance(document, str) else document)[0]["Plan"]
            cost[f"{number:02d} …{sql[sql.find(' FROM ') :][:240]}"] = rows_touched(plan)
    return cost


def decisions_cost(driver: AgentDriver) -> dict[str, int]:
    """Start, interrupt, interrupt again (nothing focusing), close the host: rows each SELECT touched."""

    def decisions() -> None:
        assert isinstance(driver.start(600, now=at(0)), Accepted)
        assert isinstance(driver.interrupt(now=at(10)), Receipt)
        driver.interrupt(now=at(20))  # answered from the latest operation (already ended)
        close_workspace(conversation_id=driver.conversation.id, now=at(30))

    return reads_cost(decisions)


def batch_cost(driver: AgentDriver, other: AgentDriver) -> dict[str, int]:
    """A sweep settles two conversations' due operations as one batch: rows each SELECT touched."""
    for each in (driver, other):
        assert isinstance(each.start(1, now=at(0)), Accepted)
    return reads_cost(lambda: len(settle_due(now=at(5)).settled) == 2 or pytest.fail("the sweep settled not 2"))


def conversations_with_and_without_history(django_user_model) -> dict[str, AgentDriver]:
    drivers = {}
    for name in ("fresh", "history"):
        user = django_user_model.objects.create_user(username=name, password="pw")
        conversation = conversation_get_or_create_default(user=user)
        drivers[name] = AgentDriver(caller=Caller(label=f"agent:{name}", user_id=user.id), conversation=conversation)
    closed_history(drivers["history"].conversation.id, HISTORY)
    with connection.cursor() as cursor:  # the planner sees the history (in this transaction)
        cursor.execute("ANALYZE runtime_appinstance, runtime_appsession, runtime_toolcall, runtime_operation")
    return drivers


def grown(fresh: dict[str, int], history: dict[str, int]) -> dict[str, tuple[int, int]]:
    assert len(fresh) == len(history), "the two conversations ran different statements"
    return {
        statement: (before, after)
        for (statement, before), after in zip(fresh.items(), history.values(), strict=True)
        if after > before + SLACK_ROWS
    }


def batch_growth(drivers: dict[str, AgentDriver], django_user_model) -> dict[str, tuple[int, int]]:
    others = {}
    for name in drivers:
        user = django_user_model.objects.create_user(username=f"other-{name}", password="pw")
        others[name] = AgentDriver(
            caller=Caller(label=f"agent:other-{name}", user_id=user.id),
            conversation=conversation_get_or_create_default(user=user),
        )
    return grown(batch_cost(drivers["fresh"], others["fresh"]), batch_cost(drivers["history"], others["history"]))


def test_a_decision_touches_as_many_rows_with_1000_closed_instances_behind_it_as_with_none(django_user_model):
    drivers = conversations_with_and_without_history(django_user_model)
    fresh = decisions_cost(drivers["fresh"])
    history = decisions_cost(drivers["history"])

    growing = grown(fresh, history)
    assert not growing, f"rows touched (fresh, with {HISTORY} closed) grew with the history: {growing}"
    assert sum(history.values()) <= sum(fresh.values()) + SLACK_ROWS


def test_a_sweeps_batch_touches_as_many_rows_with_1000_closed_instances_behind_it_as_with_none(django_user_model):
    growing = batch_growth(conversations_with_and_without_history(django_user_model), django_user_model)
    assert not growing, f"a batch's rows touched (fresh, with {HISTORY} closed) grew with the history: {growing}"


def test_a_read_that_lost_its_index_is_caught(django_user_model):
    """Without ``open_instances_by_focus`` (dropped in this test's transaction only), a settlement
    finds the previous valid instance by filtering every instance of the conversation: the measure
    above sees it (so it is not vacuous)."""
    drivers = conversations_with_and_without_history(django_user_model)
    with connection.cursor() as cursor:
        cursor.execute("DROP INDEX open_instances_by_focus")
        cursor.execute("ANALYZE runtime_appinstance")
    growing = batch_growth(drivers, django_user_model)
    assert growing, "dropping open_instances_by_focus went unseen"
