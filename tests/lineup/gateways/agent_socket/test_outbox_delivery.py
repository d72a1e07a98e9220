"""Outbox delivery over real WebSockets (SPEC R-2.2.8, R-4.2.7; docs/agent-protocol.md § Ordering
and delivery guarantees): at least once, the same ``outbox_id`` until acked, never after the ack."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection, transaction

from runtime.models import Operation, OutboxEntry
from runtime.transitions import OperationState

REDELIVERY = 1.0  # the main server's LINEUP_OUTBOX_REDELIVERY_SECONDS


def _results(frames: list[dict]) -> list[dict]:
    return [frame for frame in frames if frame["type"] == "tool.result"]


@pytest.mark.spec("R-2.2.8", "R-4.2.7", "R-3.5")
def test_a_result_is_redelivered_until_acked_and_never_after(live, connect, token, conversation):
    """The Agent disconnects before the deadline; the focus completes with no Agent connected (0
    attempts); on reconnect the one tool.result arrives right after welcome; unacked, the same outbox_id
    comes again on the same connection after the redelivery interval and again after another reconnect,
    each send counted in attempts; after outbox.ack nothing more arrives (several intervals, and a new
    connection), and the log shows delivered, redelivered and ack_received with the connection's ids.
    A connection that never says hello gets nothing but not_authenticated and a 4401 close."""
    conversation_id = str(conversation.id)
    silent = connect()  # never says hello: closed after LINEUP_WS_HELLO_TIMEOUT_SECONDS, checked at the end
    sock = connect()
    sock.hello(token)
    accepted = sock.start(conversation_id, "c-away", 2)
    assert accepted["type"] == "tool.accepted", accepted
    sock.close()

    operation = live.wait(
        lambda: Operation.objects.filter(pk=accepted["operation_id"], state=OperationState.COMPLETED).first(),
        "the focus to complete while no Agent is connected",
    )
    entry = OutboxEntry.objects.get(operation=operation)
    assert (entry.attempts, entry.acked_at) == (0, None)

    back = connect()
    back.hello(token)
    first = back.push("tool.result", timeout=REDELIVERY / 2)  # sent with the welcome, not by a later round
    first_at = back.received[-1][0]
    assert first == {
        "type": "tool.result",
        "outbox_id": str(entry.id),
        "conversation_id": conversation_id,
        "source_tool_call_id": "c-away",
        "tool": "pomodoro.start",
        "result": {
            "state": "completed",
            "operation_id": str(operation.id),
            "started_at": first["result"]["started_at"],
            "ends_at": first["result"]["ends_at"],
            "ended_at": first["result"]["ends_at"],
        },
    }
    again = back.push("tool.result", timeout=REDELIVERY * 4)
    assert again == first  # the same outbox_id and body: the Agent dedupes by outbox_id
    assert back.received[-1][0] - first_at >= REDELIVERY * 0.8  # a redelivery round, not a duplicate send
    back.close()

    third = connect()
    third.hello(token)
    assert third.push("tool.result", timeout=REDELIVERY / 2) == first
    sent = 3
    live.wait(lambda: OutboxEntry.objects.get(pk=entry.id).attempts == sent, "every send counted")

    third.ack(first["outbox_id"], conversation_id)
    acked = OutboxEntry.objects.get(pk=entry.id)
    assert acked.acked_at is not None
    # A round already on its way when the ack was read may still arrive before the ack's barrier
    # answer (at least once); it is counted only if it was counted before the ack committed.
    in_flight = len(_results(third.pushed))
    assert _results(third.frames_within(REDELIVERY * 3.5)) == []
    third.ack(first["outbox_id"], conversation_id)  # a second ack is harmless
    assert [f for f in third.pushed if f["type"] == "error"] == []
    after = connect()
    after.hello(token)
    assert _results(after.frames_within(REDELIVERY * 1.5)) == []
    assert sent <= OutboxEntry.objects.get(pk=entry.id).attempts <= sent + in_flight
    sent += in_flight
    assert OutboxEntry.objects.filter(conversation=conversation).count() == 1

    outbox_id = first["outbox_id"]
    delivered = live.main.log_events("outbox.delivered", outbox_id=outbox_id)
    redelivered = live.main.log_events("outbox.redelivered", outbox_id=outbox_id)
    acks = live.main.log_events("outbox.ack_received", outbox_id=outbox_id)
    assert len(delivered) == 1 and len(redelivered) == sent - 1 and len(acks) == 2, (delivered, redelivered, acks)
    agent_id = third.welcome["agent_id"]
    for line in delivered + redelivered + acks:
        assert line["agent_id"] == agent_id and line["connection_id"], line
    assert len({line["connection_id"] for line in delivered + redelivered}) == 2  # the two that got it
    assert live.main.log_events("outbox.acked", outbox_id=outbox_id)  # the Runtime's own decision line

    # Meanwhile the connection that never said hello was told so and closed.
    assert silent.close_code(timeout=settings.LINEUP_WS_HELLO_TIMEOUT_SECONDS + 5) == 4401
    assert [(f["type"], f["code"]) for f in silent.pushed] == [("error", "not_authenticated")]
    assert [frame["type"] for _, frame in silent.received] == ["error"]


@pytest.mark.spec("R-2.2.8", "R-2.2.6")
def test_a_first_delivery_that_fails_is_retried_by_the_redelivery_loop(live, connect, token, conversation):
    """The database fails the delivery that follows ``welcome`` for real: the outbox is locked, and the
    server's query waiting on the lock is terminated (an OperationalError in the server). The failure
    is logged, the connection stays up, and once the lock is gone the result arrives with a redelivery
    round (not a second hello)."""
    conversation_id = str(conversation.id)
    sock = connect()
    sock.hello(token)
    assert sock.start(conversation_id, "c-hiccup", 1)["type"] == "tool.accepted"
    result = sock.push("tool.result", source_tool_call_id="c-hiccup")
    sock.close()

    table = OutboxEntry._meta.db_table
    back = connect()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"LOCK TABLE {connection.ops.quote_name(table)} IN ACCESS EXCLUSIVE MODE")
        back.hello(token)  # nothing before welcome reads the outbox; the delivery after it waits

        def waiting_delivery() -> list[int]:
            cursor.execute("SELECT pg_stat_clear_snapshot()")  # inside a transaction the view is a snapshot
            cursor.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
                " AND wait_event_type = 'Lock' AND query LIKE %s",
                [f"%{table}%"],
            )
            return [pid for (pid,) in cursor.fetchall()]

        for pid in live.wait(waiting_delivery, "the first delivery to wait for the outbox lock"):
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        live.wait(
            lambda: live.main.log_events("agent.first_delivery_failed", agent_id=back.welcome["agent_id"]),
            "the failed first delivery to be logged",
        )
    again = back.push("tool.result", timeout=REDELIVERY * 4)
    assert again["outbox_id"] == result["outbox_id"]
    assert [f for f in back.pushed if f["type"] == "error"] == []
    assert back.inventory(conversation_id)["conversation_id"] == conversation_id  # still usable
