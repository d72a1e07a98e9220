"""Cross-tenant isolation and token revocation on ``/ws/agent/`` (SPEC R-2.2.3): an Agent acts only
for its own user's conversations, and a revoked token's live connection is closed."""

from __future__ import annotations

import contextlib
import uuid

import pytest
from django.utils import timezone
from websockets.exceptions import ConnectionClosed

from interact.models import Interaction
from interact.services.interactions import answer_interaction
from interact.services.messages import post_human_message
from lineup.gateways.agent_socket.frames import PROTOCOL
from runtime.models import AgentToken, LifecycleEvent, Operation, OutboxEntry, ToolCall
from runtime.services.agents import revoke_agent_token
from runtime.services.conversations import conversation_get_or_create_default
from tests.lineup.gateways.agent_socket.client import row_counts

LIFECYCLE = LifecycleEvent._meta.label


@pytest.mark.spec("R-2.2.3", "R-2.2.8")
def test_another_users_agent_can_not_read_or_act_on_a_conversation(
    live, connect, token_for, user, conversation, other_user
):
    """Bob's Agent is listed only Bob's conversation; on Ada's it gets forbidden for inventory.get,
    tool.call (start and interrupt), message.send, interaction.request and outbox.ack of Ada's result,
    and unknown_app_session for Ada's block; nothing changes (Ada's focus keeps running, her result
    stays unacked). Meanwhile Ada's result, messages and resolutions reach Ada's Agent and never Bob's."""
    ada_id = str(conversation.id)
    bob_conversation = conversation_get_or_create_default(user=other_user)
    ada = connect()
    ada.hello(token_for(user))
    bob = connect()
    assert bob.hello(token_for(other_user))["conversations"] == [str(bob_conversation.id)]
    revision = bob.inventory(str(bob_conversation.id))["revision"]

    assert ada.start(ada_id, "ada-1", 1)["type"] == "tool.accepted"
    result = ada.push("tool.result", source_tool_call_id="ada-1")
    running = ada.start(ada_id, "ada-2", 600)
    assert running["type"] == "tool.accepted", running
    interaction = ada.request(
        {
            "type": "interaction.request",
            "conversation_id": ada_id,
            "interaction_id": "ask",
            "kind": "confirm",
            "prompt": "?",
        }
    )
    assert interaction["type"] == "interaction.pending"

    before = row_counts()
    events_before = LifecycleEvent.objects.count()
    refusals = [
        ({"type": "inventory.get", "conversation_id": ada_id}, "error", "forbidden"),
        (
            {
                "type": "tool.call",
                "conversation_id": ada_id,
                "source_tool_call_id": "bob-1",
                "tool": "pomodoro.start",
                "arguments": {"duration_seconds": 60},
                "inventory_revision": revision,
            },
            "tool.rejected",
            "forbidden",
        ),
        (
            {
                "type": "tool.call",
                "conversation_id": ada_id,
                "source_tool_call_id": "bob-2",
                "tool": "pomodoro.interrupt",
                "arguments": {},
                "inventory_revision": revision,
            },
            "tool.rejected",
            "forbidden",
        ),
        (
            # A retry of Ada's own call id is not answered from Ada's rows either.
            {
                "type": "tool.call",
                "conversation_id": ada_id,
                "source_tool_call_id": "ada-1",
                "tool": "pomodoro.start",
                "arguments": {"duration_seconds": 1},
                "inventory_revision": revision,
            },
            "tool.rejected",
            "forbidden",
        ),
        ({"type": "message.send", "conversation_id": ada_id, "text": "hi"}, "error", "forbidden"),
        (
            {
                "type": "message.send",
                "conversation_id": str(bob_conversation.id),
                "text": "hi",
                "app_session_id": running["app_session_id"],
            },
            "error",
            "unknown_app_session",
        ),
        (
            {
                "type": "interaction.request",
                "conversation_id": ada_id,
                "interaction_id": "x",
                "kind": "notice",
                "prompt": "?",
            },
            "error",
            "forbidden",
        ),
        (
            {
                "type": "interaction.request",
                "conversation_id": ada_id,
                "interaction_id": "ask",
                "kind": "confirm",
                "prompt": "?",
            },
            "error",
            "forbidden",
        ),
        ({"type": "outbox.ack", "outbox_id": result["outbox_id"]}, "error", "forbidden"),
        ({"type": "inventory.get", "conversation_id": str(uuid.uuid4())}, "error", "unknown_conversation"),
    ]
    for frame, answer_type, code in refusals:
        answer = bob.request(frame)
        assert (answer["type"], answer["code"]) == (answer_type, code), (frame, answer)
        assert "ada-1" not in str(answer.get("detail")) and ada_id not in str(answer.get("detail"))
    assert {k: v for k, v in row_counts().items() if k != LIFECYCLE} == {
        k: v for k, v in before.items() if k != LIFECYCLE
    }
    new_events = LifecycleEvent.objects.order_by("id").values_list("kind", flat=True)[events_before:]
    assert list(new_events) == ["tool.rejected"] * 3
    assert OutboxEntry.objects.get(pk=result["outbox_id"]).acked_at is None
    assert Interaction.objects.get(conversation=conversation, interaction_id="ask").status == "pending"

    # Ada's world moves on: her message, her answer, a redelivery round; Bob hears none of it.
    post_human_message(conversation=conversation, user_id=user.id, text="private", now=timezone.now())
    assert ada.push("user.message")["text"] == "private"
    asked = Interaction.objects.get(conversation=conversation, interaction_id="ask")
    answer_interaction(conversation_ids=[conversation.id], interaction_pk=asked.pk, value=True, now=timezone.now())
    assert ada.push("interaction.resolved", interaction_id="ask")["value"] is True
    assert ada.push("tool.result", source_tool_call_id="ada-1", timeout=3)["outbox_id"] == result["outbox_id"]
    assert bob.pushed == [] and bob.frames_within(1.5) == []


@pytest.mark.spec("R-2.2.3")
def test_revoking_a_token_closes_its_connections_and_refuses_it(live, connect, token_for, user, conversation):
    """Revoking one of an Agent's two tokens closes the live connection that used it (error
    unauthorized, close 4401) on each server process, leaves the other token's connection working,
    and refuses a new hello with the revoked token (unauthorized, 4401)."""
    conversation_id = str(conversation.id)
    revoked_token = token_for(user)
    kept_token = token_for(user)
    on_main = connect(live.main)
    on_main.hello(revoked_token)
    on_remote = connect(live.remote)
    on_remote.hello(revoked_token)
    kept = connect(live.main)
    kept.hello(kept_token)

    row = AgentToken.objects.get(prefix=revoked_token[:10])
    assert revoke_agent_token(token_id=row.pk, now=timezone.now()) is True
    for sock in (on_main, on_remote):
        assert sock.close_code() == 4401
        assert [(f["type"], f["code"]) for f in sock.pushed] == [("error", "unauthorized")]
    assert kept.inventory(conversation_id)["conversation_id"] == conversation_id

    again = connect(live.remote)
    answer = again.request({"type": "hello", "token": revoked_token, "protocol": PROTOCOL})
    assert (answer["type"], answer["code"]) == ("error", "unauthorized")
    assert again.close_code() == 4401
    assert live.main.log_events("agent.revoked", agent_id=kept.welcome["agent_id"])


def _start_frame(conversation_id: str, call_id: str, revision: str) -> dict:
    return {
        "type": "tool.call",
        "conversation_id": conversation_id,
        "source_tool_call_id": call_id,
        "tool": "pomodoro.start",
        "arguments": {"duration_seconds": 600},
        "inventory_revision": revision,
    }


@pytest.mark.spec("R-2.2.3")
def test_deactivating_a_user_closes_their_agents_connections_and_fails_their_questions(
    live, connect, token_for, user, conversation, other_user
):
    """Ada is deactivated (``is_active = False``, saved, as the admin does) while two of her Agents
    are connected, on each server process: every connection gets ``error unauthorized`` and close
    4401, a tool.call sent right after the save starts nothing, her Agents' pending question is
    failed (``user_deactivated``) and not delivered to them, a new hello is refused, and Bob's Agent
    keeps working."""
    conversation_id = str(conversation.id)
    planner_token, coach_token = token_for(user, "planner"), token_for(user, "coach")
    planner = connect(live.main)
    planner.hello(planner_token)
    coach = connect(live.remote)
    coach.hello(coach_token)
    bob = connect(live.main)
    bob_conversation = str(bob.hello(token_for(other_user))["conversations"][0])
    asked = coach.request(
        {
            "type": "interaction.request",
            "conversation_id": conversation_id,
            "interaction_id": "ask",
            "kind": "confirm",
            "prompt": "?",
        }
    )
    assert asked["status"] == "pending", asked
    revision = planner.inventory(conversation_id)["revision"]

    user.is_active = False
    user.save()
    # Sent at once: it races the close (which may already have happened), and either way it must not be handled.
    with contextlib.suppress(ConnectionClosed, OSError):
        planner.send(_start_frame(conversation_id, "after-deactivation", revision))
    for sock in (planner, coach):
        assert sock.close_code() == 4401
        assert [(f["type"], f["code"]) for f in sock.pushed] == [("error", "unauthorized")], sock.pushed
        assert "deactivated" in sock.pushed[0]["detail"]
    assert not ToolCall.objects.filter(source_tool_call_id="after-deactivation").exists()
    assert not Operation.objects.exists()

    question = Interaction.objects.get(conversation=conversation, interaction_id="ask")
    assert (question.status, question.resolution_delivered_at) == ("failed", None)
    failed = LifecycleEvent.objects.get(kind="interaction.failed")
    assert failed.data["reason"] == "user_deactivated"

    again = connect(live.remote)
    answer = again.request({"type": "hello", "token": planner_token, "protocol": PROTOCOL})
    assert (answer["type"], answer["code"]) == ("error", "unauthorized")
    assert again.close_code() == 4401
    assert bob.inventory(bob_conversation)["conversation_id"] == bob_conversation
    assert live.main.log_events("agent.deactivated", agent_id=planner.welcome["agent_id"])
    assert live.remote.log_events("agent.deactivated", agent_id=coach.welcome["agent_id"])


@pytest.mark.spec("R-2.2.3")
def test_an_agent_of_a_user_deactivated_without_a_hint_is_refused_on_its_next_frame(
    live, connect, token_for, user, conversation
):
    """Ada is deactivated by a bulk update (no save signal, so no hint reaches her connections): her
    Agent's next tool.call is answered ``error unauthorized`` instead of being handled (nothing
    started) and the connection closed with 4401; an idle connection of hers is closed by its next
    redelivery round, without sending anything."""
    conversation_id = str(conversation.id)
    token = token_for(user)
    busy = connect(live.main)
    busy.hello(token)
    idle = connect(live.main)
    idle.hello(token)
    revision = busy.inventory(conversation_id)["revision"]

    type(user).objects.filter(pk=user.pk).update(is_active=False)
    answer = busy.request(_start_frame(conversation_id, "after-deactivation", revision))
    assert (answer["type"], answer["code"]) == ("error", "unauthorized"), answer
    assert busy.close_code() == 4401
    assert not ToolCall.objects.filter(source_tool_call_id="after-deactivation").exists()
    assert not Operation.objects.exists()

    assert idle.close_code(timeout=5) == 4401  # the main server's redelivery round is 1 s
    assert [(f["type"], f["code"]) for f in idle.pushed] == [("error", "unauthorized")]
