"""Agents and their tokens: issuing, authenticating and revoking (docs/agent-protocol.md).

A token is shown once, when it is created; only its SHA-256 digest is stored. Revoking a token
ends what its Agent was waiting for: its pending interactions are failed by the Runtime.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from runtime.events import record_event
from runtime.models import Agent, AgentToken
from runtime.projections import notify_agent_on_commit

TOKEN_PREFIX = "lu_"


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@transaction.atomic
def create_agent_token(*, user: AbstractBaseUser, name: str, now: datetime) -> tuple[Agent, str]:
    """Create (or reuse) the Agent ``name`` of ``user`` and issue it a new token; return the token."""
    agent, _ = Agent.objects.get_or_create(user=user, name=name)
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    AgentToken.objects.create(agent=agent, digest=token_digest(token), prefix=token[:10])
    record_event("agent.token_created", at=now, agent_id=str(agent.id), agent=name, user=user.get_username())
    return agent, token


def authenticate_agent(token: object, *, now: datetime) -> Agent | None:
    """The Agent holding this token, or None if it is unknown or revoked."""
    if not isinstance(token, str) or not token.startswith(TOKEN_PREFIX) or len(token) > 200:
        return None
    row = (
        AgentToken.objects.select_related("agent", "agent__user")
        .filter(digest=token_digest(token), revoked_at__isnull=True)
        .first()
    )
    if row is None or not row.agent.user.is_active:
        return None
    AgentToken.objects.filter(pk=row.pk).update(last_used_at=now)
    return row.agent


@transaction.atomic
def revoke_agent_token(*, token_id: int, now: datetime) -> bool:
    """Revoke a token; returns False if it was already revoked."""
    from interact.services.interactions import fail_pending_interactions_of_agent

    row = AgentToken.objects.select_for_update().select_related("agent").get(pk=token_id)
    if row.revoked_at is not None:
        return False
    row.revoked_at = now
    row.save(update_fields=["revoked_at"])
    record_event("agent.token_revoked", at=now, agent_id=str(row.agent_id), token_prefix=row.prefix)
    # Live connections authenticated with it are closed (they checked the token only at hello).
    notify_agent_on_commit(row.agent_id, "agent.revoked", {"digest": row.digest})
    if not AgentToken.objects.filter(agent=row.agent, revoked_at__isnull=True).exists():
        fail_pending_interactions_of_agent(agent=row.agent, reason="agent_revoked", now=now)
    return True
