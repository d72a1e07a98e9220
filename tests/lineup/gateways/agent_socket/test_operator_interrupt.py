"""An operator's interrupt from the admin reaches the Agent like any settlement (runtime.admin.incident):
over a live Daphne, the Agent that started the focus gets its one ``tool.result``."""

from __future__ import annotations

import pytest
from django.utils import timezone

from runtime.models import LifecycleEvent, OutboxEntry
from runtime.services.interrupts import interrupt_for_operator


@pytest.mark.spec("R-2.2.5", "R-4.2.7")
def test_the_agent_gets_its_one_result_of_an_operator_interrupt(live, connect, token, conversation):
    """The focus is ended from outside the Agent's connection (as the admin does, in another process):
    the result says ``operator`` and nothing of the typed reason, and after the ack nothing more comes."""
    conversation_id = str(conversation.id)
    sock = connect()
    sock.hello(token)
    accepted = sock.start(conversation_id, "c-op", 600)
    assert accepted["type"] == "tool.accepted", accepted

    outcome = interrupt_for_operator(
        operation_id=accepted["operation_id"], operator="ops", reason="incident 7: secret detail", now=timezone.now()
    )
    assert outcome.settled

    result = sock.push("tool.result", source_tool_call_id="c-op")
    assert result["result"]["state"] == "interrupted"
    assert result["result"]["interruption_reason"] == "operator"
    assert "secret detail" not in str(result)
    sock.ack(result["outbox_id"], conversation_id)
    live.wait(lambda: OutboxEntry.objects.filter(pk=result["outbox_id"], acked_at__isnull=False).exists(), "the ack")
    assert not [f for f in sock.frames_within(1.5) if f["type"] == "tool.result"]
    [audit] = LifecycleEvent.objects.filter(kind="operator.interrupt")
    assert audit.data["reason"] == "incident 7: secret detail"
