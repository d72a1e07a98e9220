"""An Agent over /ws/agent/ reads what runs in its conversation (``conversation.state.get``) and uses
Scratch notes' tools: real Daphne, real socket, PostgreSQL.

The read answers the open instances with the state fields their manifests let an Agent read (the
notes' text; never Pomodoro's snapshot) and the running operations with their apps' own fields; it
is scoped like every frame (another person's conversation is refused) and writes nothing.
"""

from __future__ import annotations

import uuid

import pytest

from runtime.models import InstanceSnapshot, LifecycleEvent, ToolCall
from tests.lineup.gateways.agent_socket.client import row_counts

NOTE = "买牛奶"  # what "帮我记一下" asks to keep


def state_of(socket, conversation_id: str) -> dict:
    answer = socket.request({"type": "conversation.state.get", "conversation_id": conversation_id})
    assert answer["type"] == "conversation.state", answer
    return answer


@pytest.mark.spec("R-2.2.4")
def test_an_agent_appends_to_notes_and_reads_them_back_over_the_socket(live, connect, token, conversation):
    conversation_id = str(conversation.id)
    socket = connect()
    socket.hello(token)
    revision = socket.inventory(conversation_id)["revision"]
    assert state_of(socket, conversation_id) == {
        "type": "conversation.state",
        "conversation_id": conversation_id,
        "instances": [],
        "operations": [],
        "recently_ended": [],
        "truncated": False,
    }

    first = socket.call(conversation_id, "note-1", "notes.append", {"text": NOTE}, revision)
    assert first["type"] == "tool.receipt" and first["receipt"]["status"] == "appended", first
    again = socket.call(conversation_id, "note-1", "notes.append", {"text": NOTE}, revision)
    assert (again["replayed"], again["receipt"]) == (True, first["receipt"])
    socket.call(conversation_id, "note-2", "notes.append", {"text": "call the plumber"}, revision)
    read = socket.call(conversation_id, "read-1", "notes.read", {}, revision)
    assert read["receipt"]["text"] == NOTE + "\ncall the plumber"
    assert InstanceSnapshot.objects.get(instance_id=first["receipt"]["instance_id"]).state == {
        "text": NOTE + "\ncall the plumber"
    }

    started = socket.start(conversation_id, "focus-1", 600, activity="write the report")
    assert started["type"] == "tool.accepted", started
    before = row_counts(), LifecycleEvent.objects.count(), ToolCall.objects.count()
    seen = state_of(socket, conversation_id)
    assert (row_counts(), LifecycleEvent.objects.count(), ToolCall.objects.count()) == before  # a read writes nothing
    apps = {item["app_id"]: item for item in seen["instances"]}
    assert apps["notes"]["state"] == {"text": NOTE + "\ncall the plumber"}
    assert apps["notes"]["lifecycle_state"] == "background"
    assert apps["pomodoro"]["lifecycle_state"] == "foreground" and "state" not in apps["pomodoro"]
    [operation] = seen["operations"]
    assert (operation["operation_id"], operation["app_id"], operation["activity"]) == (
        started["operation_id"],
        "pomodoro",
        "write the report",
    )


def test_a_full_note_is_refused_over_the_socket_with_its_stable_code(live, connect, token, conversation):
    conversation_id = str(conversation.id)
    socket = connect()
    socket.hello(token)
    revision = socket.inventory(conversation_id)["revision"]
    socket.call(conversation_id, "fill", "notes.append", {"text": "x" * 2000}, revision)
    refused = socket.call(conversation_id, "over", "notes.append", {"text": "y"}, revision)
    assert (refused["type"], refused["code"]) == ("tool.rejected", "notes_full"), refused


def test_another_persons_conversation_is_not_read(live, connect, token, conversation, other_user):
    from runtime.services.conversations import conversation_get_or_create_default

    theirs = conversation_get_or_create_default(user=other_user)
    socket = connect()
    socket.hello(token)
    for conversation_id in (str(theirs.id), str(uuid.uuid4())):
        answer = socket.request({"type": "conversation.state.get", "conversation_id": conversation_id})
        assert answer["type"] == "error" and answer["code"] in ("forbidden", "unknown_conversation"), answer
    extra = socket.request({"type": "conversation.state.get", "conversation_id": str(conversation.id), "x": 1})
    assert (extra["type"], extra["code"]) == ("error", "invalid_frame")
