"""Agents and their bearer tokens."""

from __future__ import annotations

import uuid
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Agent(models.Model):
    """An Agent that acts for one user over ``/ws/agent/`` (docs/agent-protocol.md)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False, verbose_name=_("ID"))
    name = models.CharField(max_length=100, verbose_name=_("name"))
    # No index of its own: unique_agent_name_per_user leads with the user.
    user = models.ForeignKey(
        "auth.User", on_delete=models.CASCADE, related_name="agents", db_index=False, verbose_name=_("user")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    # The built-in Agent (reference or LLM) is run by the server itself; its one token is derived,
    # never stored (runtime.services.agents.builtin_agent_token, docs/decisions/0012-builtin-agent-token.md).
    is_builtin = models.BooleanField(default=False, editable=False, verbose_name=_("built-in"))
    builtin_token_salt = models.CharField(
        max_length=64,
        blank=True,
        default="",
        editable=False,
        help_text=_("Mixed into the derived token; never shown."),
        verbose_name=_("builtin token salt"),
    )
    builtin_disabled_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("An operator revoked the built-in Agent's token; it stays off until re-enabled."),
        verbose_name=_("builtin disabled at"),
    )

    class Meta:
        verbose_name = _("Agent")
        verbose_name_plural = _("Agents")
        ordering = ["created_at"]
        constraints = [models.UniqueConstraint(fields=["user", "name"], name="unique_agent_name_per_user")]

    def __str__(self) -> str:
        return str(_("%(name)s (for %(user)s)")) % {"name": self.name, "user": self.user}


class AgentToken(models.Model):
    """A bearer token of an Agent, stored only as its SHA-256 digest; revoked tokens stay for audit."""

    id = models.BigAutoField(primary_key=True, verbose_name=_("ID"))
    agent = models.ForeignKey(Agent, on_delete=models.CASCADE, related_name="tokens", verbose_name=_("Agent"))
    digest = models.CharField(max_length=64, unique=True, editable=False, verbose_name=_("digest"))
    prefix = models.CharField(
        max_length=12, editable=False, help_text=_("The first characters, to recognise it."), verbose_name=_("prefix")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    last_used_at = models.DateTimeField(null=True, blank=True, verbose_name=_("last used at"))
    revoked_at = models.DateTimeField(null=True, blank=True, verbose_name=_("revoked at"))
    builtin = models.BooleanField(
        default=False,
        editable=False,
        help_text=_("Derived by the server for its built-in Agent."),
        verbose_name=_("built-in"),
    )

    class Meta:
        verbose_name = _("Agent token")
        verbose_name_plural = _("Agent tokens")
        ordering = ["-created_at"]
        constraints = [
            # Restarts reuse the built-in token, and a replaced one is revoked first (one code path:
            # builtin_agent_token), so a second active one can only be a bug.
            models.UniqueConstraint(
                fields=["agent"],
                condition=Q(builtin=True, revoked_at__isnull=True),
                name="one_active_builtin_token_per_agent",
            )
        ]

    def __str__(self) -> str:
        return f"{self.prefix}… ({_('revoked') if self.revoked_at else _('active')})"


def liveness_window() -> timedelta:
    """How long a connection row counts as live without a heartbeat: three heartbeat periods."""
    return timedelta(seconds=3 * settings.LINEUP_AGENT_HEARTBEAT_SECONDS)


class AgentConnection(models.Model):
    """One live ``/ws/agent/`` connection, on whichever server process holds it.

    The row is written when the connection is welcomed, its ``seen_at`` refreshed by a heartbeat
    of the process holding it, and deleted when the connection ends. A process that dies leaves its
    rows behind with a ``seen_at`` that stops moving: they are not counted once older than the
    liveness window, and are deleted when their Agent next connects
    (docs/decisions/0017-agents-page-and-live-connections.md). The count is then right across any
    number of Daphne processes, which no one process's memory could be.
    """

    id = models.UUIDField(primary_key=True, editable=False, verbose_name=_("ID"))
    agent = models.ForeignKey(
        Agent, on_delete=models.CASCADE, related_name="connections", db_index=False, verbose_name=_("Agent")
    )
    token = models.ForeignKey(AgentToken, on_delete=models.CASCADE, related_name="connections", verbose_name=_("token"))
    opened_at = models.DateTimeField(verbose_name=_("opened at"))
    seen_at = models.DateTimeField(verbose_name=_("seen at"))

    class Meta:
        verbose_name = _("Agent connection")
        verbose_name_plural = _("Agent connections")
        indexes = [models.Index(fields=["agent", "seen_at"], name="agent_connection_seen")]

    def __str__(self) -> str:
        return str(_("connection %(id)s of %(agent)s")) % {"id": self.id, "agent": self.agent_id}
