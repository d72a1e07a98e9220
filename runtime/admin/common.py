"""What every Runtime admin page shares: read-only base, conversation filter, rendering helpers.

Every Runtime model is read-only in the admin (no add, change or delete, even for a superuser):
each row is one side of an invariant the services keep under the workspace lock — a hand-edited
state, a deleted outbox entry or a forged tool call would break them. State changes go through
``runtime.services``; the only operator commands are the recovery sweep and the settle action
(``runtime.admin.operations``, ``runtime.admin.recovery``) and token revocation and re-enabling the built-in Agent (``runtime.admin.agents``).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any
from urllib.parse import urlencode

from django.contrib import admin
from django.contrib.admin.options import IncorrectLookupParameters
from django.db import connections
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from runtime.miniapps import redact_private
from runtime.models import Conversation

PRIVATE_DETAILS_PERMISSION = "runtime.view_private_details"
# Set while a page is built for staff who hold PRIVATE_DETAILS_PERMISSION (ReadOnlyAdmin's views);
# everywhere else, and by default, private details are masked (``shown``).
_reveals_private: ContextVar[bool] = ContextVar("reveals_private", default=False)

admin.site.site_header = _("LineUp operations")
admin.site.site_title = _("LineUp admin")
# The index shows the operations dashboard (running, due and not settled, flagged) above the apps.
admin.site.index_template = "admin/runtime/index.html"
# No model list beside every page: it took a quarter of a 1280 px screen from the lists (the
# breadcrumbs and the index reach every model).
admin.site.enable_nav_sidebar = False

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
    return f"{conversation.display_title} · {str(conversation.pk)[:8]}"


def shown(value: Any) -> Any:
    """``value`` as this page may show it: private details masked unless the viewer may see them."""
    return value if _reveals_private.get() else redact_private(value)


def pretty_json(value: Any) -> SafeString | str:
    if value is None:
        return "-"
    text = json.dumps(shown(value), indent=2, sort_keys=True, ensure_ascii=False)
    return format_html('<pre style="margin:0;white-space:pre-wrap">{}</pre>', text)


# --- filters ----------------------------------------------------------------------------------


class ConversationFilter(admin.SimpleListFilter):
    """Filter by conversation through ``?conversation_id=<uuid>``, on any path to it.

    The sidebar offers the most recent conversations (a full list would not scale); the
    selected one is always among the choices so the filter stays visible and removable.
    """

    title = _("conversation")
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
    title = _("delivery")
    parameter_name = "acked"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [("no", _("waiting for ack")), ("yes", _("acked"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() in ("yes", "no"):
            return queryset.filter(acked_at__isnull=self.value() == "no")
        return queryset


# --- base -------------------------------------------------------------------------------------


class UuidSearchMixin:
    """An id pasted as shown (with dashes) is found on SQLite too.

    The admin compares ``id__exact`` search fields as text (``CAST(id AS text)``): PostgreSQL's
    uuid text has the dashes, but SQLite keeps a UUID as 32 hex digits, so there the pasted id
    matched nothing. On SQLite a term that is a UUID is also searched as its hex form."""

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Any], search_term: str
    ) -> tuple[QuerySet[Any], bool]:
        found, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        if connections[queryset.db].vendor != "sqlite":
            return found, may_have_duplicates
        try:
            hex_term = uuid.UUID(search_term.strip()).hex
        except ValueError:
            return found, may_have_duplicates
        if hex_term == search_term.strip():
            return found, may_have_duplicates
        also, more_duplicates = super().get_search_results(request, queryset, hex_term)
        return found | also, may_have_duplicates or more_duplicates


class ReadOnlyAdmin(UuidSearchMixin, admin.ModelAdmin):
    """Inspect only: Runtime rows change through ``runtime.services``, never by hand."""

    list_per_page = 50

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> Any:
        return _rendered(request, super().changelist_view, request, extra_context)

    def changeform_view(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        return _rendered(request, super().changeform_view, request, *args, **kwargs)

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    @admin.display(description=_("conversation"), ordering="conversation__created_at")
    def conversation_link(self, obj: Model) -> SafeString | str:
        conversation = obj.conversation
        return change_link(Conversation, conversation.pk, conversation_label(conversation))


def _rendered(request: HttpRequest, view: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """The view's response, rendered while private details are shown to this viewer if they may
    see them (a TemplateResponse renders after the view returns, outside the context set here)."""
    reset = _reveals_private.set(request.user.has_perm(PRIVATE_DETAILS_PERMISSION))
    try:
        response = view(*args, **kwargs)
        if hasattr(response, "render") and not getattr(response, "is_rendered", True):
            response.render()
        return response
    finally:
        _reveals_private.reset(reset)
