"""How many rows a start and its interrupt insert, on either engine (decisions 0035, 0056)."""

from __future__ import annotations

import pytest

from runtime.models import AppInstance, AppSession, InstanceSnapshot, LifecycleEvent, Operation, OutboxEntry, ToolCall
from runtime.tool_calls import Accepted, Receipt
from tests.support.factories import at

pytestmark = pytest.mark.django_db

MODELS = (AppInstance, AppSession, InstanceSnapshot, ToolCall, Operation, LifecycleEvent, OutboxEntry)


@pytest.mark.spec("R-4.2.4")
def test_a_start_and_its_interrupt_insert_nine_rows(agent):
    """The start's six (instance, sub-session, snapshot, call, operation, one event); the interrupt's
    receipt call, outbox entry and ONE audit row naming what it did: nine (issue 27 allows ten;
    the interrupt alone once wrote eight)."""
    agent.start(60, now=at(0))
    agent.interrupt(now=at(5))  # Interact and the workspace exist before the counted pair
    before = {m: m.objects.count() for m in MODELS}
    assert isinstance(agent.start(60, now=at(10)), Accepted)
    receipt = agent.interrupt(now=at(11))
    assert isinstance(receipt, Receipt) and receipt.receipt["status"] == "interrupted"
    grew = {m.__name__: m.objects.count() - before[m] for m in MODELS}
    assert grew == {
        "AppInstance": 1,
        "AppSession": 1,
        "InstanceSnapshot": 1,
        "ToolCall": 2,
        "Operation": 1,
        "LifecycleEvent": 2,
        "OutboxEntry": 1,
    }
    [settled] = LifecycleEvent.objects.filter(kind="operation.interrupted").order_by("-id")[:1]
    assert settled.data["receipt"]["status"] == "interrupted"
    assert settled.data["outbox_id"] == str(OutboxEntry.objects.latest("created_at").id)
