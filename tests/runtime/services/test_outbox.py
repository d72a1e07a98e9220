"""The outbox of runtime.services.outbox on PostgreSQL (SPEC R-2.2.8, R-4.2.7).

A settled start's single result waits in its outbox entry until the Agent acks it: every delivery
attempt is counted, an ack is final and only the entry's own conversation may ack it.
"""

from __future__ import annotations

import pytest

from runtime.errors import Rejection, RejectionCode
from runtime.models import LifecycleEvent, OutboxEntry
from runtime.selectors import unacked_outbox
from runtime.services.conversations import conversation_get_or_create_default
from runtime.services.outbox import ack_outbox_entry, mark_delivery_attempt
from runtime.tool_calls import Accepted, Receipt
from tests.support.factories import AgentDriver, at

pytestmark = pytest.mark.django_db


def settled_entry(agent: AgentDriver) -> OutboxEntry:
    """Start a focus and interrupt it: the start's one outbox entry, unacked."""
    started = agent.start(60, now=at(0))
    assert isinstance(started, Accepted), started
    receipt = agent.interrupt(now=at(10))
    assert isinstance(receipt, Receipt) and receipt.receipt["status"] == "interrupted", receipt
    entry = OutboxEntry.objects.get(operation_id=started.operation_id)
    assert (entry.attempts, entry.last_attempt_at, entry.acked_at) == (0, None, None)
    return entry


@pytest.mark.spec("R-2.2.8", "R-4.2.7")
def test_an_entry_is_acked_once(agent, conversation):
    """The first ack marks the entry acked and returns True; a second ack returns False and changes nothing."""
    entry = settled_entry(agent)
    assert unacked_outbox(conversation_ids=[conversation.id]) == [entry]

    assert ack_outbox_entry(outbox_id=entry.id, conversation_ids=[conversation.id], now=at(11)) is True
    assert ack_outbox_entry(outbox_id=entry.id, conversation_ids=[conversation.id], now=at(12)) is False

    entry.refresh_from_db()
    assert entry.acked_at == at(11)
    assert unacked_outbox(conversation_ids=[conversation.id]) == []
    acks = LifecycleEvent.objects.filter(kind="outbox.acked", conversation_id=conversation.id)
    assert [(e.at, e.data["outbox_id"]) for e in acks] == [(at(11), str(entry.id))]


@pytest.mark.spec("R-2.2.8", "R-3.6")
def test_an_entry_of_another_conversation_can_not_be_acked(agent, conversation, other_user):
    """An Agent acking with only other conversations in scope is refused forbidden; the entry stays unacked."""
    entry = settled_entry(agent)
    other = conversation_get_or_create_default(user=other_user)

    with pytest.raises(Rejection) as rejected:
        ack_outbox_entry(outbox_id=entry.id, conversation_ids=[other.id], now=at(11))
    assert rejected.value.code == RejectionCode.FORBIDDEN
    with pytest.raises(Rejection) as rejected:
        ack_outbox_entry(outbox_id=entry.id, conversation_ids=[], now=at(11))
    assert rejected.value.code == RejectionCode.FORBIDDEN

    entry.refresh_from_db()
    assert entry.acked_at is None
    assert unacked_outbox(conversation_ids=[conversation.id]) == [entry]
    assert not LifecycleEvent.objects.filter(kind="outbox.acked").exists()
    # Its own conversation still acks it.
    assert ack_outbox_entry(outbox_id=entry.id, conversation_ids=[other.id, conversation.id], now=at(12)) is True


@pytest.mark.spec("R-2.2.8")
def test_an_unknown_entry_is_forbidden(conversation):
    """An id that names no entry is refused like a foreign one, so ids can not be probed."""
    with pytest.raises(Rejection) as rejected:
        ack_outbox_entry(
            outbox_id="00000000-0000-0000-0000-000000000000", conversation_ids=[conversation.id], now=at(1)
        )
    assert rejected.value.code == RejectionCode.FORBIDDEN


@pytest.mark.spec("R-2.2.8", "R-4.2.7")
def test_delivery_attempts_are_counted_until_acked(agent, conversation):
    """Each (re)delivery of an unacked entry counts one attempt; after the ack further attempts are not counted."""
    entry = settled_entry(agent)

    mark_delivery_attempt(outbox_id=entry.id, now=at(11))
    mark_delivery_attempt(outbox_id=entry.id, now=at(15))
    entry.refresh_from_db()
    assert (entry.attempts, entry.last_attempt_at) == (2, at(15))

    assert ack_outbox_entry(outbox_id=entry.id, conversation_ids=[conversation.id], now=at(16)) is True
    mark_delivery_attempt(outbox_id=entry.id, now=at(20))

    entry.refresh_from_db()
    assert (entry.attempts, entry.last_attempt_at, entry.acked_at) == (2, at(15), at(16))
    ack = LifecycleEvent.objects.get(kind="outbox.acked", conversation_id=conversation.id)
    assert ack.data["attempts"] == 2
