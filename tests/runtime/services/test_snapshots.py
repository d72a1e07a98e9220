"""Instance-state snapshots of runtime.services.snapshots on PostgreSQL (SPEC R-2.2.4, R-3.13, §3.2, acceptance 11).

A save is a revision compare-and-set of a state that satisfies the app's ``app.instance-state.v1``
schema and its 4096-byte quota (UTF-8 bytes of the compact JSON). After close the snapshot is
read-only history. Every rejection leaves the row as it was and is one ``snapshot.rejected`` event.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from runtime.errors import Rejection, RejectionCode
from runtime.models import AppInstance, Conversation, InstanceSnapshot, LifecycleEvent, Operation
from runtime.services.conversations import conversation_get_or_create_default
from runtime.services.lifecycle import close_instance, open_app, switch_app
from runtime.services.snapshots import SnapshotSaved, encoded_size, save_snapshot
from runtime.tool_calls import Accepted
from runtime.transitions import LifecycleState, OperationState
from tests.support.factories import T0, AgentDriver, at

pytestmark = pytest.mark.django_db

MAX_BYTES = 4096  # max_bytes of miniapps/pomodoro/manifest.json (SPEC §3.2)


# --- helpers ----------------------------------------------------------------------------------


def start(agent: AgentDriver, *, now=T0) -> Accepted:
    outcome = agent.start(60, activity="write the report", now=now)
    assert isinstance(outcome, Accepted), outcome
    return outcome


def pomodoro_state(started: Accepted, **overrides: Any) -> dict[str, Any]:
    """A state the Pomodoro Surface would save while focusing (valid against state_schema v1)."""
    state: dict[str, Any] = {
        "operation_id": str(started.operation_id),
        "activity": "write the report",
        "started_at": "2026-01-05T09:00:00.000Z",
        "ends_at": "2026-01-05T09:01:00.000Z",
        "display_state": "focusing",
    }
    state.update(overrides)
    return {k: v for k, v in state.items() if v is not ...}


def compact_utf8_size(state: Any) -> int:
    """The quota's measure, computed here independently of the code under test."""
    return len(json.dumps(state, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def state_of_size(started: Accepted, size: int, *, char: str = "a") -> dict[str, Any]:
    """A valid state of exactly ``size`` bytes, padded through ``activity`` with ``char`` (then ASCII)."""
    base = compact_utf8_size(pomodoro_state(started, activity=""))
    count, rest = divmod(size - base, len(char.encode("utf-8")))
    state = pomodoro_state(started, activity=char * count + "a" * rest)
    assert compact_utf8_size(state) == size
    return state


def row(instance_id: Any) -> tuple[Any, ...]:
    return tuple(
        InstanceSnapshot.objects.filter(instance_id=instance_id).values_list(
            "revision", "state", "size_bytes", "updated_at", "schema_version"
        )[0]
    )


def rejected_events(conversation: Conversation) -> list[LifecycleEvent]:
    return list(LifecycleEvent.objects.filter(conversation_id=conversation.id, kind="snapshot.rejected"))


def assert_rejected(
    conversation: Conversation,
    code: RejectionCode,
    *,
    instance_id: Any,
    state: Any,
    expected_revision: int,
    now,
    detail_has: str = "",
) -> Rejection:
    """The save is rejected ``code``; the instance's row is unchanged and one snapshot.rejected event is written."""
    before_row = row(instance_id) if InstanceSnapshot.objects.filter(instance_id=instance_id).exists() else None
    before_events = len(rejected_events(conversation))

    with pytest.raises(Rejection) as rejected:
        save_snapshot(
            conversation_id=conversation.id,
            instance_id=instance_id,
            state=state,
            expected_revision=expected_revision,
            now=now,
        )

    assert rejected.value.code == code
    assert detail_has in rejected.value.detail
    if before_row is not None:
        assert row(instance_id) == before_row
    events = rejected_events(conversation)
    assert len(events) == before_events + 1
    assert events[-1].data["code"] == code
    assert events[-1].data["detail"] == rejected.value.detail
    assert events[-1].at == now
    return rejected.value


def save(conversation: Conversation, instance_id: Any, state: Any, *, expected_revision: int, now) -> SnapshotSaved:
    return save_snapshot(
        conversation_id=conversation.id,
        instance_id=instance_id,
        state=state,
        expected_revision=expected_revision,
        now=now,
    )


# --- saving -----------------------------------------------------------------------------------


@pytest.mark.spec("R-2.2.4")
def test_a_new_pomodoro_instance_starts_with_an_empty_snapshot_at_revision_0(agent):
    """pomodoro.start creates the instance's snapshot row: schema version 1, revision 0, no state yet."""
    started = start(agent)

    assert row(started.instance_id) == (0, None, 0, T0, 1)


@pytest.mark.spec("R-2.2.4", "R-3.13")
def test_valid_saves_bump_the_revision_by_compare_and_set(agent, conversation):
    """Each valid save with the current revision replaces the state and bumps the revision 0 -> 1 -> 2."""
    started = start(agent)
    first = pomodoro_state(started)
    second = pomodoro_state(started, activity="revise the report")

    saved = save(conversation, started.instance_id, first, expected_revision=0, now=at(1))
    assert saved == SnapshotSaved(instance_id=started.instance_id, revision=1, size_bytes=compact_utf8_size(first))
    assert row(started.instance_id) == (1, first, compact_utf8_size(first), at(1), 1)

    saved = save(conversation, started.instance_id, second, expected_revision=1, now=at(2))
    assert saved.revision == 2
    assert row(started.instance_id) == (2, second, compact_utf8_size(second), at(2), 1)

    saved_events = LifecycleEvent.objects.filter(conversation_id=conversation.id, kind="snapshot.saved")
    assert [e.data["revision"] for e in saved_events] == [1, 2]
    assert rejected_events(conversation) == []


@pytest.mark.spec("R-2.2.4")
@pytest.mark.parametrize("expected_revision", [0, 2, 7])
def test_a_stale_expected_revision_is_rejected(expected_revision, agent, conversation):
    """A save whose expected_revision is not the current one (1) is stale_revision and changes nothing."""
    started = start(agent)
    save(conversation, started.instance_id, pomodoro_state(started), expected_revision=0, now=at(1))

    assert_rejected(
        conversation,
        RejectionCode.STALE_REVISION,
        instance_id=started.instance_id,
        state=pomodoro_state(started, activity="lost update"),
        expected_revision=expected_revision,
        now=at(2),
        detail_has=f"expected revision {expected_revision}",
    )
    assert row(started.instance_id)[0] == 1


@pytest.mark.spec("R-2.2.4", "R-3.13")
@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        pytest.param({"display_state": ...}, "display_state", id="missing-required-field"),
        pytest.param({"ends_at": ...}, "ends_at", id="missing-ends_at"),
        pytest.param({"colour": "red"}, "colour", id="extra-field"),
        pytest.param({"display_state": "paused"}, "display_state", id="display_state-not-in-enum"),
        pytest.param({"operation_id": 42}, "operation_id", id="wrong-type"),
        pytest.param({"activity": None}, "activity", id="null-is-not-a-string"),
    ],
)
def test_schema_violations_are_rejected_naming_the_field(overrides, field, agent, conversation):
    """A state that breaks state_schema v1 is state_schema_violation, the detail names the field."""
    started = start(agent)
    save(conversation, started.instance_id, pomodoro_state(started), expected_revision=0, now=at(1))

    assert_rejected(
        conversation,
        RejectionCode.STATE_SCHEMA_VIOLATION,
        instance_id=started.instance_id,
        state=pomodoro_state(started, **overrides),
        expected_revision=1,
        now=at(2),
        detail_has=field,
    )


@pytest.mark.spec("R-2.2.4")
@pytest.mark.parametrize("state", [[], "focusing", None, 7])
def test_a_state_that_is_not_an_object_is_a_schema_violation(state, agent, conversation):
    """The state must be a JSON object; anything else is rejected at the root."""
    started = start(agent)

    assert_rejected(
        conversation,
        RejectionCode.STATE_SCHEMA_VIOLATION,
        instance_id=started.instance_id,
        state=state,
        expected_revision=0,
        now=at(1),
        detail_has="(root)",
    )


@pytest.mark.spec("R-2.2.4", "R-3.13")
def test_each_apps_own_schema_applies(conversation):
    """A notes instance takes notes state and rejects a Pomodoro-shaped one (the contract is per app)."""
    notes = open_app(conversation_id=conversation.id, app_id="notes", now=T0)

    saved = save(conversation, notes.pk, {"text": "buy milk"}, expected_revision=0, now=at(1))
    assert saved.revision == 1

    assert_rejected(
        conversation,
        RejectionCode.STATE_SCHEMA_VIOLATION,
        instance_id=notes.pk,
        state={"text": "x" * 2001},
        expected_revision=1,
        now=at(2),
        detail_has="text",
    )
    assert_rejected(
        conversation,
        RejectionCode.STATE_SCHEMA_VIOLATION,
        instance_id=notes.pk,
        state={"display_state": "focusing"},
        expected_revision=1,
        now=at(3),
    )
    assert row(notes.pk)[:2] == (1, {"text": "buy milk"})


# --- quota ------------------------------------------------------------------------------------


@pytest.mark.spec("R-2.2.4", "R-3.13")
@pytest.mark.parametrize("char", ["a", "é", "番", "🍅"], ids=["ascii", "2-byte", "3-byte", "4-byte"])
def test_exactly_4096_bytes_is_accepted_and_4097_rejected(char, agent, conversation):
    """The quota is 4096 UTF-8 bytes of the compact JSON: a state of exactly 4096 bytes is saved
    (with multibyte text too, so escaped-ASCII counting would be wrong), one more byte is state_too_large."""
    started = start(agent)
    fits = state_of_size(started, MAX_BYTES, char=char)
    too_big = state_of_size(started, MAX_BYTES + 1, char=char)
    assert encoded_size(fits) == MAX_BYTES

    saved = save(conversation, started.instance_id, fits, expected_revision=0, now=at(1))
    assert (saved.revision, saved.size_bytes) == (1, MAX_BYTES)
    assert row(started.instance_id)[:3] == (1, fits, MAX_BYTES)

    assert_rejected(
        conversation,
        RejectionCode.STATE_TOO_LARGE,
        instance_id=started.instance_id,
        state=too_big,
        expected_revision=1,
        now=at(2),
        detail_has=f"{MAX_BYTES + 1} bytes",
    )


@pytest.mark.spec("R-2.2.4")
def test_the_quota_counts_bytes_not_characters(agent, conversation):
    """1100 tomatoes are far fewer than 4096 characters but more than 4096 UTF-8 bytes: rejected."""
    started = start(agent)
    state = pomodoro_state(started, activity="🍅" * 1100)
    assert len(json.dumps(state, ensure_ascii=False)) < MAX_BYTES < compact_utf8_size(state)

    assert_rejected(
        conversation,
        RejectionCode.STATE_TOO_LARGE,
        instance_id=started.instance_id,
        state=state,
        expected_revision=0,
        now=at(1),
    )
    assert row(started.instance_id)[:2] == (0, None)


# --- after close: retain_readonly -------------------------------------------------------------


@pytest.mark.spec("R-3.13", "R-4.3.5")
def test_after_close_the_snapshot_is_read_only_history(agent, conversation):
    """Writes after close are instance_closed; the closed snapshot stays readable and unchanged, and the old
    instance can not be brought back to focusing; a new round gets a new instance with a fresh snapshot."""
    started = start(agent)
    history = pomodoro_state(started)
    save(conversation, started.instance_id, history, expected_revision=0, now=at(1))
    close_instance(conversation_id=conversation.id, instance_id=started.instance_id, now=at(5))
    closed_row = row(started.instance_id)
    assert closed_row[:2] == (1, history)

    for now, state in [
        (at(6), pomodoro_state(started, display_state="interrupted", interruption_reason="app_closed")),
        (at(7), pomodoro_state(started, display_state="focusing")),
    ]:
        assert_rejected(
            conversation,
            RejectionCode.INSTANCE_CLOSED,
            instance_id=started.instance_id,
            state=state,
            expected_revision=1,
            now=now,
            detail_has="read-only",
        )
    # Not even a write that would be stale otherwise gets past the close.
    assert_rejected(
        conversation,
        RejectionCode.INSTANCE_CLOSED,
        instance_id=started.instance_id,
        state=history,
        expected_revision=0,
        now=at(8),
    )

    with pytest.raises(Rejection) as rejected:
        switch_app(conversation_id=conversation.id, instance_id=started.instance_id, now=at(9))
    assert rejected.value.code == RejectionCode.INSTANCE_CLOSED
    assert AppInstance.objects.get(pk=started.instance_id).lifecycle_state == LifecycleState.CLOSED
    assert Operation.objects.get(pk=started.operation_id).state == OperationState.INTERRUPTED
    assert row(started.instance_id) == closed_row

    again = start(agent, now=at(10))
    assert again.instance_id != started.instance_id
    assert row(again.instance_id) == (0, None, 0, at(10), 1)
    assert row(started.instance_id) == closed_row


# --- who may write ----------------------------------------------------------------------------


@pytest.mark.spec("R-2.2.4")
def test_interact_has_no_instance_state(agent, conversation):
    """Interact declares no app.instance-state.v1: a save to it is state_not_supported."""
    start(agent)
    interact = AppInstance.objects.get(conversation=conversation, is_system=True)

    assert_rejected(
        conversation,
        RejectionCode.STATE_NOT_SUPPORTED,
        instance_id=interact.pk,
        state={"anything": True},
        expected_revision=0,
        now=at(1),
    )
    assert not InstanceSnapshot.objects.filter(instance=interact).exists()


@pytest.mark.spec("R-2.2.4", "R-3.6")
def test_another_conversations_instance_is_unknown(conversation, other_user):
    """A save naming an instance of another conversation is unknown_instance; their snapshot stays as it was."""
    other = conversation_get_or_create_default(user=other_user)
    their_notes = open_app(conversation_id=other.id, app_id="notes", now=T0)
    save(other, their_notes.pk, {"text": "private"}, expected_revision=0, now=at(1))
    their_row = row(their_notes.pk)

    assert_rejected(
        conversation,
        RejectionCode.UNKNOWN_INSTANCE,
        instance_id=their_notes.pk,
        state={"text": "overwritten"},
        expected_revision=1,
        now=at(2),
    )
    assert row(their_notes.pk) == their_row
    assert not LifecycleEvent.objects.filter(conversation_id=other.id, kind="snapshot.rejected").exists()
