"""Interact in the operator's admin: the IM as it was written and the standard interactions (read-only).

Conversations themselves are the Runtime's (``runtime.admin.conversations``); these lists filter
by them through the same ``?conversation_id=`` filter.
"""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from interact.models import Interaction, Message, MessageDelivery
from runtime.admin.common import ConversationFilter, ReadOnlyAdmin


@admin.register(Message)
class MessageAdmin(ReadOnlyAdmin):
    """The IM as it was written: read-only (messages are history; blocks are read-only once ended)."""

    list_display = ("created_at", "conversation", "author_kind", "app_session", "short_text", "delivered_to_agent_at")
    list_select_related = ("conversation",)
    list_filter = ("author_kind", ConversationFilter)
    search_fields = ("id__exact", "text")
    date_hierarchy = "created_at"
    ordering = ("-created_at",)

    @admin.display(description=_("text"))
    def short_text(self, message: Message) -> str:
        return message.text if len(message.text) <= 80 else message.text[:79] + "…"


@admin.register(Interaction)
class InteractionAdmin(ReadOnlyAdmin):
    """Standard interactions and how they ended; only the person (or a timeout) resolves them."""

    list_display = ("created_at", "conversation", "kind", "interaction_id", "status", "resolved_at", "app_session")
    list_select_related = ("conversation",)
    list_filter = ("status", "kind", ConversationFilter)
    search_fields = ("id__exact", "interaction_id", "prompt")
    date_hierarchy = "created_at"
    ordering = ("-created_at",)


@admin.register(MessageDelivery)
class MessageDeliveryAdmin(ReadOnlyAdmin):
    """Each person's message on its way to each Agent of the user, until that Agent acks it."""

    list_display = ("message", "agent", "attempts", "next_attempt_at", "acked_at")
    list_select_related = ("message", "agent")
    list_filter = (("acked_at", admin.EmptyFieldListFilter), "agent")
    search_fields = ("message__id__exact", "agent__name")
    ordering = ("-next_attempt_at",)
