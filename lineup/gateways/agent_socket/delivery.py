"""The synchronous side of ``/ws/agent/``: access checks, service calls and reads for the consumer.

Each function runs in a worker thread (``database_sync_to_async``) and returns plain data.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from interact.models import Interaction, InteractionStatus, Message
from interact.services.interactions import mark_resolution_delivered, request_interaction
from interact.services.messages import mark_delivered_to_agent, post_agent_message
from runtime.errors import Rejection, RejectionCode
from runtime.inventory import Inventory, inventory_for_scope
from runtime.models import Agent, Conversation
from runtime.selectors import unacked_outbox
from runtime.services.conversations import conversation_get_or_create_default
from runtime.services.outbox import ack_outbox_entry, mark_delivery_attempt
from runtime.tool_router import Caller, access_conversation

DELIVERY_BATCH = 100


def agent_conversation_ids(agent: Agent) -> list[str]:
    """The conversations an Agent may act on: every conversation of its user (a default one at least)."""
    conversation_get_or_create_default(user=agent.user)
    return [str(pk) for pk in Conversation.objects.filter(owner_id=agent.user_id).values_list("pk", flat=True)]


def inventory_for(caller: Caller, conversation_id: str) -> Inventory:
    return inventory_for_scope(access_conversation(caller, conversation_id).scope)


def send_agent_message(caller: Caller, agent: Agent, body: dict[str, Any], *, now: datetime) -> Message:
    conversation = access_conversation(caller, body["conversation_id"])
    return post_agent_message(
        conversation=conversation, agent=agent, text=body["text"], app_session_id=body.get("app_session_id"), now=now
    )


def request_agent_interaction(caller: Caller, agent: Agent, body: dict[str, Any], *, now: datetime) -> Interaction:
    conversation = access_conversation(caller, body["conversation_id"])
    return request_interaction(
        conversation=conversation,
        agent=agent,
        interaction_id=body["interaction_id"],
        kind=body["kind"],
        prompt=body["prompt"],
        options=body.get("options"),
        timeout_seconds=body.get("timeout_seconds"),
        app_session_id=body.get("app_session_id"),
        now=now,
    )


def unacked_results(conversation_ids: list[str]) -> list[tuple[dict[str, Any], int]]:
    """``tool.result`` bodies of every unacked outbox entry, oldest first, with their attempt counts."""
    return [
        (
            {
                "outbox_id": str(entry.id),
                "conversation_id": str(entry.conversation_id),
                "source_tool_call_id": entry.payload["source_tool_call_id"],
                "tool": entry.payload["tool"],
                "result": entry.payload["result"],
            },
            entry.attempts,
        )
        for entry in unacked_outbox(conversation_ids=conversation_ids)[:DELIVERY_BATCH]
    ]


def count_attempt(outbox_id: str, *, now: datetime) -> None:
    mark_delivery_attempt(outbox_id=outbox_id, now=now)


def ack(conversation_ids: list[str], outbox_id: str, *, now: datetime) -> bool:
    try:
        uuid.UUID(outbox_id)
    except ValueError:
        raise Rejection(RejectionCode.FORBIDDEN, "no such outbox entry for this Agent") from None
    return ack_outbox_entry(outbox_id=outbox_id, conversation_ids=conversation_ids, now=now)


def take_user_messages(conversation_ids: list[str], now: datetime) -> list[dict[str, Any]]:
    """The person's messages no Agent connection has received yet; marks them delivered."""
    messages = list(
        Message.objects.filter(
            conversation_id__in=conversation_ids, author_kind="human", delivered_to_agent_at__isnull=True
        ).order_by("created_at", "id")[:DELIVERY_BATCH]
    )
    mark_delivered_to_agent(message_ids=[m.id for m in messages], now=now)
    return [
        {
            "conversation_id": str(m.conversation_id),
            "message_id": str(m.id),
            "text": m.text,
            "created_at": m.created_at.isoformat(),
        }
        for m in messages
    ]


def take_resolutions(agent: Agent, now: datetime) -> list[dict[str, Any]]:
    """Resolutions of this Agent's interactions it has not received yet; marks them delivered."""
    interactions = list(
        Interaction.objects.filter(agent=agent, resolution_delivered_at__isnull=True)
        .exclude(status=InteractionStatus.PENDING)
        .order_by("resolved_at")[:DELIVERY_BATCH]
    )
    mark_resolution_delivered(interaction_pks=[i.pk for i in interactions], now=now)
    return [
        {
            "conversation_id": str(i.conversation_id),
            "interaction_id": i.interaction_id,
            "status": i.status,
            "value": i.value,
        }
        for i in interactions
    ]
