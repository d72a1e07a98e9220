"""Every ``tool.rejected`` and ``error`` code over a real WebSocket: each leaves the connection
usable and the database unchanged (docs/agent-protocol.md § Codes)."""

from __future__ import annotations

import json
import uuid

import pytest
from websockets.exceptions import ConnectionClosed

from lineup.gateways.agent_socket.consumer import CORRELATION_FIELDS
from lineup.gateways.agent_socket.frames import PROTOCOL
from runtime.models import LifecycleEvent
from runtime.services.conversations import conversation_get_or_create_default
from runtime.wire import MAX_FRAME_BYTES
from tests.lineup.gateways.agent_socket.client import Closed, row_counts

LIFECYCLE = LifecycleEvent._meta.label
# Daphne's own WebSocket message limit (its --websocket-max-message-size default): autobahn drops a
# connection that sends more before the frame ever reaches the consumer.
DAPHNE_MAX_MESSAGE_BYTES = 1024 * 1024


def _still_usable(sock, conversation_id: str) -> None:
    inventory = sock.answer_to_barrier(conversation_id)
    assert inventory["type"] == "inventory" and inventory["conversation_id"] == conversation_id, inventory


@pytest.mark.spec("R-2.2.3", "R-3.11", "R-3.12", "R-3.5", "R-3.6")
def test_every_tool_rejection_code_over_the_wire_changes_nothing(live, connect, token, conversation, other_user):
    """invalid_arguments, unknown_tool, stale_inventory, unknown_conversation, forbidden,
    active_focusing_operation and idempotency_key_reused each come back as tool.rejected with their
    code; afterwards the connection answers, nothing but the tool.rejected event was written, and a
    rejected key can be used again once the cause is fixed."""
    conversation_id = str(conversation.id)
    foreign_id = str(conversation_get_or_create_default(user=other_user).id)
    sock = connect()
    sock.hello(token)
    revision = sock.inventory(conversation_id)["revision"]
    running = sock.start(conversation_id, "running", 600)
    assert running["type"] == "tool.accepted", running

    cases = [
        ("invalid_arguments", conversation_id, "k-zero", "pomodoro.start", {"duration_seconds": 0}, revision),
        ("invalid_arguments", conversation_id, "k-string", "pomodoro.start", {"duration_seconds": "25"}, revision),
        ("invalid_arguments", conversation_id, "k-bool", "pomodoro.start", {"duration_seconds": True}, revision),
        ("invalid_arguments", conversation_id, "k-float", "pomodoro.start", {"duration_seconds": 2.5}, revision),
        ("invalid_arguments", conversation_id, "k-missing", "pomodoro.start", {}, revision),
        ("invalid_arguments", conversation_id, "k-day", "pomodoro.start", {"duration_seconds": 86401}, revision),
        (
            "invalid_arguments",
            conversation_id,
            "k-extra",
            "pomodoro.start",
            {"duration_seconds": 60, "instance_id": "x"},
            revision,
        ),
        (
            "invalid_arguments",
            conversation_id,
            "k-act",
            "pomodoro.start",
            {"duration_seconds": 60, "activity": 7},
            revision,
        ),
        (
            "invalid_arguments",
            conversation_id,
            "k-target",
            "pomodoro.interrupt",
            {"operation_id": running["operation_id"]},
            revision,
        ),
        ("unknown_tool", conversation_id, "k-tool", "pomodoro.snooze", {}, revision),
        ("unknown_tool", conversation_id, "k-notes", "notes.write", {}, revision),
        (
            "stale_inventory",
            conversation_id,
            "k-stale",
            "pomodoro.start",
            {"duration_seconds": 60},
            "inv-0000000000000000",
        ),
        ("unknown_conversation", str(uuid.uuid4()), "k-conv", "pomodoro.start", {"duration_seconds": 60}, revision),
        ("unknown_conversation", "not-a-uuid", "k-conv2", "pomodoro.start", {"duration_seconds": 60}, revision),
        ("forbidden", foreign_id, "k-foreign", "pomodoro.start", {"duration_seconds": 60}, revision),
        ("forbidden", foreign_id, "k-foreign2", "pomodoro.interrupt", {}, revision),
        (
            "active_focusing_operation",
            conversation_id,
            "k-second",
            "pomodoro.start",
            {"duration_seconds": 60},
            revision,
        ),
        ("idempotency_key_reused", conversation_id, "running", "pomodoro.start", {"duration_seconds": 601}, revision),
        ("idempotency_key_reused", conversation_id, "running", "pomodoro.interrupt", {}, revision),
    ]
    before = row_counts()
    events_before = LifecycleEvent.objects.count()
    for code, target, call_id, tool, arguments, rev in cases:
        answer = sock.call(target, call_id, tool, arguments, rev)
        assert answer == {
            "type": "tool.rejected",
            "conversation_id": target,
            "source_tool_call_id": call_id,
            "code": code,
            "detail": answer.get("detail"),
        }, (code, tool, arguments, answer)
        assert isinstance(answer["detail"], str) and answer["detail"]
        _still_usable(sock, conversation_id)
        after = row_counts()
        assert {k: v for k, v in after.items() if k != LIFECYCLE} == {
            k: v for k, v in before.items() if k != LIFECYCLE
        }, (code, call_id)
    # The only rows written are the rejections' own decision-log entries, one each.
    new_events = list(LifecycleEvent.objects.filter(id__gt=0).order_by("id").values_list("kind", flat=True))[
        events_before:
    ]
    assert new_events == ["tool.rejected"] * len(cases)
    assert not sock.pushed  # no rejection woke or settled anything

    # A rejected key was not stored: once the focus is interrupted, "k-second" starts one.
    receipt = sock.call(conversation_id, "stop", "pomodoro.interrupt", {}, revision)
    assert receipt["type"] == "tool.receipt" and receipt["receipt"]["status"] == "interrupted", receipt
    again = sock.call(conversation_id, "k-second", "pomodoro.start", {"duration_seconds": 60}, revision)
    assert again["type"] == "tool.accepted" and again["replayed"] is False, again

    # Each decision is a log line with the connection's ids.
    agent_id = sock.welcome["agent_id"]
    rejected = live.wait(
        lambda: (
            len(live.main.log_events("agent.tool_call", agent_id=agent_id, outcome="Rejected")) >= len(cases)
            and live.main.log_events("agent.tool_call", agent_id=agent_id, outcome="Rejected")
        ),
        "agent.tool_call lines",
    )
    assert {line["source_tool_call_id"] for line in rejected} >= {c[2] for c in cases}
    assert all(line["connection_id"] for line in rejected)
    assert live.main.log_events("tool.rejected", code="active_focusing_operation", source_tool_call_id="k-second")


def _padded_message(conversation_id: str, size: int) -> str:
    """A message.send frame of exactly ``size`` UTF-8 bytes."""
    empty = json.dumps({"type": "message.send", "conversation_id": conversation_id, "text": ""})
    return json.dumps({"type": "message.send", "conversation_id": conversation_id, "text": "a" * (size - len(empty))})


@pytest.mark.spec("R-2.2.3")
def test_malformed_invalid_and_refused_frames_get_an_error_and_change_nothing(
    live, connect, token, token_for, user, conversation, other_user
):
    """Before hello: not_authenticated and unsupported_protocol, then the connection is closed 4401; after it:
    already_authenticated, malformed_frame (not JSON, duplicate keys, NaN, Infinity, binary, not an
    object, too deep, U+0000 or a lone surrogate in a string), unknown_frame_type, invalid_frame (missing, extra and mistyped fields, naming the
    field), frame_too_large (65 537 bytes up to Daphne's 1 MiB message limit; 65 536 passes the size
    check), and the service
    refusals (unknown_conversation, forbidden, invalid_arguments, unknown_app_session,
    idempotency_key_reused). Each is one error frame, the same connection answers the next frame, and
    not one row is written."""
    conversation_id = str(conversation.id)
    foreign_id = str(conversation_get_or_create_default(user=other_user).id)
    sock = connect()

    # An interaction to reuse the key of, created before the snapshot of the database.
    setup = connect()
    setup.hello(token)
    pending = setup.request(
        {
            "type": "interaction.request",
            "conversation_id": conversation_id,
            "interaction_id": "ask-1",
            "kind": "confirm",
            "prompt": "Ready?",
        }
    )
    assert pending["type"] == "interaction.pending", pending
    setup.close()

    other_token = token_for(other_user)  # for a second hello, by another Agent
    before = row_counts()

    def refused(frame, code: str, *, mentions: str | None = None, then_usable: bool = True) -> None:
        answer = sock.request(frame)
        assert answer["type"] == "error" and answer["code"] == code, (frame if len(str(frame)) < 300 else "…", answer)
        # An error names the request it answers: the ids the frame carried, nothing else.
        # (A raw frame's ids are echoed when it decoded to an object: each echoed value is in its text.)
        if isinstance(frame, dict):
            echoed = {
                k: v for k, v in frame.items() if k in CORRELATION_FIELDS and isinstance(v, str) and 0 < len(v) <= 128
            }
        else:
            raw = frame if isinstance(frame, str) else frame.decode("utf-8", "replace")
            echoed = {k: v for k, v in answer.items() if k in CORRELATION_FIELDS and json.dumps(v) in raw}
        assert set(answer) == {"type", "code", "detail", *echoed} and answer["detail"]
        assert {k: answer[k] for k in echoed} == echoed
        if mentions is not None:
            assert mentions in answer["detail"], answer
        if then_usable:
            _still_usable(sock, conversation_id)
        assert row_counts() == before, (code, answer)

    # --- before hello: answered, then closed 4401 (the first frame must be a valid hello) ------
    for first, code in (
        ({"type": "inventory.get", "conversation_id": conversation_id}, "not_authenticated"),
        ({"type": "hello", "token": token, "protocol": "lineup.agent.v0"}, "unsupported_protocol"),
        ({"type": "outbox.ack", "outbox_id": str(uuid.uuid4())}, "not_authenticated"),
        ("not json", "malformed_frame"),  # parsing comes first, even before hello
        ('{"type": "hello", "token": "lu_\\ud800", "protocol": "lineup.agent.v1"}', "malformed_frame"),
    ):
        sock = connect()
        refused(first, code, then_usable=False)
        assert sock.close_code() == 4401
    sock = connect()
    sock.hello(token)
    assert row_counts() == before

    refused({"type": "hello", "token": token, "protocol": PROTOCOL}, "already_authenticated")
    refused({"type": "hello", "token": other_token, "protocol": PROTOCOL}, "already_authenticated")

    # --- malformed_frame ------------------------------------------------------------------
    refused("not json", "malformed_frame")
    refused('{"type": "inventory.get", "conversation_id": ', "malformed_frame")
    refused(
        f'{{"type": "inventory.get", "conversation_id": "{conversation_id}", "conversation_id": "{foreign_id}"}}',
        "malformed_frame",
        mentions="duplicate",
    )
    nan_call = (
        f'{{"type": "tool.call", "conversation_id": "{conversation_id}", "source_tool_call_id": "nan",'
        f' "tool": "pomodoro.start", "arguments": {{"duration_seconds": %s}}, "inventory_revision": "x"}}'
    )
    refused(nan_call % "NaN", "malformed_frame")
    refused(nan_call % "Infinity", "malformed_frame")
    refused(nan_call % "-Infinity", "malformed_frame")
    refused(json.dumps({"type": "inventory.get", "conversation_id": conversation_id}).encode(), "malformed_frame")
    refused(json.dumps([{"type": "inventory.get", "conversation_id": conversation_id}]), "malformed_frame")
    refused('"inventory.get"', "malformed_frame")
    refused("42", "malformed_frame")
    refused("null", "malformed_frame")
    deep = {"type": "tool.call", "conversation_id": conversation_id, "source_tool_call_id": "deep"}
    nested: object = 1
    for _ in range(40):
        nested = {"a": nested}
    refused(
        json.dumps({**deep, "tool": "pomodoro.start", "arguments": nested, "inventory_revision": "x"}),
        "malformed_frame",
        mentions="nesting",
    )
    refused("[" * 30000 + "]" * 30000, "malformed_frame")  # 60 KB of nesting: no RecursionError escapes
    # Strings PostgreSQL can not store (U+0000) or UTF-8 can not encode (a lone surrogate), in any field.
    for escaped in ("a\\u0000b", "\\ud800", "x\\udc00"):
        refused(
            f'{{"type": "message.send", "conversation_id": "{conversation_id}", "text": "{escaped}"}}',
            "malformed_frame",
        )
        refused(nan_call.replace('"nan"', f'"{escaped}"') % "60", "malformed_frame")
        refused(
            f'{{"type": "interaction.request", "conversation_id": "{conversation_id}", "interaction_id": "i",'
            f' "kind": "notice", "prompt": "?", "{escaped}": 1}}',
            "malformed_frame",
        )

    # --- unknown_frame_type ---------------------------------------------------------------
    refused({"type": "tool.cancel", "conversation_id": conversation_id}, "unknown_frame_type")
    refused({"type": "welcome"}, "unknown_frame_type")  # a server frame is not a client frame
    refused({"conversation_id": conversation_id}, "unknown_frame_type")
    refused({"type": 5}, "unknown_frame_type")

    # --- invalid_frame --------------------------------------------------------------------
    refused({"type": "inventory.get"}, "invalid_frame", mentions="conversation_id")
    refused({"type": "inventory.get", "conversation_id": 12345}, "invalid_frame", mentions="conversation_id")
    refused({"type": "inventory.get", "conversation_id": ""}, "invalid_frame", mentions="conversation_id")
    refused(
        {"type": "inventory.get", "conversation_id": conversation_id, "scope": "all"}, "invalid_frame", mentions="scope"
    )
    refused({"type": "hello", "token": token}, "invalid_frame", mentions="protocol")
    # A call whose arguments are not an object is still a call: rejected by the Router, with its ids.
    list_args = sock.request(
        {
            "type": "tool.call",
            "conversation_id": conversation_id,
            "source_tool_call_id": "list-args",
            "tool": "pomodoro.start",
            "arguments": [60],
            "inventory_revision": "x",
        }
    )
    assert (list_args["type"], list_args["code"], list_args["source_tool_call_id"]) == (
        "tool.rejected",
        "invalid_arguments",
        "list-args",
    ), list_args
    assert list_args["conversation_id"] == conversation_id and "arguments" in list_args["detail"]
    # Like every Router rejection it is one decision-log entry, and nothing else.
    before = {**before, "runtime.LifecycleEvent": before["runtime.LifecycleEvent"] + 1}
    assert row_counts() == before
    refused(
        {
            "type": "tool.call",
            "conversation_id": conversation_id,
            "source_tool_call_id": "x" * 129,
            "tool": "pomodoro.start",
            "arguments": {"duration_seconds": 60},
            "inventory_revision": "x",
        },
        "invalid_frame",
        mentions="source_tool_call_id",
    )
    refused(
        {"type": "tool.call", "conversation_id": conversation_id, "tool": "pomodoro.interrupt", "arguments": {}},
        "invalid_frame",
    )
    refused({"type": "message.send", "conversation_id": conversation_id, "text": 42}, "invalid_frame", mentions="text")
    refused(
        {"type": "message.send", "conversation_id": conversation_id, "text": "x" * 4001},
        "invalid_frame",
        mentions="text",
    )
    refused(
        {
            "type": "interaction.request",
            "conversation_id": conversation_id,
            "interaction_id": "k",
            "kind": "poll",
            "prompt": "?",
        },
        "invalid_frame",
        mentions="kind",
    )
    refused(
        {
            "type": "interaction.request",
            "conversation_id": conversation_id,
            "interaction_id": "k",
            "kind": "confirm",
            "prompt": "?",
            "timeout_seconds": "60",
        },
        "invalid_frame",
        mentions="timeout_seconds",
    )
    refused({"type": "outbox.ack", "outbox_id": None}, "invalid_frame", mentions="outbox_id")

    # --- frame_too_large (the limit is on UTF-8 bytes) -------------------------------------
    assert MAX_FRAME_BYTES == 65536
    at_limit = _padded_message(conversation_id, MAX_FRAME_BYTES)
    assert len(at_limit.encode()) == MAX_FRAME_BYTES
    refused(at_limit, "invalid_frame", mentions="text")  # past the size check; the text is too long
    refused(_padded_message(conversation_id, MAX_FRAME_BYTES + 1), "frame_too_large")
    refused("é" * (MAX_FRAME_BYTES // 2 + 1), "frame_too_large")  # 32 769 characters, 65 538 bytes
    refused(_padded_message(conversation_id, DAPHNE_MAX_MESSAGE_BYTES), "frame_too_large")  # 1 MiB: still answered

    # --- refusals by the services ---------------------------------------------------------
    refused({"type": "inventory.get", "conversation_id": str(uuid.uuid4())}, "unknown_conversation")
    refused({"type": "inventory.get", "conversation_id": "not-a-uuid"}, "unknown_conversation")
    refused({"type": "inventory.get", "conversation_id": foreign_id}, "forbidden")
    refused({"type": "message.send", "conversation_id": conversation_id, "text": "   \n "}, "invalid_arguments")
    refused(
        {"type": "message.send", "conversation_id": conversation_id, "text": "hi", "app_session_id": str(uuid.uuid4())},
        "unknown_app_session",
    )
    refused(
        {"type": "message.send", "conversation_id": conversation_id, "text": "hi", "app_session_id": "nope"},
        "unknown_app_session",
    )
    choice = {"type": "interaction.request", "conversation_id": conversation_id, "kind": "choice", "prompt": "Which?"}
    refused({**choice, "interaction_id": "c1", "options": [{"id": "a", "label": "A"}]}, "invalid_arguments")
    refused(
        {**choice, "interaction_id": "c2", "options": [{"id": "a", "label": "A"}, {"id": "a", "label": "B"}]},
        "invalid_arguments",
    )
    refused(
        {**choice, "interaction_id": "c3", "options": [{"id": "a", "label": "A"}, {"id": "b"}]}, "invalid_arguments"
    )
    refused(
        {**choice, "kind": "confirm", "interaction_id": "c4", "options": [{"id": "a", "label": "A"}]},
        "invalid_arguments",
    )
    refused({**choice, "kind": "confirm", "interaction_id": "c5", "prompt": "   "}, "invalid_arguments")
    refused({**choice, "kind": "confirm", "interaction_id": "ask-1", "prompt": "Ready now?"}, "idempotency_key_reused")
    refused({"type": "outbox.ack", "outbox_id": "nope"}, "forbidden")
    refused({"type": "outbox.ack", "outbox_id": str(uuid.uuid4())}, "forbidden")

    # Every refusal is a log line with its code and the connection's ids.
    agent_id = sock.welcome["agent_id"]
    codes = {
        line["code"]
        for line in live.wait(
            lambda: (
                live.main.log_events("agent.frame_rejected", agent_id=agent_id, code="forbidden")
                and live.main.log_events("agent.frame_rejected", agent_id=agent_id)
            ),
            "agent.frame_rejected lines",
        )
    }
    assert codes >= {
        "already_authenticated",
        "malformed_frame",
        "unknown_frame_type",
        "invalid_frame",
        "frame_too_large",
        "unknown_conversation",
        "forbidden",
        "invalid_arguments",
        "unknown_app_session",
        "idempotency_key_reused",
    }, codes
    anonymous = live.main.log_events("agent.frame_rejected", code="not_authenticated", agent_id=None)
    assert anonymous and all(line["connection_id"] for line in anonymous)


@pytest.mark.spec("R-2.2.3")
def test_a_bad_token_is_refused_and_closed_with_4401(live, connect, conversation):
    """A hello with an unknown token, or one without the token prefix, gets error unauthorized and the
    server closes the connection with code 4401."""
    before = row_counts()
    for bad in ("lu_" + "x" * 43, "not-a-token"):
        sock = connect()
        answer = sock.request({"type": "hello", "token": bad, "protocol": PROTOCOL})
        assert answer["type"] == "error" and answer["code"] == "unauthorized", answer
        assert sock.close_code() == 4401
    assert row_counts() == before
    assert live.main.log_events("agent.unauthorized")


@pytest.mark.spec("R-2.2.3")
def test_a_frame_over_the_transport_limit_drops_only_that_connection(live, connect, token, conversation):
    """A 10 MB frame is beyond Daphne's 1 MiB message limit: the transport drops that connection (no
    error frame, no close code) before LineUp reads it. Nothing is written, another open connection of
    the same Agent keeps working, and the Agent can connect again."""
    conversation_id = str(conversation.id)
    bystander = connect()
    bystander.hello(token)
    before = row_counts()
    sock = connect()
    sock.hello(token)
    try:
        sock.send_raw(_padded_message(conversation_id, 10 * 1024 * 1024))
    except ConnectionClosed:
        pass  # the server may drop it while the client is still sending
    with pytest.raises(Closed) as dropped:
        sock.answer()
    assert dropped.value.code is None  # dropped, not closed with a code
    _still_usable(bystander, conversation_id)
    again = connect()
    again.hello(token)
    _still_usable(again, conversation_id)
    assert row_counts() == before
