"""App instances without an operation (runtime.services.instances through runtime.api).

An app's short tool opens an instance with its initial state and no deadline, writes and reads its
state and closes it, with what operations guarantee: a retry of the call id is answered from the
stored receipt, a state the manifest refuses writes nothing, the quota and the revision hold (the
Surface's own write path), every call is audited, the sub-session opens and ends with the
instance, and a restart changes nothing. Driven through Scratch notes, whose tools are built on it,
and through ``runtime.api`` directly for the calls Notes does not publish (open, close).
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from runtime import api
from runtime.errors import Rejection, RejectionCode
from runtime.models import AppInstance, AppSession, InstanceSnapshot, LifecycleEvent, Operation, ToolCall
from runtime.selectors import what_runs
from runtime.services.lifecycle import open_app, return_to_interact
from runtime.services.recovery import recover_runtime
from runtime.services.settlements import settle_operation
from runtime.services.snapshots import encoded_size, save_snapshot
from runtime.tool_calls import Receipt, Rejected
from runtime.transitions import LifecycleState, OperationState, Trigger
from tests.support.factories import T0, at

pytestmark = pytest.mark.django_db


def request(conversation, call_id: str, *, tool: str = "notes.open", arguments: dict | None = None, now=T0):
    """A validated call of a Notes tool as a handler receives it (Notes publishes no open/close: the
    Runtime's services do not care which of the app's tools calls them)."""
    return api.ToolRequest(
        conversation_id=conversation.id,
        source_tool_call_id=call_id,
        tool=tool,
        arguments=arguments or {},
        now=now,
        caller="agent:test",
        agent_id=None,
        channel="agent_socket",
    )


def counts(conversation) -> tuple[int, int, int, int]:
    return (
        AppInstance.objects.filter(conversation=conversation, app_id="notes").count(),
        AppSession.objects.filter(conversation=conversation).count(),
        InstanceSnapshot.objects.filter(instance__conversation=conversation).count(),
        ToolCall.objects.filter(conversation=conversation).count(),
    )


def kinds(conversation) -> list[str]:
    return list(LifecycleEvent.objects.filter(conversation_id=conversation.id).values_list("kind", flat=True))


def appended(outcome: Any) -> dict[str, Any]:
    assert isinstance(outcome, Receipt), outcome
    assert outcome.receipt["status"] == "appended", outcome
    return outcome.receipt


# --- open ---------------------------------------------------------------------------------------


def test_open_instance_writes_the_instance_its_session_and_its_first_state_once(conversation):
    opened = api.open_instance(request(conversation, "open-1"), initial_state={"text": "hello"})
    receipt = opened.receipt
    assert receipt["status"] == "opened" and receipt["revision"] == 1
    instance = AppInstance.objects.get(pk=receipt["instance_id"])
    # Behind what is in front, with no operation and no deadline.
    assert (instance.app_id, instance.lifecycle_state, instance.focus_seq) == ("notes", "background", 0)
    assert not Operation.objects.filter(instance=instance).exists()
    session = AppSession.objects.get(instance=instance)
    assert (str(session.id), session.state) == (receipt["app_session_id"], "open")
    snapshot = InstanceSnapshot.objects.get(instance=instance)
    assert (snapshot.revision, snapshot.state, snapshot.size_bytes) == (
        1,
        {"text": "hello"},
        encoded_size({"text": "hello"}),
    )
    assert [k for k in kinds(conversation) if k != "instance.foreground"][-4:] == [
        "instance.opened",
        "app_session.opened",
        "snapshot.saved",
        "tool.receipt",
    ]

    before = counts(conversation), kinds(conversation)
    retried = api.open_instance(request(conversation, "open-1", now=at(5)), initial_state={"text": "hello"})
    assert retried.replayed and retried.receipt == receipt
    assert (counts(conversation), kinds(conversation)) == before  # answered from the stored call


def test_a_retry_with_other_arguments_is_refused_idempotency_key_reused(conversation, agent):
    appended(agent.call("notes.append", {"text": "one"}, now=T0, call_id="same"))
    before = counts(conversation)
    outcome = agent.call("notes.append", {"text": "two"}, now=at(1), call_id="same")
    assert isinstance(outcome, Rejected) and outcome.code == RejectionCode.IDEMPOTENCY_KEY_REUSED
    assert counts(conversation) == before
    assert InstanceSnapshot.objects.get(instance__app_id="notes").state == {"text": "one"}


@pytest.mark.parametrize(
    ("state", "code"),
    [
        ({"text": 7}, RejectionCode.STATE_SCHEMA_VIOLATION),
        ({"text": "x", "secret": "y"}, RejectionCode.STATE_SCHEMA_VIOLATION),
        ({"text": "字" * 1400}, RejectionCode.STATE_TOO_LARGE),  # 4 200 bytes > 4 096, 1 400 chars < 2 000
    ],
)
def test_a_bad_initial_state_is_refused_with_nothing_written(conversation, state, code):
    open_app(conversation_id=conversation.id, app_id="notes", now=T0)  # the workspace exists already
    before = counts(conversation)
    with pytest.raises(Rejection) as refused:
        api.open_instance(request(conversation, "bad-1", now=at(1)), initial_state=state)
    assert refused.value.code == code
    assert counts(conversation) == before
    assert not LifecycleEvent.objects.filter(conversation_id=conversation.id, kind="snapshot.saved").exists()
    # Nothing stored: the same call id with a good state is a first call, not a retry.
    assert api.open_instance(request(conversation, "bad-1", now=at(2)), initial_state={"text": "ok"}).replayed is False


def test_an_instance_opened_in_front_takes_the_foreground(conversation):
    opened = api.open_instance(request(conversation, "front-1"), initial_state={"text": ""}, foreground=True)
    instance = AppInstance.objects.get(pk=opened.receipt["instance_id"])
    assert instance.lifecycle_state == LifecycleState.FOREGROUND
    interact = AppInstance.objects.get(conversation=conversation, is_system=True)
    assert interact.lifecycle_state == LifecycleState.BACKGROUND


def test_opening_in_front_during_a_focus_follows_the_switch_rule(conversation, agent):
    started = agent.start(600, now=T0)
    api.open_instance(request(conversation, "front-2", now=at(10)), initial_state={"text": ""}, foreground=True)
    focus = Operation.objects.get(pk=started.operation_id)
    assert (focus.state, focus.interruption_reason) == (OperationState.INTERRUPTED, "switched_app")


# --- save: notes.append -------------------------------------------------------------------------


@pytest.mark.spec("R-2.2.4")
def test_appends_write_one_instance_with_the_revision_moving_by_one(conversation, agent):
    first = appended(agent.call("notes.append", {"text": "buy milk"}, now=T0))
    second = appended(agent.call("notes.append", {"text": "call mum"}, now=at(1)))
    assert first["instance_id"] == second["instance_id"]
    assert (first["revision"], second["revision"]) == (1, 2)
    snapshot = InstanceSnapshot.objects.get(instance_id=first["instance_id"])
    assert (snapshot.revision, snapshot.state) == (2, {"text": "buy milk\ncall mum"})
    assert second["bytes_used"] == snapshot.size_bytes == encoded_size(snapshot.state)
    assert second["characters"] == len("buy milk\ncall mum")


def test_an_append_writes_to_the_notes_the_person_opened(conversation, agent):
    """The Surface and the tool share one state: the person's note, then the Agent's line under it."""
    instance = open_app(conversation_id=conversation.id, app_id="notes", now=T0)
    save_snapshot(
        conversation_id=conversation.id, instance_id=instance.id, state={"text": "mine"}, expected_revision=0, now=at(1)
    )
    receipt = appended(agent.call("notes.append", {"text": "the Agent's"}, now=at(2)))
    assert receipt["instance_id"] == str(instance.id)
    assert InstanceSnapshot.objects.get(instance=instance).state == {"text": "mine\nthe Agent's"}
    # The Surface's next save with the revision it read is stale: it reloads, nothing is lost.
    with pytest.raises(Rejection) as stale:
        save_snapshot(
            conversation_id=conversation.id,
            instance_id=instance.id,
            state={"text": "mine!"},
            expected_revision=1,
            now=at(3),
        )
    assert stale.value.code == RejectionCode.STALE_REVISION


def test_a_full_note_is_refused_notes_full_with_nothing_written(conversation, agent):
    receipt = appended(agent.call("notes.append", {"text": "a" * 1990}, now=T0))
    before = counts(conversation), InstanceSnapshot.objects.get(instance_id=receipt["instance_id"]).revision
    events = LifecycleEvent.objects.count()
    outcome = agent.call("notes.append", {"text": "b" * 20}, now=at(1))
    assert isinstance(outcome, Rejected) and outcome.code == "notes_full", outcome
    # One event: the Router's, naming the app's code.
    rejected = LifecycleEvent.objects.latest("id")
    assert (rejected.kind, rejected.data["code"]) == ("tool.rejected", "notes_full")
    assert LifecycleEvent.objects.count() == events + 1
    assert "1990 of 2000 characters" in outcome.detail
    snapshot = InstanceSnapshot.objects.get(instance_id=receipt["instance_id"])
    assert (counts(conversation), snapshot.revision) == before
    assert snapshot.state == {"text": "a" * 1990}
    # What still fits is taken (1 990 + newline + 9 = 2 000).
    assert appended(agent.call("notes.append", {"text": "c" * 9}, now=at(2)))["characters"] == 2000


def test_a_full_note_in_bytes_is_refused_too(conversation, agent):
    """1 300 Chinese characters are 3 900 bytes: under 2 000 characters, over the 4 096-byte quota."""
    appended(agent.call("notes.append", {"text": "字" * 1300}, now=T0))
    outcome = agent.call("notes.append", {"text": "字" * 100}, now=at(1))
    assert isinstance(outcome, Rejected) and outcome.code == "notes_full"


def test_the_runtime_quota_holds_whatever_the_app_checks(conversation):
    """An app whose change ignores the quota still can not write past it: state_too_large."""
    api.open_instance(request(conversation, "q-1"), initial_state={"text": ""})
    with pytest.raises(Rejection) as refused:
        api.save_instance_state(request(conversation, "q-2", now=at(1)), lambda view: {"text": "字" * 1400})
    assert refused.value.code == RejectionCode.STATE_TOO_LARGE
    assert InstanceSnapshot.objects.get(instance__app_id="notes").revision == 1


def test_a_save_without_an_open_instance_is_refused_unless_it_may_open_one(conversation):
    with pytest.raises(Rejection) as refused:
        api.save_instance_state(request(conversation, "s-1"), lambda view: {"text": "x"})
    assert refused.value.code == RejectionCode.UNKNOWN_INSTANCE
    assert counts(conversation)[0] == 0


# --- read -----------------------------------------------------------------------------------------


def test_notes_read_answers_the_text_and_no_notes_before_any(conversation, agent):
    empty = agent.call("notes.read", {}, now=T0)
    assert isinstance(empty, Receipt) and empty.receipt == {"status": "no_notes", "text": ""}
    receipt = appended(agent.call("notes.append", {"text": "remember the eggs"}, now=at(1)))
    read = agent.call("notes.read", {}, now=at(2), call_id="read-1")
    assert read.receipt == {
        "status": "read",
        "instance_id": receipt["instance_id"],
        "open": True,
        "text": "remember the eggs",
    }
    appended(agent.call("notes.append", {"text": "and flour"}, now=at(3)))
    # A retry of the read is answered with what it read then.
    assert agent.call("notes.read", {}, now=at(4), call_id="read-1").receipt["text"] == "remember the eggs"


# --- close ----------------------------------------------------------------------------------------


def test_close_instance_ends_the_session_and_keeps_the_state_read_only(conversation, agent):
    receipt = appended(agent.call("notes.append", {"text": "kept"}, now=T0))
    closed = api.close_instance(request(conversation, "close-1", tool="notes.close", now=at(1)))
    assert closed.receipt == {"status": "closed", "instance_id": receipt["instance_id"]}
    instance = AppInstance.objects.get(pk=receipt["instance_id"])
    assert (instance.lifecycle_state, instance.close_reason) == ("closed", "closed_by_agent")
    assert AppSession.objects.get(instance=instance).state == "ended"
    with pytest.raises(Rejection) as frozen:
        save_snapshot(
            conversation_id=conversation.id,
            instance_id=instance.id,
            state={"text": "x"},
            expected_revision=1,
            now=at(2),
        )
    assert frozen.value.code == RejectionCode.INSTANCE_CLOSED
    again = api.close_instance(request(conversation, "close-2", tool="notes.close", now=at(3)), instance_id=instance.id)
    assert again.receipt["status"] == "already_closed"
    none = api.close_instance(request(conversation, "close-3", tool="notes.close", now=at(4)))
    assert none.receipt == {"status": "no_open_instance"}
    # The closed text is still read; the next append opens new notes.
    assert agent.call("notes.read", {}, now=at(5)).receipt == {
        "status": "read",
        "instance_id": receipt["instance_id"],
        "open": False,
        "text": "kept",
    }
    assert appended(agent.call("notes.append", {"text": "new"}, now=at(6)))["instance_id"] != receipt["instance_id"]


def test_close_instance_refuses_an_instance_whose_operation_runs(conversation, agent):
    started = agent.start(600, now=T0)
    with pytest.raises(Rejection) as refused:
        api.close_instance(
            request(conversation, "c-op", tool="pomodoro.close", now=at(1)), instance_id=started.instance_id
        )
    assert refused.value.code == RejectionCode.NOT_ALLOWED
    assert Operation.objects.get(pk=started.operation_id).state == OperationState.RUNNING


def test_an_instance_of_another_app_or_conversation_is_unknown(conversation, agent, other_user):
    started = agent.start(600, now=T0)
    with pytest.raises(Rejection) as refused:
        api.read_instance_state(request(conversation, "r-x", tool="notes.read"), instance_id=started.instance_id)
    assert refused.value.code == RejectionCode.UNKNOWN_INSTANCE
    with pytest.raises(Rejection):
        api.read_instance_state(request(conversation, "r-y", tool="notes.read"), instance_id=uuid.uuid4())


# --- lifecycle and restart ----------------------------------------------------------------------


def test_leaving_and_a_restart_leave_the_instance_and_its_state_as_they_were(conversation, agent):
    receipt = appended(agent.call("notes.append", {"text": "survives"}, now=T0))
    instance_id = receipt["instance_id"]
    return_to_interact(conversation_id=conversation.id, now=at(1))
    summary = recover_runtime(now=at(3600))
    assert not summary.due and not summary.failed
    instance = AppInstance.objects.get(pk=instance_id)
    assert instance.lifecycle_state == LifecycleState.BACKGROUND and instance.closed_at is None
    assert agent.call("notes.read", {}, now=at(3601)).receipt["text"] == "survives"
    assert appended(agent.call("notes.append", {"text": "after"}, now=at(3602)))["revision"] == 2


# --- what an Agent reads --------------------------------------------------------------------------


def test_what_runs_shows_open_instances_readable_state_and_running_operations(conversation, agent):
    appended(agent.call("notes.append", {"text": "for the Agent"}, now=T0))
    started = agent.start(600, activity="write", now=at(1))
    seen = what_runs(conversation_id=conversation.id)
    apps = {item["app_id"]: item for item in seen["instances"]}
    assert set(apps) == {"notes", "pomodoro"}
    assert apps["notes"]["state"] == {"text": "for the Agent"} and apps["notes"]["revision"] == 1
    # Pomodoro declares no agent_readable field: its snapshot is not shown.
    assert "state" not in apps["pomodoro"] and "revision" not in apps["pomodoro"]
    [operation] = seen["operations"]
    assert operation["operation_id"] == str(started.operation_id)
    assert (operation["app_id"], operation["tool"], operation["activity"]) == ("pomodoro", "pomodoro.start", "write")
    assert seen["truncated"] is False


def test_what_runs_never_shows_private_details(conversation, agent):
    questions = [{"prompt": "2 + 2 =", "answer": "4"}]
    agent.call("quiz.start", {"duration_seconds": 60, "title": "Sums", "questions": questions}, now=T0)
    seen = what_runs(conversation_id=conversation.id)
    [operation] = seen["operations"]
    assert operation["title"] == "Sums"
    assert "answer_key" not in str(seen) and '"4"' not in str(seen["operations"])


def test_what_runs_names_what_ended_last_newest_first_without_private_details(conversation, agent):
    """An Agent that was down when an operation ended reads what it was for (its result does not say)."""
    first = agent.start(600, activity="write", now=T0)
    agent.interrupt(now=at(5))
    questions = [{"prompt": "2 + 2 =", "answer": "4"}]
    quiz = agent.call("quiz.start", {"duration_seconds": 60, "title": "Sums", "questions": questions}, now=at(6))
    settle_operation(operation_id=quiz.operation_id, trigger=Trigger.DEADLINE, now=at(66))
    running = agent.start(600, activity="read", now=at(70))
    seen = what_runs(conversation_id=conversation.id)
    assert [op["operation_id"] for op in seen["operations"]] == [str(running.operation_id)]
    ended = seen["recently_ended"]
    assert [op["operation_id"] for op in ended] == [str(quiz.operation_id), str(first.operation_id)]
    assert (ended[0]["title"], ended[0]["state"]) == ("Sums", "completed")
    assert (ended[1]["activity"], ended[1]["state"]) == ("write", "interrupted")
    assert "answer_key" not in str(ended) and '"4"' not in str(ended)


def test_what_runs_is_bounded(conversation, monkeypatch):
    import runtime.selectors as selectors

    monkeypatch.setattr(selectors, "WHAT_RUNS_MAX_INSTANCES", 2)
    monkeypatch.setattr(selectors, "WHAT_RUNS_STATE_BUDGET", 30)
    for n in range(3):
        api.open_instance(request(conversation, f"b-{n}", now=at(n)), initial_state={"text": f"note {n} " + "x" * 10})
    seen = what_runs(conversation_id=conversation.id)
    assert len(seen["instances"]) == 2 and seen["truncated"] is True
    # The first state fits the 30 bytes; the second is left out and says so.
    assert "state" in seen["instances"][0] and seen["instances"][1] == {**seen["instances"][1], "state_omitted": True}


def test_what_runs_reads_everything_in_four_statements_and_any_instance(
    conversation, agent, django_assert_max_num_queries
):
    """An instance without a snapshot row (its sub-session and snapshot read with it, or none) is
    listed like any other; the read does not grow with what is open."""
    appended(agent.call("notes.append", {"text": "one"}, now=T0))
    agent.start(600, now=at(1))
    bare = AppInstance.objects.filter(conversation=conversation, app_id="notes").get()
    InstanceSnapshot.objects.filter(instance=bare).delete()  # as an app without instance state has none
    AppSession.objects.filter(instance=bare).delete()
    with django_assert_max_num_queries(4):
        seen = what_runs(conversation_id=conversation.id)
    notes = next(item for item in seen["instances"] if item["app_id"] == "notes")
    assert "state" not in notes and "app_session_id" not in notes
