"""``{% operations_dashboard %}``: the operations' state at a glance, on the admin index."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from runtime.admin.common import changelist_url
from runtime.models import Operation
from runtime.selectors import operations_dashboard

register = template.Library()


@register.inclusion_tag("admin/runtime/dashboard.html", takes_context=True)
def operations_dashboard_rows(context: dict[str, Any]) -> dict[str, Any]:
    """One row per state an operator watches, each linking to those operations (staff who may view them)."""
    request = context["request"]
    if not request.user.has_perm("runtime.view_operation"):
        return {"rows": None}
    counts = operations_dashboard(now=timezone.now())
    rows = [
        ("running", _("Running, end time still ahead"), changelist_url(Operation, deadline="running"), ""),
        (
            "due",
            _("End time passed, not settled yet"),
            changelist_url(Operation, deadline="due"),
            _("Normally none, or only for seconds: more, for longer, means no worker or beat is settling them."),
        ),
        (
            "flagged",
            _("Flagged: settling failed too often, needs an operator"),
            changelist_url(Operation, needs_operator="flagged"),
            _("The periodic sweep no longer retries these; run the recovery sweep once the cause is fixed."),
        ),
    ]
    return {
        "rows": [
            {"key": key, "label": label, "url": url, "hint": hint, "count": counts[key]}
            for key, label, url, hint in rows
        ],
        "recover_url": reverse("admin:runtime_operation_recover"),
    }
