"""Conversation events to connected clients (workspace pages, Agents) over the channel layer.

Projections are hints for live pages, never delivery: channel layers are at-most-once, so a page
that missed one rebuilds from the workspace snapshot. They are sent only after commit, and after the
answer to the request that made them (runtime.after_commit).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

import structlog
from channels.layers import get_channel_layer
from django.db import transaction

from runtime import tracing
from runtime.after_commit import hand_on_send
from runtime.internals.django_db import in_transaction, note, savepoint_depth, set_note, transaction_token
from runtime.models import DeliveryChannel

logger = structlog.get_logger("lineup.runtime")


def conversation_group(conversation_id: uuid.UUID | str) -> str:
    return f"conversation.{conversation_id}"


def agent_group(agent_id: uuid.UUID | str) -> str:
    return f"agent.{agent_id}"


# A conversation's hints go to two audiences (decision 0037): its workspace pages
# (``conversation_group``), which forward every event, and its Agent sockets, which act on few: a
# settlement whose result they write (only the start call's Agent: ``agent_results_group``), or one
# whose result they must read (too large for the hint: every Agent of the conversation), a resolved
# interaction and a person's message (``agent_conversation_group``). What no Agent acts on (a start,
# an app's lifecycle, an Agent's own message) is not sent to them at all.
def agent_conversation_group(conversation_id: uuid.UUID | str) -> str:
    return f"agents.conversation.{conversation_id}"


def agent_results_group(agent_id: uuid.UUID | str) -> str:
    return f"agents.results.{agent_id}"


_AGENT_AUDIENCE_PREFIXES = (agent_conversation_group(""), agent_results_group(""))


def _agent_audience(conversation_id: uuid.UUID | str, kind: str, payload: dict[str, Any], delivery: Any) -> str | None:
    """The group of the Agent sockets that act on this hint (lineup.gateways.agent_socket's
    ``conversation_events``), None when none does."""
    if kind == "operation.settled":
        if delivery is None:  # its result is read from the outbox, by whichever Agent it is
            return agent_conversation_group(conversation_id)
        if delivery["agent_id"] and delivery["channel"] == DeliveryChannel.AGENT_SOCKET:
            return agent_results_group(delivery["agent_id"])
        return None  # an MCP call's result: no socket writes it
    if kind == "interaction.resolved" or (kind == "message.created" and payload.get("author_kind") == "human"):
        return agent_conversation_group(conversation_id)
    return None


# Every Agent socket and workspace page joins this group. A transaction that tells more than
# RESYNC_ABOVE conversations (a sweep's or recovery's batch settlement) sends ONE message here,
# ``{"type": "conversation.resync", "conversation_ids": [...]}``, instead of one per conversation:
# each socket whose conversation is named re-reads (the Agent its outbox, the page its snapshot).
# Hints are best effort either way; the outbox stays the truth (decision 0035).
RESYNC_GROUP = "runtime.resync"
RESYNC_ABOVE = 32


def _send_on_commit(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to ``group`` once the running transaction commits (now, outside one).

    The projections of one transaction leave together, one channel-layer message per group
    (``<type>s`` with the list of ``events``): a consumer checks its credential and reads the
    database once per transaction, not once per event. They leave after the answer to the request
    that made them when there is one (runtime.after_commit). Inside a savepoint (a nested
    ``atomic``) each message keeps its own hook, so a rolled-back savepoint drops exactly its own.
    """
    conn = transaction.get_connection()
    if not in_transaction(conn) or savepoint_depth(conn):
        transaction.on_commit(lambda: _hand_on([(group, message)]))
        return
    batch = note(conn, "projection_batch")
    # A batch tied to the running transaction (its token is unchanged: not ended, no savepoint
    # rolled back) still has its flush hook registered; otherwise start a new batch with its own.
    if batch is None or batch[0] is not transaction_token(conn):
        messages: list[tuple[str, dict[str, Any]]] = []
        transaction.on_commit(lambda: _hand_on(messages))
        batch = (transaction_token(conn), messages)
        set_note(conn, "projection_batch", batch)
    batch[1].append((group, message))


def batched(messages: list[tuple[str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """One layer message per group: ``{"type": "<type>s", "events": [{kind, payload}, ...]}`` in order."""
    by_group: dict[str, dict[str, Any]] = {}
    for group, message in messages:
        event = {"kind": message["kind"], "payload": message["payload"]}
        if "trace" in message:
            event["trace"] = message["trace"]
        if "delivery" in message:
            event["delivery"] = message["delivery"]
        by_group.setdefault(group, {"type": message["type"] + "s", "events": []})["events"].append(event)
    return by_group


# Inside ``together()``: the hints committed since it began, not yet handed on.
_gathered: ContextVar[list[tuple[str, dict[str, Any]]] | None] = ContextVar("lineup_projections", default=None)


@contextlib.contextmanager
def together() -> Iterator[None]:
    """Hand on the hints of every transaction committed inside the block at its end, batched as
    one transaction's are (one layer message per group).

    A decision that commits its own transaction (the start on PostgreSQL, decision 0055) makes
    its projections after its commit, outside any transaction, where each would otherwise leave
    at once on its own: a start's two lifecycle moves and ``operation.started`` were three
    channel-layer sends to the same group. Each ``@decision`` runs in this block. Nothing leaves
    earlier than before: only hints of committed transactions are gathered, and they still go
    through ``hand_on_send`` (after the answer, under ``answer_first``). Nested, the outer block
    hands on; a block that raises still hands on what committed inside it.
    """
    if _gathered.get() is not None:
        yield
        return
    gathered: list[tuple[str, dict[str, Any]]] = []
    token = _gathered.set(gathered)
    try:
        yield
    finally:
        _gathered.reset(token)
        _hand_on(gathered)


# A batch settlement's hints to many conversations leave this many at a time.
PARALLEL_SENDS = 16


def _hand_on(messages: list[tuple[str, dict[str, Any]]]) -> None:
    if not messages:
        return
    gathered = _gathered.get()
    if gathered is not None:  # committed inside together(): it leaves with the others at its end
        gathered.extend(messages)
        return
    by_group = _resync_many(messages) or batched(messages)

    async def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        # A batch settlement (the sweep, recovery) tells hundreds of conversations at once: their
        # groups are independent, so their sends overlap, a few at a time, instead of queueing.
        slots = asyncio.Semaphore(PARALLEL_SENDS)

        async def send_one(group: str, message: dict[str, Any]) -> None:
            async with slots:
                try:
                    await layer.group_send(group, message)
                except Exception:  # a live client missing a hint is harmless; it resyncs on reconnect
                    logger.warning("projection.dropped", group=group, events=len(message["events"]), exc_info=True)

        if len(by_group) == 1:
            [(group, message)] = by_group.items()
            await send_one(group, message)
        else:
            await asyncio.gather(*(send_one(group, message) for group, message in by_group.items()))

    hand_on_send(send)


def _resync_many(messages: list[tuple[str, dict[str, Any]]]) -> dict[str, dict[str, Any]] | None:
    """The conversation groups folded into one resync message when there are too many to tell one
    by one (the other groups batched as usual); None when there are not."""
    prefix = conversation_group("")
    conversations = list(dict.fromkeys(group for group, _ in messages if group.startswith(prefix)))
    if len(conversations) <= RESYNC_ABOVE:
        return None
    # Every hint to a conversation's Agents went to its pages too: the resync tells both.
    folded = (prefix, *_AGENT_AUDIENCE_PREFIXES)
    others = batched([(group, message) for group, message in messages if not group.startswith(folded)])
    ids = [group.removeprefix(prefix) for group in conversations]
    return {**others, RESYNC_GROUP: {"type": "conversation.resync", "conversation_ids": ids}}


# A result larger than this (its JSON) is not carried in the settlement's hint: the Agent's socket
# reads it from the outbox instead, so one huge result does not load every channel-layer message.
RESULT_HINT_MAX_BYTES = 8 * 1024


def result_delivery(
    *,
    outbox_id: uuid.UUID | str,
    agent_id: uuid.UUID | str | None,
    channel: str,
    conversation_id: uuid.UUID | str,
    source_tool_call_id: str,
    tool: str,
    result: Any,
) -> dict[str, Any] | None:
    """What a settlement's hint carries of the outbox entry it wrote, so the Agent's socket writes
    ``tool.result`` at once without reading the outbox (docs/decisions/0032); None when too large.

    The fields are the entry's (``outbox_id``, ``agent_id``, ``channel``, ``conversation_id``) and its
    payload's (``source_tool_call_id``, ``tool``, ``result``), as the settling transaction wrote them:
    either path passes them as it has them, no model instance needed. The outbox stays the truth: the
    entry is acked, backed off and redelivered as before; the hint only spares the first send its read.
    """
    if len(json.dumps(result, separators=(",", ":"), default=str)) > RESULT_HINT_MAX_BYTES:
        return None
    return {
        "outbox_id": str(outbox_id),
        "agent_id": str(agent_id) if agent_id else None,
        "channel": str(channel),
        "conversation_id": str(conversation_id),
        "source_tool_call_id": source_tool_call_id,
        "tool": tool,
        "result": result,
    }


def project_on_commit(
    conversation_id: uuid.UUID | str, kind: str, payload: dict[str, Any], *, delivery: dict[str, Any] | None = None
) -> None:
    """After commit, tell the conversation's live pages and Agents that ``kind`` happened; with
    tracing on, the hint carries the deciding trace (``trace``), which its delivery continues.

    ``delivery`` (``result_delivery(...)`` of a settlement) rides along for the Agent sockets only:
    the workspace pages forward ``kind`` and ``payload``, never it.
    """
    message = {"type": "conversation.event", "kind": kind, "payload": payload}
    headers = tracing.carrier()
    if headers:
        message["trace"] = headers
    _send_on_commit(conversation_group(conversation_id), message)
    agents = _agent_audience(conversation_id, kind, payload, delivery)
    if agents is not None:
        _send_on_commit(agents, message if delivery is None else {**message, "delivery": delivery})


def notify_agent_on_commit(agent_id: uuid.UUID | str, kind: str, payload: dict[str, Any]) -> None:
    """After commit, tell one Agent's live connections that ``kind`` happened (e.g. revoked)."""
    _send_on_commit(agent_group(agent_id), {"type": "agent.event", "kind": kind, "payload": payload})
