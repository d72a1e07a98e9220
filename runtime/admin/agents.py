"""Agents and their tokens: operators see who acts for whom and revoke tokens here."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from runtime.admin.common import ReadOnlyAdmin
from runtime.models import Agent, AgentToken
from runtime.services.agents import revoke_agent_token


class AgentTokenInline(admin.TabularInline):
    model = AgentToken
    fields = ("prefix", "created_at", "last_used_at", "revoked_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # tokens are issued by `manage.py create_agent_token`, shown once


@admin.register(Agent)
class AgentAdmin(ReadOnlyAdmin):
    list_display = ("name", "user", "created_at", "active_tokens")
    search_fields = ("name", "user__username", "id")
    inlines = [AgentTokenInline]

    @admin.display(description="active tokens")
    def active_tokens(self, agent: Agent) -> int:
        return agent.tokens.filter(revoked_at__isnull=True).count()


@admin.register(AgentToken)
class AgentTokenAdmin(ReadOnlyAdmin):
    list_display = ("prefix", "agent", "created_at", "last_used_at", "revoked_at")
    list_filter = (("revoked_at", admin.EmptyFieldListFilter),)
    search_fields = ("prefix", "agent__name", "agent__user__username")
    actions = ["revoke"]

    def has_revoke_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("runtime.change_agenttoken")

    @admin.action(description="Revoke selected tokens", permissions=["revoke"])
    def revoke(self, request: HttpRequest, queryset: QuerySet[AgentToken]) -> None:
        now = timezone.now()
        revoked = sum(revoke_agent_token(token_id=token.pk, now=now) for token in queryset)
        self.message_user(
            request, f"Revoked {revoked} token(s); new connections with them are refused.", messages.SUCCESS
        )
