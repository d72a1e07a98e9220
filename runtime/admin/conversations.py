"""Conversations and their workspaces: the scope of every Runtime decision, and the way into it.

A conversation's title may be edited; nothing else: its id and owner are the scope every
Runtime decision is bound to, its scope decides the Inventory, and conversations are created by
``runtime.services.conversations`` (deleting one would cascade through a running focus), so there
is no add and no delete here.
"""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from runtime.admin.common import ConversationFilter, ReadOnlyAdmin, UuidSearchMixin, change_link
from runtime.admin.incident import InterruptActionMixin
from runtime.models import AppInstance, Conversation, Operation, Workspace
from runtime.transitions import LifecycleState

# (label, admin changelist url name): the conversation's rows in the Runtime, each filtered by
# the Runtime admin's ``?conversation_id=`` filter.
RUNTIME_CHANGELISTS = (
    (_("app instances"), "admin:runtime_appinstance_changelist"),
    (_("app sessions"), "admin:runtime_appsession_changelist"),
    (_("operations"), "admin:runtime_operation_changelist"),
    (_("tool calls"), "admin:runtime_toolcall_changelist"),
    (_("snapshots"), "admin:runtime_instancesnapshot_changelist"),
    (_("outbox"), "admin:runtime_outboxentry_changelist"),
    (_("event log"), "admin:runtime_lifecycleevent_changelist"),
)


@admin.register(Conversation)
class ConversationAdmin(InterruptActionMixin, UuidSearchMixin, admin.ModelAdmin):
    list_display = ("id", "title_display", "owner", "scope", "is_default", "created_at")
    list_select_related = ("owner",)
    list_filter = ("scope", "is_default")
    search_fields = ("id__exact", "title", "owner__username")
    date_hierarchy = "created_at"
    ordering = ("-created_at",)
    fields = ("id", "title", "owner", "scope", "is_default", "created_at", "runtime")
    readonly_fields = ("id", "owner", "scope", "is_default", "created_at", "runtime")
    actions = ("interrupt_running_operations",)  # runtime.admin.incident

    def running_operations(self, queryset: QuerySet[Conversation]) -> QuerySet[Operation]:
        return Operation.objects.filter(conversation__in=queryset)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    @admin.display(description=_("title"), ordering="title")
    def title_display(self, obj: Conversation) -> str:
        return obj.display_title

    @admin.display(description=_("runtime state"))
    def runtime(self, obj: Conversation) -> SafeString:
        links = ((f"{reverse(name)}?conversation_id={obj.pk}", label) for label, name in RUNTIME_CHANGELISTS)
        listed = format_html_join(mark_safe(" · "), '<a href="{}">{}</a>', links)
        if not hasattr(obj, "workspace"):  # created with the conversation's first Runtime decision
            return listed
        workspace = reverse("admin:runtime_workspace_change", args=[obj.pk])
        return format_html(_('<a href="{}">workspace</a> · {}'), workspace, listed)


@admin.register(Workspace)
class WorkspaceAdmin(ReadOnlyAdmin):
    list_display = ("conversation_link", "focus_seq", "updated_at")
    list_select_related = ("conversation",)
    list_filter = (ConversationFilter,)
    search_fields = ("conversation__id__exact",)
    readonly_fields = ("open_instances",)

    @admin.display(description=_("open instances (focus stack, newest first)"))
    def open_instances(self, obj: Workspace) -> SafeString | str:
        instances = AppInstance.objects.filter(conversation_id=obj.pk).exclude(lifecycle_state=LifecycleState.CLOSED)
        rows = [(change_link(AppInstance, i.pk, i), i.focus_seq) for i in instances.order_by("-focus_seq")]
        return format_html_join(mark_safe("<br>"), _("{} (focus sequence {})"), rows) or "-"
