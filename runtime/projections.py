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
    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        try:
            async_to_sync(layer.group_send)(group, message)
        except Exception:  # a live client missing a hint is harmless; it resyncs on reconnect
            logger.warning("projection.dropped", group=group, kind=message.get("kind"), exc_info=True)

    transaction.on_commit(send)


def project_on_commit(conversation_id: uuid.UUID | str, kind: str, payload: dict[str, Any]) -> None:
    """After commit, tell the conversation's live pages and Agents that ``kind`` happened."""
    _send_on_commit(
        conversation_group(conversation_id), {"type": "conversation.event", "kind": kind, "payload": payload}
    )


def notify_agent_on_commit(agent_id: uuid.UUID | str, kind: str, payload: dict[str, Any]) -> None:
    """After commit, tell one Agent's live connections that ``kind`` happened (e.g. revoked)."""
    _send_on_commit(agent_group(agent_id), {"type": "agent.event", "kind": kind, "payload": payload})
