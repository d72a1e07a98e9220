"""The built-in Agent's token (runtime.services.agents.builtin_agent_token), on PostgreSQL.

One derived token per user, the same at every call (a restart of the supervisor issues nothing);
an operator's revocation turns the built-in Agent off until it is re-enabled; a changed
SECRET_KEY or a switch between the reference and the LLM Agent replaces the token, never adds one.
"""

from __future__ import annotations

import threading

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, transaction
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from runtime.models import Agent, AgentToken, LifecycleEvent
from runtime.services.agents import (
    BuiltinAgentError,
    authenticate_agent,
    builtin_agent_token,
    create_agent_token,
    enable_builtin_agent,
    revoke_agent_token,
    token_digest,
)

pytestmark = pytest.mark.spec("R-2.2.3", "R-4.4.1")


def active_builtin(user) -> list[AgentToken]:
    return list(AgentToken.objects.filter(agent__user=user, builtin=True, revoked_at__isnull=True))


def ensure(user, name: str = "reference"):
    return builtin_agent_token(user=user, name=name, now=timezone.now())


@pytest.mark.django_db
def test_every_call_returns_the_same_token_and_stores_one_digest(user):
    agent, first = ensure(user)
    _, second = ensure(user)
    assert first == second and first.startswith("lu_")
    assert AgentToken.objects.filter(agent=agent).count() == 1
    (row,) = active_builtin(user)
    assert row.digest == token_digest(first) and first not in (row.prefix, row.digest)
    assert authenticate_agent(first, now=timezone.now()) == agent
    assert agent.is_builtin and LifecycleEvent.objects.filter(kind="agent.token_created").count() == 1


@pytest.mark.django_db
def test_an_operator_revocation_stands_until_re_enabled(user):
    agent, token = ensure(user)
    (row,) = active_builtin(user)
    assert revoke_agent_token(token_id=row.pk, now=timezone.now())
    agent.refresh_from_db()
    assert agent.builtin_disabled_at is not None
    assert ensure(user) == (agent, None)  # a restart asks again: still off
    assert active_builtin(user) == [] and AgentToken.objects.filter(agent=agent).count() == 1
    assert authenticate_agent(token, now=timezone.now()) is None

    assert enable_builtin_agent(agent_id=agent.pk, now=timezone.now())
    assert not enable_builtin_agent(agent_id=agent.pk, now=timezone.now())  # already on
    _, fresh = ensure(user)
    assert fresh not in (None, token)
    assert [r.digest for r in active_builtin(user)] == [token_digest(fresh)]
    assert authenticate_agent(fresh, now=timezone.now()) == agent
    kinds = list(LifecycleEvent.objects.filter(kind__startswith="agent.builtin").values_list("kind", flat=True))
    assert sorted(kinds) == ["agent.builtin_disabled", "agent.builtin_enabled"]


@pytest.mark.django_db
def test_a_new_secret_key_replaces_the_token_and_revokes_the_old_one_without_turning_it_off(user):
    agent, old = ensure(user)
    with override_settings(SECRET_KEY="a-rotated-key-" + "x" * 40):
        _, new = ensure(user)
    assert new != old
    assert [r.digest for r in active_builtin(user)] == [token_digest(new)]
    assert authenticate_agent(old, now=timezone.now()) is None
    agent.refresh_from_db()
    assert agent.builtin_disabled_at is None
    # Back to the old key (a rollback): its token was revoked as replaced, so a new salt, not a reuse.
    _, again = ensure(user)
    assert again not in (old, new) and [r.digest for r in active_builtin(user)] == [token_digest(again)]


@pytest.mark.django_db
def test_the_tokens_an_older_version_issued_per_start_are_revoked_when_the_agent_becomes_builtin(user):
    leaked = [create_agent_token(user=user, name="reference", now=timezone.now())[1] for _ in range(3)]
    agent, _ = ensure(user)
    assert AgentToken.objects.filter(agent=agent, revoked_at__isnull=True).count() == 1
    assert all(authenticate_agent(t, now=timezone.now()) is None for t in leaked)
    agent.refresh_from_db()
    assert agent.builtin_disabled_at is None  # replaced, not turned off
    with pytest.raises(BuiltinAgentError):
        create_agent_token(user=user, name="reference", now=timezone.now())
    with pytest.raises(CommandError, match="built-in Agent"):
        call_command("create_agent_token", "reference", "--user", user.username)
    assert AgentToken.objects.filter(agent=agent, revoked_at__isnull=True).count() == 1


@pytest.mark.django_db
def test_switching_between_the_reference_and_the_llm_agent_keeps_one_active_builtin_token(user, other_user):
    ensure(user, "reference")
    ensure(other_user, "reference")
    _, llm = ensure(user, "llm")
    assert [r.digest for r in active_builtin(user)] == [token_digest(llm)]
    assert len(active_builtin(other_user)) == 1  # another user's is not touched


@pytest.mark.django_db
def test_the_database_refuses_a_second_active_builtin_token(user):
    agent, _ = ensure(user)
    with pytest.raises(IntegrityError), transaction.atomic():
        AgentToken.objects.create(agent=agent, digest="0" * 64, prefix="lu_x", builtin=True)


@pytest.mark.django_db(transaction=True)
def test_many_supervisors_starting_at_once_share_one_token(user):
    """20 threads, each its own PostgreSQL connection, ask at the same moment."""
    barrier, tokens, errors = threading.Barrier(20), [], []

    def start() -> None:
        try:
            barrier.wait(timeout=10)
            tokens.append(ensure(user)[1])
        except Exception as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=start) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert errors == [] and len(tokens) == 20 and len(set(tokens)) == 1
    assert AgentToken.objects.filter(agent__user=user).count() == 1
    assert Agent.objects.filter(user=user).count() == 1


@pytest.mark.django_db
def test_the_admin_revokes_and_re_enables_the_builtin_agent_with_clear_messages(admin_client: Client, user):
    agent, token = ensure(user)
    (row,) = active_builtin(user)
    revoked = admin_client.post(
        reverse("admin:runtime_agenttoken_changelist"),
        {"action": "revoke", "_selected_action": [row.pk]},
        follow=True,
    )
    assert "belonged to the built-in Agent: it stays off for that user" in revoked.content.decode()
    assert ensure(user) == (agent, None)

    enabled = admin_client.post(
        reverse("admin:runtime_agent_changelist"),
        {"action": "enable_builtin", "_selected_action": [agent.pk]},
        follow=True,
    )
    assert "Re-enabled the built-in Agent for 1 user;" in enabled.content.decode()
    _, fresh = ensure(user)
    assert fresh not in (None, token)
    page = admin_client.get(reverse("admin:runtime_agent_change", args=[agent.pk])).content.decode()
    agent.refresh_from_db()
    assert agent.builtin_token_salt not in page
