"""Two Daphne processes on the channels_redis layer: a result settled in one process reaches an
Agent connected to the other at once (SPEC R-2.2.8, R-4.2.7)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from runtime.models import Operation, OutboxEntry
from tests.lineup.gateways.agent_socket.conftest import REMOTE_REDELIVERY_SECONDS

PROMPTLY = 5.0  # seconds after ends_at: far below the remote's 30-second redelivery round


@pytest.mark.spec("R-2.2.8", "R-4.2.7", "R-3.5", "A-6")
def test_a_call_on_one_process_is_answered_on_the_other(live, connect, token_for, user, conversation):
    """An Agent on process B (which settles nothing and resends only every 30 s) is connected before a
    pomodoro.start is called through process A; A's deadline scheduler completes it and B's Agent gets
    the tool.result within seconds — only the layer hint from A can explain that. B's ack ends A's
    redelivery too: the outbox row, not a process, is the truth."""
    conversation_id = str(conversation.id)
    listener = connect(live.remote)
    welcome = listener.hello(token_for(user, "listener"))
    assert welcome["limits"]["outbox_redelivery_seconds"] == REMOTE_REDELIVERY_SECONDS
    assert conversation_id in welcome["conversations"]
    assert listener.frames_within(0.3) == []  # nothing waiting: the result can not come with the welcome

    caller = connect(live.main)
    caller.hello(token_for(user, "caller"))
    accepted = caller.start(conversation_id, "cross-1", 1)
    assert accepted["type"] == "tool.accepted", accepted
    operation = Operation.objects.get(pk=accepted["operation_id"])

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
    # "delivered" or "redelivered": the attempts count is the row's, and A's own Agent (below) may
    # have been sent the result first.
    delivered = live.wait(
        lambda: (
            live.remote.log_events("outbox.delivered", outbox_id=str(entry.id))
            or live.remote.log_events("outbox.redelivered", outbox_id=str(entry.id))
        ),
        "B's outbox.delivered line",
    )
    assert delivered[0]["agent_id"] == welcome["agent_id"] and delivered[0]["connection_id"]

    # A's own Agent got it too (same conversation); B's ack stops A's redelivery rounds.
    assert caller.push("tool.result")["outbox_id"] == str(entry.id)
    listener.ack(result["outbox_id"], conversation_id)
    assert OutboxEntry.objects.get(pk=entry.id).acked_at is not None
    caller.answer_to_barrier(conversation_id)  # rounds in flight before the ack land before this answer
    caller.pushed.clear()
    assert [f for f in caller.frames_within(2.5) if f["type"] == "tool.result"] == []
