"""The operator's view of the Runtime: inspect everything, change nothing by hand.

Every Runtime model is read-only here (no add, change or delete, even for a superuser): each
row is one side of an invariant the services keep under the workspace lock — a hand-edited
state, a deleted outbox entry or a forged tool call would break them. State changes go through
``runtime.services``, and the two operator commands on the Operation changelist are thin
adapters over those services: "Run the recovery sweep now" (``recover_runtime``) and the
"settle selected due operations" action (``settle_operation`` with the ``deadline`` trigger).
Both only do what the beat sweep would do anyway, but they write (terminal states, outbox entries,
events), so they need the ``runtime.settle_operations`` permission, not just the view one: viewing
operations shows the sweep's dry run only.
"""

from __future__ import annotations

import json
import uuid
from typing import Any
from urllib.parse import urlencode

from django.contrib import admin, messages
from django.contrib.admin.options import IncorrectLookupParameters
from django.core.exceptions import PermissionDenied
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from interact.models import Conversation
from runtime.models import (
    AppInstance,
    AppSession,
    InstanceSnapshot,
    LifecycleEvent,
    Operation,
    OutboxEntry,
    ToolCall,
    Workspace,
)
from runtime.services.focus import settle_operation
from runtime.services.recovery import recover_runtime
from runtime.transitions import LifecycleState, NotDue, OperationState, Trigger

admin.site.site_header = "LineUp operations"
admin.site.site_title = "LineUp admin"

# How many conversations the conversation filter offers in its sidebar; any other one is still
# reachable through ``?conversation_id=<uuid>`` (the links on a conversation's page).
CONVERSATION_FILTER_CHOICES = 20


# --- rendering helpers ------------------------------------------------------------------------


def change_link(model: type[Model], pk: object, text: object | None = None) -> SafeString | str:
    """A link to the admin page of ``model`` row ``pk`` (it may no longer exist: events outlive rows)."""
    if pk is None:
        return "-"
    url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_change", args=[pk])
    return format_html('<a href="{}">{}</a>', url, text if text is not None else pk)


def object_link(obj: Model | None) -> SafeString | str:
    return "-" if obj is None else change_link(type(obj), obj.pk, obj)


def changelist_url(model: type[Model], **params: object) -> str:
    url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
    return f"{url}?{urlencode(params)}" if params else url


def conversation_label(conversation: Conversation) -> str:
    return f"{conversation.title} · {str(conversation.pk)[:8]}"


def pretty_json(value: Any) -> SafeString | str:
    if value is None:
        return "-"
    text = json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False)
    return format_html('<pre style="margin:0;white-space:pre-wrap">{}</pre>', text)


# --- filters ----------------------------------------------------------------------------------


class ConversationFilter(admin.SimpleListFilter):
    """Filter by conversation through ``?conversation_id=<uuid>``, on any path to it.

    The sidebar offers the most recent conversations (a full list would not scale); the
    selected one is always among the choices so the filter stays visible and removable.
    """

    title = "conversation"
    parameter_name = "conversation_id"
    field_path = "conversation_id"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        recent = Conversation.objects.order_by("-created_at")[:CONVERSATION_FILTER_CHOICES]
        choices = [(str(c.pk), conversation_label(c)) for c in recent]
        selected = self._selected()
        if selected is not None and str(selected) not in dict(choices):
            match = Conversation.objects.filter(pk=selected).first()
            choices.append((str(selected), conversation_label(match) if match else str(selected)))
        return choices

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        selected = self._selected()
        return queryset if selected is None else queryset.filter(**{self.field_path: selected})

    def _selected(self) -> uuid.UUID | None:
        value = self.value()
        if not value:
            return None
        try:
            return uuid.UUID(value)
        except ValueError as error:  # the changelist answers a bad filter with its "?e=1" page
            raise IncorrectLookupParameters(error) from error


class SnapshotConversationFilter(ConversationFilter):
    field_path = "instance__conversation_id"


class AckedFilter(admin.SimpleListFilter):
    title = "delivery"
    parameter_name = "acked"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [("no", "waiting for ack"), ("yes", "acked")]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() in ("yes", "no"):
            return queryset.filter(acked_at__isnull=self.value() == "no")
        return queryset


# --- base -------------------------------------------------------------------------------------


class ReadOnlyAdmin(admin.ModelAdmin):
    """Inspect only: Runtime rows change through ``runtime.services``, never by hand."""

    list_per_page = 50

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    @admin.display(description="conversation", ordering="conversation__created_at")
    def conversation_link(self, obj: Model) -> SafeString | str:
        conversation = obj.conversation
        return change_link(Conversation, conversation.pk, conversation_label(conversation))


# --- models -----------------------------------------------------------------------------------


@admin.register(Workspace)
class WorkspaceAdmin(ReadOnlyAdmin):
    list_display = ("conversation_link", "focus_seq", "updated_at")
    list_select_related = ("conversation",)
    list_filter = (ConversationFilter,)
    search_fields = ("conversation__id__exact",)
    readonly_fields = ("open_instances",)

    @admin.display(description="open instances (focus stack, newest first)")
    def open_instances(self, obj: Workspace) -> SafeString | str:
        instances = AppInstance.objects.filter(conversation_id=obj.pk).exclude(lifecycle_state=LifecycleState.CLOSED)
        rows = [(change_link(AppInstance, i.pk, i), i.focus_seq) for i in instances.order_by("-focus_seq")]
        return format_html_join(mark_safe("<br>"), "{} (focus_seq {})", rows) or "-"


@admin.register(AppInstance)
class AppInstanceAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "app_id",
        "conversation_link",
        "lifecycle_state",
        "is_system",
        "focus_seq",
        "opened_at",
        "closed_at",
        "close_reason",
        "restored_at",
    )
    list_select_related = ("conversation",)
    list_filter = ("lifecycle_state", "app_id", "is_system", "close_reason", ConversationFilter)
    search_fields = ("id__exact", "conversation__id__exact")
    date_hierarchy = "opened_at"
    ordering = ("-opened_at",)
    readonly_fields = ("related",)

    @admin.display(description="related")
    def related(self, obj: AppInstance) -> SafeString:
        return format_html(
            'session: {} · operation: {} · snapshot: {} · <a href="{}">tool calls</a> · <a href="{}">events</a>',
            object_link(getattr(obj, "app_session", None)),
            object_link(getattr(obj, "operation", None)),
            object_link(getattr(obj, "snapshot", None)),
            changelist_url(ToolCall, instance__id__exact=obj.pk),
            # Events carry plain ids, not foreign keys: the log's search finds them.
            changelist_url(LifecycleEvent, q=obj.pk),
        )


@admin.register(AppSession)
class AppSessionAdmin(ReadOnlyAdmin):
    list_display = ("id", "conversation_link", "instance_link", "state", "opened_at", "ended_at")
    list_select_related = ("conversation", "instance")
    list_filter = ("state", ConversationFilter)
    search_fields = ("id__exact", "instance__id__exact", "conversation__id__exact")
    date_hierarchy = "opened_at"
    ordering = ("-opened_at",)
    readonly_fields = ("operation_link",)

    @admin.display(description="instance", ordering="instance__opened_at")
    def instance_link(self, obj: AppSession) -> SafeString | str:
        return object_link(obj.instance)

    @admin.display(description="operation")
    def operation_link(self, obj: AppSession) -> SafeString | str:
        return object_link(getattr(obj, "operation", None))


@admin.register(ToolCall)
class ToolCallAdmin(ReadOnlyAdmin):
    list_display = (
        "source_tool_call_id",
        "tool",
        "status",
        "cancel_reason",
        "conversation_link",
        "instance_link",
        "caller",
        "created_at",
        "finished_at",
    )
    list_select_related = ("conversation", "instance")
    list_filter = ("status", "tool", "cancel_reason", ConversationFilter)
    search_fields = ("source_tool_call_id", "id__exact", "instance__id__exact", "conversation__id__exact")
    date_hierarchy = "created_at"
    ordering = ("-created_at",)
    exclude = ("arguments", "receipt", "result")
    readonly_fields = ("arguments_json", "receipt_json", "result_json", "operation_link", "outbox_link")

    @admin.display(description="instance", ordering="instance__opened_at")
    def instance_link(self, obj: ToolCall) -> SafeString | str:
        return object_link(obj.instance)

    @admin.display(description="arguments")
    def arguments_json(self, obj: ToolCall) -> SafeString | str:
        return pretty_json(obj.arguments)

    @admin.display(description="receipt")
    def receipt_json(self, obj: ToolCall) -> SafeString | str:
        return pretty_json(obj.receipt)

    @admin.display(description="result")
    def result_json(self, obj: ToolCall) -> SafeString | str:
        return pretty_json(obj.result)

    @admin.display(description="operation")
    def operation_link(self, obj: ToolCall) -> SafeString | str:
        return object_link(getattr(obj, "operation", None))

    @admin.display(description="outbox entry")
    def outbox_link(self, obj: ToolCall) -> SafeString | str:
        return object_link(getattr(obj, "outbox_entry", None))


@admin.register(Operation)
class OperationAdmin(ReadOnlyAdmin):
    """Deadline operations, with the two operator commands (see the module docstring).

    "Run the recovery sweep now" is a button (``recover/``) rather than an action: Django runs an
    action only on a non-empty selection, and recovery is about every due operation, including
    those on no page. Its GET page shows the dry run; its POST runs ``recover_runtime``.
    """

    change_list_template = "admin/runtime/operation/change_list.html"
    list_display = (
        "id",
        "state",
        "interruption_reason",
        "conversation_link",
        "source_tool_call_id",
        "activity",
        "duration_seconds",
        "started_at",
        "ends_at",
        "ended_at",
        "settled_at",
    )
    list_select_related = ("conversation",)
    list_filter = ("state", "interruption_reason", ConversationFilter)
    search_fields = ("source_tool_call_id", "id__exact", "instance__id__exact", "conversation__id__exact")
    date_hierarchy = "started_at"
    ordering = ("-started_at",)
    readonly_fields = ("outbox_link",)
    actions = ("settle_due_operations",)

    @admin.display(description="outbox entry")
    def outbox_link(self, obj: Operation) -> SafeString | str:
        return object_link(getattr(obj, "outbox_entry", None))

    def has_settle_permission(self, request: HttpRequest) -> bool:
        # A custom permission rather than "change": has_change_permission is False for everyone
        # (no hand edits, see ReadOnlyAdmin), and granting "change" would mean something else.
        return request.user.has_perm(f"{self.opts.app_label}.settle_operations")

    @admin.action(permissions=["settle"], description="Settle selected due operations (deadline)")
    def settle_due_operations(self, request: HttpRequest, queryset: QuerySet[Operation]) -> None:
        now = timezone.now()
        selected = dict(queryset.values_list("id", "state"))
        # Only focusing ones are asked; the service re-decides under the lock, so a row that
        # settled meanwhile is simply AlreadyFinal there.
        outcomes = [
            settle_operation(operation_id=pk, trigger=Trigger.DEADLINE, now=now)
            for pk, state in selected.items()
            if state == OperationState.FOCUSING
        ]
        settled = sum(outcome.settled for outcome in outcomes)
        not_due = sum(isinstance(outcome.decision, NotDue) for outcome in outcomes)
        self.message_user(
            request,
            f"Settled {settled} due operation(s); {not_due} not due yet; "
            f"{len(selected) - settled - not_due} already final.",
            messages.SUCCESS if settled else messages.INFO,
        )

    def get_urls(self) -> list:
        recover = path("recover/", self.admin_site.admin_view(self.recover_view), name="runtime_operation_recover")
        return [recover, *super().get_urls()]

    def recover_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        can_settle = self.has_settle_permission(request)
        if request.method == "POST":
            if not can_settle:
                raise PermissionDenied
            counts = recover_runtime(now=timezone.now()).counts()
            self.message_user(
                request,
                "Recovery sweep ran: settled {settled}, resumed {resumed}, unacked outbox {unacked_outbox}.".format(
                    **counts
                ),
                messages.SUCCESS,
            )
            return redirect("admin:runtime_operation_changelist")
        preview = recover_runtime(now=timezone.now(), dry_run=True)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": "Run the recovery sweep",
            "preview": preview,
            "can_settle": can_settle,
        }
        return TemplateResponse(request, "admin/runtime/operation/recover.html", context)


@admin.register(InstanceSnapshot)
class InstanceSnapshotAdmin(ReadOnlyAdmin):
    list_display = ("instance_link", "instance_state", "schema_version", "revision", "size_bytes", "updated_at")
    list_select_related = ("instance",)
    list_filter = ("instance__lifecycle_state", "instance__app_id", SnapshotConversationFilter)
    search_fields = ("instance__id__exact", "instance__conversation__id__exact")
    date_hierarchy = "updated_at"
    ordering = ("-updated_at",)
    exclude = ("state",)
    readonly_fields = ("state_json",)

    @admin.display(description="instance", ordering="instance__opened_at")
    def instance_link(self, obj: InstanceSnapshot) -> SafeString | str:
        return object_link(obj.instance)

    @admin.display(description="lifecycle state", ordering="instance__lifecycle_state")
    def instance_state(self, obj: InstanceSnapshot) -> str:
        return obj.instance.lifecycle_state

    @admin.display(description="state")
    def state_json(self, obj: InstanceSnapshot) -> SafeString | str:
        return pretty_json(obj.state)


@admin.register(OutboxEntry)
class OutboxEntryAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "conversation_link",
        "operation_link",
        "tool_call_link",
        "created_at",
        "attempts",
        "last_attempt_at",
        "acked_at",
    )
    list_select_related = ("conversation", "operation", "tool_call")
    list_filter = (AckedFilter, ConversationFilter)
    search_fields = ("id__exact", "operation__id__exact", "tool_call__source_tool_call_id", "conversation__id__exact")
    date_hierarchy = "created_at"
    ordering = ("-created_at",)
    exclude = ("payload",)
    readonly_fields = ("payload_json",)

    @admin.display(description="operation", ordering="operation__started_at")
    def operation_link(self, obj: OutboxEntry) -> SafeString | str:
        return object_link(obj.operation)

    @admin.display(description="tool call", ordering="tool_call__created_at")
    def tool_call_link(self, obj: OutboxEntry) -> SafeString | str:
        return change_link(ToolCall, obj.tool_call_id, obj.tool_call.source_tool_call_id)

    @admin.display(description="payload")
    def payload_json(self, obj: OutboxEntry) -> SafeString | str:
        return pretty_json(obj.payload)


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
    list_filter = ("kind", ConversationFilter)
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

    @admin.display(description="conversation")
    def conversation(self, obj: LifecycleEvent) -> SafeString | str:
        if obj.conversation_id is None:
            return "-"
        url = changelist_url(LifecycleEvent, conversation_id=obj.conversation_id)
        return format_html('<a href="{}" title="only this conversation">{}</a>', url, str(obj.conversation_id)[:8])

    @admin.display(description="operation")
    def operation(self, obj: LifecycleEvent) -> SafeString | str:
        return change_link(Operation, obj.operation_id, str(obj.operation_id)[:8]) if obj.operation_id else "-"

    @admin.display(description="instance")
    def instance(self, obj: LifecycleEvent) -> SafeString | str:
        return change_link(AppInstance, obj.instance_id, str(obj.instance_id)[:8]) if obj.instance_id else "-"

    @admin.display(description="app session")
    def app_session(self, obj: LifecycleEvent) -> SafeString | str:
        return change_link(AppSession, obj.app_session_id, str(obj.app_session_id)[:8]) if obj.app_session_id else "-"

    @admin.display(description="data")
    def data_json(self, obj: LifecycleEvent) -> SafeString | str:
        return pretty_json(obj.data)

    @admin.display(description="objects")
    def links(self, obj: LifecycleEvent) -> SafeString:
        return format_html(
            "conversation: {} · instance: {} · app session: {} · operation: {}",
            change_link(Conversation, obj.conversation_id),
            change_link(AppInstance, obj.instance_id),
            change_link(AppSession, obj.app_session_id),
            change_link(Operation, obj.operation_id),
        )
