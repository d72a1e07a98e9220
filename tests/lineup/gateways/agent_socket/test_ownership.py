"""Whose result it is (issue 15; SPEC R-2.2.8, R-4.2.7; docs/agent-protocol.md § Whose result it is).

Several Agents of one user over live Daphne on PostgreSQL: each is sent exactly the results of the
operations its own calls started, however they settled, and only it can ack them. A backlog one
Agent leaves unacked costs another Agent nothing, and a delivery round is one page of one Agent's
due entries: its statement count does not grow with the backlog.
"""

from __future__ import annotations

import random
import uuid
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from lineup.gateways.agent_socket import delivery
from runtime.models import Agent, AppInstance, AppSession, Conversation, Operation, OutboxEntry, ToolCall
from runtime.services.workspace_locks import lock_workspace
from runtime.transitions import LifecycleState, OperationState
from tests.lineup.gateways.agent_socket.client import AgentSocket

FOCUSES_EACH = 50
FOCUS_SECONDS = 1
INTERRUPTED_FOCUS_SECONDS = 120


def _conversations(user, count: int) -> list[str]:
    ids = []
    for n in range(count):
        with transaction.atomic():
            conversation = Conversation.objects.create(owner=user, title=f"c{n}")
            lock_workspace(conversation.id, now=timezone.now())
        ids.append(str(conversation.id))
    return ids


def _collect(sock: AgentSocket, seen: dict[str, dict], *, within: float) -> None:
    for frame in sock.frames_within(within):
        if frame["type"] == "tool.result":
            seen[frame["outbox_id"]] = frame


@pytest.mark.spec("R-2.2.8", "R-4.2.7", "R-3.5")
def test_two_agents_of_one_user_each_receive_exactly_their_own_results(live, connect, token_for, user, conversation):
    """Agents A and B of one user start 50 one-second focuses each, interleaved across 100
    conversations, and drop their connections every few calls; B interrupts some of A's focuses
    (lifecycle-free settlement by another Agent's call). Each Agent receives exactly the results of
    its own 50 starts — A those B interrupted too — never one of the other's, and an ack by the wrong
    Agent is refused and changes nothing."""
    rng = random.Random(15)
    conversation_ids = _conversations(user, 2 * FOCUSES_EACH)
    tokens = {"A": token_for(user, "agent-a"), "B": token_for(user, "agent-b")}
    socks: dict[str, AgentSocket] = {}
    seen: dict[str, dict[str, dict]] = {"A": {}, "B": {}}
    started: dict[str, list[str]] = {"A": [], "B": []}

    def sock_of(name: str) -> AgentSocket:
        if name not in socks:
            socks[name] = connect()
            socks[name].hello(tokens[name])
        return socks[name]

    def drop(name: str) -> None:
        sock = socks.pop(name, None)
        if sock is not None:
            _collect(sock, seen[name], within=0)
            sock.close()

    for n, conversation_id in enumerate(conversation_ids):
        name = "AB"[n % 2]
        to_interrupt = name == "A" and n % 10 == 0
        # The focuses B will stop last long enough that B's hello + inventory + call land first on a
        # loaded machine (with one second, 1-2 of them sometimes completed before the interrupt).
        seconds = INTERRUPTED_FOCUS_SECONDS if to_interrupt else FOCUS_SECONDS
        accepted = sock_of(name).start(conversation_id, f"{name}-{n}", seconds)
        assert accepted["type"] == "tool.accepted", accepted
        started[name].append(accepted["operation_id"])
        if to_interrupt:  # B stops some of A's focuses: the result is still A's
            b = sock_of("B")
            revision = b.inventory(conversation_id)["revision"]
            receipt = b.call(conversation_id, f"B-stop-{n}", "pomodoro.interrupt", {}, revision)
            assert receipt["type"] == "tool.receipt", receipt
        if rng.random() < 0.25:
            drop(rng.choice("AB"))

    live.wait(
        lambda: not Operation.objects.filter(state=OperationState.RUNNING).exists(),
        "every focus to settle",
        timeout=FOCUS_SECONDS + 30,
    )
    for name in "AB":
        sock = sock_of(name)
        live.wait(
            lambda sock=sock, name=name: (_collect(sock, seen[name], within=0.3), len(seen[name]) >= FOCUSES_EACH)[1],
            f"{name}'s 50 results",
            timeout=30,
        )

    owners = {name: Agent.objects.get(user=user, name=f"agent-{name.lower()}") for name in "AB"}
    for name in "AB":
        own = {str(e.id) for e in OutboxEntry.objects.filter(operation_id__in=started[name])}
        assert len(own) == FOCUSES_EACH
        assert set(seen[name]) == own, name
        assert {f["result"]["operation_id"] for f in seen[name].values()} == set(started[name])
        assert set(OutboxEntry.objects.filter(agent=owners[name]).values_list("operation_id", flat=True)) == {
            *map(uuid.UUID, started[name])
        }
    interrupted = [f for f in seen["A"].values() if f["result"]["state"] == "interrupted"]
    assert len(interrupted) == FOCUSES_EACH // 5

    # B acks one of A's: refused (as if it did not exist), A's entry stays unacked and is still sent to A.
    a_entry = next(iter(seen["A"]))
    b = sock_of("B")
    b.send({"type": "outbox.ack", "outbox_id": a_entry})
    refused = b.answer()
    assert (refused["type"], refused["code"]) == ("error", "forbidden"), refused
    assert OutboxEntry.objects.get(pk=a_entry).acked_at is None
    for name in "AB":
        for outbox_id, frame in seen[name].items():
            sock_of(name).ack(outbox_id, frame["conversation_id"])
    assert not OutboxEntry.objects.filter(acked_at__isnull=True).exists()


def _backlog(agent: Agent, conversation: Conversation, count: int) -> None:
    """``count`` settled, unacked results of ``agent`` in one conversation, written in bulk."""
    now = timezone.now() - timedelta(hours=1)
    instances = AppInstance.objects.bulk_create(
        AppInstance(
            conversation=conversation,
            app_id="pomodoro",
            lifecycle_state=LifecycleState.CLOSED,
            opened_at=now,
            closed_at=now,
            close_reason="completed",
        )
        for _ in range(count)
    )
    sessions = AppSession.objects.bulk_create(
        AppSession(instance=i, conversation=conversation, state="ended", opened_at=now, ended_at=now) for i in instances
    )
    calls = ToolCall.objects.bulk_create(
        ToolCall(
            conversation=conversation,
            source_tool_call_id=f"backlog-{uuid.uuid4().hex}",
            tool="pomodoro.start",
            arguments={"duration_seconds": 1},
            caller=f"agent:{agent.id}",
            agent=agent,
            status="succeeded",
            instance=i,
            created_at=now,
            finished_at=now,
        )
        for i in instances
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
            started_at=now - timedelta(seconds=1),
            ends_at=now,
            state=OperationState.COMPLETED,
            ended_at=now,
            settled_at=now,
        )
        for i, s, c in zip(instances, sessions, calls, strict=True)
    )
    OutboxEntry.objects.bulk_create(
        OutboxEntry(
            conversation=conversation,
            operation=o,
            tool_call=o.tool_call,
            agent=agent,
            payload={"source_tool_call_id": o.source_tool_call_id, "tool": "pomodoro.start", "result": {}},
            created_at=now,
            next_attempt_at=now,
        )
        for o in operations
    )


@pytest.mark.spec("R-2.2.8", "R-4.2.7")
def test_a_backlog_of_one_agent_costs_another_nothing(live, connect, token_for, user, conversation):
    """Agent A leaves 10 000 results unacked; Agent B of the same user connects and starts a focus:
    its result arrives within the normal lag, before any of A's. A round for A reads one page and
    writes one statement, the same number of statements with 0, 100 or 10 000 entries waiting."""
    hoarder_token = token_for(user, "hoarder")
    hoarder = Agent.objects.get(user=user, name="hoarder")
    statements = {}
    for size in (0, 100, 10_000):
        _backlog(hoarder, conversation, size - OutboxEntry.objects.filter(agent=hoarder).count())
        OutboxEntry.objects.filter(agent=hoarder).update(next_attempt_at=timezone.now() - timedelta(seconds=1))
        with CaptureQueriesContext(connection) as queries:
            page = delivery.results_to_send(hoarder, now=timezone.now(), everything=False)
        statements[size] = len(queries)
        assert len(page) == min(size, delivery.DELIVERY_BATCH)
    assert statements[0] == 1 and statements[100] == statements[10_000] == 2, (
        statements,
        [q["sql"][:120] for q in queries],
    )

    hoarding = connect()
    hoarding.hello(hoarder_token)  # its rounds keep sending it pages of its own backlog

    other = connect()
    other.hello(token_for(user, "newcomer"))
    conversation_id = str(conversation.id)
    accepted = other.start(conversation_id, "newcomer-1", FOCUS_SECONDS)
    assert accepted["type"] == "tool.accepted", accepted
    result = other.push("tool.result", timeout=FOCUS_SECONDS + 5)
    operation = Operation.objects.get(pk=accepted["operation_id"])
    assert result["result"]["operation_id"] == str(operation.id)
    assert (timezone.now() - operation.ends_at).total_seconds() < 5
    assert [f for f in other.frames_within(1.0) if f["type"] == "tool.result"] == []  # none of A's
    assert OutboxEntry.objects.filter(agent=hoarder, acked_at__isnull=True).count() == 10_000
