"""The outbox of runtime.services.outbox on PostgreSQL (SPEC R-2.2.8, R-4.2.7).

A settled start's single result waits in its outbox entry until the Agent that asked acks it: the
entry belongs to the start call's Agent, every delivery attempt is counted and backs the entry off
(doubling, bounded), an ack is final and only the owner may make it.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from runtime.errors import Rejection, RejectionCode
from runtime.models import Agent, DeliveryChannel, OutboxEntry
from runtime.selectors import due_outbox_page
from runtime.services.outbox import ack_outbox_entry, mark_first_sent, mark_sent, redelivery_delay
from runtime.tool_calls import Accepted, Receipt
from runtime.tool_router import Caller
from tests.support.factories import AgentDriver, at

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner(user) -> Agent:
    return Agent.objects.create(name="owner", user=user)


@pytest.fixture
def owned(owner, user, conversation) -> AgentDriver:
    caller = Caller(label=f"agent:{owner.id}", user_id=user.id, agent_id=owner.id)
    return AgentDriver(caller=caller, conversation=conversation)


def settled_entry(agent: AgentDriver) -> OutboxEntry:
    """Start a focus and interrupt it: the start's one outbox entry, unacked."""
    started = agent.start(60, now=at(0))
    assert isinstance(started, Accepted), started
    receipt = agent.interrupt(now=at(10))
    assert isinstance(receipt, Receipt) and receipt.receipt["status"] == "interrupted", receipt
    entry = OutboxEntry.objects.get(operation_id=started.operation_id)
    assert (entry.attempts, entry.last_attempt_at, entry.acked_at, entry.next_attempt_at) == (0, None, None, at(10))
    return entry


def page(owner: Agent, *, due_by=None) -> list[OutboxEntry]:
    return due_outbox_page(agent_id=owner.id, channel=DeliveryChannel.AGENT_SOCKET, due_by=due_by, limit=100)


@pytest.mark.spec("R-2.2.8", "R-4.2.7")
def test_an_entry_belongs_to_the_agent_whose_call_started_it_and_is_acked_once(owned, owner, conversation):
    """The entry is the start call's Agent's; its first ack returns True, a second returns False."""
    entry = settled_entry(owned)
    assert entry.agent_id == owner.id and entry.channel == DeliveryChannel.AGENT_SOCKET
    assert page(owner) == [entry]

    assert ack_outbox_entry(outbox_id=entry.id, agent_id=owner.id, now=at(11)) is True
    assert ack_outbox_entry(outbox_id=entry.id, agent_id=owner.id, now=at(12)) is False

    entry.refresh_from_db()
    assert entry.acked_at == at(11)
    assert page(owner) == []  # the second ack changed nothing: acked at 11, once


@pytest.mark.spec("R-2.2.8", "R-3.6")
def test_another_agent_of_the_same_user_can_not_see_or_ack_it(owned, owner, user):
    """A second Agent of the same user gets none of the owner's entries, and its ack is refused
    ``forbidden`` exactly like an unknown id, changing nothing."""
    entry = settled_entry(owned)
    other = Agent.objects.create(name="other", user=user)

    assert page(other) == []
    with pytest.raises(Rejection) as rejected:
        ack_outbox_entry(outbox_id=entry.id, agent_id=other.id, now=at(11))
    assert rejected.value.code == RejectionCode.FORBIDDEN
    with pytest.raises(Rejection) as unknown:
        ack_outbox_entry(outbox_id="00000000-0000-0000-0000-000000000000", agent_id=owner.id, now=at(11))
    assert unknown.value.code == RejectionCode.FORBIDDEN

    entry.refresh_from_db()
    assert entry.acked_at is None
    assert ack_outbox_entry(outbox_id=entry.id, agent_id=owner.id, now=at(12)) is True


@pytest.mark.spec("R-2.2.8", "R-4.2.7")
def test_each_send_is_counted_and_backs_the_entry_off(owned, owner, settings):
    """A sent entry is not due again until its backoff is over; each send doubles the wait, up to
    the bound; an ack ends it whatever its backoff."""
    settings.LINEUP_OUTBOX_REDELIVERY_SECONDS = 5
    settings.LINEUP_OUTBOX_REDELIVERY_MAX_SECONDS = 30
    entry = settled_entry(owned)
    assert [redelivery_delay(n).total_seconds() for n in (1, 2, 3, 4, 5)] == [5, 10, 20, 30, 30]

    mark_sent(entries=page(owner, due_by=at(11)), now=at(11))
    entry.refresh_from_db()
    assert (entry.attempts, entry.last_attempt_at, entry.next_attempt_at) == (1, at(11), at(16))
    assert page(owner, due_by=at(15.9)) == []  # backed off
    assert page(owner) == [entry]  # a welcome takes it whatever its backoff
    mark_sent(entries=page(owner, due_by=at(16)), now=at(16))
    entry.refresh_from_db()
    assert (entry.attempts, entry.next_attempt_at) == (2, at(26))

    assert ack_outbox_entry(outbox_id=entry.id, agent_id=owner.id, now=at(17)) is True
    assert page(owner) == []
    entry.refresh_from_db()
    assert (entry.acked_at, entry.attempts) == (at(17), 2)  # the row is the ack's record


@pytest.mark.spec("R-2.2.8")
def test_a_page_is_oldest_due_first_and_bounded(owned, owner):
    """A page is ordered by next attempt (a fresh entry is due at its creation, so it comes before
    one backed off past that); it holds at most ``limit``, and MCP's entries are never in a socket's page."""
    first = settled_entry(owned)
    mark_sent(entries=[first], now=at(11))
    mark_sent(entries=[first], now=at(12))  # next attempt at 12 + 10 s = 22
    second_start = owned.start(60, now=at(20))
    owned.interrupt(now=at(21))
    second = OutboxEntry.objects.get(operation_id=second_start.operation_id)

    assert page(owner) == [second, first]
    assert due_outbox_page(agent_id=owner.id, channel=DeliveryChannel.AGENT_SOCKET, due_by=None, limit=1) == [second]
    assert due_outbox_page(agent_id=owner.id, channel=DeliveryChannel.MCP, due_by=None, limit=10) == []
    assert first.next_attempt_at - at(12) == timedelta(seconds=redelivery_delay(2).total_seconds())
    assert page(owner, due_by=at(21.5)) == [second]


@pytest.mark.spec("R-2.2.8")
def test_a_pushed_first_send_is_counted_once_even_when_the_agent_acked_before_the_count(owned, owner):
    """A result pushed from its settlement's hint is counted just after the send; a fast Agent may
    ack before that: the send is still counted (once), and a second count of it changes nothing."""
    from prometheus_client import REGISTRY

    def first_sends() -> float:
        return REGISTRY.get_sample_value("lineup_outbox_sends_total", {"attempt": "first"}) or 0.0

    entry = settled_entry(owned)
    assert ack_outbox_entry(outbox_id=entry.id, agent_id=owner.id, now=at(11)) is True
    before = first_sends()

    assert mark_first_sent(outbox_ids=[str(entry.id)], now=at(11)) == 1
    assert mark_first_sent(outbox_ids=[str(entry.id)], now=at(12)) == 0
    entry.refresh_from_db()
    assert (entry.attempts, entry.acked_at) == (1, at(11))
    assert first_sends() == before + 1
    assert page(owner) == []  # acked: never sent again


@pytest.mark.spec("R-2.2.8", "R-4.2.7")
def test_a_round_whose_page_was_counted_meanwhile_still_backs_the_entry_off(owned, owner, settings):
    """A delivery round reads its page, then the settlement hint's push counts the same entry's
    first send before the round's UPDATE: the round still counts its send and backs the entry off
    (past what the count it read would give), instead of failing on a NULL next attempt."""
    settings.LINEUP_OUTBOX_REDELIVERY_SECONDS = 5
    settings.LINEUP_OUTBOX_REDELIVERY_MAX_SECONDS = 30
    entry = settled_entry(owned)
    read_by_the_round = page(owner, due_by=at(11))
    assert [e.attempts for e in read_by_the_round] == [0]

    assert mark_first_sent(outbox_ids=[str(entry.id)], now=at(11)) == 1  # the push, meanwhile
    mark_sent(entries=read_by_the_round, now=at(11))

    entry.refresh_from_db()
    assert (entry.attempts, entry.last_attempt_at) == (2, at(11))
    assert entry.next_attempt_at == at(11) + redelivery_delay(2)  # 10 s: as for its second send
