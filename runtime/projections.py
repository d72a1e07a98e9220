"""Conversation events to connected clients (workspace pages, Agents) over the channel layer.

Projections are hints for live pages, never delivery: channel layers are at-most-once, so a page
that missed one rebuilds from the workspace snapshot. They are sent only after commit.
"""

from __future__ import annotations

import uuid
from typing import Any

import structlog
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = structlog.get_logger("lineup.runtime")


def conversation_group(conversation_id: uuid.UUID | str) -> str:
    return f"conversation.{conversation_id}"


def agent_group(agent_id: uuid.UUID | str) -> str:
    return f"agent.{agent_id}"


def _send_on_commit(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to ``group`` once the running transaction commits (now, outside one).

    The projections of one transaction leave together, in one ``async_to_sync`` call: outside an
    ASGI server each call starts an event loop and opens a Redis connection (~5 ms), which was
    the largest single cost of a settlement. Inside a savepoint (a nested ``atomic``) each message
    keeps its own hook, so a rolled-back savepoint drops exactly its own projections.
    """
    conn = transaction.get_connection()
    if not conn.in_atomic_block or conn.savepoint_ids:
        transaction.on_commit(lambda: _send_now([(group, message)]))
        return
    batch = getattr(conn, "_lineup_projection_batch", None)
    # Django replaces ``run_on_commit`` when a transaction ends (commit or rollback) or a savepoint
    # rolls back, so a batch tied to the current list belongs to this transaction and its flush
    # hook is still registered; otherwise start a new batch with its own hook.
    if batch is None or batch[0] is not conn.run_on_commit:
        messages: list[tuple[str, dict[str, Any]]] = []
        transaction.on_commit(lambda: _send_now(messages))
        batch = (conn.run_on_commit, messages)
        conn._lineup_projection_batch = batch
    batch[1].append((group, message))


def _send_now(messages: list[tuple[str, dict[str, Any]]]) -> None:
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    try:
        async_to_sync(_group_send_all)(layer, messages)
    except Exception:  # a live client missing a hint is harmless; it resyncs on reconnect
        for group, message in messages:
            logger.warning("projection.dropped", group=group, kind=message.get("kind"), exc_info=True)


async def _group_send_all(layer: Any, messages: list[tuple[str, dict[str, Any]]]) -> None:
    for group, message in messages:
        try:
            await layer.group_send(group, message)
        except Exception:
            logger.warning("projection.dropped", group=group, kind=message.get("kind"), exc_info=True)


def project_on_commit(conversation_id: uuid.UUID | str, kind: str, payload: dict[str, Any]) -> None:
    """After commit, tell the conversation's live pages and Agents that ``kind`` happened."""
    _send_on_commit(
        conversation_group(conversation_id), {"type": "conversation.event", "kind": kind, "payload": payload}
    )


def notify_agent_on_commit(agent_id: uuid.UUID | str, kind: str, payload: dict[str, Any]) -> None:
    """After commit, tell one Agent's live connections that ``kind`` happened (e.g. revoked)."""
    _send_on_commit(agent_group(agent_id), {"type": "agent.event", "kind": kind, "payload": payload})
