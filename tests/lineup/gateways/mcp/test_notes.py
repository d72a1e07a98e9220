"""Scratch notes and what runs in the conversation, over MCP (real HTTP, live Daphne, PostgreSQL).

``notes.append`` / ``notes.read`` are short tools answered by their receipts; a full note is an
error result with the stable code ``notes_full``; ``lineup.conversation_state`` answers the open
instances (with their Agent-readable state) and running operations of the bound conversation only;
the status tool answers any app's own fields.
"""

from __future__ import annotations

import pytest

from runtime.models import InstanceSnapshot

QUESTIONS = [{"prompt": "3 + 4 =", "answer": "7"}]


@pytest.mark.spec("R-2.2.4")
def test_notes_over_mcp_append_read_and_show_in_the_conversation_state(live, mcp, conversation):
    tools = {tool.name: tool for tool in mcp.list_tools().tools}
    assert {"notes.append", "notes.read", "lineup.conversation_state"} <= set(tools)
    assert tools["lineup.conversation_state"].annotations.read_only_hint is True
    assert "ui" not in (tools["notes.append"].meta or {})  # no host Surface for an app without operations

    first = mcp.call("notes.append", {"text": "note that the boiler is due"}, key="n-1")
    assert not first.is_error and first.structured_content["status"] == "appended", first
    retried = mcp.call("notes.append", {"text": "note that the boiler is due"}, key="n-1")
    assert retried.structured_content == first.structured_content and retried.meta["lineup/replayed"] is True
    read = mcp.call("notes.read", {})
    assert read.structured_content["text"] == "note that the boiler is due"
    assert InstanceSnapshot.objects.get(instance_id=first.structured_content["instance_id"]).state == {
        "text": "note that the boiler is due"
    }

    state = mcp.call("lineup.conversation_state", {})
    assert not state.is_error, state
    seen = state.structured_content
    assert seen["conversation_id"] == str(conversation.id)
    [notes] = seen["instances"]
    assert (notes["app_id"], notes["state"]) == ("notes", {"text": "note that the boiler is due"})
    assert seen["operations"] == []

    refused = mcp.call("lineup.conversation_state", {"conversation_id": "x"})
    assert refused.is_error and refused.structured_content["code"] == "invalid_arguments"


def test_a_full_note_is_an_error_result_with_its_code(live, mcp):
    assert not mcp.call("notes.append", {"text": "z" * 2000}).is_error
    refused = mcp.call("notes.append", {"text": "more"})
    assert refused.is_error and refused.structured_content["code"] == "notes_full", refused


def test_the_status_tool_and_the_state_answer_any_apps_own_fields(live, mcp):
    created = mcp.call_as_task("quiz.start", {"duration_seconds": 600, "title": "Sevens", "questions": QUESTIONS})
    operation_id = created.task.task_id
    status = mcp.call("lineup.operation_status", {"operation_id": operation_id}).structured_content
    assert (status["app_id"], status["title"]) == ("quiz", "Sevens")  # the quiz's own field, not only Pomodoro's
    [operation] = mcp.call("lineup.conversation_state", {}).structured_content["operations"]
    assert (operation["operation_id"], operation["tool"], operation["title"]) == (operation_id, "quiz.start", "Sevens")
    assert "answer" not in str(operation)  # the answer key is a private detail
    resource = mcp.read_resource(f"lineup://operations/{operation_id}").contents[0].text
    assert '"title":"Sevens"' in resource and '"app_id":"quiz"' in resource


def test_another_conversation_is_not_read(live, connect, token_for, other_user, conversation):
    from runtime.services.conversations import conversation_get_or_create_default

    theirs = conversation_get_or_create_default(user=other_user)
    mine = connect(token_for(other_user, "theirs"), theirs.id)
    mine.call("notes.append", {"text": "private"})
    # This user's own Agent reads only its own conversation's notes (the URL binds it).
    outsider = connect(token_for(conversation.owner, "mine"), conversation.id)
    assert outsider.call("lineup.conversation_state", {}).structured_content["instances"] == []
