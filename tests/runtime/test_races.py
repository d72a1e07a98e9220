"""Races on PostgreSQL with real concurrent connections (SPEC R-3.5, R-3.9, R-3.12, R-2.2.5).

Every racer runs in its own thread with its own Django database connection; a
``threading.Barrier`` releases them together so their transactions really overlap. The
workspace row lock is what serialises the decisions; the partial unique indexes and the outbox's
one-per-operation constraint are the last line of defence. These tests need PostgreSQL: SQLite
has no row locks.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from functools import partial
from typing import Any, TypeVar

import pytest
from django.db import connection, connections
from django.db.models import F

from miniapps.pomodoro.tools import start_focus
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
    Workspace,
)
from runtime.services.lifecycle import close_instance, return_to_interact
from runtime.services.operation_views import operation_result
from runtime.services.recovery import recover_runtime, settle_due
from runtime.services.settlements import settle_operation
from runtime.tool_calls import Accepted, Receipt, Rejected
from runtime.tool_router import Caller
from runtime.transitions import InterruptionReason, LifecycleState, OperationState, Trigger
from tests.support.factories import T0, AgentDriver, at, new_call_id
from tests.support.nightly import NIGHTLY

T = TypeVar("T")

START_ROUNDS = 100 if NIGHTLY else 1  # rounds of 50 concurrent starts, each in a new conversation
BARRIER_TIMEOUT = 30.0  # a racer that never arrives is a bug: fail instead of hanging
SETTLEMENT_KINDS = ("operation.completed", "operation.interrupted")

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _require_postgres() -> None:
    if connection.vendor != "postgresql":
        pytest.fail("race tests need PostgreSQL row locks; run them with DATABASE_URL=postgres://...")


@pytest.fixture(autouse=True)
def _projections_in_process(settings) -> None:
    # Projections are after-commit hints, not what these tests decide; on the Redis layer each
    # costs a connection round trip, which would stretch 200 rounds to a minute.
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


class ConnectionThreads:
    """``size`` threads, each with its own database connection, reused from round to round.

    ``run_together`` submits one call per thread and holds every call at a barrier until all are
    running, so the calls start together on distinct threads (and so distinct connections).
    Reusing the threads keeps hundreds of rounds from opening thousands of connections.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._pool = ThreadPoolExecutor(max_workers=size, thread_name_prefix="racer")

    def run_together(self, calls: Sequence[Callable[[], T]]) -> list[T]:
        # More calls than threads could never all reach the barrier.
        assert 0 < len(calls) <= self.size
        barrier = threading.Barrier(len(calls), timeout=BARRIER_TIMEOUT)

        def run(call: Callable[[], T]) -> T:
            barrier.wait()
            return call()

        futures = [self._pool.submit(run, call) for call in calls]
        return [future.result(timeout=BARRIER_TIMEOUT * 2) for future in futures]

    def close(self) -> None:
        # One closer per thread (the barrier puts each on its own thread): no connection leaks
        # into the flush that ends a transactional test.
        self.run_together([connections.close_all] * self.size)
        self._pool.shutdown(wait=True)


@pytest.fixture
def threads() -> Iterator[Callable[[int], ConnectionThreads]]:
    opened: list[ConnectionThreads] = []

    def open_threads(size: int) -> ConnectionThreads:
        opened.append(ConnectionThreads(size))
        return opened[-1]

    yield open_threads
    for pool in opened:
        pool.close()


def _pomodoro_instances(conversation: Conversation) -> Any:
    return AppInstance.objects.filter(conversation=conversation, is_system=False)


def _foreground(conversation: Conversation) -> AppInstance:
    return AppInstance.objects.get(conversation=conversation, lifecycle_state=LifecycleState.FOREGROUND)


@pytest.mark.spec("R-3.12")
def test_fifty_concurrent_starts_accept_exactly_one(user, caller, threads):
    """50 starts with distinct call ids race in a fresh conversation (no workspace, no Interact yet):
    exactly one is accepted and 49 are rejected ``active_focusing_operation``, having created no
    instance, sub-session, operation, tool call, focus change or outbox entry; the racers create the
    workspace and its one Interact between them. One round; LINEUP_NIGHTLY=1 runs 100, each in a new
    conversation."""
    racers = threads(50)
    for round_no in range(START_ROUNDS):
        _fifty_starts_in_a_fresh_conversation(user, caller, racers, round_no)


def _fifty_starts_in_a_fresh_conversation(user, caller: Caller, racers: ConnectionThreads, round_no: int) -> None:
    conversation = Conversation.objects.create(owner=user, title=f"fresh {round_no}")
    agent = AgentDriver(caller=caller, conversation=conversation)
    assert not Workspace.objects.filter(conversation=conversation).exists()
    assert not AppInstance.objects.filter(conversation=conversation).exists()
    assert not LifecycleEvent.objects.filter(conversation_id=conversation.id).exists()
    call_ids = [new_call_id("start") for _ in range(50)]
    outcomes = racers.run_together([partial(agent.start, 60, now=T0, call_id=c) for c in call_ids])

    accepted = [o for o in outcomes if isinstance(o, Accepted)]
    rejected = [o for o in outcomes if isinstance(o, Rejected)]
    assert len(accepted) == 1, (round_no, outcomes)
    assert not accepted[0].replayed
    assert len(rejected) == 49
    assert {r.code for r in rejected} == {"active_focusing_operation"}
    assert {r.source_tool_call_id for r in rejected} == set(call_ids) - {accepted[0].source_tool_call_id}

    winner = accepted[0]
    assert list(Operation.objects.filter(conversation=conversation).values_list("id", flat=True)) == [
        winner.operation_id
    ]
    assert list(_pomodoro_instances(conversation).values_list("id", flat=True)) == [winner.instance_id]
    assert list(AppSession.objects.filter(conversation=conversation).values_list("id", flat=True)) == [
        winner.app_session_id
    ]
    assert list(ToolCall.objects.filter(conversation=conversation).values_list("source_tool_call_id", flat=True)) == [
        winner.source_tool_call_id
    ]
    assert OutboxEntry.objects.filter(conversation=conversation).count() == 0
    # One Interact instance (created once, by whichever racer locked the new workspace first).
    assert AppInstance.objects.filter(conversation=conversation, is_system=True).count() == 1
    assert _foreground(conversation).id == winner.instance_id
    # The only focus changes are Interact's first one and the winner's (recorded in its one
    # operation.started event): losers moved nothing.
    foreground_events = LifecycleEvent.objects.filter(conversation_id=conversation.id, kind="instance.foreground")
    assert list(foreground_events.values_list("instance_id", flat=True)) == [
        AppInstance.objects.get(conversation=conversation, is_system=True).id
    ]
    started = LifecycleEvent.objects.filter(conversation_id=conversation.id, kind="operation.started")
    assert list(started.values_list("instance_id", flat=True)) == [winner.instance_id]
    rejections = LifecycleEvent.objects.filter(conversation_id=conversation.id, kind="tool.rejected")
    assert rejections.count() == 49
    assert {e.data["code"] for e in rejections} == {"active_focusing_operation"}


@pytest.mark.spec("R-3.5")
def test_fifty_concurrent_retries_of_one_call_share_one_operation(agent, conversation, threads):
    """50 concurrent deliveries of the same ``pomodoro.start`` call all get ``Accepted`` with the
    same operation: one operation and one tool call exist, and only one delivery created them."""
    call_id = new_call_id("start")
    outcomes = threads(50).run_together([partial(agent.start, 60, now=T0, call_id=call_id)] * 50)

    assert all(isinstance(o, Accepted) for o in outcomes), [o for o in outcomes if not isinstance(o, Accepted)]
    assert len({o.operation_id for o in outcomes}) == 1
    assert len({(o.instance_id, o.app_session_id) for o in outcomes}) == 1
    assert sum(not o.replayed for o in outcomes) == 1  # one created it; 49 were answered from its rows
    assert Operation.objects.filter(conversation=conversation).count() == 1
    assert ToolCall.objects.filter(conversation=conversation).count() == 1
    assert _pomodoro_instances(conversation).count() == 1
    assert AppSession.objects.filter(conversation=conversation).count() == 1
    assert OutboxEntry.objects.filter(conversation=conversation).count() == 0
    assert LifecycleEvent.objects.filter(conversation_id=conversation.id, kind="operation.started").count() == 1


ROUNDS = 500 if NIGHTLY else 200
ROUND_SECONDS = 10  # each round starts on its own stretch of the fixed clock


def _racers(agent, conversation: Conversation, started: Accepted, base, ends_at, round_no: int) -> list[Callable]:
    """Deadline, Agent interrupt, close and return-to-Interact for one operation.

    The interrupt and lifecycle clocks rotate between "before ends_at" and "at ends_at", so both
    kinds of win (interrupted now, or completed at ends_at when the duration was reached) occur.
    """
    just_before = ends_at - timedelta(milliseconds=1)
    interrupt_at = (base + timedelta(milliseconds=500), just_before, ends_at)[round_no % 3]
    close_at = (just_before, base + timedelta(milliseconds=250), ends_at, ends_at)[round_no % 4]
    return_at = (base + timedelta(milliseconds=750), ends_at)[round_no % 2]
    return [
        partial(settle_operation, operation_id=started.operation_id, trigger=Trigger.DEADLINE, now=ends_at),
        partial(agent.interrupt, now=interrupt_at),
        partial(close_instance, conversation_id=conversation.id, instance_id=started.instance_id, now=close_at),
        partial(return_to_interact, conversation_id=conversation.id, now=return_at),
    ]


REASON_BY_TRIGGER = {
    Trigger.AGENT_INTERRUPT.value: InterruptionReason.AGENT_INTERRUPT,
    Trigger.CLOSE_APP.value: InterruptionReason.APP_CLOSED,
    Trigger.RETURN_TO_INTERACT.value: InterruptionReason.RETURNED_TO_INTERACT,
}


def _race_rounds(agent: AgentDriver, racers: ConnectionThreads, rounds: int) -> Counter[str]:
    """``rounds`` sequential races in ``agent``'s conversation; returns who won how often."""
    conversation = agent.conversation
    interact_id = None
    winners: Counter[str] = Counter()
    for round_no in range(rounds):
        base = at(round_no * ROUND_SECONDS)
        started = agent.start(1, now=base)
        assert isinstance(started, Accepted) and not started.replayed, (round_no, started)
        ends_at = base + timedelta(seconds=1)

        deadline, receipt, _closed, interact = racers.run_together(
            _racers(agent, conversation, started, base, ends_at, round_no)
        )

        assert isinstance(receipt, Receipt), (round_no, receipt)
        assert receipt.receipt["status"] in {"interrupted", "operation_already_final"}, (round_no, receipt)
        assert receipt.receipt["operation_id"] == str(started.operation_id)
        interact_id = interact_id or interact.id
        assert interact.id == interact_id
        # Interact is in front once the round is over, whoever won.
        assert _foreground(conversation).id == interact_id, round_no

        operation = Operation.objects.select_related("instance", "app_session", "tool_call").get(
            pk=started.operation_id
        )
        settlements = list(
            LifecycleEvent.objects.filter(operation_id=operation.id, kind__in=SETTLEMENT_KINDS).values_list(
                "kind", "data"
            )
        )
        assert len(settlements) == 1, (round_no, settlements)
        kind, data = settlements[0]
        winners[data["trigger"]] += 1
        assert kind == f"operation.{operation.state}"
        if operation.state == OperationState.COMPLETED:
            assert operation.ended_at == ends_at
            assert operation.interruption_reason is None
        else:
            assert operation.state == OperationState.INTERRUPTED
            assert operation.ended_at < ends_at
            assert operation.interruption_reason == REASON_BY_TRIGGER[data["trigger"]], (round_no, data)
        # The stable receipts agree with the one decision that was made.
        agent_won = operation.interruption_reason == InterruptionReason.AGENT_INTERRUPT
        assert (receipt.receipt["status"] == "interrupted") == agent_won, (round_no, receipt, operation.state)
        assert deadline.settled == (data["trigger"] == Trigger.DEADLINE.value), (round_no, deadline)

        entries = list(OutboxEntry.objects.filter(operation=operation))
        assert len(entries) == 1, round_no
        assert operation.tool_call.status == ToolCallStatus.SUCCEEDED
        assert operation.tool_call.result == entries[0].payload["result"] == operation_result(operation)
        assert entries[0].payload["source_tool_call_id"] == started.source_tool_call_id
        assert operation.instance.lifecycle_state == LifecycleState.CLOSED
        assert operation.app_session.state == AppSessionState.ENDED

    assert Operation.objects.filter(conversation=conversation).count() == rounds
    assert OutboxEntry.objects.filter(conversation=conversation).count() == rounds
    assert not Operation.objects.filter(conversation=conversation, state=OperationState.RUNNING).exists()
    assert not _pomodoro_instances(conversation).exclude(lifecycle_state=LifecycleState.CLOSED).exists()
    return winners


@pytest.mark.spec("R-3.9", "R-2.2.5", "R-3.7", "R-3.10", "R-4.2.6")
def test_deadline_interrupt_close_and_return_race_settles_once(agent, threads):
    """200 rounds (LINEUP_NIGHTLY=1: 500) of the deadline, the Agent's interrupt, a close and a return to Interact racing
    on one operation: each round ends in exactly one terminal state with exactly one outbox entry,
    whose result is the start tool call's result; the instance is closed, its sub-session ended,
    Interact is in front, and the losers only got stable receipts."""
    winners = _race_rounds(agent, threads(4), ROUNDS)

    assert sum(winners.values()) == ROUNDS
    # The race really raced: more than one kind of racer won over the rounds.
    assert len(winners) > 1, winners


@pytest.mark.spec("R-2.2.5", "R-4.4.1", "R-4.4.3")
def test_concurrent_sweeps_settle_each_due_operation_once(user, threads):
    """Four ``settle_due`` sweeps racing over 100 due operations in 100 conversations settle each
    operation exactly once — ``completed`` at its ``ends_at``, with one outbox entry."""
    conversations = [Conversation.objects.create(owner=user, title=f"sweep {i}") for i in range(100)]
    operation_ids = {
        start_focus(
            conversation_id=c.id,
            source_tool_call_id=new_call_id("start"),
            duration_seconds=30 + i % 7,  # a spread of ends_at, so sweeps meet in varying orders
            activity=None,
            caller="agent:test",
            now=T0,
        ).operation_id
        for i, c in enumerate(conversations)
    }

    summaries = threads(4).run_together([partial(settle_due, now=at(60))] * 4)

    settled = [op_id for s in summaries for op_id in s.settled]
    assert Counter(settled) == Counter(operation_ids), "each operation settled by exactly one sweep"
    operations = list(Operation.objects.all())
    assert len(operations) == 100
    assert all(o.state == OperationState.COMPLETED and o.ended_at == o.ends_at for o in operations)
    assert OutboxEntry.objects.count() == 100
    assert set(OutboxEntry.objects.values_list("operation_id", flat=True)) == operation_ids
    completed = Counter(
        LifecycleEvent.objects.filter(kind="operation.completed").values_list("operation_id", flat=True)
    )
    assert completed == Counter(operation_ids)


@pytest.mark.spec("R-4.4.1", "R-4.4.3")
def test_recovery_with_workers_settles_every_due_operation_once_beside_a_sweep(user, threads):
    """``recover_runtime(workers=4)`` — after an outage, settling each batch in four threads — and a
    beat sweep running at the same time settle each of 120 due operations exactly once."""
    operation_ids = _due_operations(user, 120)

    recovery, sweep = threads(2).run_together(
        [partial(recover_runtime, now=at(60), workers=4), partial(settle_due, now=at(60), batch=7)]
    )

    assert Counter([*recovery.settled, *sweep.settled]) == Counter(operation_ids), "each settled exactly once"
    assert recovery.settled, "the recovery did settle some (it is not a sweep-only run)"
    assert OutboxEntry.objects.count() == 120
    assert Operation.objects.filter(state=OperationState.COMPLETED, ended_at=F("ends_at")).count() == 120


@pytest.mark.spec("R-4.4.1")
def test_settle_due_with_workers_reports_each_batch(user):
    """The progress hook sees the running totals after every batch (recovery logs them)."""
    operation_ids = _due_operations(user, 30)
    seen: list[tuple[int, int]] = []

    summary = settle_due(
        now=at(60), batch=8, workers=3, on_batch=lambda s: seen.append((len(s.settled), s.already_final))
    )

    assert set(summary.settled) == operation_ids
    assert seen == [(8, 0), (16, 0), (24, 0), (30, 0)]


def _due_operations(user, count: int) -> set:
    """``count`` operations due at ``at(60)``, each in its own conversation."""
    return {
        start_focus(
            conversation_id=Conversation.objects.create(owner=user, title=f"outage {i}").id,
            source_tool_call_id=new_call_id("start"),
            duration_seconds=30 + i % 5,
            activity=None,
            caller="agent:test",
            now=T0,
        ).operation_id
        for i in range(count)
    }


OPERATOR_ROUNDS = 100 if NIGHTLY else 40


@pytest.mark.spec("R-3.9", "R-2.2.5")
def test_an_operator_interrupt_racing_the_eta_settlement_settles_once(agent, threads):
    """The admin's "interrupt with a reason" (runtime.admin.incident) racing the eta task on one
    operation: one terminal state, one outbox entry, and one audit entry whose status says what the
    operator's request did (interrupted it, completed it at ``ends_at``, or found it final)."""
    from runtime.services.interrupts import interrupt_for_operator

    racers = threads(2)
    winners: Counter[str] = Counter()
    for round_no in range(OPERATOR_ROUNDS):
        base = at(round_no * ROUND_SECONDS)
        started = agent.start(1, now=base)
        assert isinstance(started, Accepted), (round_no, started)
        ends_at = base + timedelta(seconds=1)
        operator_at = (ends_at - timedelta(milliseconds=1), base + timedelta(milliseconds=500), ends_at)[round_no % 3]
        deadline, operator = racers.run_together(
            [
                partial(settle_operation, operation_id=started.operation_id, trigger=Trigger.DEADLINE, now=ends_at),
                partial(
                    interrupt_for_operator,
                    operation_id=started.operation_id,
                    operator="ops",
                    reason=f"round {round_no}",
                    now=operator_at,
                ),
            ]
        )
        assert deadline.settled != operator.settled, (round_no, deadline, operator)
        operation = Operation.objects.get(pk=started.operation_id)
        [(kind, data)] = LifecycleEvent.objects.filter(
            operation_id=operation.id, kind__in=SETTLEMENT_KINDS
        ).values_list("kind", "data")
        [audit] = LifecycleEvent.objects.filter(operation_id=operation.id, kind="operator.interrupt")
        assert audit.data["reason"] == f"round {round_no}" and audit.data["operator"] == "ops"
        winners[data["trigger"]] += 1
        if data["trigger"] == Trigger.OPERATOR.value:
            assert audit.data["status"] == operation.state
            expected = OperationState.COMPLETED if operator_at >= ends_at else OperationState.INTERRUPTED
            assert operation.state == expected, (round_no, operation.state)
        else:
            assert audit.data["status"] == "already_final" and operation.state == OperationState.COMPLETED
        assert operation.interruption_reason == (
            InterruptionReason.OPERATOR if operation.state == OperationState.INTERRUPTED else None
        )
        assert kind == f"operation.{operation.state}"
        [entry] = OutboxEntry.objects.filter(operation=operation)
        assert entry.payload["result"] == operation_result(operation)

    assert sum(winners.values()) == OPERATOR_ROUNDS
    assert len(winners) > 1, winners  # both kinds of racer won some rounds
