"""Two Daphne processes on the channels_redis layer: a result settled in one process reaches an
Agent connected to the other at once (SPEC R-2.2.8, R-4.2.7)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from runtime.models import Operation, OutboxEntry
from tests.lineup.gateways.agent_socket.conftest import REMOTE_REDELIVERY_SECONDS

PROMPTLY = 5.0  # seconds after ends_at: far below the remote's 30-second redelivery round


@pytest.mark.spec("R-2.2.8", "R-4.2.7", "R-3.5")
def test_a_call_on_one_process_is_answered_on_the_other(live, connect, token_for, user, conversation):
    """An Agent has a connection on process B (which settles nothing and resends only every 30 s),
    makes a pomodoro.start through process A and leaves A; A's deadline scheduler completes it and
    B's connection gets the tool.result within seconds — only the layer hint from A can explain that.
    Another Agent of the same user, also on B, is sent nothing: the result is the caller's. B's ack
    ends A's redelivery too: the outbox row, not a process, is the truth."""
    conversation_id = str(conversation.id)
    token = token_for(user, "caller")
    listener = connect(live.remote)
    welcome = listener.hello(token)
    assert welcome["limits"]["outbox_redelivery_seconds"] == REMOTE_REDELIVERY_SECONDS
    assert conversation_id in welcome["conversations"]
    assert listener.frames_within(0.3) == []  # nothing waiting: the result can not come with the welcome
    bystander = connect(live.remote)
    bystander.hello(token_for(user, "bystander"))

    caller = connect(live.main)
    caller.hello(token)
    accepted = caller.start(conversation_id, "cross-1", 1)
    assert accepted["type"] == "tool.accepted", accepted
    operation = Operation.objects.get(pk=accepted["operation_id"])
    caller.close()  # the result has one way to this Agent now: B, woken by A's hint

    result = listener.push("tool.result", timeout=PROMPTLY + 2)
    received_at = timezone.now()
    entry = OutboxEntry.objects.get(operation=operation)
    assert (result["outbox_id"], result["source_tool_call_id"], result["result"]["state"]) == (
        str(entry.id),
        "cross-1",
        "completed",
    )
    late = (received_at - operation.ends_at).total_seconds()
    assert late < PROMPTLY, f"delivered {late:.1f}s after ends_at"

    # The settlement was A's (B runs no scheduler), and B logged the delivery on its own connection.
    assert live.main.log_events("operation.completed", operation_id=str(operation.id))
    assert not live.remote.log_events("operation.completed", operation_id=str(operation.id))
    delivered = live.remote.log_events("outbox.delivered", outbox_id=str(entry.id))
    assert delivered[0]["agent_id"] == welcome["agent_id"] and delivered[0]["connection_id"]

    # B's ack ends it everywhere: the caller's new connection on A is not sent it again.
    listener.ack(result["outbox_id"], conversation_id)
    assert OutboxEntry.objects.get(pk=entry.id).acked_at is not None
    again = connect(live.main)
    again.hello(token)
    assert [f for f in again.frames_within(2.5) if f["type"] == "tool.result"] == []
    assert [f for f in bystander.pushed if f["type"] == "tool.result"] == []
