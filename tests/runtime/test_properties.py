"""Stateful property test: random interleavings over the real Runtime services on PostgreSQL.

A Hypothesis ``RuleBasedStateMachine`` drives three conversations through the real Tool Router
and services with a clock it owns (``now`` only moves forward, in milliseconds, and is passed to
every service): Agent starts (new and retried call ids, also reused with other arguments), Agent
interrupts, user lifecycle moves (back to Interact, open Notes, switch, close, hide/show), snapshot
writes (valid and invalid states, right and stale revisions), time passing (also to exactly
``ends_at``), beat sweeps, duplicate and early eta deliveries and simulated restarts
(``recover_runtime``). Each rule checks the answer it got against a small model; after every step
the invariants of SPEC §3-4 are checked against the database.

Each example runs inside a savepoint of the test transaction and is rolled back in ``teardown``.
The services' ``transaction.atomic(durable=True)`` is allowed there because Django only refuses a
durable block nested in an ``atomic`` block that is not the test case's own, and a bare
``transaction.savepoint()`` pushes no atomic block.

Budget: the ``ci`` Hypothesis profile (tests/conftest.py), new examples every run; ``LINEUP_NIGHTLY=1`` or
``--hypothesis-profile=nightly`` for 200 examples x 50 steps.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from runtime.clock import isoformat
from runtime.errors import Rejection, RejectionCode
from runtime.models import AppInstance, Conversation, Operation, OutboxEntry, ToolCall, Workspace
from runtime.services.conversations import conversation_get_or_create_default
from runtime.services.lifecycle import close_instance, open_app, return_to_interact, set_visibility, switch_app
from runtime.services.operation_views import operation_result
from runtime.services.recovery import recover_runtime, settle_due
from runtime.services.settlements import settle_operation
from runtime.services.snapshots import save_snapshot
from runtime.tool_calls import Accepted, Receipt, Rejected, ToolOutcome
from runtime.tool_router import Caller
from runtime.transitions import InterruptionReason, LifecycleState, OperationState, Trigger, is_running
from tests.support.factories import T0, AgentDriver

CONVERSATIONS = 3
FRONT_STATES = (LifecycleState.FOREGROUND, LifecycleState.SUSPENDED)


@dataclass
class ModelOperation:
    id: uuid.UUID
    conversation: int
    instance_id: uuid.UUID
    started_at: datetime
    ends_at: datetime
    expected_final: tuple[str, datetime, str | None] | None = None  # (state, ended_at, reason)


@dataclass
class ModelCall:
    """An answered (accepted) Agent call: what a retry must get again."""

    conversation: int
    tool: str
    call_id: str
    arguments: dict[str, Any]
    first: Accepted | Receipt
    final_result: dict[str, Any] | None = None  # the start's result, once first seen final


@dataclass
class ModelInstance:
    id: uuid.UUID
    conversation: int
    app_id: str
    revision: int = 0
    state: Any = None
    frozen: tuple[int, Any] | None = None  # (revision, state) when first seen closed


@dataclass
class ModelConversation:
    id: uuid.UUID
    agent: AgentDriver
    interact_id: uuid.UUID
    focusing: uuid.UUID | None = None
    operations: list[uuid.UUID] = field(default_factory=list)


def _pomodoro_state(kind: str) -> Any:
    valid = {
        "operation_id": "op",
        "started_at": "2026-01-05T09:00:00.000Z",
        "ends_at": "2026-01-05T09:01:00.000Z",
        "display_state": "focusing",
    }
    return {"valid": valid, "invalid": {**valid, "display_state": "paused"}, "too_large": {**valid, "x": "y" * 5000}}[
        kind
    ]


def _notes_state(kind: str) -> Any:
    return {"valid": {"text": "buy milk"}, "invalid": {"text": 7}, "too_large": {"text": "n" * 5000}}[kind]


class RuntimeMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        # Everything this example writes is rolled back in teardown.
        self.savepoint = transaction.savepoint()
        # A bare savepoint is not on Django's savepoint stack, so rolling back to it would not drop
        # the on-commit hooks (projections) this example queues; teardown trims them itself.
        self.hooks = len(connection.run_on_commit)
        self.now = T0
        self.conversations: list[ModelConversation] = []
        self.operations: dict[uuid.UUID, ModelOperation] = {}
        self.calls: list[ModelCall] = []
        self.instances: dict[uuid.UUID, ModelInstance] = {}
        self.final_seen: dict[uuid.UUID, tuple[Any, ...]] = {}
        users = get_user_model().objects
        suffix = uuid.uuid4().hex[:8]
        for index in range(CONVERSATIONS):
            user = users.create_user(username=f"prop-{index}-{suffix}", password="pw-prop-123")
            conversation = conversation_get_or_create_default(user=user)
            interact = AppInstance.objects.get(conversation=conversation, is_system=True)
            agent = AgentDriver(caller=Caller(label=f"agent:prop-{index}", user_id=user.id), conversation=conversation)
            self.conversations.append(ModelConversation(id=conversation.id, agent=agent, interact_id=interact.id))
            self.instances[interact.id] = ModelInstance(interact.id, index, interact.app_id)
        assert Workspace.objects.filter(conversation_id__in=[c.id for c in self.conversations]).count() == CONVERSATIONS

    def teardown(self) -> None:
        # A step that failed on a database error left the transaction aborted and the test's atomic
        # block marked for rollback; rolling back to this example's savepoint clears both. Without
        # this the teardown raised instead, hiding the step's own error, and every later example
        # failed here too (Hypothesis then reported only "Flaky").
        transaction.set_rollback(False)
        transaction.savepoint_rollback(self.savepoint)
        del connection.run_on_commit[self.hooks :]

    # --- model helpers -------------------------------------------------------------------------

    def _settle(self, op_id: uuid.UUID, reason: InterruptionReason) -> None:
        """The expected outcome of an interrupt / lifecycle exit of a focusing operation now."""
        op = self.operations[op_id]
        if self.now >= op.ends_at:
            op.expected_final = (OperationState.COMPLETED, op.ends_at, None)
        else:
            op.expected_final = (OperationState.INTERRUPTED, self.now, reason)
        self.conversations[op.conversation].focusing = None

    def _settle_due(self) -> set[uuid.UUID]:
        due = set()
        for conv in self.conversations:
            if conv.focusing is not None and self.operations[conv.focusing].ends_at <= self.now:
                due.add(conv.focusing)
                self._settle(conv.focusing, InterruptionReason.AGENT_INTERRUPT)  # due: completed
        return due

    def _instance_choice(self, data: st.DataObject, conversation: int | None = None) -> ModelInstance:
        pool = [i for i in self.instances.values() if conversation is None or i.conversation == conversation]
        return data.draw(st.sampled_from(pool), label="instance")  # creation order: replayable

    @initialize(seconds=st.lists(st.integers(1, 90), min_size=CONVERSATIONS, max_size=CONVERSATIONS))
    def focus_everywhere(self, seconds: list[int]) -> None:
        """Begin with a focus running in every conversation, so short runs already have settling to do."""
        for conversation, duration in enumerate(seconds):
            self.start(conversation, duration, activity=False)

    # --- Agent ---------------------------------------------------------------------------------

    @rule(conversation=st.integers(0, CONVERSATIONS - 1), seconds=st.integers(1, 90), activity=st.booleans())
    def start(self, conversation: int, seconds: int, activity: bool) -> None:
        conv = self.conversations[conversation]
        outcome = conv.agent.start(seconds, "read" if activity else None, now=self.now)
        if conv.focusing is not None:
            assert isinstance(outcome, Rejected), outcome
            assert outcome.code == "active_focusing_operation"
            return
        assert isinstance(outcome, Accepted), outcome
        assert not outcome.replayed and outcome.result is None
        op = ModelOperation(
            outcome.operation_id, conversation, outcome.instance_id, self.now, self.now + timedelta(seconds=seconds)
        )
        self.operations[op.id] = op
        conv.focusing = op.id
        conv.operations.append(op.id)
        self.instances[op.instance_id] = ModelInstance(op.instance_id, conversation, "pomodoro")
        call = ToolCall.objects.get(pk=Operation.objects.get(pk=op.id).tool_call_id)
        self.calls.append(ModelCall(conversation, "pomodoro.start", call.source_tool_call_id, call.arguments, outcome))

    @rule(conversation=st.integers(0, CONVERSATIONS - 1))
    def interrupt(self, conversation: int) -> None:
        conv = self.conversations[conversation]
        outcome = conv.agent.interrupt(now=self.now)
        assert isinstance(outcome, Receipt), outcome
        if conv.focusing is not None:
            op = self.operations[conv.focusing]
            status = "interrupted" if self.now < op.ends_at else "operation_already_final"
            assert outcome.receipt == {"status": status, "operation_id": str(op.id)}, (outcome, op)
            self._settle(op.id, InterruptionReason.AGENT_INTERRUPT)
        elif conv.operations:
            # No focusing operation: the receipt names the latest one (any of those started last).
            latest = max(self.operations[o].started_at for o in conv.operations)
            candidates = {str(o) for o in conv.operations if self.operations[o].started_at == latest}
            assert outcome.receipt["status"] == "operation_already_final", outcome
            assert outcome.receipt["operation_id"] in candidates, (outcome, candidates)
        else:
            assert outcome.receipt == {"status": "no_active_focusing_operation"}
        self.calls.append(ModelCall(conversation, "pomodoro.interrupt", outcome.source_tool_call_id, {}, outcome))

    @precondition(lambda self: self.calls)
    @rule(data=st.data(), same_arguments=st.booleans())
    def retry(self, data: st.DataObject, same_arguments: bool) -> None:
        """A retry is answered from the stored rows; the same key with other arguments is refused."""
        call = data.draw(st.sampled_from(self.calls), label="retried call")
        agent = self.conversations[call.conversation].agent
        arguments = dict(call.arguments)
        if not same_arguments:
            arguments = {"duration_seconds": 7} if call.tool == "pomodoro.interrupt" else {**arguments, "activity": "x"}
        outcome: ToolOutcome = agent.call(call.tool, arguments, now=self.now, call_id=call.call_id)
        if arguments != call.arguments:
            assert isinstance(outcome, Rejected) and outcome.code == RejectionCode.IDEMPOTENCY_KEY_REUSED, outcome
            return
        if isinstance(call.first, Receipt):
            assert outcome == Receipt(call.call_id, call.first.receipt, replayed=True), outcome
            return
        assert isinstance(outcome, Accepted) and outcome.replayed, outcome
        first = call.first
        assert (outcome.operation_id, outcome.instance_id, outcome.app_session_id) == (
            first.operation_id,
            first.instance_id,
            first.app_session_id,
        )
        op = self.operations[first.operation_id]
        if op.expected_final is None:
            assert outcome.result is None, outcome
        else:
            if call.final_result is None:
                call.final_result = outcome.result
            assert outcome.result is not None and outcome.result == call.final_result, outcome

    # --- the user's lifecycle moves ------------------------------------------------------------

    @rule(conversation=st.integers(0, CONVERSATIONS - 1))
    def back_to_interact(self, conversation: int) -> None:
        conv = self.conversations[conversation]
        interact = return_to_interact(conversation_id=conv.id, now=self.now)
        assert interact.id == conv.interact_id
        if conv.focusing is not None:
            self._settle(conv.focusing, InterruptionReason.RETURNED_TO_INTERACT)

    @rule(conversation=st.integers(0, CONVERSATIONS - 1))
    def open_notes(self, conversation: int) -> None:
        conv = self.conversations[conversation]
        instance = open_app(conversation_id=conv.id, app_id="notes", now=self.now)
        self.instances[instance.id] = ModelInstance(instance.id, conversation, "notes")
        if conv.focusing is not None:
            self._settle(conv.focusing, InterruptionReason.SWITCHED_APP)

    @rule(data=st.data())
    def switch(self, data: st.DataObject) -> None:
        target = self._instance_choice(data)
        conv = self.conversations[target.conversation]
        closed = AppInstance.objects.get(pk=target.id).lifecycle_state == LifecycleState.CLOSED
        try:
            switch_app(conversation_id=conv.id, instance_id=target.id, now=self.now)
        except Rejection as rejection:
            assert closed and rejection.code == RejectionCode.INSTANCE_CLOSED, rejection
            return
        assert not closed
        if conv.focusing is not None and self.operations[conv.focusing].instance_id != target.id:
            is_interact = target.id == conv.interact_id
            reason = InterruptionReason.RETURNED_TO_INTERACT if is_interact else InterruptionReason.SWITCHED_APP
            self._settle(conv.focusing, reason)

    @rule(data=st.data())
    def close(self, data: st.DataObject) -> None:
        target = self._instance_choice(data)
        conv = self.conversations[target.conversation]
        try:
            close_instance(conversation_id=conv.id, instance_id=target.id, now=self.now)
        except Rejection as rejection:
            assert target.id == conv.interact_id and rejection.code == RejectionCode.NOT_ALLOWED, rejection
            return
        assert target.id != conv.interact_id, "Interact was closed"
        if conv.focusing is not None and self.operations[conv.focusing].instance_id == target.id:
            self._settle(conv.focusing, InterruptionReason.APP_CLOSED)

    @rule(conversation=st.integers(0, CONVERSATIONS - 1), visible=st.booleans())
    def visibility(self, conversation: int, visible: bool) -> None:
        set_visibility(conversation_id=self.conversations[conversation].id, visible=visible, now=self.now)

    @rule(
        data=st.data(),
        kind=st.sampled_from(["valid", "invalid", "too_large"]),
        revision_offset=st.sampled_from([0, 0, -1, 1]),
    )
    def write_snapshot(self, data: st.DataObject, kind: str, revision_offset: int) -> None:
        target = self._instance_choice(data)
        state = _notes_state(kind) if target.app_id == "notes" else _pomodoro_state(kind)
        expected_revision = target.revision + revision_offset
        closed = AppInstance.objects.get(pk=target.id).lifecycle_state == LifecycleState.CLOSED
        if target.app_id not in ("notes", "pomodoro"):
            expected_code = RejectionCode.STATE_NOT_SUPPORTED
        elif closed:
            expected_code = RejectionCode.INSTANCE_CLOSED
        elif kind == "too_large":
            expected_code = RejectionCode.STATE_TOO_LARGE
        elif kind == "invalid":
            expected_code = RejectionCode.STATE_SCHEMA_VIOLATION
        elif revision_offset != 0:
            expected_code = RejectionCode.STALE_REVISION
        else:
            expected_code = None
        try:
            saved = save_snapshot(
                conversation_id=self.conversations[target.conversation].id,
                instance_id=target.id,
                state=state,
                expected_revision=expected_revision,
                now=self.now,
            )
        except Rejection as rejection:
            assert rejection.code == expected_code, (rejection, expected_code)
            return
        assert expected_code is None, f"saved, but expected {expected_code}"
        assert saved.revision == target.revision + 1
        target.revision, target.state = saved.revision, state

    # --- time, sweeps, deliveries, restarts ----------------------------------------------------

    @rule(millis=st.sampled_from([0, 1, 250, 1000, 5000, 30_000, 120_000]))
    def advance(self, millis: int) -> None:
        self.now += timedelta(milliseconds=millis)

    @precondition(lambda self: any(c.focusing for c in self.conversations))
    @rule(data=st.data(), offset_ms=st.sampled_from([-1, 0, 1]))
    def advance_to_deadline(self, data: st.DataObject, offset_ms: int) -> None:
        """Jump to just before, exactly at or just after a focusing operation's ``ends_at``."""
        focusing = [c.focusing for c in self.conversations if c.focusing]
        op = self.operations[data.draw(st.sampled_from(focusing), label="operation")]
        self.now = max(self.now, op.ends_at + timedelta(milliseconds=offset_ms))

    @rule()
    def sweep(self) -> None:
        expected = self._settle_due()
        assert set(settle_due(now=self.now).settled) == expected

    @precondition(lambda self: self.operations)
    @rule(data=st.data())
    def eta_delivery(self, data: st.DataObject) -> None:
        """An eta task arrives — again, late, or early: it settles a due operation once, else nothing."""
        op = self.operations[data.draw(st.sampled_from(list(self.operations)), label="operation")]
        due = op.expected_final is None and self.now >= op.ends_at
        outcome = settle_operation(operation_id=op.id, trigger=Trigger.DEADLINE, now=self.now)
        assert outcome.settled == due, (outcome, op)
        if due:
            self._settle(op.id, InterruptionReason.AGENT_INTERRUPT)  # due: completed

    @rule()
    def restart(self) -> None:
        """A process starts again and runs recovery: due settles, running keeps its ``ends_at``."""
        running = {c.focusing for c in self.conversations if c.focusing} - self._due_ids()
        expected = self._settle_due()
        summary = recover_runtime(now=self.now)
        assert set(summary.settled) == expected
        assert {uuid.UUID(r["operation_id"]) for r in summary.resumed} == running
        for op_id in running:
            op = Operation.objects.select_related("instance").get(pk=op_id)
            assert op.instance.restored_at == self.now and op.ends_at == self.operations[op_id].ends_at

    def _due_ids(self) -> set[uuid.UUID]:
        return {
            c.focusing for c in self.conversations if c.focusing and self.operations[c.focusing].ends_at <= self.now
        }

    # --- invariants, checked against the database after every step -----------------------------

    @invariant()
    def database_matches_the_promises(self) -> None:
        # Four value queries per step: this runs after every one of thousands of steps.
        conversation_ids = [c.id for c in self.conversations]
        index_of = {c.id: i for i, c in enumerate(self.conversations)}
        operations = {
            o.id: o
            for o in Operation.objects.filter(conversation_id__in=conversation_ids).only(
                "id",
                "conversation_id",
                "instance_id",
                "tool_call_id",
                "source_tool_call_id",
                "state",
                "started_at",
                "ends_at",
                "ended_at",
                "interruption_reason",
                "settled_at",
            )
        }
        outbox: dict[uuid.UUID, list[dict[str, Any]]] = {}
        for entry in OutboxEntry.objects.filter(conversation_id__in=conversation_ids).values("operation_id", "payload"):
            outbox.setdefault(entry["operation_id"], []).append(entry["payload"])
        calls = {
            (c["conversation_id"], c["source_tool_call_id"]): c
            for c in ToolCall.objects.filter(conversation_id__in=conversation_ids).values(
                "id", "conversation_id", "source_tool_call_id", "status", "receipt", "result"
            )
        }
        calls_by_pk = {c["id"]: c for c in calls.values()}
        instances = {
            i["id"]: i
            for i in AppInstance.objects.filter(conversation_id__in=conversation_ids).values(
                "id",
                "conversation_id",
                "lifecycle_state",
                "app_session__state",
                "snapshot__revision",
                "snapshot__state",
            )
        }

        assert set(operations) == set(self.operations), "operations appeared or vanished"
        assert set(instances) == set(self.instances), "instances appeared or vanished"
        assert len(calls) == len(self.calls), "a rejected call stored a row, or an accepted one none"

        for index, conv in enumerate(self.conversations):
            focusing = [o for o in operations.values() if o.conversation_id == conv.id and is_running(o.state)]
            assert len(focusing) <= 1, f"conversation {index}: {len(focusing)} focusing operations"
            assert [o.id for o in focusing] == ([conv.focusing] if conv.focusing else []), (index, focusing)
            front = [
                i["id"]
                for i in instances.values()
                if i["conversation_id"] == conv.id and i["lifecycle_state"] in FRONT_STATES
            ]
            assert len(front) == 1, f"conversation {index}: front instances {front}"
            if focusing:  # a running Pomodoro is never a background timer
                assert front[0] == focusing[0].instance_id, (index, front, focusing)

        for op in operations.values():
            model = self.operations[op.id]
            entries = outbox.get(op.id, [])
            call = calls_by_pk[op.tool_call_id]
            instance = instances[op.instance_id]
            if op.state == OperationState.RUNNING:
                assert model.expected_final is None, f"{op.id} should be {model.expected_final}"
                assert entries == [], "an outbox entry for a focusing operation"
                assert call["status"] == "accepted" and call["result"] is None, call
                assert instance["lifecycle_state"] != LifecycleState.CLOSED
                continue
            state, ended_at, reason = model.expected_final or (None, None, None)
            assert (op.state, op.ended_at, op.interruption_reason) == (state, ended_at, reason), (op, model)
            facts = (op.state, op.ended_at, op.interruption_reason, op.settled_at)
            assert self.final_seen.setdefault(op.id, facts) == facts, "a terminal state changed"
            assert len(entries) == 1, f"{len(entries)} outbox entries for final operation {op.id}"
            result = operation_result(op)
            assert entries[0]["result"] == result == call["result"], (entries[0], call)
            assert entries[0]["source_tool_call_id"] == op.source_tool_call_id
            assert call["status"] == "succeeded"
            assert instance["lifecycle_state"] == LifecycleState.CLOSED, f"final operation's instance {instance}"
            assert instance["app_session__state"] == "ended"
            assert result["ended_at"] == isoformat(ended_at)

        for call_model in self.calls:
            stored = calls[(self.conversations[call_model.conversation].id, call_model.call_id)]
            if isinstance(call_model.first, Receipt):
                assert stored["receipt"] == call_model.first.receipt, "a receipt changed"
            elif call_model.final_result is not None:
                assert stored["result"] == call_model.final_result, "a final result changed"

        for instance in instances.values():
            model = self.instances[instance["id"]]
            assert index_of[instance["conversation_id"]] == model.conversation
            if model.app_id not in ("notes", "pomodoro"):
                assert instance["snapshot__revision"] is None, f"{model.app_id} has a snapshot"
                continue
            snapshot = (instance["snapshot__revision"], instance["snapshot__state"])
            assert snapshot == (model.revision, model.state), (snapshot, model)
            if instance["lifecycle_state"] == LifecycleState.CLOSED:
                if model.frozen is None:
                    model.frozen = snapshot
                assert snapshot == model.frozen, "a closed instance's snapshot changed"


def _timeout_for_the_loaded_profile() -> int:
    """pytest-timeout's 300 s (pyproject.toml) fits the "ci" budget (70 examples x 15 steps, ~75 s on
    CI); the exploring "nightly" one is ~10 times the steps, and a timeout mid-query broke the
    connection, which Hypothesis then reported as "Flaky". The limit grows with the budget."""
    loaded, ci = hypothesis_settings(), hypothesis_settings.get_profile("ci")
    ratio = (loaded.max_examples * loaded.stateful_step_count) / (ci.max_examples * ci.stateful_step_count)
    return int(300 * max(1.0, ratio))


@pytest.mark.spec("R-3.2", "R-3.5", "R-3.6", "R-3.7", "R-3.8", "R-3.9", "R-3.12", "R-3.13", "R-2.2.5", "R-4.2.6")
@pytest.mark.postgres
@pytest.mark.django_db
@pytest.mark.timeout(_timeout_for_the_loaded_profile())
def test_runtime_state_machine() -> None:
    """Under any interleaving of starts, retries, interrupts, lifecycle moves, snapshot writes, time,
    sweeps, eta duplicates and restarts, every operation ends once with the state the settlement
    rule gives, has exactly one outbox entry once final (none before), answers retries as it did the
    first time, and leaves its instance closed with a frozen snapshot; each conversation has at most
    one focusing operation and exactly one app in front.
    """
    if connection.vendor != "postgresql":
        pytest.fail("the state machine runs on PostgreSQL; set DATABASE_URL=postgres://...")
    assert Conversation.objects.count() == 0
    run_state_machine_as_test(RuntimeMachine, settings=hypothesis_settings())
    assert Conversation.objects.count() == 0, "an example's rows survived its teardown"


@pytest.mark.spec("R-3.6", "R-3.12")
@pytest.mark.django_db
def test_interrupt_binds_the_focusing_operation_when_an_earlier_one_started_in_the_same_millisecond(agent) -> None:
    """Found by the state machine: start, interrupt and start again within one millisecond, then
    interrupt — the receipt is ``interrupted`` for the running operation, which ends; the earlier,
    final one (same ``started_at``) does not shadow it.
    """
    first = agent.start(60, now=T0)
    assert isinstance(agent.interrupt(now=T0), Receipt)
    second = agent.start(60, now=T0)
    assert isinstance(first, Accepted) and isinstance(second, Accepted)

    receipt = agent.interrupt(now=T0)

    assert isinstance(receipt, Receipt)
    assert receipt.receipt == {"status": "interrupted", "operation_id": str(second.operation_id)}
    assert Operation.objects.get(pk=second.operation_id).state == OperationState.INTERRUPTED
