"""A frame that names a conversation reads its credential and the conversation row in one statement
(docs/decisions/0036): the service gets the row, and a revoked token or deactivated user is still
refused before the service runs."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from lineup.gateways.agent_socket import delivery
from runtime.errors import Rejection, RejectionCode
from runtime.models import AgentToken
from runtime.services.agents import token_digest, token_refusal
from runtime.tool_router import Caller, access_conversation

pytestmark = [pytest.mark.django_db, pytest.mark.spec("R-2.2.3")]


def _caller(user) -> Caller:
    return Caller(label="agent:test", user_id=user.id)


def test_the_credential_and_the_conversation_are_one_statement(user, conversation, token_for):
    digest = token_digest(token_for(user))
    with CaptureQueriesContext(connection) as queries:
        refusal, seen = delivery.authorized_call(
            digest, access_conversation, _caller(user), str(conversation.id), named_conversation=str(conversation.id)
        )
    assert refusal is None and seen.id == conversation.id and seen.owner_id == user.id
    assert seen.scope == conversation.scope and seen.created_at == conversation.created_at
    assert len(queries) == (1 if connection.vendor == "postgresql" else 2), [q["sql"] for q in queries]


def test_an_unknown_or_malformed_conversation_is_still_unknown(user, conversation, token_for):
    digest = token_digest(token_for(user))
    for named in (str(uuid.uuid4()), "not-a-uuid"):
        with pytest.raises(Rejection) as raised:
            delivery.authorized_call(digest, access_conversation, _caller(user), named, named_conversation=named)
        assert raised.value.code == RejectionCode.UNKNOWN_CONVERSATION


def test_a_revoked_token_or_a_deactivated_user_is_refused_before_the_service(user, conversation, token_for):
    digest = token_digest(token_for(user))
    called = []

    def service() -> None:
        called.append(1)

    user.is_active = False
    user.save(update_fields=["is_active"])
    assert delivery.authorized_call(digest, service, named_conversation=str(conversation.id)) == ("deactivated", None)
    AgentToken.objects.filter(digest=digest).update(revoked_at=timezone.now())
    assert delivery.authorized_call(digest, service, named_conversation=str(conversation.id)) == ("revoked", None)
    assert delivery.authorized_call("0" * 64, service, named_conversation=str(conversation.id)) == ("revoked", None)
    assert called == []


def test_a_frame_without_a_conversation_reads_the_credential_alone(user, token_for):
    """``outbox.ack`` and delivery rounds name no conversation: one statement, the same verdicts."""
    digest = token_digest(token_for(user))
    with CaptureQueriesContext(connection) as queries:
        assert token_refusal(digest) is None
    assert len(queries) == 1, [q["sql"] for q in queries]
    user.is_active = False
    user.save(update_fields=["is_active"])
    assert token_refusal(digest) == "deactivated"
    AgentToken.objects.filter(digest=digest).update(revoked_at=timezone.now())
    assert token_refusal(digest) == "revoked"
    assert token_refusal("0" * 64) == "revoked"
