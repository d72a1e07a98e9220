"""Interact's write services: conversations, messages, interactions (one module each)."""

from interact.services.conversations import conversation_get_or_create_default

__all__ = ["conversation_get_or_create_default"]
