"""The synchronous side of ``/ws/agent/``: access checks, service calls and reads for the consumer.

Each function runs on a database thread (``runtime.db_threads.run_db``) and returns plain data.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from interact.models import Interaction, InteractionStatus, LanguagePreference, Message, MessageDelivery
from interact.services.interactions import ack_resolution, request_interaction, withdraw_interaction
from interact.services.messages import ack_message, mark_messages_sent, post_agent_message
from runtime import crashpoints
from runtime.errors import Rejection, RejectionCode
from runtime.events import uuid_or_none
from runtime.inventory import Inventory, inventory_for_scope
from runtime.models import Agent, Conversation, DeliveryChannel
from runtime.selectors import due_outbox_page, what_runs
from runtime.services.agents import token_refusal, token_refusal_and_conversation
from runtime.services.conversations import conversation_get_or_create_default
from runtime.services.outbox import ack_outbox_entry, mark_first_sent, mark_sent
from runtime.tool_router import Caller, access_conversation, conversation_read

DELIVERY_BATCH = 100

T = TypeVar("T")


@dataclass(frozen=True)
class Waiting:
    """What one delivery round found: why the connection must end instead, or what to send."""

    refusal: str | None
    results: list[tuple[dict[str, Any], int]] = field(default_factory=list)
    user_messages: list[dict[str, Any]] = field(default_factory=list)
    resolutions: list[dict[str, Any]] = field(default_factory=list)


@crashpoints.scope("deliver")  # a delivery round's steps, for the crash-point harness
def waiting_for(
    agent: Agent,
    token_digest: str,
    *,
    results: bool,
    user_messages: bool,
    resolutions: bool,
    everything: bool,
    now: datetime,
) -> Waiting:
    """The credential re-check and the queues a round asked for, in one worker-thread call (one
    connection check, one hop) instead of one each: a hint on the way to a result pays for one."""
    refusal = token_refusal(token_digest)
    if refusal is not None:  # checked first: what is read below is marked as sent
        return Waiting(refusal)
    return Waiting(
        refusal=None,
        results=results_to_send(agent, now=now, everything=everything) if results else [],
        user_messages=user_messages_to_send(agent, now=now, everything=everything) if user_messages else [],
        resolutions=resolutions_to_send(agent) if resolutions else [],
    )


def authorized_call(
    token_digest: str, call: Callable[..., T], /, *args: Any, named_conversation: object = None, **kwargs: Any
) -> tuple[str | None, T | None]:
    """``(None, call(*args, **kwargs))``, or ``(refusal, None)`` without calling it when the
    connection's token or user is gone: a frame's credential re-read and its service in one hop.

    With ``named_conversation`` (the frame names one, and ``call`` reads it through
    ``access_conversation``) the credential and the conversation row are one statement, and ``call``
    gets the row without reading it again."""
    try:
        named = uuid.UUID(str(named_conversation)) if named_conversation is not None else None
    except ValueError:  # not a conversation: the service answers unknown_conversation
        named = None
    if named is None:
        refusal, conversation = token_refusal(token_digest), None
    else:
        refusal, conversation = token_refusal_and_conversation(token_digest, named)
    if refusal is not None:
        return refusal, None
    with conversation_read(conversation):
        return None, call(*args, **kwargs)


def agent_conversation_ids(agent: Agent) -> list[str]:
    """The conversations an Agent may act on: every conversation of its user (a default one at least)."""
    conversation_get_or_create_default(user=agent.user)
    return [str(pk) for pk in Conversation.objects.filter(owner_id=agent.user_id).values_list("pk", flat=True)]


def inventory_for(caller: Caller, conversation_id: str) -> Inventory:
    return inventory_for_scope(access_conversation(caller, conversation_id).scope)


def what_runs_for(caller: Caller, conversation_id: str) -> dict[str, Any]:
    """What runs in a conversation this Agent may act on (``runtime.selectors.what_runs``)."""
    return what_runs(conversation_id=access_conversation(caller, conversation_id).id)


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


def withdraw_agent_interaction(caller: Caller, agent: Agent, body: dict[str, Any], *, now: datetime) -> Interaction:
    conversation = access_conversation(caller, body["conversation_id"])
    return withdraw_interaction(conversation=conversation, agent=agent, interaction_id=body["interaction_id"], now=now)


def results_to_send(agent: Agent, *, now: datetime, everything: bool) -> list[tuple[dict[str, Any], int]]:
    """One page of this Agent's unacked ``tool.result`` bodies, with how often each was sent before.

    Only entries the Agent owns (its calls started the operations), only those pushed over this
    socket (not MCP's), and of those the ones whose backoff is over — or, on ``welcome``
    (``everything``), the oldest page whatever their backoff, since a new connection may be the
    first to reach the Agent. Each is counted as sent and backed off before it is sent: a send that
    fails leaves it unacked, so it comes again (at least once).
    """
    entries = due_outbox_page(
        agent_id=agent.id,
        channel=DeliveryChannel.AGENT_SOCKET,
        due_by=None if everything else now,
        limit=DELIVERY_BATCH,
    )
    sent_before = [entry.attempts for entry in entries]
    mark_sent(entries=entries, now=now)
    return [
        (
            {
                "outbox_id": str(entry.id),
                "conversation_id": str(entry.conversation_id),
                "source_tool_call_id": entry.payload["source_tool_call_id"],
                "tool": entry.payload["tool"],
                "result": entry.payload["result"],
            },
            attempts,
        )
        for entry, attempts in zip(entries, sent_before, strict=True)
    ]


def pushed_results(agent_id: str, events: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], bool]:
    """The ``tool.result`` bodies a settlement hint carries for this Agent's socket, and whether
    some settlement in it carried none (too large, or an older server): those are read instead."""
    bodies, unread = [], False
    for event in events:
        if event.get("kind") != "operation.settled":
            continue
        entry = event.get("delivery")
        if entry is None:
            unread = True
        elif entry.get("agent_id") == agent_id and entry.get("channel") == DeliveryChannel.AGENT_SOCKET:
            bodies.append({k: entry[k] for k in RESULT_FIELDS})
    return bodies, unread


RESULT_FIELDS = ("outbox_id", "conversation_id", "source_tool_call_id", "tool", "result")


def count_pushed(outbox_ids: list[str], *, now: datetime) -> int:
    return mark_first_sent(outbox_ids=outbox_ids, now=now)


@crashpoints.scope("ack")
def ack(agent: Agent, outbox_id: str, *, now: datetime) -> bool:
    if uuid_or_none(outbox_id) is None:
        raise Rejection(RejectionCode.FORBIDDEN, "no such outbox entry for this Agent")
    return ack_outbox_entry(outbox_id=outbox_id, agent_id=agent.id, now=now)


def user_messages_to_send(agent: Agent, *, now: datetime, everything: bool) -> list[dict[str, Any]]:
    """One page of the person's messages on their way to this Agent and not acked yet, oldest first.

    Like results: those whose backoff is over, or on ``welcome`` (``everything``) the oldest page
    whatever their backoff; each is counted and backed off before it is sent, and comes again until
    the Agent sends ``message.ack``.
    """
    deliveries = MessageDelivery.objects.filter(agent=agent, acked_at__isnull=True).select_related("message")
    if not everything:
        deliveries = deliveries.filter(next_attempt_at__lte=now)
    page = list(deliveries.order_by("next_attempt_at", "id")[:DELIVERY_BATCH])
    mark_messages_sent(deliveries=page, now=now)
    saved = None
    if any(not (d.message.data or {}).get("language") for d in page):  # read only when it is needed
        saved = LanguagePreference.objects.filter(user_id=agent.user_id).values_list("language", flat=True).first()
    return [_user_message_payload(d.message, saved) for d in page]


def _user_message_payload(message: Message, saved_language: str | None) -> dict[str, Any]:
    payload = {
        "conversation_id": str(message.conversation_id),
        "message_id": str(message.id),
        "text": message.text,
        "created_at": message.created_at.isoformat(),
    }
    # Optional (docs/agent-protocol.md): the page's language when the person wrote this, else the one
    # they saved, so an Agent can answer in the language the person reads without reading LineUp's rows.
    language = (message.data or {}).get("language") or saved_language
    if language:
        payload["language"] = language
    return payload


def ack_user_message(agent: Agent, message_id: str, *, now: datetime) -> bool:
    if uuid_or_none(message_id) is None:
        raise Rejection(RejectionCode.FORBIDDEN, "no such message for this Agent")
    return ack_message(agent=agent, message_id=message_id, now=now)


def resolutions_to_send(agent: Agent) -> list[dict[str, Any]]:
    """Resolutions of this Agent's interactions it has not acked yet (``interaction.ack``), oldest first."""
    interactions = (
        Interaction.objects.filter(agent=agent, resolution_delivered_at__isnull=True)
        .exclude(status=InteractionStatus.PENDING)
        .order_by("resolved_at")[:DELIVERY_BATCH]
    )
    return [
        {
            "conversation_id": str(i.conversation_id),
            "interaction_id": i.interaction_id,
            "status": i.status,
            "value": i.value,
        }
        for i in interactions
    ]


def ack_interaction(agent: Agent, caller: Caller, body: dict[str, Any], *, now: datetime) -> bool:
    conversation = access_conversation(caller, body["conversation_id"])
    return ack_resolution(agent=agent, conversation_id=conversation.id, interaction_id=body["interaction_id"], now=now)
