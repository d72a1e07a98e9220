"""What a decision costs in SQL statements, whatever the conversation's history (issue 16).

Each decision still locks the workspace row first, compares-and-sets and writes its one outbox
row in the same transaction (the race, crash and property tests prove that); these pin how many
statements it takes: a start at most 11 on either engine (the Router's read, the workspace lock, one
read under it and its writes — the same statements on both, decision 0055; on PostgreSQL they go in
two round trips), an interrupt and a settlement the counts in ``MAX_STATEMENTS`` (the same
statements on both engines, pipelined on PostgreSQL — decision 0056), and a delivery round with its
ack 3 — the same with
1 000 closed instances (and their ended operations) behind it as with none, so nothing scans a
conversation's history.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from runtime.models import (
    AppInstance,
    AppSession,
    DeliveryChannel,
    Operation,
    OutboxEntry,
    ToolCall,
    ToolCallStatus,
)
from runtime.selectors import due_outbox_page
from runtime.services.outbox import ack_outbox_entry, mark_sent
from runtime.services.recovery import settle_due
from runtime.services.settlements import settle_operation
from runtime.tool_calls import Accepted, Receipt
from runtime.transitions import LifecycleState, OperationState, Trigger
from tests.support.factories import T0, at

# Real transactions, as in production: no test savepoints in the counts.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.spec("R-3.12", "R-3.6", "R-4.2.4")]

HISTORY = 1_000
# Through the ORM (SQLite, the embedded default; and PostgreSQL with the SQL paths turned off).
MAX_STATEMENTS = {"start": 11, "interrupt": 11, "settlement": 9, "delivery_and_ack": 3}


def closed_history(conversation, count: int) -> None:
    """``count`` earlier focuses of the conversation, all over: closed instances, ended
    sub-sessions, completed operations with their start calls and acked outbox entries."""
    long_ago = T0 - timedelta(days=30)
    instances = AppInstance.objects.bulk_create(
        AppInstance(
            conversation=conversation,
            app_id="pomodoro",
            lifecycle_state=LifecycleState.CLOSED,
            focus_seq=0,
            opened_at=long_ago,
            closed_at=long_ago + timedelta(minutes=25),
            close_reason="completed",
        )
        for _ in range(count)
    )
    sessions = AppSession.objects.bulk_create(
        AppSession(
            instance=i,
            conversation=conversation,
            state="ended",
            opened_at=long_ago,
            ended_at=long_ago + timedelta(minutes=25),
        )
        for i in instances
    )
    calls = ToolCall.objects.bulk_create(
        ToolCall(
            conversation=conversation,
            source_tool_call_id=f"history-{n}",
            tool="pomodoro.start",
            arguments={"duration_seconds": 1500},
            caller="agent:history",
            status=ToolCallStatus.SUCCEEDED,
            instance=i,
            created_at=long_ago,
            finished_at=long_ago + timedelta(minutes=25),
        )
        for n, i in enumerate(instances)
    )
    operations = Operation.objects.bulk_create(
        Operation(
            conversation=conversation,
            instance=i,
            app_session=s,
            tool_call=c,
            source_tool_call_id=c.source_tool_call_id,
            app_id="pomodoro",
            details={"activity": None},
            started_at=long_ago + timedelta(seconds=n),
            ends_at=long_ago + timedelta(seconds=n + 1500),
            state=OperationState.COMPLETED,
            ended_at=long_ago + timedelta(seconds=n + 1500),
            settled_at=long_ago + timedelta(seconds=n + 1500),
        )
        for n, (i, s, c) in enumerate(zip(instances, sessions, calls, strict=True))
    )
    OutboxEntry.objects.bulk_create(
        OutboxEntry(
            conversation=conversation,
            operation=o,
            tool_call=o.tool_call,
            channel=DeliveryChannel.AGENT_SOCKET,
            payload={"source_tool_call_id": o.source_tool_call_id, "result": {}},
            created_at=o.ends_at,
            next_attempt_at=o.ends_at,
            acked_at=o.ends_at,
        )
        for o in operations
    )


def statements(run) -> tuple[object, list[str]]:
    with CaptureQueriesContext(connection) as captured:
        value = run()
    # Transaction control is not counted: psycopg sends BEGIN/COMMIT without a cursor (so they are
    # never captured) while SQLite's IMMEDIATE mode sends them as statements.
    control = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT")
    return value, [q["sql"] for q in captured.captured_queries if not q["sql"].upper().startswith(control)]


@pytest.fixture(params=[0, HISTORY], ids=["no-history", "1000-closed-instances"])
def history(request, agent, conversation) -> int:
    agent.start(60, now=at(-600))  # the workspace and Interact exist, as in a conversation in use
    agent.interrupt(now=at(-590))
    OutboxEntry.objects.update(acked_at=at(-580))
    closed_history(conversation, request.param)
    return request.param


def assert_at_most(kind: str, sql: list[str], *, ceiling: int | None = None) -> None:
    listing = "\n".join(f"{n + 1:>2}. {q[:160]}" for n, q in enumerate(sql))
    limit = MAX_STATEMENTS[kind] if ceiling is None else ceiling
    assert len(sql) <= limit, f"{kind}: {len(sql)} statements\n{listing}"


def test_a_start_takes_at_most_11_statements_on_either_engine(agent, history):
    outcome, sql = statements(lambda: agent.start(60, "homework", now=T0))
    assert isinstance(outcome, Accepted)
    assert_at_most("start", sql)
    # After the Router's conversation read, the workspace row's lock first.
    assert sql[1].startswith('SELECT focus_seq FROM "runtime_workspace"'), sql[:2]


def test_an_interrupt_takes_at_most_11_statements_on_either_engine(agent, history):
    agent.start(60, now=T0)
    outcome, sql = statements(lambda: agent.interrupt(now=at(10)))
    assert isinstance(outcome, Receipt) and outcome.receipt["status"] == "interrupted", outcome
    assert_at_most("interrupt", sql)


def test_a_settlement_takes_at_most_9_statements_on_either_engine(agent, history):
    started = agent.start(60, now=T0)
    outcome, sql = statements(
        lambda: settle_operation(operation_id=started.operation_id, trigger=Trigger.DEADLINE, now=at(61))
    )
    assert outcome.settled
    assert Operation.objects.get(pk=started.operation_id).state == OperationState.COMPLETED
    assert_at_most("settlement", sql)


def test_a_delivery_round_and_its_ack_take_at_most_3_statements(agent, history):
    started = agent.start(60, now=T0)
    settle_operation(operation_id=started.operation_id, trigger=Trigger.DEADLINE, now=at(61))
    agent_id = agent.caller.agent_id

    def deliver_and_ack() -> list[OutboxEntry]:
        page = due_outbox_page(agent_id=agent_id, channel=DeliveryChannel.AGENT_SOCKET, due_by=at(62), limit=100)
        mark_sent(entries=page, now=at(62))
        for entry in page:
            assert ack_outbox_entry(outbox_id=entry.id, agent_id=agent_id, now=at(63))
        return page

    page, sql = statements(deliver_and_ack)
    assert [e.operation_id for e in page] == [started.operation_id]
    assert OutboxEntry.objects.get(operation_id=started.operation_id).acked_at == at(63)
    assert_at_most("delivery_and_ack", sql)


def test_a_sweep_with_nothing_due_only_reads(agent):
    """With nothing due, ``settle_due`` (every sweep, each second) runs its read and nothing else:
    no settlement transaction (no BEGIN, which on SQLite takes the write lock) and no lock UPDATE."""
    started = agent.start(60, now=T0)
    with CaptureQueriesContext(connection) as captured:
        assert settle_due(now=at(59)).settled == []
    sql = [q["sql"] for q in captured.captured_queries]
    assert sql and all(q.lstrip().upper().startswith("SELECT") for q in sql), sql
    assert settle_due(now=at(60)).settled == [started.operation_id]  # once due, the same sweep settles


def test_the_counts_do_not_depend_on_the_conversation_history(agent, conversation):
    """The same decisions cost the same statements with and without 1 000 closed instances."""
    agent.start(60, now=at(-600))
    agent.interrupt(now=at(-590))
    counts = []
    for round_, history_length in enumerate((0, HISTORY)):
        closed_history(conversation, history_length)
        begin = T0 + timedelta(hours=round_)
        started, start_sql = statements(lambda: agent.start(60, now=begin))  # noqa: B023
        interrupted, interrupt_sql = statements(lambda: agent.interrupt(now=begin + timedelta(seconds=5)))  # noqa: B023
        assert isinstance(started, Accepted) and interrupted.receipt["status"] == "interrupted"
        counts.append((len(start_sql), len(interrupt_sql)))
    assert counts[0] == counts[1], counts
