"""A decision reads what its conversation has open, not its history (issue 16, runtime migration 0010).

Every SELECT a start and two interrupts run is captured and run again under ``EXPLAIN (ANALYZE,
FORMAT JSON)``; the rows its scans touch (returned or filtered out) are added up. A conversation
with 1 000 closed instances, sub-sessions, tool calls and operations behind it must cost what a
fresh one costs: without the partial index ``open_instances_by_focus`` the previous valid
instance and the host-closing reads filtered the whole closed history, and without
``operations_by_conversation`` an interrupt with nothing focusing sorted every operation. A start's
reads are top-level statements (decision 0055); the statements inside ``runtime_settle_single`` and
``runtime_settle_batch`` (PL/pgSQL, one call each to Django) are measured the same way through
auto_explain's nested plans. On PostgreSQL only (the
plans are PostgreSQL's).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
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


def decisions_cost(driver: AgentDriver) -> dict[str, int]:
    """Start, interrupt, interrupt again (nothing focusing), close the host: rows each SELECT touched."""
    with CaptureQueriesContext(connection) as captured:
        assert isinstance(driver.start(600, now=at(0)), Accepted)
        assert isinstance(driver.interrupt(now=at(10)), Receipt)
        driver.interrupt(now=at(20))  # answered from the latest operation (already ended)
        close_workspace(conversation_id=driver.conversation.id, now=at(30))
    # Reads only: ``runtime_settle_batch`` and ``runtime_settle_single`` (decision 0030) are SELECTs that
    # write, so they are not replayed.
    selects = [
        q["sql"]
        for q in captured.captured_queries
        if q["sql"].lstrip().upper().startswith("SELECT")
        and not any(f"{function}(" in q["sql"] for function in ("runtime_settle_batch", "runtime_settle_single"))
    ]
    assert selects, "no SELECT captured"
    cost: dict[str, int] = {}
    with connection.cursor() as cursor:
        for number, sql in enumerate(selects):
            cursor.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}")
            (document,) = cursor.fetchone()
            plan = (json.loads(document) if isinstance(document, str) else document)[0]["Plan"]
            cost[f"{number:02d} …{sql[sql.find(' FROM ') :][:240]}"] = rows_touched(plan)
    return cost


def test_a_decision_touches_as_many_rows_with_1000_closed_instances_behind_it_as_with_none(
    django_user_model,
):
    drivers = {}
    for name in ("fresh", "history"):
        user = django_user_model.objects.create_user(username=name, password="pw")
        conversation = conversation_get_or_create_default(user=user)
        drivers[name] = AgentDriver(caller=Caller(label=f"agent:{name}", user_id=user.id), conversation=conversation)
    closed_history(drivers["history"].conversation.id, HISTORY)
    with connection.cursor() as cursor:  # the planner sees the history (in this transaction)
        cursor.execute("ANALYZE runtime_appinstance, runtime_appsession, runtime_toolcall, runtime_operation")

    fresh = decisions_cost(drivers["fresh"])
    history = decisions_cost(drivers["history"])

    assert len(fresh) == len(history), "the two conversations ran different statements"
    growing = {
        statement: (before, after)
        for (statement, before), after in zip(fresh.items(), history.values(), strict=True)
        if after > before + SLACK_ROWS
    }
    assert not growing, f"rows touched (fresh, with {HISTORY} closed) grew with the history: {growing}"
    assert sum(history.values()) <= sum(fresh.values()) + SLACK_ROWS


# --- The statements inside the functions --------------------------------------------------------
# ``runtime_settle_single`` (an interrupt's settlement) and
# ``runtime_settle_batch`` (a sweep's batch, decision 0030) read and write inside PL/pgSQL, where CaptureQueriesContext sees one call. auto_explain, loaded into this
# test's session only, reports the executed plan of every statement they run (nested statements,
# ANALYZE) as a NOTICE, which the test collects from the connection: so a read inside them that
# lost its index (and filters the closed history) fails here as the top-level reads do above.
FUNCTIONS = ("runtime_settle_single", "runtime_settle_batch")
NESTED_SETTINGS = {
    "auto_explain.log_min_duration": "0",
    "auto_explain.log_analyze": "on",
    "auto_explain.log_timing": "off",
    "auto_explain.log_nested_statements": "on",
    "auto_explain.log_format": "json",
    "auto_explain.log_level": "notice",
    "client_min_messages": "notice",
}


def _normalised(sql: str) -> str:
    return " ".join(sql.split())


@contextmanager
def nested_plans() -> Iterator[list[tuple[str, str, dict[str, Any]]]]:
    """Collects ``(function, statement, executed plan)`` of each statement the two functions run, in order.

    The settings are ``SET LOCAL`` (this test's transaction ends them); statements whose text is not
    in a function's source (the calls themselves, Django's own queries) are left out."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT proname, prosrc FROM pg_proc WHERE proname = ANY(%s)", [list(FUNCTIONS)])
        sources = {name: _normalised(source) for name, source in cursor.fetchall()}
        assert sorted(sources) == sorted(FUNCTIONS), "a function is missing: are the migrations applied?"
        cursor.execute("LOAD 'auto_explain'")
        for name, value in NESTED_SETTINGS.items():
            cursor.execute(f"SET LOCAL {name} = {value}")
    plans: list[tuple[str, str, dict[str, Any]]] = []

    def collect(diagnostic: Any) -> None:
        message = diagnostic.message_primary or ""
        if "plan:" not in message:
            return
        document = json.loads(message[message.index("plan:") + len("plan:") :])
        statement = _normalised(document["Query Text"])
        function = next((name for name, source in sources.items() if statement and statement in source), None)
        if function is not None:
            plans.append((function, statement, document["Plan"]))

    raw = connection.connection
    raw.add_notice_handler(collect)
    try:
        yield plans
    finally:
        raw.remove_notice_handler(collect)
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL auto_explain.log_min_duration = -1")


def functions_cost(driver: AgentDriver) -> dict[str, int]:
    """A start, then an interrupt (``runtime_settle_single``: the instance closes, Interact comes
    back): rows each statement inside the function touched."""
    with nested_plans() as plans:
        assert isinstance(driver.start(600, now=at(0)), Accepted)
        assert isinstance(driver.interrupt(now=at(10)), Receipt)
    assert plans, "auto_explain reported no statement inside the functions"
    return {
        f"{number:02d} {function}: {statement[:240]}": rows_touched(plan)
        for number, (function, statement, plan) in enumerate(plans)
    }


def batch_cost(driver: AgentDriver, other: AgentDriver) -> dict[str, int]:
    """A sweep settles two conversations' due focuses as one batch (``runtime_settle_batch``): rows each
    statement inside it touched. (A single operation's settlement reads nothing but primary keys.)"""
    for each in (driver, other):
        assert isinstance(each.start(1, now=at(0)), Accepted)
    with nested_plans() as plans:
        assert len(settle_due(now=at(5)).settled) == 2
    batch = [(function, statement, plan) for function, statement, plan in plans if function == "runtime_settle_batch"]
    assert batch, "auto_explain reported no statement inside runtime_settle_batch"
    return {
        f"{number:02d} {function}: {statement[:240]}": rows_touched(plan)
        for number, (function, statement, plan) in enumerate(batch)
    }


def batch_growth(drivers: dict[str, AgentDriver], django_user_model) -> dict[str, tuple[int, int]]:
    others = {}
    for name in drivers:
        user = django_user_model.objects.create_user(username=f"other-{name}", password="pw")
        others[name] = AgentDriver(
            caller=Caller(label=f"agent:other-{name}", user_id=user.id),
            conversation=conversation_get_or_create_default(user=user),
        )
    fresh = batch_cost(drivers["fresh"], others["fresh"])
    history = batch_cost(drivers["history"], others["history"])
    assert len(fresh) == len(history), "the two batches ran different statements"
    return {
        statement: (before, after)
        for (statement, before), after in zip(fresh.items(), history.values(), strict=True)
        if after > before + SLACK_ROWS
    }


def conversations_with_and_without_history(django_user_model) -> dict[str, AgentDriver]:
    drivers = {}
    for name in ("fresh", "history"):
        user = django_user_model.objects.create_user(username=name, password="pw")
        conversation = conversation_get_or_create_default(user=user)
        drivers[name] = AgentDriver(caller=Caller(label=f"agent:{name}", user_id=user.id), conversation=conversation)
    closed_history(drivers["history"].conversation.id, HISTORY)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE runtime_appinstance, runtime_appsession, runtime_toolcall, runtime_operation")
    return drivers


def growth(drivers: dict[str, AgentDriver]) -> dict[str, tuple[int, int]]:
    fresh = functions_cost(drivers["fresh"])
    history = functions_cost(drivers["history"])
    assert len(fresh) == len(history), "the two conversations ran different statements"
    return {
        statement: (before, after)
        for (statement, before), after in zip(fresh.items(), history.values(), strict=True)
        if after > before + SLACK_ROWS
    }


def test_the_statements_inside_the_start_and_the_settlement_do_not_read_the_closed_history(django_user_model):
    drivers = conversations_with_and_without_history(django_user_model)
    with nested_plans() as probe:  # both functions report their statements (the check is not vacuous)
        assert isinstance(drivers["fresh"].start(600, now=at(-100)), Accepted)
        drivers["fresh"].interrupt(now=at(-90))
    seen = {function for function, _, _ in probe}
    assert seen == {"runtime_settle_single"}, "the function's statements went unseen"

    growing = growth(drivers)
    assert not growing, f"rows touched (fresh, with {HISTORY} closed) grew with the history: {growing}"
    growing = batch_growth(drivers, django_user_model)
    assert not growing, f"a batch's rows touched (fresh, with {HISTORY} closed) grew with the history: {growing}"


def test_a_function_statement_that_lost_its_index_is_caught(django_user_model):
    """Without ``open_instances_by_focus`` (dropped in this test's transaction only), a batch's
    settlement finds the previous valid instance by filtering every instance of the conversation:
    the measure above sees it."""
    drivers = conversations_with_and_without_history(django_user_model)
    with connection.cursor() as cursor:
        cursor.execute("DROP INDEX open_instances_by_focus")
        cursor.execute("ANALYZE runtime_appinstance")
    growing = batch_growth(drivers, django_user_model)
    assert any(" runtime_settle_batch: " in statement for statement in growing), growing
