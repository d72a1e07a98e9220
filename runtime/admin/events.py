"""The outbox and the event log, as operators inspect them (read-only)."""

from __future__ import annotations

import uuid

from django.contrib import admin
from django.contrib.admin.views.main import ChangeList
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from runtime.admin.common import (
    AckedFilter,
    ConversationFilter,
    ReadOnlyAdmin,
    change_link,
    changelist_url,
    object_link,
    pretty_json,
)
from runtime.models import AppInstance, AppSession, Conversation, LifecycleEvent, Operation, OutboxEntry, ToolCall


@admin.register(OutboxEntry)
class OutboxEntryAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "conversation_link",
        "agent_link",
        "operation_link",
        "tool_call_link",
        "created_at",
        "attempts",
        "last_attempt_at",
        "acked_at",
    )
    list_select_related = ("conversation", "agent", "operation", "tool_call")
    list_filter = (AckedFilter, ConversationFilter)
    search_fields = (
        "id__exact",
        "operation__id__exact",
        "tool_call__source_tool_call_id",
        "conversation__id__exact",
        "agent__name",
    )
    date_hierarchy = "created_at"
    ordering = ("-created_at",)
    exclude = ("payload",)
    readonly_fields = ("payload_json",)

    # The runbook's first question about an unacknowledged result (LineUpResultUnacknowledged): whose Agent?
    @admin.display(description=_("Agent"), ordering="agent__name")
    def agent_link(self, obj: OutboxEntry) -> SafeString | str:
        return object_link(obj.agent)

    @admin.display(description=_("operation"), ordering="operation__started_at")
    def operation_link(self, obj: OutboxEntry) -> SafeString | str:
        return object_link(obj.operation)

    @admin.display(description=_("tool call"), ordering="tool_call__created_at")
    def tool_call_link(self, obj: OutboxEntry) -> SafeString | str:
        return change_link(ToolCall, obj.tool_call_id, obj.tool_call.source_tool_call_id)

    @admin.display(description=_("payload"))
    def payload_json(self, obj: OutboxEntry) -> SafeString | str:
        return pretty_json(obj.payload)


# Events that only say the page was hidden or shown again (a screen lock, a tab in the background):
# many, and rarely what an operator looks for. The instance that returns to the foreground after
# one was ``suspended``, which only hiding the page does (runtime.services.lifecycle.set_visibility).
VISIBILITY_NOISE = Q(kind__in=["lifecycle.visibility", "instance.suspended"]) | Q(
    kind="instance.foreground", data__previous="suspended"
)


class VisibilityNoiseFilter(admin.SimpleListFilter):
    """Hide the visibility noise by default; one click shows every event."""

    title = _("page hidden / shown")
    parameter_name = "visibility"
    SHOW = "shown"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [(self.SHOW, _("show them too (all events)"))]

    def choices(self, changelist: ChangeList):
        yield {
            "selected": self.value() is None,
            "query_string": changelist.get_query_string(remove=[self.parameter_name]),
            "display": _("hidden (default)"),
        }
        yield {
            "selected": self.value() == self.SHOW,
            "query_string": changelist.get_query_string({self.parameter_name: self.SHOW}),
            "display": _("shown: all events"),
        }

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() == self.SHOW or request.GET.get("kind") or request.GET.get("kind__exact"):
            return queryset  # asked for a kind by name: show it, noise or not
        return queryset.exclude(VISIBILITY_NOISE)


@admin.register(LifecycleEvent)
class LifecycleEventAdmin(ReadOnlyAdmin):
    """The event log: append-only, newest first; its ids are plain values, linked where useful."""

    list_display = (
        "id",
        "at",
        "kind",
        "conversation",
        "source_tool_call_id",
        "operation",
        "instance",
        "app_session",
    )
    list_display_links = ("id", "kind")
    list_filter = (VisibilityNoiseFilter, "kind", ConversationFilter)
    search_fields = (
        "kind",
        "source_tool_call_id",
        "conversation_id__exact",
        "instance_id__exact",
        "app_session_id__exact",
        "operation_id__exact",
    )
    date_hierarchy = "at"
    ordering = ("-id",)
    show_full_result_count = False  # the log grows without bound; skip the unfiltered COUNT(*)
    exclude = ("data",)
    readonly_fields = ("data_json", "links")

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[LifecycleEvent], search_term: str
    ) -> tuple[QuerySet[LifecycleEvent], bool]:
        """The columns above, and the ids a settlement's one row keeps in its data (decision 0035):
        the app that came to the front (Interact, or the user's choice) and the interrupt's call id.
        Before that row folded them in, each had a row of its own with the id in a column."""
        searched, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        term = search_term.strip()
        if not term:
            return searched, may_have_duplicates
        in_data = Q(data__receipt__source_tool_call_id__icontains=term)
        try:
            in_data |= Q(data__foreground__instance_id=str(uuid.UUID(term)))
        except ValueError:
            pass  # not an instance id
        # ``queryset`` is already filtered by the sidebar: both halves keep those filters.
        return searched | queryset.filter(in_data), may_have_duplicates

    @admin.display(description=_("conversation"))
    def conversation(self, obj: LifecycleEvent) -> SafeString | str:
        if obj.conversation_id is None:
            return "-"
        url = changelist_url(LifecycleEvent, conversation_id=obj.conversation_id)
        return format_html(
            '<a href="{}" title="{}">{}</a>', url, _("only this conversation"), str(obj.conversation_id)[:8]
        )

    @admin.display(description=_("operation"))
    def operation(self, obj: LifecycleEvent) -> SafeString | str:
        return change_link(Operation, obj.operation_id, str(obj.operation_id)[:8]) if obj.operation_id else "-"

    @admin.display(description=_("instance"))
    def instance(self, obj: LifecycleEvent) -> SafeString | str:
        return change_link(AppInstance, obj.instance_id, str(obj.instance_id)[:8]) if obj.instance_id else "-"

    @admin.display(description=_("app session"))
    def app_session(self, obj: LifecycleEvent) -> SafeString | str:
        return change_link(AppSession, obj.app_session_id, str(obj.app_session_id)[:8]) if obj.app_session_id else "-"

    @admin.display(description=_("data"))
    def data_json(self, obj: LifecycleEvent) -> SafeString | str:
        return pretty_json(obj.data)

    @admin.display(description=_("objects"))
    def links(self, obj: LifecycleEvent) -> SafeString:
        return format_html(
            _("conversation: {} · instance: {} · app session: {} · operation: {}"),
            change_link(Conversation, obj.conversation_id),
            change_link(AppInstance, obj.instance_id),
            change_link(AppSession, obj.app_session_id),
            change_link(Operation, obj.operation_id),
        )
