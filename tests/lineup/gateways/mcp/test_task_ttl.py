"""Nothing kept for ever (decision 0044): the periodic sweep acks an MCP task's outbox entry once the
task's ``ttlMs`` ran out unread, a bounded number per sweep, and no other channel's."""

from __future__ import annotations

from datetime import timedelta

import pytest

from lineup.gateways.mcp.bridge import TASK_RESULT_TTL, TASK_TTL_SWEEPER
from runtime.models import Agent, DeliveryChannel, OutboxEntry
from runtime.services.outbox import ack_lapsed_outbox_entries
from runtime.services.recovery import sweep
from runtime.tool_calls import Accepted
from runtime.tool_router import Caller
from tests.support.factories import AgentDriver, at

pytestmark = pytest.mark.django_db

SECOND = timedelta(seconds=1)


def driver(user, conversation, channel: str) -> AgentDriver:
    agent = Agent.objects.create(name=f"agent on {channel}", user=user)
    caller = Caller(label=f"agent:{agent.id}", user_id=user.id, agent_id=agent.id, channel=channel)
    return AgentDriver(caller=caller, conversation=conversation)


def interrupted_entry(agent: AgentDriver, *, start: int) -> OutboxEntry:
    """A 60 s focus started at ``start`` and interrupted 10 s later: its one outbox entry, unacked."""
    started = agent.start(60, now=at(start))
    assert isinstance(started, Accepted), started
    agent.interrupt(now=at(start + 10))
    entry = OutboxEntry.objects.get(operation_id=started.operation_id)
    assert entry.acked_at is None
    return entry


def test_the_sweep_acks_an_unread_mcp_task_once_its_ttl_ran_out_and_never_before(user, conversation):
    """The task's ttlMs counts from its start to 24 h after its deadline (not its early end): the
    entry stays owed until then, and is acked by the sweep that comes after; a socket Agent's is not."""
    entry = interrupted_entry(driver(user, conversation, DeliveryChannel.MCP), start=0)
    socket_entry = interrupted_entry(driver(user, conversation, DeliveryChannel.AGENT_SOCKET), start=100)
    lapses = at(60) + TASK_RESULT_TTL  # ttlMs after createdAt: (ends_at - started_at) + 24 h

    assert sweep(now=lapses - SECOND).swept[TASK_TTL_SWEEPER] == 0
    entry.refresh_from_db()
    assert entry.acked_at is None

    assert sweep(now=lapses).swept[TASK_TTL_SWEEPER] == 1
    entry.refresh_from_db()
    assert entry.acked_at == lapses
    assert sweep(now=lapses + timedelta(days=30)).swept[TASK_TTL_SWEEPER] == 0  # acked once
    socket_entry.refresh_from_db()
    assert socket_entry.acked_at is None  # a socket Agent is sent its results until it acks them


def test_a_sweep_acks_at_most_its_batch_oldest_first(user, conversation):
    mcp = driver(user, conversation, DeliveryChannel.MCP)
    first, second = interrupted_entry(mcp, start=0), interrupted_entry(mcp, start=100)
    later = at(200) + TASK_RESULT_TTL

    acked = [ack_lapsed_outbox_entries(channel=DeliveryChannel.MCP, kept_for=TASK_RESULT_TTL, now=later, limit=1)]
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.acked_at == later and second.acked_at is None
    acked.append(ack_lapsed_outbox_entries(channel=DeliveryChannel.MCP, kept_for=TASK_RESULT_TTL, now=later, limit=1))
    second.refresh_from_db()
    assert acked == [1, 1] and second.acked_at == later
