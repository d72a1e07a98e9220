"""Random histories through the one settlement path (decision 0056), on whichever engine runs the suite.

Hypothesis draws random histories — Agent starts and interrupts, clock steps (also to exactly
``ends_at``), eta deliveries, operator interrupts, lifecycle moves (back to Interact, open Notes
and switch back, close an app, close the window), beat sweeps and restarts — and each history is
run twice from the same start: once with each sweep settling its due operations as one batch
(``settle_due_batch``, one statement per table for all of them) and once with the sweep settling
them one batch of one at a time. A batch must settle each operation exactly as it would settle
alone: each answer, and every row either run wrote — operations (state, ended_at,
interruption_reason), start calls and their results, receipts, outbox rows, instances and
sub-sessions, the workspace's focus numbers and the audit log, ids compared by order of first
appearance. CI runs this module on PostgreSQL and on SQLite (the same statements on both: there
is no second implementation to compare against any more; the PL/pgSQL twins of decision 0030 are
called by nothing here, which ``test_no_settlement_calls_a_plpgsql_function`` keeps true).

Budget: the repository's Hypothesis profiles (tests/conftest.py).
"""

from __future__ import annotations

import json
import re
import uuid
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from hypothesis import given
from hypothesis import strategies as st

from runtime.errors import Rejection
from runtime.models import (
    AppInstance,
    AppSession,
    LifecycleEvent,
    Operation,
    OutboxEntry,
    ToolCall,
    Workspace,
)
from runtime.services.conversations import conversation_get_or_create_default
from runtime.services.interrupts import interrupt_for_operator
from runtime.services.lifecycle import close_instance, close_workspace, open_app, return_to_interact, switch_app
from runtime.services.recovery import SWEEP_BATCH, recover_runtime, settle_due
from runtime.services.settlements import settle_due_batch, settle_operation
from runtime.tool_router import Caller
from runtime.transitions import Trigger
from tests.support.factories import T0, AgentDriver

CONVERSATIONS = 2

conversation = st.integers(0, CONVERSATIONS - 1)
STEP = st.one_of(
    st.tuples(st.just("start"), conversation, st.integers(1, 90)),
    st.tuples(st.just("interrupt"), conversation),
    st.tuples(st.just("advance"), st.integers(1, 40_000)),
    st.tuples(st.just("to_deadline"), conversation, st.integers(-1, 1)),
    st.tuples(st.just("eta"), conversation),
    st.tuples(st.just("operator"), conversation),
    st.tuples(st.just("return"), conversation),
    st.tuples(st.just("open_notes"), conversation),
    st.tuples(st.just("switch_back"), conversation),
    st.tuples(st.just("close"), conversation),
    st.tuples(st.just("close_window"), conversation),
    st.tuples(st.just("sweep")),
    st.tuples(st.just("recover")),
)


class _TestClockEncoder(DjangoJSONEncoder):
    """Times of the test clock as they are; the wall clock's (the users' conversations are created
    at the real now) as one mark, since the two runs happen at different real times."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime) and o > T0 + timedelta(days=30):
            return "<wall clock>"
        return super().default(o)


class History:
    """One run of a history in fresh conversations; ``world()`` is everything it left."""

    def __init__(self, label: str, *, sweep_batch: int) -> None:
        self.now = T0
        self.sweep_batch = sweep_batch
        self.calls = 0
        self.transcript: list[Any] = []
        self.agents: list[AgentDriver] = []
        users = get_user_model().objects
        for index in range(CONVERSATIONS):
            user = users.create_user(username=f"sql-{label}-{index}-{uuid.uuid4().hex[:6]}", password="pw-prop-123")
            conv = conversation_get_or_create_default(user=user)
            self.agents.append(
                AgentDriver(caller=Caller(label=f"agent:sql-{index}", user_id=user.id), conversation=conv)
            )
        self.ids = [agent.conversation.id for agent in self.agents]

    def _latest(self, index: int) -> Operation | None:
        # Several operations can start at one instant of the test clock: the tie is broken by the
        # order of the test's own calls, never by the order PostgreSQL happens to return rows in
        # (which differs between the two runs once the first one's rows are rolled back).
        operations = Operation.objects.filter(conversation_id=self.ids[index])
        return max(operations, key=lambda op: (op.started_at, _call_number(op.source_tool_call_id)), default=None)

    def _call_id(self) -> str:
        self.calls += 1
        return f"call-{self.calls}"

    def step(self, step: tuple) -> None:
        kind, *args = step
        try:
            self.transcript.append((kind, self._run(kind, *args)))
        except Rejection as rejection:
            self.transcript.append((kind, "rejected", rejection.code))

    def _run(self, kind: str, *args: int) -> Any:
        if kind == "advance":
            self.now += timedelta(milliseconds=args[0])
            return None
        if kind in ("sweep", "recover"):
            if kind == "sweep":
                summary = settle_due(now=self.now, batch=self.sweep_batch)
                return sorted(
                    self.ids.index(o.conversation_id) for o in Operation.objects.filter(pk__in=summary.settled)
                )
            return recover_runtime(now=self.now).counts()
        index = args[0]
        agent, conversation_id, latest = self.agents[index], self.ids[index], self._latest(index)
        if kind == "start":
            return repr(type(agent.start(args[1], now=self.now, call_id=self._call_id())))
        if kind == "interrupt":
            return agent.interrupt(now=self.now, call_id=self._call_id()).receipt["status"]
        if kind == "return":
            return return_to_interact(conversation_id=conversation_id, now=self.now).app_id
        if kind == "open_notes":
            return open_app(conversation_id=conversation_id, app_id="notes", now=self.now).app_id
        if kind == "close_window":
            return close_workspace(conversation_id=conversation_id, now=self.now)
        if latest is None:
            return "none"
        if kind == "to_deadline":
            self.now = max(self.now, latest.ends_at + timedelta(milliseconds=args[1]))
            return None
        if kind == "eta":
            outcome = settle_operation(operation_id=latest.id, trigger=Trigger.DEADLINE, now=self.now)
            return (outcome.settled, type(outcome.decision).__name__)
        if kind == "operator":
            outcome = interrupt_for_operator(operation_id=latest.id, operator="ops", reason="incident", now=self.now)
            return (outcome.settled, type(outcome.decision).__name__)
        if kind == "switch_back":
            return switch_app(conversation_id=conversation_id, instance_id=latest.instance_id, now=self.now).app_id
        if kind == "close":
            return close_instance(conversation_id=conversation_id, instance_id=latest.instance_id, now=self.now)
        raise AssertionError(kind)

    def world(self) -> str:
        """Every row of the run's conversations, ordered without ids (ties broken by the test's own
        call ids and focus numbers), ids replaced by first appearance."""
        rows: dict[str, Any] = {"transcript": self.transcript}
        for index, conversation_id in enumerate(self.ids):
            mine = {"conversation_id": conversation_id}
            rows[f"conversation {index}"] = {
                "workspace": list(Workspace.objects.filter(**mine).values("focus_seq")),
                "instances": list(
                    AppInstance.objects.filter(**mine)
                    .order_by("opened_at", "is_system", "focus_seq")
                    .values("id", "app_id", "lifecycle_state", "focus_seq", "closed_at", "close_reason", "opened_at")
                ),
                "sessions": list(
                    AppSession.objects.filter(**mine)
                    .order_by("opened_at", "instance__focus_seq", "instance__app_id")
                    .values("instance_id", "state", "ended_at")
                ),
                "operations": list(
                    Operation.objects.filter(**mine)
                    .order_by("started_at", "source_tool_call_id")
                    .values(
                        "id",
                        "instance_id",
                        "app_session_id",
                        "tool_call_id",
                        "state",
                        "started_at",
                        "ends_at",
                        "ended_at",
                        "interruption_reason",
                        "settled_at",
                    )
                ),
                "calls": list(
                    ToolCall.objects.filter(**mine)
                    .order_by("created_at", "source_tool_call_id")
                    .values(
                        "id",
                        "source_tool_call_id",
                        "tool",
                        "status",
                        "receipt",
                        "result",
                        "cancel_reason",
                        "instance_id",
                        "channel",
                        "finished_at",
                    )
                ),
                "outbox": list(
                    OutboxEntry.objects.filter(**mine)
                    .order_by("created_at", "operation__started_at", "operation__source_tool_call_id")
                    .values("id", "operation_id", "tool_call_id", "agent_id", "channel", "payload", "next_attempt_at")
                ),
                "events": list(
                    LifecycleEvent.objects.filter(**mine)
                    .order_by("id")
                    .values(
                        "kind", "at", "instance_id", "app_session_id", "operation_id", "source_tool_call_id", "data"
                    )
                ),
            }
        text = json.dumps(rows, cls=_TestClockEncoder, sort_keys=True)
        labels: dict[str, str] = {}
        uuids = re.compile(r"[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}")
        return uuids.sub(lambda m: labels.setdefault(m.group(0).replace("-", ""), f"<id {len(labels)}>"), text)


def _call_number(call_id: str) -> int:
    return int(call_id.removeprefix("call-"))


def run(history: list[tuple], *, sweep_batch: int = SWEEP_BATCH) -> str:
    """Run ``history`` in fresh conversations and return its world; everything it wrote is rolled back.
    ``sweep_batch``: how many due operations a sweep settles in one batch."""
    savepoint = transaction.savepoint()
    hooks = len(connection.run_on_commit)
    try:
        run_ = History(label=uuid.uuid4().hex[:6], sweep_batch=sweep_batch)
        for step in history:
            run_.step(step)
        return run_.world()
    finally:
        transaction.savepoint_rollback(savepoint)
        del connection.run_on_commit[hooks:]


@pytest.mark.spec("R-3.2", "R-3.6", "R-3.7", "R-3.8", "R-3.9", "R-4.2.4", "R-4.2.6", "R-4.2.8", "R-4.4.1")
@pytest.mark.django_db
@given(history=st.lists(STEP, min_size=1, max_size=25))
def test_a_batch_settles_each_operation_as_it_would_settle_alone(history: list[tuple]) -> None:
    assert run(history) == run(history, sweep_batch=1)


@pytest.mark.spec("R-3.2", "R-3.9")
@pytest.mark.django_db
def test_the_comparison_can_fail() -> None:
    """The worlds differ when the outcomes do: a history that ends in an interrupt against one that
    ends in a deadline is told apart (the comparison is not vacuous)."""
    start = [("start", 0, 60), ("advance", 10_000)]
    assert run([*start, ("interrupt", 0)]) != run([*start, ("to_deadline", 0, 0), ("eta", 0)])


START = [("start", 0, 60), ("advance", 10_000)]
# Every kind of settlement: one operation (interrupt, eta, operator, lifecycle closes, a sweep of
# one) and a batch (a sweep of two conversations' due operations).
SETTLEMENTS = {
    "interrupt": [*START, ("interrupt", 0)],
    "eta": [*START, ("to_deadline", 0, 0), ("eta", 0)],
    "operator": [*START, ("operator", 0)],
    "close": [*START, ("close", 0)],
    "close_window": [*START, ("close_window", 0)],
    "return_then_close": [*START, ("return", 0), ("close", 0)],
    "notes_then_interrupt": [*START, ("open_notes", 0), ("interrupt", 0)],
    "sweep_one": [*START, ("to_deadline", 0, 1), ("sweep",)],
    "sweep_two": [("start", 0, 60), ("start", 1, 60), ("advance", 61_000), ("sweep",)],
}


@pytest.mark.spec("R-3.2", "R-3.7", "R-3.8", "R-4.2.4", "R-4.2.8")
@pytest.mark.django_db
@pytest.mark.parametrize("history", list(SETTLEMENTS.values()), ids=list(SETTLEMENTS))
def test_no_settlement_calls_a_plpgsql_function(history: list[tuple]) -> None:
    """Each kind of settlement writes through the statements of ``settlements._write_settlements``
    on either engine; the functions the previous release still calls (``runtime_settle_batch``,
    ``runtime_settle_single``, ``runtime.sql.settle``) are called by none of them."""
    with CaptureQueriesContext(connection) as queries:
        world = run(history)
    assert re.search(r'"operation\.(completed|interrupted)"', world)  # something settled
    called = [q["sql"] for q in queries.captured_queries if re.search(r"runtime_settle_\w*\(", q["sql"])]
    assert called == []
    assert any("UPDATE" in q["sql"] and "runtime_operation" in q["sql"] for q in queries.captured_queries)


@pytest.mark.spec("R-3.2", "R-4.2.4")
@pytest.mark.django_db
def test_two_due_operations_with_different_results_settle_in_one_batch() -> None:
    """The batch itself, not the sweep's one-by-one retry after a failed batch: every per-row
    value differs (the start calls, their results, the instances closed)."""
    history = History(label=uuid.uuid4().hex[:6], sweep_batch=SWEEP_BATCH)
    for step in [("start", 0, 60), ("start", 1, 90), ("advance", 91_000)]:
        history.step(step)
    ids = list(Operation.objects.filter(conversation_id__in=history.ids).values_list("pk", flat=True))
    outcomes = settle_due_batch(operation_ids=ids, now=history.now)
    assert sorted(str(o.operation_id) for o in outcomes if o.settled) == sorted(str(i) for i in ids)
    results = ToolCall.objects.filter(operation__in=ids).values_list("result", flat=True)
    assert len({json.dumps(r, sort_keys=True) for r in results}) == 2
