"""The "Run the recovery sweep now" page on the Operation changelist.

A button rather than an action: Django runs an action only on a non-empty selection, and recovery
is about every due operation, including those on no page. Viewing shows the dry run; running it
writes (terminal states, outbox entries, events), so it needs ``runtime.settle_operations``.
"""

from __future__ import annotations

from typing import Protocol

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from runtime.services.recovery import recover_runtime


class SettlingAdmin(Protocol):
    """What the page needs of the admin that shows it (``runtime.admin.operations.OperationAdmin``,
    which imports this module: named here by what it does, not imported back)."""

    admin_site: admin.AdminSite
    opts: object

    def has_view_permission(self, request: HttpRequest, obj: object = None) -> bool: ...

    def has_settle_permission(self, request: HttpRequest) -> bool: ...

    def message_user(self, request: HttpRequest, message: str, level: int = ...) -> None: ...


def recover_view(model_admin: SettlingAdmin, request: HttpRequest) -> HttpResponse:
    """GET: the sweep's dry run; POST (with ``runtime.settle_operations``): run ``recover_runtime``."""
    if not model_admin.has_view_permission(request):
        raise PermissionDenied
    can_settle = model_admin.has_settle_permission(request)
    if request.method == "POST":
        if not can_settle:
            raise PermissionDenied
        counts = recover_runtime(now=timezone.now()).counts()
        model_admin.message_user(
            request,
            _(
                "Recovery sweep ran: settled %(settled)d, failed %(failed)d, flagged %(flagged)d, resumed %(resumed)d, "
                "unacked outbox %(unacked_outbox)d."
            )
            % counts,
            messages.ERROR if counts["failed"] else messages.SUCCESS,
        )
        return redirect("admin:runtime_operation_changelist")
    preview = recover_runtime(now=timezone.now(), dry_run=True)
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.opts,
        "title": _("Run the recovery sweep"),
        "preview": preview,
        "can_settle": can_settle,
    }
    return TemplateResponse(request, "admin/runtime/operation/recover.html", context)
