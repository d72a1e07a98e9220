"""The workspace snapshot of interact.selectors on PostgreSQL (SPEC R-4.1.1, R-4.1.3, R-4.1.5, R-4.3).

``workspace_snapshot`` is what a refreshed or reconnected page rebuilds itself from: the
foreground, every instance with its lifecycle state (and the restored mark), the running focus
with its ``ends_at``, the timeline in order with each App sub-session as one block, the pending
interactions, and each instance's snapshot (read-only once closed). Only the owner can read it.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from typing import Any

import pytest

from interact import selectors
from interact.selectors import workspace_snapshot
from interact.services.interactions import answer_interaction, request_interaction
from interact.services.messages import post_agent_message, post_human_message
from runtime.errors import Rejection, RejectionCode
from runtime.models import Agent, Conversation
from runtime.services.agents import create_agent_token
from runtime.services.conversations import conversation_get_or_create_default
from runtime.services.lifecycle import close_instance, open_app, set_visibility
from runtime.services.recovery import recover_runtime, settle_due
from runtime.services.snapshots import save_snapshot
from runtime.tool_calls import Accepted
from tests.support.factories import T0, AgentDriver, at

pytestmark = pytest.mark.django_db


@pytest.fixture
def agent_row(user) -> Agent:
    agent, _token = create_agent_token(user=user, name="reference", now=T0)
    return agent


def start(agent: AgentDriver, seconds: int = 60, *, now=T0, activity: str = "reading") -> Accepted:
    outcome = agent.start(seconds, activity=activity, now=now)
    assert isinstance(outcome, Accepted), outcome
    return outcome


def snap(user: Any, conversation: Conversation, now: datetime) -> dict[str, Any]:
    return workspace_snapshot(user=user, conversation_id=str(conversation.id), now=now)


def instance(snapshot: dict[str, Any], instance_id: Any) -> dict[str, Any]:
    (found,) = [i for i in snapshot["instances"] if i["instance_id"] == str(instance_id)]
    return found


def interact_view(snapshot: dict[str, Any]) -> dict[str, Any]:
    (found,) = [i for i in snapshot["instances"] if i["is_system"]]
    return found


def blocks(snapshot: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in snapshot["timeline"] if e["type"] == "block"]


# --- foreground, lifecycle and the running focus -------------------------------------------------


@pytest.mark.spec("R-4.1.1", "R-4.1.3", "R-4.1.5")
def test_a_running_focus_is_projected_with_its_deadline(user, conversation, agent):
    """During a focus Pomodoro is the foreground, Interact is in the background, and the operation
    is projected ``focusing`` with its persisted ``ends_at``; its block is open and has no result."""
    started = start(agent, 1500, now=at(0.25))
    snapshot = snap(user, conversation, now=at(100))

    assert snapshot["server_time"] == "2026-01-05T09:01:40.000Z"
    assert snapshot["conversation"]["id"] == str(conversation.id)
    assert snapshot["foreground"] == {"instance_id": str(started.instance_id), "app_id": "pomodoro"}
    pomodoro = instance(snapshot, started.instance_id)
    assert (pomodoro["lifecycle_state"], pomodoro["restored"], pomodoro["closed_at"]) == ("foreground", False, None)
    assert pomodoro["surface"] == "/surfaces/pomodoro/"
    assert interact_view(snapshot)["lifecycle_state"] == "background"
    assert snapshot["operation"] == {
        "operation_id": str(started.operation_id),
        "instance_id": str(started.instance_id),
        "app_session_id": str(started.app_session_id),
        "activity": "reading",
        "state": "focusing",
        "started_at": "2026-01-05T09:00:00.250Z",
        "ends_at": "2026-01-05T09:25:00.250Z",
        "ends_when_left": True,
    }
    assert snapshot["operations"] == {
        str(started.instance_id): {
            **snapshot["operation"],
            "app_id": "pomodoro",
            "app_name": "Pomodoro",
            "running_label": "focusing",
        }
    }
    (block,) = blocks(snapshot)
    assert (block["app_session_id"], block["state"], block["read_only"]) == (str(started.app_session_id), "open", False)
    assert (block["activity"], block["result"], block["ended_at"]) == ("reading", None, None)


def start_quiz(agent: AgentDriver, seconds: int = 300, *, now=T0) -> Accepted:
    questions = [{"prompt": "2 x 3", "answer": "6"}, {"prompt": "4 x 5", "answer": "20"}]
    outcome = agent.call("quiz.start", {"duration_seconds": seconds, "questions": questions}, now=now)
    assert isinstance(outcome, Accepted), outcome
    return outcome


@pytest.mark.spec("R-4.1.3", "R-4.1.5")
def test_each_running_operation_is_projected_under_its_own_instance(user, conversation, agent):
    """A quiz and then a focus run at once: each is under its own instance, naming its app and
    how that app calls it while it runs; the single ``operation`` the previous release's pages read
    is the focus (the one leaving ends), exactly as before."""
    quiz = start_quiz(agent, 300, now=at(0))
    focus = start(agent, 1500, now=at(1))
    snapshot = snap(user, conversation, now=at(2))

    assert set(snapshot["operations"]) == {str(quiz.instance_id), str(focus.instance_id)}
    on_quiz = snapshot["operations"][str(quiz.instance_id)]
    on_focus = snapshot["operations"][str(focus.instance_id)]
    assert on_quiz == {
        "operation_id": str(quiz.operation_id),
        "instance_id": str(quiz.instance_id),
        "app_session_id": str(quiz.app_session_id),
        "title": None,  # the quiz's own projection field (none was given)
        "state": "running",  # the quiz's own word (its running_label); Pomodoro's wire says focusing
        "started_at": "2026-01-05T09:00:00.000Z",
        "ends_at": "2026-01-05T09:05:00.000Z",
        "ends_when_left": False,
        "app_id": "quiz",
        "app_name": "Practice quiz",
        "running_label": "running",
    }
    assert on_focus == {
        "operation_id": str(focus.operation_id),
        "instance_id": str(focus.instance_id),
        "app_session_id": str(focus.app_session_id),
        "activity": "reading",
        "state": "focusing",
        "started_at": "2026-01-05T09:00:01.000Z",
        "ends_at": "2026-01-05T09:25:01.000Z",
        "ends_when_left": True,
        "app_id": "pomodoro",
        "app_name": "Pomodoro",
        "running_label": "focusing",
    }
    # The previous release's key, byte for byte what it was: the focus, though the quiz is older.
    legacy = {k: v for k, v in on_focus.items() if k not in ("app_id", "app_name", "running_label")}
    assert snapshot["operation"] == legacy
    # The focus came to the front; the quiz waits in the background and runs on.
    assert snapshot["foreground"]["instance_id"] == str(focus.instance_id)
    assert instance(snapshot, quiz.instance_id)["lifecycle_state"] == "background"


TIMER_MANIFEST = {
    "manifest_version": 1,
    "app_id": "timer",
    "name": "Reading timer",
    "version": "1.0.0",
    "kind": "bundled",
    "tools": [
        {
            "name": "timer.start",
            "version": 1,
            "call_model": "operation",
            "description": "A reading timer of an app no catalog knows.",
            "conversation_scopes": ["personal"],
            "deadline_operation": {"exclusive": False, "ends_when_left": False, "running_label": "timing"},
            "input_schema": {
                "type": "object",
                "additionalProperties": False,
                "required": ["duration_seconds"],
                "properties": {"duration_seconds": {"type": "integer", "minimum": 1}},
            },
            "result_schema": {"type": "object"},
        }
    ],
}


@pytest.fixture
def timer_app(tmp_path, monkeypatch):
    """An app plugged in as any non-bundled one is: its manifest and handler, nothing in a catalog."""
    from runtime import miniapps
    from runtime.api import register_miniapp, standard_result, start_operation
    from runtime.manifests import load_manifest, registry

    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(TIMER_MANIFEST))
    monkeypatch.setitem(registry(), "timer", load_manifest(path, runtime_tools=frozenset({"timer.start"})))
    monkeypatch.delitem(miniapps._REGISTERED, "timer", raising=False)
    register_miniapp(
        "timer",
        tools={
            "timer.start": lambda request: start_operation(
                request, duration_seconds=request.arguments["duration_seconds"]
            )
        },
        result=standard_result,
    )
    yield
    miniapps._REGISTERED.pop("timer", None)


@pytest.mark.spec("R-4.1.3")
def test_an_app_no_catalog_knows_is_named_by_its_manifest(user, conversation, caller, timer_app):
    """Beside a focus, another app's operation carries its manifest's own name and running word,
    which the page shows when its catalog has no translation for them."""
    agent = AgentDriver(caller=caller, conversation=conversation)
    timer = agent.call("timer.start", {"duration_seconds": 600}, now=at(0))
    focus = start(agent, 60, now=at(1))
    assert isinstance(timer, Accepted), timer
    operations = snap(user, conversation, now=at(2))["operations"]
    on_timer = operations[str(timer.instance_id)]
    assert (on_timer["app_id"], on_timer["app_name"], on_timer["running_label"]) == ("timer", "Reading timer", "timing")
    assert (on_timer["ends_when_left"], on_timer["ends_at"]) == (False, "2026-01-05T09:10:00.000Z")
    assert operations[str(focus.instance_id)]["app_name"] == "Pomodoro"


@pytest.mark.spec("R-4.1.3")
def test_an_operation_leaves_the_snapshot_when_it_ends_and_the_other_stays(user, conversation, agent):
    """When the focus ends, only the quiz is left under ``operations``; the old key falls back to it."""
    quiz = start_quiz(agent, 300, now=at(0))
    focus = start(agent, 60, now=at(1))
    assert settle_due(now=at(61)).settled == [focus.operation_id]
    snapshot = snap(user, conversation, now=at(62))
    assert list(snapshot["operations"]) == [str(quiz.instance_id)]
    assert snapshot["operation"]["operation_id"] == str(quiz.operation_id)
    assert "app_id" not in snapshot["operation"]

    assert settle_due(now=at(300)).settled == [quiz.operation_id]
    ended = snap(user, conversation, now=at(301))
    assert (ended["operations"], ended["operation"]) == ({}, None)


@pytest.mark.spec("R-4.1.3", "R-4.2.2")
def test_a_hidden_host_shows_the_app_suspended_and_back(user, conversation, agent):
    """Dim/lock suspends the foreground Pomodoro (the focus keeps running); visible again brings it back."""
    started = start(agent)
    set_visibility(conversation_id=conversation.id, visible=False, now=at(10))
    hidden = snap(user, conversation, now=at(11))
    assert instance(hidden, started.instance_id)["lifecycle_state"] == "suspended"
    assert hidden["operation"]["state"] == "focusing"

    set_visibility(conversation_id=conversation.id, visible=True, now=at(20))
    shown = snap(user, conversation, now=at(21))
    assert instance(shown, started.instance_id)["lifecycle_state"] == "foreground"
    assert shown["foreground"]["instance_id"] == str(started.instance_id)
    assert shown["operation"]["state"] == "focusing"


@pytest.mark.spec("R-4.1.3", "R-4.2.4", "R-4.3.5", "R-3.13")
def test_after_completion_pomodoro_is_closed_with_a_read_only_snapshot_and_a_result_block(user, conversation, agent):
    """After the deadline Pomodoro is closed (reason completed) with its last snapshot read-only,
    Interact is back in front, no focus runs, and the ended block is read-only with the result."""
    started = start(agent)
    state = {
        "operation_id": str(started.operation_id),
        "activity": "reading",
        "started_at": "2026-01-05T09:00:00.000Z",
        "ends_at": "2026-01-05T09:01:00.000Z",
        "display_state": "focusing",
    }
    saved = save_snapshot(
        conversation_id=conversation.id, instance_id=started.instance_id, state=state, expected_revision=0, now=at(1)
    )
    running = instance(snap(user, conversation, now=at(2)), started.instance_id)
    assert running["snapshot"] == {"revision": saved.revision, "state": state, "read_only": False}

    assert settle_due(now=at(60)).settled == [started.operation_id]
    snapshot = snap(user, conversation, now=at(61))
    pomodoro = instance(snapshot, started.instance_id)
    assert (pomodoro["lifecycle_state"], pomodoro["close_reason"]) == ("closed", "completed")
    assert pomodoro["closed_at"] == "2026-01-05T09:01:00.000Z"
    assert pomodoro["snapshot"] == {"revision": 1, "state": state, "read_only": True}
    assert snapshot["foreground"]["instance_id"] == interact_view(snapshot)["instance_id"]
    assert interact_view(snapshot)["lifecycle_state"] == "foreground"
    assert snapshot["operation"] is None
    assert snapshot["operations"] == {}
    (block,) = blocks(snapshot)
    assert (block["state"], block["read_only"], block["ended_at"]) == ("ended", True, "2026-01-05T09:01:00.000Z")
    assert block["result"] == {
        "state": "completed",
        "operation_id": str(started.operation_id),
        "started_at": "2026-01-05T09:00:00.000Z",
        "ends_at": "2026-01-05T09:01:00.000Z",
        "ended_at": "2026-01-05T09:01:00.000Z",
    }


@pytest.mark.spec("R-4.1.3", "R-2.2.6", "R-4.4.1")
def test_an_instance_that_survived_a_restart_is_marked_restored(user, conversation, agent):
    """After recovery found the focus still running, its Pomodoro shows ``restored`` (Interact does
    not), with the same ``ends_at``."""
    started = start(agent)
    assert instance(snap(user, conversation, now=at(5)), started.instance_id)["restored"] is False
    summary = recover_runtime(now=at(10))
    assert [r["operation_id"] for r in summary.resumed] == [str(started.operation_id)]

    snapshot = snap(user, conversation, now=at(11))
    pomodoro = instance(snapshot, started.instance_id)
    assert (pomodoro["restored"], pomodoro["lifecycle_state"]) == (True, "foreground")
    assert interact_view(snapshot)["restored"] is False
    assert snapshot["operation"]["ends_at"] == "2026-01-05T09:01:00.000Z"


@pytest.mark.spec("R-4.1.3", "R-4.1.5")
def test_open_instances_come_first_and_history_is_the_most_recent(user, conversation, agent, monkeypatch):
    """With more instances than the snapshot holds, the open ones (Interact and the running
    Pomodoro) are always there, followed by the most recently closed ones."""
    closed = []
    for round_ in range(4):
        done = start(agent, now=at(100 * round_))
        assert settle_due(now=at(100 * round_ + 60)).settled == [done.operation_id]
        closed.append(str(done.instance_id))
    running = start(agent, now=at(1000))
    monkeypatch.setattr(selectors, "INSTANCE_LIMIT", 4)

    snapshot = snap(user, conversation, now=at(1001))
    ids = [i["instance_id"] for i in snapshot["instances"]]
    interact_id = interact_view(snapshot)["instance_id"]
    assert set(ids[:2]) == {str(running.instance_id), interact_id}  # open ones first, in any order
    assert ids[2:] == [closed[3], closed[2]]
    assert snapshot["foreground"]["instance_id"] == str(running.instance_id)


# --- the timeline --------------------------------------------------------------------------------


@pytest.mark.spec("R-4.3.2", "R-4.3.3", "R-4.1.5")
def test_the_timeline_is_in_order_with_each_sub_session_as_one_block(user, conversation, agent, agent_row):
    """Main-IM messages, blocks and interactions are in time order; a block's own messages and
    interactions are inside it, in order."""
    hello = post_human_message(conversation=conversation, user_id=user.id, text="focus 60 s on reading", now=at(0))
    started = start(agent, now=at(1))
    block = str(started.app_session_id)
    ack = post_agent_message(conversation=conversation, agent=agent_row, text="Go!", app_session_id=block, now=at(2))
    aside = post_human_message(conversation=conversation, user_id=user.id, text="and after?", now=at(3))
    question = request_interaction(
        conversation=conversation,
        agent=agent_row,
        interaction_id="q-1",
        kind="confirm",
        prompt="Keep going?",
        app_session_id=block,
        now=at(4),
    )
    note = request_interaction(
        conversation=conversation, agent=agent_row, interaction_id="n-1", kind="notice", prompt="FYI", now=at(5)
    )
    done = post_agent_message(
        conversation=conversation, agent=agent_row, text="Result!", app_session_id=block, now=at(6)
    )

    snapshot = snap(user, conversation, now=at(7))
    main = [(e["type"], e.get("message_id") or e.get("app_session_id") or e.get("id")) for e in snapshot["timeline"]]
    assert main == [
        ("message", str(hello.id)),
        ("block", block),
        ("message", str(aside.id)),
        ("interaction", str(note.id)),
    ]
    (block_entry,) = blocks(snapshot)
    inside = [(e["type"], e.get("message_id") or e.get("id")) for e in block_entry["entries"]]
    assert inside == [("message", str(ack.id)), ("interaction", str(question.id)), ("message", str(done.id))]
    assert [i["id"] for i in snapshot["pending_interactions"]] == [str(question.id), str(note.id)]


@pytest.mark.spec("R-4.3.5")
def test_pending_interactions_lists_only_pending_ones_however_old(user, conversation, agent_row, monkeypatch):
    """Answered ones leave the pending list; a pending one stays in it even when more history
    follows than the timeline holds."""
    oldest = request_interaction(
        conversation=conversation, agent=agent_row, interaction_id="old", kind="confirm", prompt="Old?", now=at(0)
    )
    for n in range(4):
        answered = request_interaction(
            conversation=conversation,
            agent=agent_row,
            interaction_id=f"a-{n}",
            kind="notice",
            prompt="hi",
            now=at(n + 1),
        )
        answer_interaction(conversation_ids=[conversation.id], interaction_pk=answered.pk, value=None, now=at(n + 1))
    monkeypatch.setattr(selectors, "TIMELINE_LIMIT", 3)

    snapshot = snap(user, conversation, now=at(10))
    assert [i["id"] for i in snapshot["pending_interactions"]] == [str(oldest.id)]
    assert snapshot["pending_interactions"][0]["status"] == "pending"


@pytest.mark.spec("R-4.3.5")
def test_continue_makes_a_new_block_and_the_old_one_stays_read_only(user, conversation, agent, agent_row):
    """A new start after a result is a new instance and a new open block; the first block stays
    ended and read-only with its result, and messages go only into the new one."""
    first = start(agent)
    settle_due(now=at(60))
    second = start(agent, now=at(70), activity="writing")
    assert (second.instance_id, second.app_session_id) != (first.instance_id, first.app_session_id)
    post_agent_message(
        conversation=conversation,
        agent=agent_row,
        text="Round 2",
        app_session_id=str(second.app_session_id),
        now=at(71),
    )
    with pytest.raises(Rejection) as excinfo:
        post_agent_message(
            conversation=conversation, agent=agent_row, text="x", app_session_id=str(first.app_session_id), now=at(72)
        )
    assert excinfo.value.code == RejectionCode.APP_SESSION_ENDED

    old, new = blocks(snap(user, conversation, now=at(80)))
    assert (old["app_session_id"], old["read_only"], old["result"]["state"]) == (
        str(first.app_session_id),
        True,
        "completed",
    )
    assert old["entries"] == []
    assert (new["app_session_id"], new["read_only"], new["result"], new["activity"]) == (
        str(second.app_session_id),
        False,
        None,
        "writing",
    )
    assert [e["text"] for e in new["entries"]] == ["Round 2"]


# --- access --------------------------------------------------------------------------------------


@pytest.mark.spec("R-2.2.3")
@pytest.mark.parametrize("which", ["foreign", "random", "garbage"])
def test_only_the_owner_can_read_a_workspace(user, other_user, which):
    """Another user's conversation, an unknown id or a malformed one is ``unknown_conversation``."""
    foreign = conversation_get_or_create_default(user=other_user)
    conversation_id = {"foreign": str(foreign.id), "random": str(uuid.uuid4()), "garbage": "main"}[which]
    with pytest.raises(Rejection) as excinfo:
        workspace_snapshot(user=user, conversation_id=conversation_id, now=T0)
    assert excinfo.value.code == RejectionCode.UNKNOWN_CONVERSATION


@pytest.mark.spec("R-4.1.5")
def test_without_an_id_the_snapshot_is_of_the_users_default_conversation(user, other_user):
    """No conversation id means the user's default conversation; only the user's own are listed."""
    foreign = conversation_get_or_create_default(user=other_user)
    snapshot = workspace_snapshot(user=user, conversation_id=None, now=T0)
    mine = conversation_get_or_create_default(user=user)
    assert snapshot["conversation"]["id"] == str(mine.id)
    assert [c["id"] for c in snapshot["conversations"]] == [str(mine.id)]
    assert str(foreign.id) not in str(snapshot)


@pytest.mark.spec("R-3.13", "R-4.3.1")
def test_an_ended_block_carries_only_the_text_a_person_wrote_in_a_closed_app(user, conversation, agent):
    """A closed note's text (its schema marks it text/plain) comes with its ended block; an open
    note's block and a Pomodoro block (ids and times, no such text) carry none."""
    notes = open_app(conversation_id=conversation.id, app_id="notes", now=at(1))
    save_snapshot(
        conversation_id=conversation.id,
        instance_id=notes.id,
        state={"text": "买牛奶\nmilk"},
        expected_revision=0,
        now=at(2),
    )
    open_block = next(b for b in blocks(snap(user, conversation, now=at(3))) if b["instance_id"] == str(notes.id))
    assert open_block["kept_text"] == []
    close_instance(conversation_id=conversation.id, instance_id=notes.id, now=at(4))
    started = start(agent, now=at(5))
    save_snapshot(
        conversation_id=conversation.id,
        instance_id=started.instance_id,
        state={
            "operation_id": str(started.operation_id),
            "activity": "reading",
            "started_at": "2026-01-05T09:00:05.000Z",
            "ends_at": "2026-01-05T09:01:05.000Z",
            "display_state": "focusing",
        },
        expected_revision=0,
        now=at(6),
    )
    assert settle_due(now=at(65)).settled == [started.operation_id]
    shown = {b["instance_id"]: b for b in blocks(snap(user, conversation, now=at(66)))}
    assert shown[str(notes.id)]["kept_text"] == ["买牛奶\nmilk"]
    assert shown[str(started.instance_id)]["kept_text"] == []
