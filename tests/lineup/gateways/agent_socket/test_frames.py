"""The happy path of every ``lineup.agent.v1`` frame over a real WebSocket against a live Daphne
(docs/agent-protocol.md): hello/welcome, inventory, tool.call and its answers, tool.result with
outbox.ack, message.send, interaction.request/resolved and user.message — including what happened
while no Agent was connected."""

from __future__ import annotations

import uuid
from datetime import datetime

import pytest
from django.utils import timezone

from interact.models import AuthorKind, Interaction, InteractionStatus, Message
from interact.services.interactions import answer_interaction, dismiss_interaction
from interact.services.messages import post_human_message
from lineup.gateways.agent_socket.frames import PROTOCOL
from runtime.inventory import inventory_for_scope
from runtime.models import Agent, AppSession, AppSessionState, Conversation, Operation, OutboxEntry
from runtime.services.conversations import conversation_get_or_create_default
from runtime.transitions import OperationState
from tests.support.factories import activity_of, planned_seconds


def _message_sent(sock, conversation_id: str, text: str, app_session_id: str | None = None) -> dict:
    frame = {"type": "message.send", "conversation_id": conversation_id, "text": text}
    if app_session_id is not None:
        frame["app_session_id"] = app_session_id
    return sock.request(frame)


@pytest.mark.spec("R-3.11")
def test_welcome_lists_the_users_conversations_and_inventory_publishes_both_tools(
    live, connect, token_for, user, conversation, other_user
):
    """welcome carries the Agent id, the protocol, the limits and exactly the user's conversations (the
    default one included; another user's never); a user without one gets the default created at hello.
    inventory answers with the current revision and the two Pomodoro descriptors."""
    second = Conversation.objects.create(owner=user, title="Second")
    conversation_get_or_create_default(user=other_user)
    sock = connect()
    welcome = sock.hello(token_for(user))
    agent = Agent.objects.get(user=user)
    assert welcome == {
        "type": "welcome",
        "agent_id": str(agent.id),
        "protocol": PROTOCOL,
        "conversations": [str(conversation.id), str(second.id)],
        "limits": welcome["limits"],
    }
    # Every limit of the doors (tests/lineup/gateways/agent_socket/test_limits.py checks each value).
    assert welcome["limits"]["max_frame_bytes"] == 65536
    assert welcome["limits"]["outbox_redelivery_seconds"] == 1.0
    assert len(welcome["limits"]) == 15

    inventory = sock.inventory(str(second.id))
    expected = inventory_for_scope(conversation.scope).published()
    assert inventory == {"type": "inventory", "conversation_id": str(second.id), **expected}
    assert inventory["revision"].startswith("inv-")
    tools = {tool["name"]: tool for tool in inventory["tools"]}
    assert {"notes.append", "notes.read", "pomodoro.interrupt", "pomodoro.start", "quiz.start", "quiz.stop"} <= set(
        tools
    )  # and any other app's
    assert (tools["pomodoro.start"]["call_model"], tools["pomodoro.interrupt"]["call_model"]) == ("operation", "short")
    for tool in tools.values():
        assert set(tool) == {"name", "version", "app_id", "call_model", "description", "input_schema", "result_schema"}
        assert tool["app_id"] == tool["name"].split(".", 1)[0]

    # A user who never had a conversation: hello creates the default one and lists it alone.
    newcomer = type(user).objects.create_user(username="cy", password="pw-cy-12345")
    fresh = connect()
    listed = fresh.hello(token_for(newcomer))["conversations"]
    assert listed == [str(Conversation.objects.get(owner=newcomer, is_default=True).id)]


@pytest.mark.spec("R-3.5", "R-3.6", "R-3.7", "R-3.10", "R-2.2.8", "R-4.3.5")
def test_tool_calls_receipts_results_acks_and_messages(live, connect, token, user, conversation):
    """start -> tool.accepted (ids of the rows it created); message.send into the open block and the
    main IM -> message.sent; a retry -> replayed, same ids; interrupt -> tool.receipt interrupted, then
    its one tool.result (agent_interrupt), acked; the ended block refuses messages (app_session_ended);
    late interrupts get operation_already_final, a retried receipt is replayed, a retried start returns
    the final result; a conversation without any focus answers no_active_focusing_operation; a 1-second
    start completes on its own (the embedded scheduler) and reports completed."""
    conversation_id = str(conversation.id)
    sock = connect()
    sock.hello(token)
    revision = sock.inventory(conversation_id)["revision"]

    accepted = sock.start(conversation_id, "c-1", 600, activity="reading")
    operation = Operation.objects.get(source_tool_call_id="c-1")
    assert accepted == {
        "type": "tool.accepted",
        "conversation_id": conversation_id,
        "source_tool_call_id": "c-1",
        "operation_id": str(operation.id),
        "instance_id": str(operation.instance_id),
        "app_session_id": str(operation.app_session_id),
        "replayed": False,
    }
    assert (operation.state, planned_seconds(operation), activity_of(operation)) == (
        OperationState.RUNNING,
        600,
        "reading",
    )
    block = accepted["app_session_id"]

    in_block = _message_sent(sock, conversation_id, "Focus started: 10 minutes of reading.", block)
    in_main = _message_sent(sock, conversation_id, "  I'll tell you when it is done.  ")
    assert in_block == {
        "type": "message.sent",
        "conversation_id": conversation_id,
        "message_id": in_block["message_id"],
        "app_session_id": block,
    }
    assert in_main["type"] == "message.sent" and in_main["app_session_id"] is None
    stored = Message.objects.get(pk=in_block["message_id"])
    assert (stored.author_kind, str(stored.app_session_id), stored.author_agent.user_id) == (
        AuthorKind.AGENT,
        block,
        user.id,
    )
    assert Message.objects.get(pk=in_main["message_id"]).text == "I'll tell you when it is done."  # trimmed

    retry = sock.call(
        conversation_id, "c-1", "pomodoro.start", {"duration_seconds": 600, "activity": "reading"}, revision
    )
    assert retry == {**accepted, "replayed": True}

    receipt = sock.call(conversation_id, "i-1", "pomodoro.interrupt", {}, revision)
    assert receipt == {
        "type": "tool.receipt",
        "conversation_id": conversation_id,
        "source_tool_call_id": "i-1",
        "receipt": {"status": "interrupted", "operation_id": str(operation.id)},
        "replayed": False,
    }
    result = sock.push("tool.result")
    entry = OutboxEntry.objects.get(operation=operation)
    assert result == {
        "type": "tool.result",
        "outbox_id": str(entry.id),
        "conversation_id": conversation_id,
        "source_tool_call_id": "c-1",
        "tool": "pomodoro.start",
        "result": entry.payload["result"],
    }
    assert result["result"]["state"] == "interrupted" and result["result"]["interruption_reason"] == "agent_interrupt"
    assert result["result"]["operation_id"] == str(operation.id)
    sock.ack(result["outbox_id"], conversation_id)
    assert OutboxEntry.objects.get(pk=entry.id).acked_at is not None

    assert AppSession.objects.get(pk=block).state == AppSessionState.ENDED
    ended = _message_sent(sock, conversation_id, "One more thing", block)
    assert ended["type"] == "error" and ended["code"] == "app_session_ended", ended
    assert Message.objects.filter(app_session_id=block).count() == 1

    late = sock.call(conversation_id, "i-2", "pomodoro.interrupt", {}, revision)
    assert late["receipt"] == {"status": "operation_already_final", "operation_id": str(operation.id)}, late
    assert sock.call(conversation_id, "i-1", "pomodoro.interrupt", {}, revision) == {**receipt, "replayed": True}
    final_retry = sock.call(
        conversation_id, "c-1", "pomodoro.start", {"duration_seconds": 600, "activity": "reading"}, revision
    )
    assert final_retry == {**accepted, "replayed": True, "result": result["result"]}
    assert OutboxEntry.objects.filter(operation=operation).count() == 1

    elsewhere = Conversation.objects.create(owner=user, title="Elsewhere")
    other = connect()  # welcome lists the new conversation on a new connection
    assert str(elsewhere.id) in other.hello(token)["conversations"]
    nothing = other.call(str(elsewhere.id), "i-3", "pomodoro.interrupt", {}, revision)
    assert nothing["receipt"] == {"status": "no_active_focusing_operation"}, nothing
    other.close()

    completed = sock.start(conversation_id, "c-2", 1)
    assert completed["type"] == "tool.accepted" and completed["replayed"] is False
    done = sock.push("tool.result", source_tool_call_id="c-2")
    assert done["result"]["state"] == "completed"
    assert done["result"]["ended_at"] == done["result"]["ends_at"]
    sock.ack(done["outbox_id"], conversation_id)
    assert not OutboxEntry.objects.filter(conversation=conversation, acked_at__isnull=True).exists()

    # Each tool call is a log line with its outcome and the connection's ids.
    agent_id = sock.welcome["agent_id"]
    outcomes = live.wait(
        lambda: (
            {
                (line["source_tool_call_id"], line["outcome"])
                for line in live.main.log_events("agent.tool_call", agent_id=agent_id)
                if line.get("connection_id")
            }
            >= {("c-1", "Accepted"), ("i-1", "Receipt"), ("c-2", "Accepted")}
        ),
        "agent.tool_call lines",
    )
    assert outcomes


def _ask(sock, conversation_id: str, interaction_id: str, kind: str, **extra) -> dict:
    pending = sock.request(
        {
            "type": "interaction.request",
            "conversation_id": conversation_id,
            "interaction_id": interaction_id,
            "kind": kind,
            "prompt": f"{kind}?",
            **extra,
        }
    )
    assert pending == {
        "type": "interaction.pending",
        "conversation_id": conversation_id,
        "interaction_id": interaction_id,
        "status": "pending",
    }, pending
    return pending


def _answer(conversation, interaction_id: str, value: object, now: datetime | None = None) -> None:
    interaction = Interaction.objects.get(conversation=conversation, interaction_id=interaction_id)
    answer_interaction(
        conversation_ids=[conversation.id], interaction_pk=interaction.pk, value=value, now=now or timezone.now()
    )


@pytest.mark.spec("R-2.1.1", "R-4.3.4", "R-4.3.5")
def test_interactions_resolve_and_person_messages_arrive_also_after_a_reconnect(
    live, connect, token, user, conversation
):
    """interaction.request -> interaction.pending; the person's answer -> interaction.resolved for each
    kind (confirm, choice, input, notice), a dismissal and a timeout (the Runtime's sweep); one asked
    about an open block stays answerable after the block ended. post_human_message -> user.message.
    What the person wrote or answered while no Agent was connected arrives after the next welcome, once."""
    conversation_id = str(conversation.id)
    sock = connect()
    sock.hello(token)

    _ask(sock, conversation_id, "q-confirm", "confirm")
    _ask(sock, conversation_id, "q-choice", "choice", options=[{"id": "a", "label": "A"}, {"id": "b", "label": "B"}])
    _ask(sock, conversation_id, "q-input", "input")
    _ask(sock, conversation_id, "q-notice", "notice")
    _ask(sock, conversation_id, "q-dismiss", "confirm")
    _ask(sock, conversation_id, "q-timeout", "confirm", timeout_seconds=1)
    assert Interaction.objects.filter(conversation=conversation, status=InteractionStatus.PENDING).count() == 6

    for interaction_id, value in (
        ("q-confirm", True),
        ("q-choice", "b"),
        ("q-input", "after lunch"),
        ("q-notice", None),
    ):
        _answer(conversation, interaction_id, value)
        resolved = sock.push("interaction.resolved", interaction_id=interaction_id)
        assert resolved == {
            "type": "interaction.resolved",
            "conversation_id": conversation_id,
            "interaction_id": interaction_id,
            "status": "answered",
            "value": value,
        }
    dismissed = Interaction.objects.get(conversation=conversation, interaction_id="q-dismiss")
    dismiss_interaction(conversation_ids=[conversation.id], interaction_pk=dismissed.pk, now=timezone.now())
    assert sock.push("interaction.resolved", interaction_id="q-dismiss")["status"] == "dismissed"
    timed_out = sock.push("interaction.resolved", interaction_id="q-timeout", timeout=10)
    assert (timed_out["status"], timed_out["value"]) == ("timed_out", None)

    # A retry of an answered request returns its state and sends nothing again.
    again = sock.request(
        {
            "type": "interaction.request",
            "conversation_id": conversation_id,
            "interaction_id": "q-confirm",
            "kind": "confirm",
            "prompt": "confirm?",
        }
    )
    assert again["type"] == "interaction.pending" and again["status"] == "answered"

    # One about an open block, still pending when the block ends: answerable, never in the block.
    block = sock.start(conversation_id, "c-1", 600)["app_session_id"]
    _ask(sock, conversation_id, "q-block", "confirm", app_session_id=block)
    revision = sock.inventory(conversation_id)["revision"]
    assert sock.call(conversation_id, "i-1", "pomodoro.interrupt", {}, revision)["type"] == "tool.receipt"
    assert AppSession.objects.get(pk=block).state == AppSessionState.ENDED
    _answer(conversation, "q-block", False)
    assert sock.push("interaction.resolved", interaction_id="q-block")["value"] is False
    assert Message.objects.filter(app_session_id=block).count() == 0

    said = post_human_message(conversation=conversation, user_id=user.id, text="start a focus", now=timezone.now())
    message = sock.push("user.message")
    assert message == {
        "type": "user.message",
        "conversation_id": conversation_id,
        "message_id": str(said.id),
        "text": "start a focus",
        "created_at": said.created_at.isoformat(),
    }

    # While no Agent is connected: the person writes twice and answers one question.
    _ask(sock, conversation_id, "q-away", "confirm")
    sock.close()
    away = [
        post_human_message(conversation=conversation, user_id=user.id, text=text, now=timezone.now())
        for text in ("are you there?", "stop")
    ]
    _answer(conversation, "q-away", True)
    assert Message.objects.filter(pk__in=[m.id for m in away], delivered_to_agent_at__isnull=True).count() == 2

    # Nothing was acked, so the reconnected Agent is sent every message again (the one it had been
    # sent too: a socket that dropped after the send may never have passed it on) and every resolution.
    back = connect()
    back.hello(token)
    messages = {back.push("user.message")["message_id"] for _ in range(3)}
    assert messages == {str(said.id), *(str(m.id) for m in away)}
    assert back.push("interaction.resolved", interaction_id="q-away")["value"] is True
    resolved = {"q-away"} | {f["interaction_id"] for f in back.pushed if f["type"] == "interaction.resolved"}
    for message_id in messages:
        back.send({"type": "message.ack", "message_id": message_id})
    for interaction_id in resolved:
        back.send({"type": "interaction.ack", "conversation_id": conversation_id, "interaction_id": interaction_id})
    assert back.answer_to_barrier(conversation_id)["type"] == "inventory"  # the acks were handled
    assert not Message.objects.filter(
        conversation=conversation, author_kind="human", delivered_to_agent_at__isnull=True
    ).exists()
    # Acked: nothing of it comes again, not even after redelivery rounds (one already reading when the
    # acks were handled may still land in the first interval) nor on a new connection.
    back.frames_within(1.2)
    later = back.frames_within(2.5)
    assert [f for f in later if f["type"] in {"user.message", "interaction.resolved"}] == [], later
    fresh = connect()
    fresh.hello(token)
    assert [f for f in fresh.frames_within(1.5) if f["type"] in {"user.message", "interaction.resolved"}] == []
    # A wrong ack is refused and names what it was about.
    fresh.send({"type": "message.ack", "message_id": str(uuid.uuid4())})
    refused = fresh.answer()
    assert (refused["type"], refused["code"], "message_id" in refused) == ("error", "forbidden", True), refused


@pytest.mark.spec("R-2.1.1")
def test_a_persons_message_carries_the_language_they_read(live, connect, token, user, conversation):
    """user.message names the page's language when the person wrote it, else their saved one, else
    nothing (an optional field): an Agent answers in it without reading LineUp's rows."""
    from interact.models import LanguagePreference

    conversation_id = str(conversation.id)
    sock = connect()
    sock.hello(token)

    def sent(text: str, **extra: object) -> dict:
        post_human_message(conversation=conversation, user_id=user.id, text=text, now=timezone.now(), **extra)
        frame = sock.push("user.message")
        sock.send({"type": "message.ack", "message_id": frame["message_id"]})
        assert frame["conversation_id"] == conversation_id and frame["text"] == text
        return frame

    assert "language" not in sent("focus 25 minutes")
    assert sent("专注25分钟", language="zh-hans")["language"] == "zh-hans"
    LanguagePreference.objects.create(user=user, language="zh-hans")
    assert sent("stop")["language"] == "zh-hans"
    assert sent("stop now", language="en")["language"] == "en"  # the page's language wins
