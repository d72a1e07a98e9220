"""The operator's incident actions: interrupt running operations with a reason, retry flagged ones.

"Interrupt running operations…" is offered on the Operation, Conversation and User lists (select
rows → action): it gathers the selection's running operations (those rows; the conversations'; the
users' conversations'), shows them on a confirmation page, as Django's delete action does, and
runs only when the operator has typed a reason. Each one is settled by
``runtime.services.interrupts.interrupt_for_operator``, the Agent interrupt's settlement with the
trigger ``operator``: each start call's Agent gets its one result as usual, and the event log
keeps who did it and why (``operator.interrupt``).

"Retry flagged operations now" (Operation list) retries the settlement of the selected operations
that poison isolation flagged for an operator (decision 0011), each through ``settle_isolated``
like the sweep, after an ``operator.retry`` event naming who asked.

Both need ``runtime.interrupt_operations`` resp. ``runtime.settle_operations``, not just "view".
"""

from __future__ import annotations

from dataclasses import dataclass, field

import structlog
from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from runtime.events import record_event
from runtime.models import Operation
from runtime.services.interrupts import interrupt_for_operator
from runtime.services.recovery import SettleFailure, settle_isolated
from runtime.transitions import RUNNING_STATES, NotDue, OperationState

logger = structlog.get_logger("lineup.admin")

INTERRUPT_PERMISSION = "runtime.interrupt_operations"
REASON_MAX_LENGTH = 500


class InterruptReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=REASON_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=_("Kept in the event log with your username. The Agent's result only says the operator ended it."),
    )


@dataclass
class InterruptCounts:
    interrupted: int = 0
    completed: int = 0  # its end time had passed: it settles completed, as any late interrupt does
    already_final: int = 0  # settled by something else between the page and the click
    failed: list[str] = field(default_factory=list)


def interrupt_operations(operation_ids: list, *, operator: str, reason: str) -> InterruptCounts:
    """One decision per operation (each under its own workspace lock), counted by what it did."""
    counts = InterruptCounts()
    for operation_id in operation_ids:
        try:
            outcome = interrupt_for_operator(
                operation_id=operation_id, operator=operator, reason=reason, now=timezone.now()
            )
        except Operation.DoesNotExist:  # gone with its conversation: nothing left to end
            counts.already_final += 1
            continue
        except Exception as error:  # one bad settlement must not hide what happened to the others
            logger.exception("operator.interrupt_failed", operation_id=str(operation_id), operator=operator)
            counts.failed.append(f"{operation_id}: {type(error).__name__}: {error}")
            continue
        if not outcome.settled:
            counts.already_final += 1
        elif outcome.decision.state == OperationState.INTERRUPTED:
            counts.interrupted += 1
        else:
            counts.completed += 1
    return counts


def _report(model_admin: admin.ModelAdmin, request: HttpRequest, counts: InterruptCounts) -> None:
    text = ngettext(
        "Interrupted %(n)d running operation", "Interrupted %(n)d running operations", counts.interrupted
    ) % {"n": counts.interrupted}
    text += _("; %(completed)d had reached their end time (completed); %(final)d already final.") % {
        "completed": counts.completed,
        "final": counts.already_final,
    }
    if counts.failed:
        text += " " + ngettext("%(n)d failed:", "%(n)d failed:", len(counts.failed)) % {"n": len(counts.failed)}
        text += " " + "; ".join(counts.failed)
    level = messages.ERROR if counts.failed else messages.SUCCESS if counts.interrupted else messages.INFO
    model_admin.message_user(request, text, level)


class InterruptActionMixin:
    """``interrupt_running_operations`` for a ModelAdmin whose rows lead to operations.

    A subclass says which running operations its selected rows stand for (``running_operations``)
    and lists the action in its ``actions``.
    """

    def running_operations(self, queryset: QuerySet) -> QuerySet[Operation]:
        raise NotImplementedError

    def has_interrupt_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(INTERRUPT_PERMISSION)

    @admin.action(permissions=["interrupt"], description=_("Interrupt running operations (with a reason)…"))
    def interrupt_running_operations(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        assert isinstance(self, admin.ModelAdmin)
        running = self.running_operations(queryset).filter(state__in=RUNNING_STATES)
        form = InterruptReasonForm(request.POST if request.POST.get("post") else None)
        if form.is_bound and form.is_valid():
            ids = list(running.order_by("started_at").values_list("id", flat=True))
            counts = interrupt_operations(ids, operator=request.user.get_username(), reason=form.cleaned_data["reason"])
            _report(self, request, counts)
            return None  # back to the changelist, as after any action
        # The confirmation page: shown first, and again (with the form's error) without a reason.
        context = {
            **self.admin_site.each_context(request),
            "title": _("Interrupt running operations"),
            "opts": self.opts,
            "form": form,
            "queryset": queryset,
            "operations": running.select_related("conversation", "conversation__owner").order_by("started_at"),
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "action": "interrupt_running_operations",
            "media": self.media,
        }
        request.current_app = self.admin_site.name
        return TemplateResponse(request, "admin/runtime/interrupt_confirmation.html", context)


# --- the retry of flagged settlements (Operation list) -------------------------------------------


def retry_flagged(model_admin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Operation]) -> None:
    """Retry each selected flagged operation now; the others in the selection are left alone."""
    flagged = list(
        queryset.filter(state__in=RUNNING_STATES, settle_flagged_at__isnull=False).values_list(
            "id", "conversation_id", "settle_failures"
        )
    )
    operator = request.user.get_username()
    settled = not_due = final = 0
    failed: list[SettleFailure] = []
    for operation_id, conversation_id, failures in flagged:
        now = timezone.now()
        # Who asked, before the attempt: its own events (operation.completed, settlement.failed) follow.
        record_event(
            "operator.retry",
            at=now,
            operator=operator,
            failures=failures,
            conversation_id=conversation_id,
            operation_id=operation_id,
        )
        outcome = settle_isolated(operation_id=operation_id, now=now)
        if isinstance(outcome, SettleFailure):
            failed.append(outcome)
        elif outcome.settled:
            settled += 1
        elif isinstance(outcome.decision, NotDue):
            not_due += 1
        else:
            final += 1
    skipped = queryset.count() - len(flagged)
    text = ngettext(
        "Retried %(n)d flagged operation: %(settled)d settled",
        "Retried %(n)d flagged operations: %(settled)d settled",
        len(flagged),
    ) % {"n": len(flagged), "settled": settled}
    text += _(
        ", %(failed)d failed again, %(not_due)d not due, %(final)d already final; %(skipped)d not flagged, left alone."
    ) % {
        "failed": len(failed),
        "not_due": not_due,
        "final": final,
        "skipped": skipped,
    }
    if failed:
        text += " " + "; ".join(f"{f.operation_id}: {f.error}" for f in failed)
    level = messages.ERROR if failed else messages.SUCCESS if settled else messages.INFO
    model_admin.message_user(request, text, level)


# --- the User list ---------------------------------------------------------------------------------

User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class OperatorUserAdmin(InterruptActionMixin, UserAdmin):
    """Django's user admin, plus the incident action over the users' conversations."""

    actions = ("interrupt_running_operations",)

    def running_operations(self, queryset: QuerySet) -> QuerySet[Operation]:
        return Operation.objects.filter(conversation__owner__in=queryset)
