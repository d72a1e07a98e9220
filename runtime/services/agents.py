"""Agents and their tokens: issuing, authenticating and revoking (docs/agent-protocol.md).

A token is shown once, when it is created; only its SHA-256 digest is stored. Revoking a token
ends what its Agent was waiting for: the Runtime announces ``runtime.extensions.agent_ended`` in the
same transaction, and Interact fails the Agent's pending interactions.
Deactivating a user does the same for every Agent of that user (``end_agents_of_user``, called
by ``runtime.receivers`` when an inactive user is saved); the tokens are kept, so reactivating the
user lets the Agents connect again.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from runtime.events import record_event
from runtime.extensions import send_agent_ended
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
    """The Agent holding this token, or None if it is unknown or revoked or its user is inactive."""
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


def token_refusal(digest: str) -> str | None:
    """Why a connection authenticated with this token digest may no longer act, or None if it may.

    ``"revoked"`` (or gone) or ``"deactivated"`` (its user is inactive): the rules of
    ``authenticate_agent``, re-read for a connection that already said hello. Read-only: a
    re-check is not a use of the token.
    """
    row = AgentToken.objects.filter(digest=digest).values("revoked_at", "agent__user__is_active").first()
    if row is None or row["revoked_at"] is not None:
        return "revoked"
    if not row["agent__user__is_active"]:
        return "deactivated"
    return None


@transaction.atomic
def revoke_agent_token(*, token_id: int, now: datetime) -> bool:
    """Revoke a token; returns False if it was already revoked."""
    row = AgentToken.objects.select_for_update().select_related("agent").get(pk=token_id)
    if row.revoked_at is not None:
        return False
    row.revoked_at = now
    row.save(update_fields=["revoked_at"])
    record_event("agent.token_revoked", at=now, agent_id=str(row.agent_id), token_prefix=row.prefix)
    # Live connections authenticated with it are closed (they checked the token only at hello).
    notify_agent_on_commit(row.agent_id, "agent.revoked", {"digest": row.digest})
    if not AgentToken.objects.filter(agent=row.agent, revoked_at__isnull=True).exists():
        send_agent_ended(agent=row.agent, reason="agent_revoked", now=now)
    return True


@transaction.atomic
def end_agents_of_user(*, user: AbstractBaseUser, now: datetime) -> int:
    """The user can no longer be acted for: close their Agents' live connections and fail what
    those Agents were waiting for, as revoking every token would. Returns the interactions failed.

    Idempotent (a second call finds no pending interaction and no connection), so it may run on
    every save of an inactive user rather than only when ``is_active`` flips.
    """
    failed = 0
    for agent in Agent.objects.filter(user=user):
        # Connections checked the user only at hello; this hint closes them (the consumer re-reads
        # the token and its user before acting on it), and each frame re-checks in case it is lost.
        notify_agent_on_commit(agent.id, "agent.deactivated", {})
        failed += send_agent_ended(agent=agent, reason="user_deactivated", now=now)
    return failed
