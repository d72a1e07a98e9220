"""Interact in the operator's admin: conversations, and the way into their Runtime state.

A conversation's title may be edited; nothing else: its id and owner are the scope every
Runtime decision is bound to, its scope decides the Inventory, and conversations are created by
``interact.services`` (deleting one would cascade through a running focus), so there is no add
and no delete here.
"""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from interact.models import Conversation, Interaction, Message
from runtime.admin.state import ConversationFilter, ReadOnlyAdmin

# (label, admin changelist url name): the conversation's rows in the Runtime, each filtered by
# the Runtime admin's ``?conversation_id=`` filter.
RUNTIME_CHANGELISTS = (
    ("app instances", "admin:runtime_appinstance_changelist"),
    ("app sessions", "admin:runtime_appsession_changelist"),
    ("operations", "admin:runtime_operation_changelist"),
    ("tool calls", "admin:runtime_toolcall_changelist"),
    ("snapshots", "admin:runtime_instancesnapshot_changelist"),
    ("outbox", "admin:runtime_outboxentry_changelist"),
    ("event log", "admin:runtime_lifecycleevent_changelist"),
)


@admin.register(Conversation)
class ConversationAdmin(admin.ModelAdmin):
    list_display = ("id", "title", "owner", "scope", "is_default", "created_at")
    list_select_related = ("owner",)
    list_filter = ("scope", "is_default")
    search_fields = ("id__exact", "title", "owner__username")
    date_hierarchy = "created_at"
    ordering = ("-created_at",)
    fields = ("id", "title", "owner", "scope", "is_default", "created_at", "runtime")
    readonly_fields = ("id", "owner", "scope", "is_default", "created_at", "runtime")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    @admin.display(description="runtime state")
    def runtime(self, obj: Conversation) -> SafeString:
        links = ((f"{reverse(name)}?conversation_id={obj.pk}", label) for label, name in RUNTIME_CHANGELISTS)
        listed = format_html_join(mark_safe(" · "), '<a href="{}">{}</a>', links)
        if not hasattr(obj, "workspace"):  # created with the conversation's first Runtime decision
            return listed
        workspace = reverse("admin:runtime_workspace_change", args=[obj.pk])
        return format_html('<a href="{}">workspace</a> · {}', workspace, listed)


@admin.register(Message)
class MessageAdmin(ReadOnlyAdmin):
    """The IM as it was written: read-only (messages are history; blocks are read-only once ended)."""

    list_display = ("created_at", "conversation", "author_kind", "app_session", "short_text", "delivered_to_agent_at")
    list_select_related = ("conversation",)
    list_filter = ("author_kind", ConversationFilter)
    search_fields = ("id__exact", "text")
    date_hierarchy = "created_at"
    ordering = ("-created_at",)

    @admin.display(description="text")
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
