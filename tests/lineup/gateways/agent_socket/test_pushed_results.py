"""A settlement's hint that carries its result (``runtime.projections.result_delivery``) is written to
the Agent at once, without reading the outbox; one that carries none is read as before; another
Agent's is ignored; a large result is never carried (docs/decisions/0032)."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone

from runtime.models import Operation, OutboxEntry
from runtime.projections import RESULT_HINT_MAX_BYTES, RESYNC_GROUP, project_on_commit, result_delivery
from runtime.services.operation_views import operation_projection


def _delivery(entry: OutboxEntry) -> dict | None:
    """``result_delivery`` of a written entry, from its fields as a settlement passes them."""
    return result_delivery(
        outbox_id=entry.id,
        agent_id=entry.agent_id,
        channel=entry.channel,
        conversation_id=entry.conversation_id,
        source_tool_call_id=entry.payload["source_tool_call_id"],
        tool=entry.payload["tool"],
        result=entry.payload["result"],
    )


def _hint(entry: OutboxEntry, *, carried: bool) -> None:
    """The settlement's hint as settle_locked hands it on, after a commit of the test's own."""
    operation = Operation.objects.select_related("tool_call").get(pk=entry.operation_id)
    with transaction.atomic():
        project_on_commit(
            entry.conversation_id,
            "operation.settled",
            operation_projection(operation),
            delivery=_delivery(entry) if carried else None,
        )


@pytest.mark.spec("R-2.2.8", "R-4.2.7")
def test_a_result_carried_by_its_hint_is_written_without_a_read(live, connect, token_for, user, conversation):
    """On the process that resends only every 30 s: the Agent's result was sent once and not acked,
    so the outbox holds nothing due and a read would send nothing. A hint carrying the entry has it
    written again at once; the same hint without it (a read) sends nothing; the other Agent of the
    same user, in the same conversation, is sent nothing either way."""
    conversation_id = str(conversation.id)
    caller = connect(live.remote)
    caller.hello(token_for(user, "caller"))
    bystander = connect(live.remote)
    bystander.hello(token_for(user, "bystander"))
    revision = caller.inventory(conversation_id)["revision"]
    assert caller.start(conversation_id, "pushed-1", 600)["type"] == "tool.accepted"
    stopped = caller.call(conversation_id, "pushed-1-stop", "pomodoro.interrupt", {}, revision)
    assert stopped["receipt"]["status"] == "interrupted", stopped
    first = caller.push("tool.result", source_tool_call_id="pushed-1")
    # A frame's answer: the connection handles one message at a time, so the first send was counted
    # (a pushed one is counted just after its send); and its credential was read just now.
    caller.inventory(conversation_id)
    entry = OutboxEntry.objects.get(pk=first["outbox_id"])
    assert entry.attempts == 1 and entry.next_attempt_at > timezone.now() + timedelta(seconds=20)

    _hint(entry, carried=True)
    again = caller.push("tool.result", timeout=5)
    assert again == first
    caller.inventory(conversation_id)
    assert live.remote.log_events("outbox.delivered", outbox_id=str(entry.id), pushed=True)
    # Counted once already: the push's count leaves a sent entry alone.
    assert OutboxEntry.objects.get(pk=entry.id).attempts == 1

    caller.inventory(conversation_id)
    _hint(entry, carried=False)
    assert [f for f in caller.frames_within(1.0) if f["type"] == "tool.result"] == []
    assert [f for f in bystander.frames_within(0.3) if f["type"] == "tool.result"] == []


@pytest.mark.spec("R-2.2.8")
def test_a_large_result_is_not_carried_by_its_hint(db):
    """Its hint stays small; the Agent's socket reads the entry from the outbox instead."""
    payload = {"source_tool_call_id": "big", "tool": "pomodoro.start", "conversation_id": "c", "result": {}}
    small = OutboxEntry(agent_id=None, channel="agent_socket", conversation_id=None, payload=payload)
    assert _delivery(small)["result"] == {}
    big = OutboxEntry(
        agent_id=None,
        channel="agent_socket",
        conversation_id=None,
        payload={**payload, "result": {"notes": "x" * (RESULT_HINT_MAX_BYTES + 1)}},
    )
    assert _delivery(big) is None


@pytest.mark.spec("R-2.2.8", "R-4.2.7")
def test_a_batch_resync_naming_its_conversation_has_the_agent_read_what_is_due(
    live, connect, token_for, user, conversation
):
    """A batch settlement tells its conversations with one ``conversation.resync`` message
    (runtime.projections.RESYNC_GROUP, decision 0035). On the process that resends only every 30 s,
    an Agent whose conversation is named reads the outbox at once and gets its due result; one
    naming only other conversations sends it nothing."""
    conversation_id = str(conversation.id)
    caller = connect(live.remote)
    caller.hello(token_for(user, "resync"))
    revision = caller.inventory(conversation_id)["revision"]
    assert caller.start(conversation_id, "resync-1", 600)["type"] == "tool.accepted"
    stopped = caller.call(conversation_id, "resync-1-stop", "pomodoro.interrupt", {}, revision)
    assert stopped["receipt"]["status"] == "interrupted", stopped
    first = caller.push("tool.result", source_tool_call_id="resync-1")
    caller.inventory(conversation_id)  # the first send is counted: nothing due for 30 s
    OutboxEntry.objects.filter(pk=first["outbox_id"]).update(next_attempt_at=timezone.now())  # due again

    layer = get_channel_layer()
    async_to_sync(layer.group_send)(
        RESYNC_GROUP, {"type": "conversation.resync", "conversation_ids": [str(uuid.uuid4()) for _ in range(3)]}
    )
    assert [f for f in caller.frames_within(1.0) if f["type"] == "tool.result"] == []
    async_to_sync(layer.group_send)(
        RESYNC_GROUP, {"type": "conversation.resync", "conversation_ids": [str(uuid.uuid4()), conversation_id]}
    )
    again = caller.push("tool.result", timeout=5)
    assert again["outbox_id"] == first["outbox_id"] and again["result"] == first["result"]
