"""Agents and their tokens: issuing, authenticating and revoking (docs/agent-protocol.md).

A token is shown once, when it is created; only its SHA-256 digest is stored. Revoking a token
ends what its Agent was waiting for: the Runtime announces ``runtime.extensions.agent_ended`` in the
same transaction, and Interact fails the Agent's pending interactions.
Deactivating a user does the same for every Agent of that user (``end_agents_of_user``, called
by ``runtime.receivers`` when an inactive user is saved); the tokens are kept, so reactivating the
user lets the Agents connect again.

The built-in Agent (the reference or LLM Agent the server runs for every user) is the exception to
"shown once": its one token per user is derived, not drawn, so every start of the supervisor finds
the same token without it being stored (``builtin_agent_token``). An operator's revocation of it
turns the built-in Agent off for that user until ``enable_builtin_agent``
(docs/decisions/0012-builtin-agent-token.md).

Live ``/ws/agent/`` connections are rows (``AgentConnection``), opened at welcome, refreshed by a
heartbeat and deleted at close, so the Agents page counts them right across server processes; a
process that dies leaves rows that stop counting after ``liveness_window()``
(docs/decisions/0017-agents-page-and-live-connections.md).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import secrets
import uuid
from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.db.models import Q
from django.utils.crypto import salted_hmac

from runtime import refused_tokens
from runtime.events import record_event
from runtime.extensions import send_agent_created, send_agent_ended
from runtime.internals.django_db import model_from_row
from runtime.models import Agent, AgentConnection, AgentToken, Conversation
from runtime.models.agents import liveness_window
from runtime.projections import notify_agent_on_commit
from runtime.services.row_writes import dialect

TOKEN_PREFIX = "lu_"
MAX_AGENT_NAME_LENGTH = 100
BUILTIN_TOKEN_KEY_SALT = "lineup.runtime.builtin_agent_token"


class BuiltinAgentError(ValueError):
    """The Agent is the server's built-in Agent: its token is derived, never issued by hand."""


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class AgentNameError(ValueError):
    """The Agent's name is empty or too long."""


def clean_agent_name(name: object) -> str:
    """``name`` stripped, or ``AgentNameError`` when it is not 1 to 100 visible characters."""
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_AGENT_NAME_LENGTH:
        raise AgentNameError(f"an Agent's name is 1 to {MAX_AGENT_NAME_LENGTH} characters")
    return name.strip()


def lock_user_against_new_agents(user_id: int) -> None:
    """Hold ``user_id``'s row so that no Agent of theirs is created until this transaction ends.

    Agents are created under ``FOR UPDATE`` of the user's row (``_get_or_create_agent``); a writer
    that then reads "the user's Agents" (a person's message, which makes one delivery per Agent)
    takes ``FOR KEY SHARE`` first, which never waits for another message but orders it against an
    Agent's creation: either the new Agent's backfill sees the message, or the message sees the
    Agent. SQLite runs one writer at a time, so there is nothing to take there.
    """
    if lock := dialect().key_share():
        table = connection.ops.quote_name(get_user_model()._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT 1 FROM {table} WHERE id = %s{lock}", [user_id])


def _get_or_create_agent(*, user: AbstractBaseUser, name: str, now: datetime) -> Agent:
    """The Agent ``name`` of ``user``, created (and announced) if it is new; locks the user's row."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    agent, created = Agent.objects.get_or_create(user=user, name=name)
    if created:
        send_agent_created(agent=agent, now=now)
    return agent


@transaction.atomic
def create_agent_token(*, user: AbstractBaseUser, name: str, now: datetime) -> tuple[Agent, str]:
    """Create (or reuse) the Agent ``name`` of ``user`` and issue it a new token; return the token.

    Refuses a blank or over-long name (``AgentNameError``) and the built-in Agent
    (``BuiltinAgentError``): a hand-issued token would be a second way in for it that the
    operator's off switch (revoking its token) does not cover.
    """
    name = clean_agent_name(name)
    agent = _get_or_create_agent(user=user, name=name, now=now)
    if agent.is_builtin:
        raise BuiltinAgentError(f"{name!r} is the built-in Agent of {user.get_username()}; the server runs it")
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    AgentToken.objects.create(agent=agent, digest=token_digest(token), prefix=token[:10])
    _no_longer_refused(token_digest(token))
    record_event("agent.token_created", at=now, agent_id=str(agent.id), agent=name, user=user.get_username())
    return agent, token


def could_be_token(token: object) -> bool:
    """Whether ``token`` has the shape of an Agent token at all (no database)."""
    return isinstance(token, str) and token.startswith(TOKEN_PREFIX) and len(token) <= 200


def is_token_refused(token: object) -> bool:
    """True when ``token`` is refused without the database: not token-shaped, or found to be no
    Agent's (unknown or revoked) by an earlier ``authenticate_agent`` in this process."""
    return not could_be_token(token) or refused_tokens.is_refused(token_digest(token))  # type: ignore[arg-type]


def authenticate_agent(token: object, *, now: datetime) -> Agent | None:
    """The Agent holding this token, or None if it is unknown or revoked or its user is inactive.

    An unknown or revoked token is remembered (``runtime.refused_tokens``): asked again, it is
    refused without a query."""
    if is_token_refused(token):
        return None
    digest = token_digest(token)  # type: ignore[arg-type]  # is_token_refused checked it is a str
    row = AgentToken.objects.select_related("agent", "agent__user").filter(digest=digest).first()
    if row is None or row.revoked_at is not None:
        refused_tokens.remember(digest)
        return None
    if not row.agent.user.is_active:
        return None
    AgentToken.objects.filter(pk=row.pk).update(last_used_at=now)
    return row.agent


def token_refusal(digest: str) -> str | None:
    """Why a connection authenticated with this token digest may no longer act, or None if it may.

    ``"revoked"`` (or gone) or ``"deactivated"`` (its user is inactive): the rules of
    ``authenticate_agent``, re-read for a connection that already said hello. Read-only: a
    re-check is not a use of the token.
    """
    # Written as SQL (one constant statement, on every frame): the ORM built it anew each time,
    # which cost more Python than the frame's own service (docs/benchmarks.md, 27h).
    with connection.cursor() as cursor:
        cursor.execute(_token_sql(), [digest])
        row = cursor.fetchone()
    if row is None or row[0] is not None:
        return "revoked"
    if not row[1]:
        return "deactivated"
    return None


@functools.cache
def _token_sql() -> str:
    token, agent, user = AgentToken._meta.db_table, Agent._meta.db_table, get_user_model()._meta
    return (
        f'SELECT t."revoked_at", u."{user.get_field("is_active").column}" FROM "{token}" t'
        f' JOIN "{agent}" a ON a."id" = t."agent_id" JOIN "{user.db_table}" u ON u."{user.pk.column}" = a."user_id"'
        f' WHERE t."digest" = %s'
    )


@functools.cache
def _token_and_conversation_sql() -> str:
    token, agent, user = AgentToken._meta.db_table, Agent._meta.db_table, get_user_model()._meta
    columns = ", ".join(f'c."{field.column}"' for field in Conversation._meta.concrete_fields)
    return (
        f'SELECT t."revoked_at", u."is_active", {columns} FROM "{token}" t'
        f' JOIN "{agent}" a ON a."id" = t."agent_id" JOIN "{user.db_table}" u ON u."{user.pk.column}" = a."user_id"'
        f' LEFT JOIN "{Conversation._meta.db_table}" c ON c."id" = %s WHERE t."digest" = %s'
    )


@functools.cache
def _conversation_attnames() -> list[str]:
    return [field.attname for field in Conversation._meta.concrete_fields]


def token_refusal_and_conversation(digest: str, conversation_id: uuid.UUID) -> tuple[str | None, Conversation | None]:
    """``token_refusal(digest)`` and the conversation row (None if there is none) in one statement:
    a frame that names a conversation needs both, and they are one index lookup each.

    PostgreSQL only: its driver gives the row's values their Python types (uuid, datetime). On
    SQLite a statement is no round trip, so the conversation is read as before (None here)."""
    if not dialect().typed_rows:
        return token_refusal(digest), None
    with connection.cursor() as cursor:
        cursor.execute(_token_and_conversation_sql(), [conversation_id, digest])
        row = cursor.fetchone()
    if row is None or row[0] is not None:
        return "revoked", None
    if not row[1]:
        return "deactivated", None
    if row[2] is None:
        return None, None
    return None, model_from_row(Conversation, connection, _conversation_attnames(), row[2:])


def _no_longer_refused(digest: str) -> None:
    """A token row with ``digest`` was written: this process stops refusing it now and when the row
    is committed (a request between the two would remember it again)."""
    refused_tokens.forget(digest)
    transaction.on_commit(lambda: refused_tokens.forget(digest))


def _revoke_row(row: AgentToken, *, now: datetime, reason: str) -> None:
    row.revoked_at = now
    row.save(update_fields=["revoked_at"])
    record_event("agent.token_revoked", at=now, agent_id=str(row.agent_id), token_prefix=row.prefix, reason=reason)
    # Live connections authenticated with it are closed (they checked the token only at hello).
    notify_agent_on_commit(row.agent_id, "agent.revoked", {"digest": row.digest})


@transaction.atomic
def revoke_agent_token(*, token_id: int, now: datetime) -> bool:
    """Revoke a token; returns False if it was already revoked.

    Revoking the built-in Agent's token also turns the built-in Agent off for its user: the
    supervisor no longer derives a token for it, across restarts, until ``enable_builtin_agent``.
    """
    row = AgentToken.objects.select_for_update().select_related("agent").get(pk=token_id)
    if row.revoked_at is not None:
        return False
    _revoke_row(row, now=now, reason="operator")
    if row.builtin:
        Agent.objects.filter(pk=row.agent_id, builtin_disabled_at__isnull=True).update(builtin_disabled_at=now)
        record_event("agent.builtin_disabled", at=now, agent_id=str(row.agent_id), agent=row.agent.name)
    if not AgentToken.objects.filter(agent=row.agent, revoked_at__isnull=True).exists():
        send_agent_ended(agent=row.agent, reason="agent_revoked", now=now)
    return True


@transaction.atomic
def revoke_own_agent_token(*, user: AbstractBaseUser, token_id: int, now: datetime) -> bool:
    """A person revokes one of their own Agents' tokens (the Agents page); False if already revoked.

    ``AgentToken.DoesNotExist`` for a token of another user's Agent and for the built-in Agent's,
    which only an operator turns off (it would stop the server's Agent for this user until an
    operator turns it back on).
    """
    owned = AgentToken.objects.filter(pk=token_id, agent__user=user, builtin=False).exists()
    if not owned:
        raise AgentToken.DoesNotExist(f"no token {token_id} of an Agent of {user.get_username()}")
    return revoke_agent_token(token_id=token_id, now=now)


def agent_connection_opened(*, connection_id: uuid.UUID, agent_id: object, digest: str, now: datetime) -> None:
    """A ``/ws/agent/`` connection was welcomed: record it (two short statements on the hello path)."""
    token_id = AgentToken.objects.filter(digest=digest, revoked_at__isnull=True).values_list("pk", flat=True).first()
    if token_id is None:  # revoked (or gone) meanwhile: the connection is being closed, it is not live
        return
    AgentConnection.objects.create(id=connection_id, agent_id=agent_id, token_id=token_id, opened_at=now, seen_at=now)


def agent_connection_seen(*, connection_id: uuid.UUID, agent_id: object, digest: str, now: datetime) -> None:
    """The heartbeat of a live connection; its row is written again if it is missing (it was
    dropped as dead while its process stalled, or the write at welcome failed)."""
    if not AgentConnection.objects.filter(pk=connection_id).update(seen_at=now):
        agent_connection_opened(connection_id=connection_id, agent_id=agent_id, digest=digest, now=now)


@transaction.atomic
def agent_connection_closed(*, connection_id: uuid.UUID, agent_id: object, now: datetime) -> None:
    """The connection ended: delete its row, and the Agent's dead rows with it (those of connections
    whose process died: their heartbeat stopped, so they stopped counting when the window passed);
    its token was last used now."""
    token_id = AgentConnection.objects.filter(pk=connection_id).values_list("token_id", flat=True).first()
    AgentConnection.objects.filter(
        Q(pk=connection_id) | Q(agent_id=agent_id, seen_at__lt=now - liveness_window())
    ).delete()
    if token_id is not None:
        AgentToken.objects.filter(pk=token_id).update(last_used_at=now)


def derive_builtin_token(agent: Agent) -> str:
    """The built-in Agent's token: HMAC of SECRET_KEY over its id and salt. Same inputs, same token."""
    mac = salted_hmac(
        BUILTIN_TOKEN_KEY_SALT,
        f"{agent.id}:{agent.builtin_token_salt}",
        secret=settings.SECRET_KEY,
        algorithm="sha256",
    )
    return TOKEN_PREFIX + base64.urlsafe_b64encode(mac.digest()).decode("ascii").rstrip("=")


def _new_salt() -> str:
    return secrets.token_hex(32)


@transaction.atomic
def builtin_agent_token(*, user: AbstractBaseUser, name: str, now: datetime) -> tuple[Agent, str | None]:
    """The token of ``user``'s built-in Agent ``name``, the same at every call; ``None`` while an
    operator has it off (``agent.builtin_disabled_at``).

    At most one built-in token per user is active afterwards: any other (issued under another
    SECRET_KEY, for the other built-in Agent, or by a version that issued one per start) is
    revoked as replaced, which closes its connections but does not turn anything off.
    """
    # One caller per user at a time (the user's row is locked): two supervisors starting together
    # derive the same token, and the second finds the first one's row.
    agent = _get_or_create_agent(user=user, name=name, now=now)
    if not agent.is_builtin or not agent.builtin_token_salt:
        agent.is_builtin = True
        agent.builtin_token_salt = agent.builtin_token_salt or _new_salt()
        agent.save(update_fields=["is_builtin", "builtin_token_salt"])
    if agent.builtin_disabled_at is not None:
        return agent, None
    token = derive_builtin_token(agent)
    row = AgentToken.objects.filter(digest=token_digest(token)).first()
    if row is not None and row.revoked_at is not None:
        # Revoked as replaced by a process under another SECRET_KEY (an operator's revocation would
        # have turned the Agent off): its digest stays for audit, so draw a new salt.
        agent.builtin_token_salt = _new_salt()
        agent.save(update_fields=["builtin_token_salt"])
        token, row = derive_builtin_token(agent), None
    digest = token_digest(token)
    stale = (
        AgentToken.objects.select_for_update()
        .filter(Q(agent=agent) | Q(agent__user=user, builtin=True), revoked_at__isnull=True)
        .exclude(digest=digest)
        .select_related("agent")
    )
    replaced_agents = set()
    for old in stale:
        _revoke_row(old, now=now, reason="replaced_by_builtin_token")
        if old.agent_id != agent.id:
            replaced_agents.add(old.agent)
    for other in replaced_agents:
        if not AgentToken.objects.filter(agent=other, revoked_at__isnull=True).exists():
            send_agent_ended(agent=other, reason="agent_revoked", now=now)
    if row is None:
        AgentToken.objects.create(agent=agent, digest=digest, prefix=token[:10], builtin=True)
        _no_longer_refused(digest)
        record_event(
            "agent.token_created", at=now, agent_id=str(agent.id), agent=name, user=user.get_username(), builtin=True
        )
    return agent, token


@transaction.atomic
def enable_builtin_agent(*, agent_id: object, now: datetime) -> bool:
    """Turn the built-in Agent back on after an operator revoked its token; False if it was not off.

    A new salt gives it a new token (the revoked one's digest stays for audit); the supervisor's
    next round derives it and connects.
    """
    agent = Agent.objects.select_for_update().get(pk=agent_id)
    if not agent.is_builtin or agent.builtin_disabled_at is None:
        return False
    agent.builtin_disabled_at = None
    agent.builtin_token_salt = _new_salt()
    agent.save(update_fields=["builtin_disabled_at", "builtin_token_salt"])
    record_event("agent.builtin_enabled", at=now, agent_id=str(agent.id), agent=agent.name)
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
