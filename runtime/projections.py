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


def project_on_commit(conversation_id: uuid.UUID | str, kind: str, payload: dict[str, Any]) -> None:
    """After commit, tell the conversation's live pages that ``kind`` happened."""

    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        message = {"type": "conversation.event", "kind": kind, "payload": payload}
        try:
            async_to_sync(layer.group_send)(conversation_group(conversation_id), message)
        except Exception:  # a live page missing a hint is harmless; it resyncs on reconnect
            logger.warning("projection.dropped", conversation_id=str(conversation_id), kind=kind, exc_info=True)

    transaction.on_commit(send)
