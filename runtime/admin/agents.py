"""Agents and their tokens: operators see who acts for whom and revoke tokens here.

Revoking the built-in Agent's token turns the built-in Agent off for that user, across restarts;
*Re-enable the built-in Agent* on the Agents page turns it back on (docs/agents.md).
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from runtime.admin.common import ReadOnlyAdmin
from runtime.models import Agent, AgentToken
from runtime.services.agents import enable_builtin_agent, revoke_agent_token


class AgentTokenInline(admin.TabularInline):
    model = AgentToken
    fields = ("prefix", "builtin", "created_at", "last_used_at", "revoked_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # tokens are issued by `manage.py create_agent_token`, shown once


@admin.register(Agent)
class AgentAdmin(ReadOnlyAdmin):
    list_display = ("name", "user", "created_at", "active_tokens", "is_builtin", "builtin_disabled_at")
    list_filter = ("is_builtin", ("builtin_disabled_at", admin.EmptyFieldListFilter))
    search_fields = ("name", "user__username", "id")
    exclude = ("builtin_token_salt",)  # an input of the built-in token's derivation
    inlines = [AgentTokenInline]
    actions = ["enable_builtin"]

    @admin.display(description=_("active tokens"))
    def active_tokens(self, agent: Agent) -> int:
        return agent.tokens.filter(revoked_at__isnull=True).count()

    def has_enable_builtin_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("runtime.change_agenttoken")  # the permission that revokes it

    @admin.action(description=_("Re-enable the built-in Agent"), permissions=["enable_builtin"])
    def enable_builtin(self, request: HttpRequest, queryset: QuerySet[Agent]) -> None:
        now = timezone.now()
        enabled = sum(enable_builtin_agent(agent_id=agent.pk, now=now) for agent in queryset)
        skipped = queryset.count() - enabled
        text = ngettext(
            "Re-enabled the built-in Agent for %(n)d user; it connects with a new token within seconds.",
            "Re-enabled the built-in Agent for %(n)d users; they connect with new tokens within seconds.",
            enabled,
        ) % {"n": enabled}
        if skipped:
            text += " " + ngettext(
                "%(n)d selected Agent was not a built-in Agent turned off, and is unchanged.",
                "%(n)d selected Agents were not a built-in Agent turned off, and are unchanged.",
                skipped,
            ) % {"n": skipped}
        self.message_user(
            request,
            text,
            messages.SUCCESS if enabled else messages.WARNING,
        )


@admin.register(AgentToken)
class AgentTokenAdmin(ReadOnlyAdmin):
    list_display = ("prefix", "agent", "builtin", "created_at", "last_used_at", "revoked_at")
    list_filter = (("revoked_at", admin.EmptyFieldListFilter), "builtin")
    search_fields = ("prefix", "agent__name", "agent__user__username")
    actions = ["revoke"]

    def has_revoke_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("runtime.change_agenttoken")

    @admin.action(description=_("Revoke selected tokens"), permissions=["revoke"])
    def revoke(self, request: HttpRequest, queryset: QuerySet[AgentToken]) -> None:
        now = timezone.now()
        revoked = [token for token in queryset if revoke_agent_token(token_id=token.pk, now=now)]
        builtin = sum(token.builtin for token in revoked)
        text = ngettext(
            "Revoked %(n)d token; new connections and requests with it are refused.",
            "Revoked %(n)d tokens; new connections and requests with them are refused.",
            len(revoked),
        ) % {"n": len(revoked)}
        if builtin:
            text += " " + ngettext(
                "%(n)d of them belonged to the built-in Agent: it stays off for that user, across restarts,"
                " until you re-enable it (Agents → Re-enable the built-in Agent).",
                "%(n)d of them belonged to the built-in Agent: it stays off for those users, across restarts,"
                " until you re-enable it (Agents → Re-enable the built-in Agent).",
                builtin,
            ) % {"n": builtin}
        self.message_user(
            request,
            text,
            messages.SUCCESS,
        )
