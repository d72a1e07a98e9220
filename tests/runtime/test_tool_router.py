"""The Tool Router's stable rejections and retries (SPEC §3.1, R-2.2.3, R-3.11, R-3.12).

Every rejection is checked three ways: the stable code with a detail naming the cause; nothing
changed (instances, sessions, operations, tool calls, outbox, snapshots, foreground); and exactly
one ``tool.rejected`` event with that code. Each case runs in a conversation that never focused
(a rejection must not even open Interact's workspace) and in one with a focus running (a
rejection must not start, interrupt or wake anything).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

import pytest

from runtime.inventory import inventory_for_scope
from runtime.models import (
    AppInstance,
    AppSession,
    Conversation,
    InstanceSnapshot,
    LifecycleEvent,
    Operation,
    OutboxEntry,
    ToolCall,
)
from runtime.tool_calls import Accepted, Receipt, Rejected
from runtime.tool_router import MAX_SOURCE_TOOL_CALL_ID_LENGTH, Caller, route_tool_call
from runtime.transitions import LifecycleState, OperationState
from tests.support.factories import MAX_FOCUS_SECONDS, T0, AgentDriver, activity_of, at, new_call_id, planned_seconds

pytestmark = pytest.mark.django_db

START, INTERRUPT = "pomodoro.start", "pomodoro.interrupt"
CURRENT = object()  # "use the conversation's current Inventory revision"
FRESH_CALL_ID = object()  # "use a new, valid source_tool_call_id"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # Creating the fixture users with the default PBKDF2 costs ~0.6 s each; these tests never log in.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def world() -> dict[str, Any]:
    """Everything a call could change, by identity and state (so counts are covered too)."""
    return {
        "instances": sorted(
            (str(i.id), i.conversation_id, i.app_id, i.is_system, i.lifecycle_state, i.focus_seq)
            for i in AppInstance.objects.all()
        ),
        "sessions": sorted((str(s.id), s.state) for s in AppSession.objects.all()),
        "operations": sorted((str(o.id), o.state, o.ended_at) for o in Operation.objects.all()),
        "tool_calls": sorted((str(c.id), c.status) for c in ToolCall.objects.all()),
        "outbox": sorted(str(e.id) for e in OutboxEntry.objects.all()),
        "snapshots": sorted((str(s.instance_id), s.revision) for s in InstanceSnapshot.objects.all()),
    }


def counts() -> dict[str, int]:
    return {
        "instances": AppInstance.objects.filter(is_system=False).count(),
        "sessions": AppSession.objects.count(),
        "operations": Operation.objects.count(),
        "tool_calls": ToolCall.objects.count(),
        "outbox": OutboxEntry.objects.count(),
        "snapshots": InstanceSnapshot.objects.count(),
    }


def foreground_app(conversation: Conversation) -> str | None:
    instance = AppInstance.objects.filter(conversation=conversation, lifecycle_state=LifecycleState.FOREGROUND).first()
    return instance.app_id if instance else None


def last_event_id() -> int:
    return LifecycleEvent.objects.order_by("-id").values_list("id", flat=True).first() or 0


class Unchanged:
    """Captures the world before a call; ``check`` proves a rejection changed nothing but the log."""

    def __init__(self, *conversations: Conversation) -> None:
        self.conversations = conversations
        self.world = world()
        self.counts = counts()
        self.foreground = [foreground_app(c) for c in conversations]
        self.last_event = last_event_id()

    def check(self, outcome: object, code: str, *, detail_contains: str = "") -> LifecycleEvent:
        assert isinstance(outcome, Rejected), outcome
        assert outcome.code == code
        assert outcome.detail
        assert detail_contains.lower() in outcome.detail.lower(), outcome.detail
        assert counts() == self.counts
        assert world() == self.world
        assert [foreground_app(c) for c in self.conversations] == self.foreground
        # The rejection is the only decision recorded: nothing else was started or woken.
        events = list(LifecycleEvent.objects.filter(id__gt=self.last_event).order_by("id"))
        assert [e.kind for e in events] == ["tool.rejected"], [e.kind for e in events]
        event = events[0]
        assert event.data["code"] == code
        assert event.data["detail"] == outcome.detail
        return event


@pytest.fixture(params=["never_focused", "focusing"])
def setup(request, agent) -> str:
    """The conversation's state before the rejected call."""
    if request.param == "focusing":
        outcome = agent.start(60, "homework", now=T0)
        assert isinstance(outcome, Accepted)
    return request.param


def route(
    caller: Caller,
    conversation_id: object,
    *,
    tool: object = START,
    arguments: object = None,
    call_id: object = FRESH_CALL_ID,
    revision: object = CURRENT,
    scope: str = "personal",
) -> Any:
    return route_tool_call(
        caller=caller,
        conversation_id=conversation_id,
        source_tool_call_id=new_call_id("r") if call_id is FRESH_CALL_ID else call_id,
        tool=tool,
        arguments={"duration_seconds": 60} if arguments is None else arguments,
        inventory_revision=inventory_for_scope(scope).revision if revision is CURRENT else revision,
        now=at(10),
    )


@dataclass(frozen=True)
class Case:
    id: str
    code: str
    detail: str
    tool: object = START
    arguments: Any = field(default_factory=lambda: {"duration_seconds": 60})
    call_id: object = FRESH_CALL_ID
    revision: object = CURRENT


def _start(id: str, arguments: object, detail: str) -> Case:
    return Case(id, "invalid_arguments", detail, tool=START, arguments=arguments)


def _interrupt(id: str, arguments: object, detail: str) -> Case:
    return Case(id, "invalid_arguments", detail, tool=INTERRUPT, arguments=arguments)


CASES = [
    # --- invalid_arguments: pomodoro.start ({duration_seconds: positive integer, activity?: string})
    _start("start-missing-duration", {}, "duration_seconds"),
    _start("start-activity-only", {"activity": "reading"}, "duration_seconds"),
    _start("start-duration-0", {"duration_seconds": 0}, "duration_seconds"),
    _start("start-duration-negative", {"duration_seconds": -1}, "duration_seconds"),
    _start("start-duration-true", {"duration_seconds": True}, "duration_seconds"),
    _start("start-duration-false", {"duration_seconds": False}, "duration_seconds"),
    _start("start-duration-1.5", {"duration_seconds": 1.5}, "duration_seconds"),
    _start("start-duration-1.0", {"duration_seconds": 1.0}, "duration_seconds"),
    _start("start-duration-60.0", {"duration_seconds": 60.0}, "duration_seconds"),
    _start("start-duration-string", {"duration_seconds": "25"}, "duration_seconds"),
    _start("start-duration-null", {"duration_seconds": None}, "duration_seconds"),
    _start("start-duration-list", {"duration_seconds": [60]}, "duration_seconds"),
    _start("start-duration-huge", {"duration_seconds": 10**30}, "duration_seconds"),
    _start("start-duration-over-limit", {"duration_seconds": MAX_FOCUS_SECONDS + 1}, "duration_seconds"),
    _start("start-extra-field", {"duration_seconds": 60, "mode": "strict"}, "mode"),
    _start("start-target-field", {"duration_seconds": 60, "instance_id": str(uuid.uuid4())}, "instance_id"),
    _start("start-activity-257", {"duration_seconds": 60, "activity": "a" * 257}, "activity"),
    _start("start-activity-int", {"duration_seconds": 60, "activity": 5}, "activity"),
    _start("start-activity-null", {"duration_seconds": 60, "activity": None}, "activity"),
    _start("start-activity-list", {"duration_seconds": 60, "activity": ["reading"]}, "activity"),
    # --- invalid_arguments: pomodoro.interrupt takes {} and no target of any kind
    _interrupt("interrupt-instance_id", {"instance_id": str(uuid.uuid4())}, "instance_id"),
    _interrupt("interrupt-operation_id", {"operation_id": str(uuid.uuid4())}, "operation_id"),
    _interrupt("interrupt-app_scope", {"app_scope": "pomodoro"}, "app_scope"),
    _interrupt("interrupt-app_session_id", {"app_session_id": str(uuid.uuid4())}, "app_session_id"),
    _interrupt("interrupt-conversation_id", {"conversation_id": str(uuid.uuid4())}, "conversation_id"),
    _interrupt("interrupt-reason", {"reason": "done"}, "reason"),
    _interrupt("interrupt-null-field", {"target": None}, "target"),
    # --- invalid_arguments: arguments that are not a JSON object
    *(
        Case(f"{tool}-arguments-{label}", "invalid_arguments", "JSON object", tool=tool, arguments=arguments)
        for tool in (START, INTERRUPT)
        for label, arguments in [
            ("list", [["duration_seconds", 60]]),
            ("string", '{"duration_seconds": 60}'),
            ("int", 60),
            ("empty-list", []),
        ]
    ),
    # --- invalid_arguments: the idempotency key itself
    *(
        Case(f"{tool}-call-id-{label}", "invalid_arguments", "source_tool_call_id", tool=tool, call_id=call_id)
        for tool in (START, INTERRUPT)
        for label, call_id in [
            ("missing", None),
            ("empty", ""),
            ("too-long", "x" * (MAX_SOURCE_TOOL_CALL_ID_LENGTH + 1)),
            ("int", 12345),
            ("list", ["call-1"]),
        ]
    ),
    # --- unknown_tool: not published to this conversation
    *(
        Case(f"unknown-tool-{label}", "unknown_tool", detail, tool=tool)
        for label, tool, detail in [
            ("pause", "pomodoro.pause", "pomodoro.pause"),
            ("app-name", "pomodoro", "pomodoro"),
            ("other-app", "notes.write", "notes.write"),
            ("system-app", "interact.notice", "interact.notice"),
            ("case", "Pomodoro.Start", "Pomodoro.Start"),
            ("empty", "", "Inventory"),
            ("int", 7, "tool"),
            ("none", None, "tool"),
        ]
    ),
    # --- stale_inventory: any revision but the current one
    *(
        Case(f"stale-{label}", "stale_inventory", "revision", tool=tool, revision=revision)
        for tool in (START, INTERRUPT)
        for label, revision in [
            ("made-up", "inv-0000000000000000"),
            ("empty", ""),
            ("missing", None),
            ("int", 1),
            ("other-scope", "SCOPE:team"),
            ("upper-case", "UPPER"),
        ]
    ),
]


def _revision(case: Case, conversation: Conversation) -> object:
    current = inventory_for_scope(conversation.scope).revision
    if case.revision == "SCOPE:team":
        revision = inventory_for_scope("team").revision  # a real revision, of another published set
        assert revision != current
        return revision
    if case.revision == "UPPER":
        return current.upper()
    return current if case.revision is CURRENT else case.revision


@pytest.mark.spec("R-3.11", "R-2.2.3")
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_a_rejected_call_changes_nothing(case, setup, caller, conversation):
    """Each invalid call gets its stable code and a detail naming the cause, changes no row and no
    foreground app, and leaves exactly one tool.rejected event with that code."""
    guard = Unchanged(conversation)

    outcome = route(
        caller,
        str(conversation.id),
        tool=case.tool,
        arguments=case.arguments,
        call_id=case.call_id,
        revision=_revision(case, conversation),
    )

    event = guard.check(outcome, case.code, detail_contains=case.detail)
    assert event.conversation_id == conversation.id
    assert event.data["caller"] == caller.label
    if isinstance(case.call_id, str):
        assert event.source_tool_call_id == case.call_id[:MAX_SOURCE_TOOL_CALL_ID_LENGTH]
    if setup == "focusing":
        assert Operation.objects.get().state == OperationState.RUNNING
        assert foreground_app(conversation) == "pomodoro"
    else:
        assert foreground_app(conversation) == "interact"  # the workspace a conversation is created with


@pytest.mark.spec("R-3.11")
def test_the_limits_themselves_are_accepted(agent):
    """The boundaries are inclusive: duration MAX_FOCUS_SECONDS, a 256-character activity and a
    128-character call id are accepted (so the rejections above are about the limits, not the shape)."""
    call_id = "c" * MAX_SOURCE_TOOL_CALL_ID_LENGTH
    outcome = agent.call(START, {"duration_seconds": MAX_FOCUS_SECONDS, "activity": "a" * 256}, now=T0, call_id=call_id)
    assert isinstance(outcome, Accepted)
    operation = Operation.objects.get()
    assert planned_seconds(operation) == MAX_FOCUS_SECONDS
    assert operation.source_tool_call_id == call_id
    assert activity_of(operation) == "a" * 256
    outcome = agent.call(INTERRUPT, {}, now=at(1), call_id="i" * MAX_SOURCE_TOOL_CALL_ID_LENGTH)
    assert isinstance(outcome, Receipt)
    assert outcome.receipt["status"] == "interrupted"


# --- conversations -----------------------------------------------------------------------------


@pytest.mark.spec("R-2.2.3", "R-3.11")
@pytest.mark.parametrize("tool", [START, INTERRUPT])
@pytest.mark.parametrize(
    "conversation_id",
    [str(uuid.uuid4()), "not-a-uuid", "", None, 42, "00000000-0000-0000-0000-00000000000g"],
    ids=["missing", "malformed", "empty", "none", "int", "bad-hex"],
)
def test_an_unknown_conversation_is_rejected(tool, conversation_id, setup, caller, conversation):
    """A conversation id that names no conversation (or is not an id at all) is unknown_conversation."""
    guard = Unchanged(conversation)
    outcome = route(caller, conversation_id, tool=tool, arguments={} if tool == INTERRUPT else None)
    guard.check(outcome, "unknown_conversation", detail_contains="conversation")


def test_the_conversation_is_read_in_one_statement_as_the_orm_reads_it(caller, conversation):
    """``access_conversation`` reads the row with one hand-written SELECT (``conversation_by_id``):
    every field as the ORM gives it, in its Python type, on either engine; None for no row."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from runtime.selectors import conversation_by_id
    from runtime.tool_router import access_conversation

    expected = Conversation.objects.get(pk=conversation.pk)
    with CaptureQueriesContext(connection) as queries:
        read = access_conversation(caller, str(conversation.id))
    assert len(queries) == 1 and queries[0]["sql"].startswith("SELECT")
    assert not read._state.adding
    for f in Conversation._meta.concrete_fields:
        value = getattr(read, f.attname)
        assert value == getattr(expected, f.attname) and type(value) is type(getattr(expected, f.attname)), f.name
    assert conversation_by_id(uuid.uuid4()) is None


@pytest.fixture
def other_conversation(other_user) -> Conversation:
    """Another user's conversation, with a focus running."""
    from runtime.services.conversations import conversation_get_or_create_default

    conversation = conversation_get_or_create_default(user=other_user)
    driver = AgentDriver(caller=Caller(label="agent:bob", user_id=other_user.id), conversation=conversation)
    assert isinstance(driver.start(60, now=T0), Accepted)
    return conversation


@pytest.mark.spec("R-2.2.3", "R-3.6")
@pytest.mark.parametrize("tool", [START, INTERRUPT])
def test_another_users_conversation_is_forbidden(tool, setup, caller, conversation, other_conversation):
    """An Agent acting for one user can not start or interrupt a focus in another user's conversation."""
    guard = Unchanged(conversation, other_conversation)
    outcome = route(caller, str(other_conversation.id), tool=tool, arguments={} if tool == INTERRUPT else None)
    guard.check(outcome, "forbidden", detail_contains="conversation")
    assert Operation.objects.get(conversation=other_conversation).state == OperationState.RUNNING
    assert foreground_app(other_conversation) == "pomodoro"


@pytest.mark.spec("R-2.2.3", "R-3.6")
@pytest.mark.parametrize("tool", [START, INTERRUPT])
@pytest.mark.parametrize("bound", ["elsewhere", "nowhere"])
def test_a_caller_bound_to_other_conversations_is_forbidden(tool, bound, setup, user, conversation):
    """An Agent bound to a set of conversations may not act on one outside it, even the user's own."""
    ids = [str(uuid.uuid4())] if bound == "elsewhere" else []
    bound_caller = Caller(label="agent:bound", user_id=user.id, conversation_ids=ids)
    guard = Unchanged(conversation)
    outcome = route(bound_caller, str(conversation.id), tool=tool, arguments={} if tool == INTERRUPT else None)
    guard.check(outcome, "forbidden", detail_contains="conversation")


@pytest.mark.spec("R-2.2.3")
def test_a_caller_bound_to_the_conversation_may_act(user, conversation):
    """The binding admits its own conversations (given as UUIDs or strings)."""
    bound_caller = Caller(label="agent:bound", user_id=user.id, conversation_ids=[conversation.id])
    assert isinstance(route(bound_caller, str(conversation.id)), Accepted)
    bound_caller = Caller(label="agent:bound", user_id=user.id, conversation_ids=[str(conversation.id)])
    outcome = route(bound_caller, conversation.id, tool=INTERRUPT, arguments={})
    assert isinstance(outcome, Receipt)
    assert outcome.receipt["status"] == "interrupted"


@pytest.mark.spec("R-2.2.3", "R-3.5")
def test_a_retry_from_another_user_is_forbidden_not_answered(agent, conversation, other_user):
    """The access check comes before the retry lookup: another user's Agent reusing a call id of this
    conversation learns nothing about the stored call."""
    call_id = new_call_id("start")
    assert isinstance(agent.start(60, now=T0, call_id=call_id), Accepted)
    guard = Unchanged(conversation)
    outcome = route(Caller(label="agent:bob", user_id=other_user.id), str(conversation.id), call_id=call_id)
    event = guard.check(outcome, "forbidden")
    assert "operation" not in outcome.detail
    assert event.operation_id is None


# --- idempotency key reuse ---------------------------------------------------------------------


def _reuses(start_id: str, interrupt_id: str) -> list[tuple[str, object, object]]:
    return [
        (start_id, START, {"duration_seconds": 61}),
        (start_id, START, {"duration_seconds": 60, "activity": "homework"}),
        (start_id, START, {"duration_seconds": 60.0}),  # equal in Python, another call in JSON
        (start_id, INTERRUPT, {}),
        (start_id, "pomodoro.pause", {}),
        (interrupt_id, START, {"duration_seconds": 60}),
        (interrupt_id, INTERRUPT, {"operation_id": "x"}),
    ]


@pytest.mark.spec("R-3.5", "R-3.7")
@pytest.mark.parametrize("phase", ["focusing", "final"])
def test_a_call_id_reused_for_another_call_is_rejected(phase, agent, conversation):
    """The same source_tool_call_id with other arguments or another tool is idempotency_key_reused —
    never answered with the other call's result, never a new call — before and after the focus ends."""
    start_id, interrupt_id = new_call_id("start"), new_call_id("interrupt")
    if phase == "focusing":
        # The interrupt id is spent before the focus (receipt no_active_focusing_operation).
        assert isinstance(agent.interrupt(now=at(0), call_id=interrupt_id), Receipt)
        assert isinstance(agent.start(60, now=at(1), call_id=start_id), Accepted)
    else:
        assert isinstance(agent.start(60, now=at(0), call_id=start_id), Accepted)
        assert isinstance(agent.interrupt(now=at(1), call_id=interrupt_id), Receipt)
    for call_id, tool, arguments in _reuses(start_id, interrupt_id):
        guard = Unchanged(conversation)
        outcome = agent.call(tool, arguments, now=at(5), call_id=call_id)
        event = guard.check(outcome, "idempotency_key_reused", detail_contains=call_id)
        assert event.source_tool_call_id == call_id


@pytest.mark.spec("R-3.5")
def test_a_bool_is_not_a_retry_of_an_int(agent, conversation):
    """{"duration_seconds": true} is not the same call as {"duration_seconds": 1}, though True == 1."""
    call_id = new_call_id("start")
    assert isinstance(agent.start(1, now=T0, call_id=call_id), Accepted)
    guard = Unchanged(conversation)
    outcome = agent.call(START, {"duration_seconds": True}, now=at(0.5), call_id=call_id)
    guard.check(outcome, "idempotency_key_reused")


@pytest.mark.spec("R-3.5", "R-3.7")
def test_a_call_id_is_scoped_to_its_conversation(agent, user):
    """The idempotency key is per conversation: the same id in another conversation is a new call."""
    call_id = new_call_id("start")
    first = agent.start(60, now=T0, call_id=call_id)
    second_conversation = Conversation.objects.create(owner=user, title="Second")
    second = AgentDriver(caller=agent.caller, conversation=second_conversation).start(60, now=T0, call_id=call_id)
    assert isinstance(first, Accepted)
    assert isinstance(second, Accepted)
    assert second.replayed is False
    assert first.operation_id != second.operation_id


# --- retries answered from the stored rows -----------------------------------------------------


@pytest.mark.spec("R-3.5", "R-3.7", "R-3.11")
def test_a_retry_is_answered_from_the_stored_rows_even_with_a_stale_revision(agent, conversation):
    """A retry carries whatever revision the Agent had when it first called; it is answered from what
    is stored (the same operation, later its final result; the same receipt) and changes nothing."""
    start_id, interrupt_id = new_call_id("start"), new_call_id("interrupt")
    first = agent.start(60, "reading", now=T0, call_id=start_id)
    assert isinstance(first, Accepted)

    for revision in ("inv-stale", None, ""):
        before = world()
        retry = agent.call(
            START, {"duration_seconds": 60, "activity": "reading"}, now=at(1), call_id=start_id, revision=revision
        )
        assert isinstance(retry, Accepted), retry
        assert retry.replayed is True
        assert (retry.operation_id, retry.instance_id, retry.app_session_id) == (
            first.operation_id,
            first.instance_id,
            first.app_session_id,
        )
        assert retry.result is None
        assert world() == before

    receipt = agent.interrupt(now=at(2), call_id=interrupt_id)
    assert isinstance(receipt, Receipt)
    before = world()
    last = last_event_id()

    retry = agent.call(INTERRUPT, {}, now=at(3), call_id=interrupt_id, revision="inv-stale")
    assert isinstance(retry, Receipt)
    assert retry.replayed is True
    assert retry.receipt == receipt.receipt == {"status": "interrupted", "operation_id": str(first.operation_id)}

    final = agent.call(
        START, {"duration_seconds": 60, "activity": "reading"}, now=at(4), call_id=start_id, revision="inv-stale"
    )
    assert isinstance(final, Accepted)
    assert final.result is not None
    assert final.result["state"] == "interrupted"
    assert final.result == ToolCall.objects.get(source_tool_call_id=start_id).result
    assert world() == before
    assert not LifecycleEvent.objects.filter(id__gt=last, kind="tool.rejected").exists()


@pytest.mark.spec("R-3.12")
def test_a_start_while_focusing_is_rejected_with_the_running_operation(agent, conversation):
    """Through the router, a second start is active_focusing_operation; its event names the running operation."""
    first = agent.start(60, now=T0)
    assert isinstance(first, Accepted)
    guard = Unchanged(conversation)
    outcome = agent.start(120, now=at(1))
    event = guard.check(outcome, "active_focusing_operation", detail_contains="focusing")
    assert event.operation_id == first.operation_id
