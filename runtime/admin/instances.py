"""App instances, their sub-sessions and snapshots, as operators inspect them (read-only)."""

from __future__ import annotations

from django.contrib import admin
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from runtime.admin.common import (
    ConversationFilter,
    ReadOnlyAdmin,
    SnapshotConversationFilter,
    changelist_url,
    object_link,
    pretty_json,
)
from runtime.models import AppInstance, AppSession, InstanceSnapshot, LifecycleEvent, ToolCall
from runtime.transitions import InterruptionReason

# Why an instance was closed (``AppInstance.close_reason``), in the operator's language: the end of
# its operation (completed, or how it was interrupted), or a close with no operation running.
CLOSE_REASONS = {
    "completed": _("its operation completed"),
    **{reason.value: reason.label for reason in InterruptionReason},
    "closed_by_agent": _("closed by the Agent"),
    "closed_by_user": _("closed by the person"),
    "host_closed": _("closed with the host window"),
    "left": _("left after its operation ended"),
}


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
        "close_reason_display",
        "restored_at",
    )
    list_select_related = ("conversation",)
    list_filter = ("lifecycle_state", "app_id", "is_system", "close_reason", ConversationFilter)
    search_fields = ("id__exact", "conversation__id__exact")
    date_hierarchy = "opened_at"
    ordering = ("-opened_at",)
    readonly_fields = ("related",)

    @admin.display(description=_("close reason"), ordering="close_reason")
    def close_reason_display(self, obj: AppInstance) -> str:
        return str(CLOSE_REASONS.get(obj.close_reason, obj.close_reason)) or "-"

    @admin.display(description=_("related"))
    def related(self, obj: AppInstance) -> SafeString:
        return format_html(
            _('session: {} · operation: {} · snapshot: {} · <a href="{}">tool calls</a> · <a href="{}">events</a>'),
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

    @admin.display(description=_("instance"), ordering="instance__opened_at")
    def instance_link(self, obj: AppSession) -> SafeString | str:
        return object_link(obj.instance)

    @admin.display(description=_("operation"))
    def operation_link(self, obj: AppSession) -> SafeString | str:
        return object_link(getattr(obj, "operation", None))


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

    @admin.display(description=_("instance"), ordering="instance__opened_at")
    def instance_link(self, obj: InstanceSnapshot) -> SafeString | str:
        return object_link(obj.instance)

    @admin.display(description=_("lifecycle state"), ordering="instance__lifecycle_state")
    def instance_state(self, obj: InstanceSnapshot) -> str:
        return obj.instance.get_lifecycle_state_display()

    @admin.display(description=_("state"))
    def state_json(self, obj: InstanceSnapshot) -> SafeString | str:
        return pretty_json(obj.state)
