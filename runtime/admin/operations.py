"""Tool calls and deadline operations, with the operators' two commands on operations.

"Settle selected due operations" is an action over ``settle_operation`` with the ``deadline``
trigger; "Run the recovery sweep now" is a button (``runtime.admin.recovery``). Both only do what
the beat sweep would do anyway, but they write (terminal states, outbox entries, events), so they
need the ``runtime.settle_operations`` permission, not just the view one: viewing operations shows
the sweep's dry run only.

Both are explicit retries: an operation whose settlement failed (decision 0011) is tried again at
once, even when it is flagged for an operator; the "needs an operator" filter lists those.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import DurationField, ExpressionWrapper, F, QuerySet
from django.http import HttpRequest
from django.urls import path
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from runtime.admin import recovery
from runtime.admin.common import ConversationFilter, ReadOnlyAdmin, object_link, pretty_json
from runtime.admin.incident import InterruptActionMixin, retry_flagged
from runtime.manifests import running_label_of
from runtime.miniapps import detail_label, redact_private
from runtime.models import LifecycleEvent, Operation, ToolCall
from runtime.services.recovery import SettleFailure, settle_isolated
from runtime.transitions import RUNNING_STATES, NotDue, OperationState, is_running

SHORT_DETAIL = 80  # characters of one detail's value the list shows
SECONDS = _("%(seconds)s s")  # a duration, with the unit as the operator's language writes it


def _short(value: object) -> str:
    text = str(value)
    return text if len(text) <= SHORT_DETAIL else text[: SHORT_DETAIL - 1] + "…"


class NeedsOperatorFilter(admin.SimpleListFilter):
    """Running operations whose settlement keeps failing (decision 0011)."""

    title = _("needs an operator")
    parameter_name = "needs_operator"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [("flagged", _("flagged: settlement failed too often")), ("retrying", _("settlement failed, retrying"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        failing = queryset.filter(state__in=RUNNING_STATES, settle_failures__gt=0)
        if self.value() == "flagged":
            return failing.filter(settle_flagged_at__isnull=False)
        if self.value() == "retrying":
            return failing.filter(settle_flagged_at__isnull=True)
        return queryset


class DeadlineFilter(admin.SimpleListFilter):
    """Running operations by their end time: still running, or past it and not yet settled."""

    title = _("end time")
    parameter_name = "deadline"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [("running", _("running, end time still ahead")), ("due", _("end time passed, not settled yet"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        running = queryset.filter(state__in=RUNNING_STATES)
        if self.value() == "running":
            return running.filter(ends_at__gt=timezone.now())
        if self.value() == "due":
            return running.filter(ends_at__lte=timezone.now())
        return queryset


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

    @admin.display(description=_("instance"), ordering="instance__opened_at")
    def instance_link(self, obj: ToolCall) -> SafeString | str:
        return object_link(obj.instance)

    @admin.display(description=_("arguments"))
    def arguments_json(self, obj: ToolCall) -> SafeString | str:
        return pretty_json(obj.arguments)

    @admin.display(description=_("receipt"))
    def receipt_json(self, obj: ToolCall) -> SafeString | str:
        return pretty_json(obj.receipt)

    @admin.display(description=_("result"))
    def result_json(self, obj: ToolCall) -> SafeString | str:
        return pretty_json(obj.result)

    @admin.display(description=_("operation"))
    def operation_link(self, obj: ToolCall) -> SafeString | str:
        return object_link(getattr(obj, "operation", None))

    @admin.display(description=_("outbox entry"))
    def outbox_link(self, obj: ToolCall) -> SafeString | str:
        return object_link(getattr(obj, "outbox_entry", None))


def ended_how(operation: Operation) -> str:
    """Who ended it, how and why ("Interrupted by the operator alice …"), in the admin's language."""
    if is_running(operation.state):
        return str(_("still running"))
    if operation.state == OperationState.COMPLETED:
        return str(_("Completed at its end time."))
    reason = operation.interruption_reason
    if reason == "operator":
        event = (
            LifecycleEvent.objects.filter(operation_id=operation.pk, kind="operator.interrupt").order_by("-id").first()
        )
        if event is not None:
            return str(_("Interrupted by the operator %(operator)s. Reason given: “%(reason)s”.")) % {
                "operator": event.data.get("operator", "?"),
                "reason": event.data.get("reason", ""),
            }
        return str(_("Interrupted by an operator."))
    if reason == "agent_interrupt":
        # The stop call settled it in its own transaction: it finished at the operation's end.
        stop = (
            ToolCall.objects.filter(conversation_id=operation.conversation_id, finished_at=operation.ended_at)
            .exclude(pk=operation.tool_call_id)
            .first()
        )
        if stop is not None:
            return str(_("Stopped by an Agent (%(caller)s) with the tool call %(call)s.")) % {
                "caller": stop.caller,
                "call": stop.source_tool_call_id,
            }
        return str(_("Stopped by an Agent."))
    if reason in ("returned_to_interact", "switched_app", "app_closed"):
        return str(_("Ended by the person: %(how)s.")) % {"how": operation.get_interruption_reason_display()}
    return str(_("Interrupted: %(how)s.")) % {"how": operation.get_interruption_reason_display() if reason else "?"}


@admin.register(Operation)
class OperationAdmin(InterruptActionMixin, ReadOnlyAdmin):
    """Deadline operations, with the two operator commands (see the module docstring).

    "Run the recovery sweep now" is a button (``recover/``) rather than an action: Django runs an
    action only on a non-empty selection, and recovery is about every due operation, including
    those on no page. Its GET page shows the dry run; its POST runs ``recover_runtime``.
    """

    change_list_template = "admin/runtime/operation/change_list.html"
    # Eight columns so the list fits a 1280 px page in English and Chinese: the id is cut to its first
    # characters (whole on the detail page, and searchable), state and reason share a column, and
    # the four times stack in one. The tool call id is on the detail page and in the search.
    list_display = (
        "short_id",
        "state_display",
        "conversation_link",
        "app_id",
        "details_display",
        "times_display",
        "settlement_lag",
        "settle_failures_display",
    )
    list_display_links = ("short_id",)
    list_select_related = ("conversation",)
    list_filter = ("state", DeadlineFilter, NeedsOperatorFilter, "interruption_reason", ConversationFilter)
    # The activity lives in the app's own details since operations are generic (any MiniApp's).
    search_fields = (
        "source_tool_call_id",
        "details__activity",
        "id__exact",
        "instance__id__exact",
        "conversation__id__exact",
        # The person's user name (issue 40): what an operator is told when someone asks for help.
        "conversation__owner__username",
    )
    date_hierarchy = "started_at"
    ordering = ("-started_at",)
    # The details through ``details_json``: a MiniApp's private ones masked (runtime.miniapps).
    exclude = ("details",)
    readonly_fields = ("details_json", "ended_how", "outbox_link")
    # The incident actions (interrupt with a reason, retry flagged): runtime.admin.incident.
    actions = ("settle_due_operations", "retry_flagged_operations", "interrupt_running_operations")

    def running_operations(self, queryset: QuerySet[Operation]) -> QuerySet[Operation]:
        return queryset

    @admin.action(permissions=["settle"], description=_("Retry flagged operations now (settlement failed too often)"))
    def retry_flagged_operations(self, request: HttpRequest, queryset: QuerySet[Operation]) -> None:
        retry_flagged(self, request, queryset)

    @admin.display(description=_("outbox entry"))
    def outbox_link(self, obj: Operation) -> SafeString | str:
        return object_link(getattr(obj, "outbox_entry", None))

    @admin.display(description=_("details"))
    def details_json(self, obj: Operation) -> SafeString | str:
        return pretty_json(obj.details)

    @admin.display(description=_("how it ended"))
    def ended_how(self, obj: Operation) -> str:
        """Who ended it, how and why, from the event log (the operation's row keeps only the reason)."""
        return ended_how(obj)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Operation]:
        lag = ExpressionWrapper(F("settled_at") - F("ends_at"), output_field=DurationField())
        return super().get_queryset(request).annotate(lag=lag)

    @admin.display(description=_("ID"), ordering="id")
    def short_id(self, obj: Operation) -> str:
        return f"{str(obj.pk)[:8]}…"

    @admin.display(description=_("state"), ordering="state")
    def state_display(self, obj: Operation) -> str:
        if is_running(obj.state):  # in the app's own word (its running_label), translated
            return gettext(running_label_of(obj.app_id))
        if obj.interruption_reason:
            return str(_("%(state)s (%(reason)s)")) % {
                "state": obj.get_state_display(),
                "reason": obj.get_interruption_reason_display(),
            }
        return str(obj.get_state_display())

    @admin.display(description=_("times"), ordering="started_at")
    def times_display(self, obj: Operation) -> SafeString:
        """Started, end time, ended and settled, one per line, to the second; then the duration."""
        lines = [
            (_("started"), obj.started_at),
            (_("ends"), obj.ends_at),
            (_("ended"), obj.ended_at),
            (_("settled"), obj.settled_at),
        ]
        times = format_html_join(
            mark_safe("<br>"),
            '<span class="nowrap">{} {}</span>',  # the admin's own class: a time never splits
            ((label, f"{timezone.localtime(when):%Y-%m-%d %H:%M:%S}") for label, when in lines if when),
        )
        # The duration on a line of its own: after the end time it made the column too wide.
        return format_html("{}<br>{} {}", times, _("duration"), self.duration_display(obj))

    @admin.display(description=_("details"))
    def details_display(self, obj: Operation) -> str:
        """The app's own details (e.g. what the person is doing), as short text.

        Keys the app registered as private (a quiz's answer key) are masked, and long values are
        cut, so the list neither shows them nor outgrows the page.
        """
        # Masked in the list whoever looks (a list is seen over a shoulder); on the detail page only
        # for staff without runtime.view_private_details. A detail the app left empty is not shown;
        # each key by the name its app gave it, in the operator's language.
        listed = [(key, value) for key, value in sorted(redact_private(obj.details or {}).items()) if value is not None]
        if not listed:
            return "-"
        separator = _("%(label)s: %(value)s")
        return "; ".join(
            str(separator) % {"label": detail_label(obj.app_id, key), "value": _short(value)} for key, value in listed
        )

    @admin.display(description=_("duration"))
    def duration_display(self, obj: Operation) -> str:
        return str(SECONDS) % {"seconds": round((obj.ends_at - obj.started_at).total_seconds())}

    @admin.display(description=_("settlement lag"), ordering="lag")
    def settlement_lag(self, obj: Operation) -> str:
        """How long after its end time a completed focus was recorded as completed (settled_at - ends_at).

        An interrupted focus ended before its end time: it has no lag.
        """
        if obj.state != OperationState.COMPLETED or obj.settled_at is None:
            return "-"
        return str(SECONDS) % {"seconds": f"{(obj.settled_at - obj.ends_at).total_seconds():.1f}"}

    @admin.display(description=_("settle failures"), ordering="settle_failures")
    def settle_failures_display(self, obj: Operation) -> str:
        if not obj.settle_failures:
            return "-"
        if not is_running(obj.state):
            return _("%(n)d (settled since)") % {"n": obj.settle_failures}
        if obj.settle_flagged_at is not None:
            return _("%(n)d · NEEDS AN OPERATOR") % {"n": obj.settle_failures}
        return _("%(n)d · retry after %(at)s") % {
            "n": obj.settle_failures,
            "at": f"{obj.next_settle_attempt_at:%Y-%m-%d %H:%M:%S}",
        }

    def has_settle_permission(self, request: HttpRequest) -> bool:
        # A custom permission rather than "change": has_change_permission is False for everyone
        # (no hand edits, see ReadOnlyAdmin), and granting "change" would mean something else.
        return request.user.has_perm(f"{self.opts.app_label}.settle_operations")

    @admin.action(permissions=["settle"], description=_("Settle selected due operations (deadline)"))
    def settle_due_operations(self, request: HttpRequest, queryset: QuerySet[Operation]) -> None:
        now = timezone.now()
        selected = dict(queryset.values_list("id", "state"))
        # Only running ones are asked; the service re-decides under the lock, so a row that
        # settled meanwhile is simply AlreadyFinal there. An explicit retry: backoff and flag
        # do not hold it back, and one that fails again is counted, not raised.
        outcomes = [settle_isolated(operation_id=pk, now=now) for pk, state in selected.items() if is_running(state)]
        failed = [outcome for outcome in outcomes if isinstance(outcome, SettleFailure)]
        done = [outcome for outcome in outcomes if not isinstance(outcome, SettleFailure)]
        settled = sum(outcome.settled for outcome in done)
        not_due = sum(isinstance(outcome.decision, NotDue) for outcome in done)
        already_final = len(selected) - settled - not_due - len(failed)
        text = ngettext("Settled %(n)d due operation", "Settled %(n)d due operations", settled) % {"n": settled}
        text += _("; %(not_due)d not due yet; %(final)d already final.") % {"not_due": not_due, "final": already_final}
        if failed:
            text += _(" %(n)d failed again: ") % {"n": len(failed)} + "; ".join(
                f"{f.operation_id}: {f.error}" for f in failed
            )
        level = messages.ERROR if failed else messages.SUCCESS if settled else messages.INFO
        self.message_user(request, text, level)

    def get_urls(self) -> list:
        view = self.admin_site.admin_view(lambda request: recovery.recover_view(self, request))
        return [path("recover/", view, name="runtime_operation_recover"), *super().get_urls()]
