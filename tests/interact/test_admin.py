"""Operators read the IM, interactions and Agents in the admin, and revoke Agent tokens there."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from interact.models import Message
from interact.services.messages import post_human_message
from runtime.models import AgentToken
from runtime.services.agents import authenticate_agent, create_agent_token
from tests.support.factories import T0


@pytest.fixture
def staff_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("root", password="pw-root-123"))
    return client


@pytest.mark.django_db
@pytest.mark.spec("R-2.1.2")
def test_messages_interactions_and_agents_are_listed_and_filtered(staff_client, conversation, other_user):
    from runtime.services.conversations import conversation_get_or_create_default

    post_human_message(conversation=conversation, user_id=conversation.owner_id, text="start a focus", now=T0)
    elsewhere = conversation_get_or_create_default(user=other_user)
    post_human_message(conversation=elsewhere, user_id=other_user.id, text="somebody else", now=T0)
    for name in ("interact_interaction", "runtime_agent", "runtime_agenttoken"):
        assert staff_client.get(reverse(f"admin:{name}_changelist")).status_code == 200

    page = staff_client.get(reverse("admin:interact_message_changelist") + f"?conversation_id={conversation.id}")
    assert page.status_code == 200
    assert list(page.context["cl"].result_list) == list(Message.objects.filter(conversation=conversation))
    assert b"start a focus" in page.content and b"somebody else" not in page.content
    # The IM is history: no add, change or delete, even for a superuser.
    message = Message.objects.get(conversation=conversation)
    assert (
        staff_client.post(reverse("admin:interact_message_delete", args=[message.pk]), {"post": "yes"}).status_code
        == 403
    )
    assert Message.objects.filter(pk=message.pk).exists()


@pytest.mark.django_db
def test_revoking_a_token_in_the_admin_refuses_it_from_then_on(staff_client, user):
    agent, token = create_agent_token(user=user, name="claude", now=timezone.now())
    assert authenticate_agent(token, now=timezone.now()) == agent
    row = AgentToken.objects.get(agent=agent)

    response = staff_client.post(
        reverse("admin:runtime_agenttoken_changelist"), {"action": "revoke", "_selected_action": [row.pk]}, follow=True
    )
    assert response.status_code == 200
    assert b"Revoked 1 token;" in response.content
    row.refresh_from_db()
    assert row.revoked_at is not None
    assert authenticate_agent(token, now=timezone.now()) is None
