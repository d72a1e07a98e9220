"""Projections leave after commit, all of one transaction together (one layer message per group),
and a rolled-back savepoint takes exactly its own projections with it (runtime/projections.py); a
decision's hints leave together even when it commits its own transaction (``together()``)."""

from __future__ import annotations

import asyncio
import uuid
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone

from runtime.projections import (
    RESYNC_ABOVE,
    RESYNC_GROUP,
    agent_conversation_group,
    agent_results_group,
    conversation_group,
    project_on_commit,
    together,
)
from runtime.tool_calls import Accepted

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def listener(settings):
    """A channel in one conversation's group on an in-process layer; ``kinds()`` drains it."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    layer = get_channel_layer()
    conversation_id = uuid.uuid4()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(conversation_group(conversation_id), channel)

    class Listener:
        id = conversation_id

        @staticmethod
        def messages() -> list[dict]:
            # A projection is in the channel's queue once the commit returns (it is sent inside
            # the on-commit hook), so an empty queue answers at once; the timeout only ends the drain.
            received = []
            while True:
                try:
                    received.append(async_to_sync(asyncio.wait_for)(layer.receive(channel), 0.05))
                except TimeoutError:
                    return received

        @classmethod
        def kinds(cls) -> list[str]:
            return [event["kind"] for message in cls.messages() for event in message["events"]]

    return Listener


def test_nothing_leaves_before_commit_and_everything_leaves_after(listener):
    with transaction.atomic():
        project_on_commit(listener.id, "first", {})
        project_on_commit(listener.id, "second", {})
        assert listener.kinds() == []
    assert listener.kinds() == ["first", "second"]


def test_a_rolled_back_savepoint_drops_only_its_own_projections(listener):
    with transaction.atomic():
        project_on_commit(listener.id, "before", {})
        try:
            with transaction.atomic():
                project_on_commit(listener.id, "inside", {})
                raise RuntimeError("roll the savepoint back")
        except RuntimeError:
            pass
        project_on_commit(listener.id, "after", {})
    assert listener.kinds() == ["before", "after"]


def test_a_rolled_back_transaction_sends_nothing_and_the_next_one_sends_its_own(listener):
    with pytest.raises(RuntimeError), transaction.atomic():
        project_on_commit(listener.id, "lost", {})
        raise RuntimeError("roll back")
    with transaction.atomic():
        project_on_commit(listener.id, "kept", {})
    project_on_commit(listener.id, "outside", {})  # no transaction: sent at once
    assert listener.kinds() == ["kept", "outside"]


def test_one_transaction_sends_one_message_per_group_with_its_events_in_order(listener):
    elsewhere = uuid.uuid4()
    with transaction.atomic():
        project_on_commit(listener.id, "a", {"n": 1})
        project_on_commit(elsewhere, "b", {"n": 2})
        project_on_commit(listener.id, "c", {"n": 3})
    assert listener.messages() == [
        {
            "type": "conversation.events",
            "events": [{"kind": "a", "payload": {"n": 1}}, {"kind": "c", "payload": {"n": 3}}],
        }
    ]


@pytest.mark.spec("R-4.2.7")
def test_a_transaction_telling_many_conversations_sends_one_resync_message(settings):
    """Up to RESYNC_ABOVE conversations are told one message each; more (a batch settlement) are
    told with ONE message to RESYNC_GROUP naming them all, and no per-conversation message
    (decision 0035); an Agent's group is still told its own."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    layer = get_channel_layer()
    resync = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(RESYNC_GROUP, resync)
    few = [uuid.uuid4() for _ in range(RESYNC_ABOVE)]
    many = [uuid.uuid4() for _ in range(RESYNC_ABOVE + 1)]
    listeners = {}
    for conversation_id in (few[0], many[0]):
        listeners[conversation_id] = async_to_sync(layer.new_channel)()
        async_to_sync(layer.group_add)(conversation_group(conversation_id), listeners[conversation_id])

    def drain(channel: str) -> list[dict]:
        received = []
        while True:
            try:
                received.append(async_to_sync(asyncio.wait_for)(layer.receive(channel), 0.05))
            except TimeoutError:
                return received

    with transaction.atomic():
        for conversation_id in few:
            project_on_commit(conversation_id, "operation.settled", {})
    assert drain(resync) == []
    assert [m["type"] for m in drain(listeners[few[0]])] == ["conversation.events"]

    with transaction.atomic():
        for conversation_id in many:
            project_on_commit(conversation_id, "operation.settled", {})
            project_on_commit(conversation_id, "app_session.ended", {})
    [message] = drain(resync)
    assert message == {"type": "conversation.resync", "conversation_ids": [str(c) for c in many]}
    assert drain(listeners[many[0]]) == []


def _drain(layer, channel: str) -> list[dict]:
    received = []
    while True:
        try:
            received.append(async_to_sync(asyncio.wait_for)(layer.receive(channel), 0.05))
        except TimeoutError:
            return received


def _delivery(agent_id, channel: str = "agent_socket") -> dict:
    return {"outbox_id": "o", "agent_id": str(agent_id), "channel": channel, "result": {}}


@pytest.mark.spec("R-2.2.8", "R-4.2.7")
def test_each_hint_reaches_only_the_sockets_that_act_on_it(settings):
    """The pages hear every event, never a result's delivery; the Agents of the conversation hear
    only a person's message, a resolved interaction and a settlement whose result they must read;
    a result the hint carries goes to the start call's Agent alone; a start reaches no Agent."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    layer = get_channel_layer()
    conversation_id, owner, other = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    channels = {}
    for name, group in {
        "page": conversation_group(conversation_id),
        "agents": agent_conversation_group(conversation_id),
        "owner": agent_results_group(owner),
        "other": agent_results_group(other),
    }.items():
        channels[name] = async_to_sync(layer.new_channel)()
        async_to_sync(layer.group_add)(group, channels[name])

    def heard(name: str) -> list[tuple[str, bool]]:
        return [(e["kind"], "delivery" in e) for m in _drain(layer, channels[name]) for e in m["events"]]

    with transaction.atomic():
        project_on_commit(conversation_id, "operation.started", {})
        project_on_commit(conversation_id, "instance.lifecycle", {})
        project_on_commit(conversation_id, "message.created", {"author_kind": "agent"})
        project_on_commit(conversation_id, "message.created", {"author_kind": "human"})
        project_on_commit(conversation_id, "interaction.resolved", {})
        project_on_commit(conversation_id, "operation.settled", {"n": 1}, delivery=_delivery(owner))
        project_on_commit(conversation_id, "operation.settled", {"n": 2}, delivery=None)  # too large
        project_on_commit(conversation_id, "operation.settled", {"n": 3}, delivery=_delivery(owner, "mcp"))
    assert heard("page") == [
        ("operation.started", False),
        ("instance.lifecycle", False),
        ("message.created", False),
        ("message.created", False),
        ("interaction.resolved", False),
        ("operation.settled", False),
        ("operation.settled", False),
        ("operation.settled", False),
    ]
    assert heard("agents") == [
        ("message.created", False),
        ("interaction.resolved", False),
        ("operation.settled", False),
    ]
    assert heard("owner") == [("operation.settled", True)]
    assert heard("other") == []


@pytest.mark.spec("R-4.2.7")
def test_a_resync_folds_the_agents_hints_too(settings):
    """Past RESYNC_ABOVE conversations, the Agents' hints (results included) are folded into the one
    resync message like the pages' (the Agent then reads its outbox); an Agent's own group is not."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    layer = get_channel_layer()
    owner = uuid.uuid4()
    many = [uuid.uuid4() for _ in range(RESYNC_ABOVE + 1)]
    channels = {}
    for name, group in {
        "resync": RESYNC_GROUP,
        "agents": agent_conversation_group(many[0]),
        "owner": agent_results_group(owner),
    }.items():
        channels[name] = async_to_sync(layer.new_channel)()
        async_to_sync(layer.group_add)(group, channels[name])
    with transaction.atomic():
        for conversation_id in many:
            project_on_commit(conversation_id, "operation.settled", {}, delivery=_delivery(owner))
            project_on_commit(conversation_id, "operation.settled", {}, delivery=None)
    assert [m["type"] for m in _drain(layer, channels["resync"])] == ["conversation.resync"]
    assert _drain(layer, channels["agents"]) == []
    assert _drain(layer, channels["owner"]) == []


@pytest.fixture
def counted_layer(settings):
    """The in-process channel layer with its ``group_send`` counted per group (and still sent)."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    layer = get_channel_layer()
    sends: list[str] = []
    group_send = layer.group_send

    async def counted(group: str, message: dict) -> None:
        sends.append(group)
        await group_send(group, message)

    layer.group_send = counted
    layer.sends = sends
    return layer


def test_hints_of_transactions_committed_together_leave_as_one_message_per_group(counted_layer):
    """Inside ``together()`` the hints made outside a transaction and those of committed
    transactions leave at the block's end, in order, one message per group; a rolled-back
    transaction's stay behind, and a block that raises still hands on what committed."""
    conversation_id = uuid.uuid4()
    page = async_to_sync(counted_layer.new_channel)()
    async_to_sync(counted_layer.group_add)(conversation_group(conversation_id), page)
    with pytest.raises(RuntimeError), together():
        project_on_commit(conversation_id, "outside", {})
        with transaction.atomic():
            project_on_commit(conversation_id, "committed", {})
        with pytest.raises(ValueError), transaction.atomic():
            project_on_commit(conversation_id, "rolled back", {})
            raise ValueError
        with together():  # nested: the outer block hands on
            project_on_commit(conversation_id, "nested", {})
        assert counted_layer.sends == []
        raise RuntimeError("the block fails after its commits")
    assert counted_layer.sends == [conversation_group(conversation_id)]
    [message] = _drain(counted_layer, page)
    assert [event["kind"] for event in message["events"]] == ["outside", "committed", "nested"]


@pytest.mark.spec("R-4.2.7")
def test_a_start_and_an_interrupt_reach_the_workspace_in_one_send_each(counted_layer, agent):
    """A start that commits its own transaction (PostgreSQL, decision 0055) makes its hints after
    its commit: its moves and ``operation.started`` still leave as ONE message to the workspace's
    group, like the interrupt's (one transaction) do."""
    group = conversation_group(agent.conversation.id)
    page = async_to_sync(counted_layer.new_channel)()
    async_to_sync(counted_layer.group_add)(group, page)
    _drain(counted_layer, page)
    counted_layer.sends.clear()  # what making the conversation told its pages
    now = timezone.now()

    assert isinstance(agent.start(600, now=now), Accepted)
    assert counted_layer.sends == [group]
    [started] = _drain(counted_layer, page)
    kinds = [event["kind"] for event in started["events"]]
    assert "instance.lifecycle" in kinds and kinds[-1] == "operation.started"

    assert agent.interrupt(now=now + timedelta(seconds=5)).receipt["status"] == "interrupted"
    assert counted_layer.sends == [group, group]
    [settled] = _drain(counted_layer, page)
    assert "operation.settled" in [event["kind"] for event in settled["events"]]
