"""A start writes the same rows and gives the same answers on either engine and either
transaction (decision 0055: one write path, ``start_writes.write_start``).

Each scenario runs in a conversation of its own; its answers and every row it wrote — the
workspace, instances, sub-sessions, snapshots, tool calls, operations and audit events — once ids
are replaced by the order they first appear in, must be what ``start_paths_expected.json`` holds.
The suite runs on PostgreSQL and on SQLite, so both engines are held to the one file; on
PostgreSQL the scenarios run both inside a caller's transaction and in the start's own
(``BEGIN`` and ``COMMIT`` pipelined with its statements). ``LINEUP_WRITE_EXPECTED=1`` rewrites the
file from this run (then read its diff).
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from runtime.errors import Rejection
from runtime.models import (
    AppInstance,
    AppSession,
    Conversation,
    InstanceSnapshot,
    LifecycleEvent,
    Operation,
    ToolCall,
    Workspace,
)
from runtime.services import operation_views, starts
from runtime.tool_calls import Accepted, Rejected
from runtime.tool_router import Caller
from tests.support.factories import AgentDriver, at

pytestmark = [pytest.mark.spec("R-3.2", "R-3.5", "R-3.12", "R-4.1.3")]

EXPECTED = Path(__file__).with_name("start_paths_expected.json")


def when(seconds: float) -> datetime:
    """A test time between milliseconds: started_at (milliseconds) and now differ, as in production."""
    return at(seconds) + timedelta(microseconds=456)


QUIZ = {"duration_seconds": 300, "title": "Sums", "questions": [{"prompt": "1+1", "answer": "2"}]}


def _start_directly(agent: AgentDriver, *, now_s: float, call_id: str, **overrides: Any) -> Accepted:
    """The service itself, for what the Router never sends (a bad initial_state, a non-exclusive app)."""
    arguments = {"duration_seconds": 60}
    return starts.start_operation(
        conversation_id=agent.conversation.id,
        source_tool_call_id=call_id,
        tool="pomodoro.start",
        arguments=arguments,
        duration_seconds=60,
        details={"activity": None},
        caller=agent.caller.label,
        now=when(now_s),
        **overrides,
    )


def _outcome(run: Callable[[], object]) -> object:
    try:
        outcome = run()
    except ValueError as error:  # a bad initial_state: the app's bug, raised, nothing written
        return ("ValueError", str(error))
    except Rejection as rejection:  # the service's own (the Router turns it into Rejected)
        return ("Rejection", rejection.code, rejection.detail, rejection.context)
    if isinstance(outcome, Rejected):
        return ("Rejected", outcome.code, outcome.detail)
    return (type(outcome).__name__, dataclasses.asdict(outcome))


def fresh(agent: AgentDriver) -> list[object]:
    return [_outcome(lambda: agent.start(60, "homework", now=when(0), call_id="a"))]


def retry_same_arguments(agent: AgentDriver) -> list[object]:
    return [_outcome(lambda: agent.start(60, now=when(0), call_id="a")) for _ in range(2)]


def retry_other_arguments(agent: AgentDriver) -> list[object]:
    first = _outcome(lambda: agent.start(60, now=when(0), call_id="a"))
    return [first, _outcome(lambda: agent.start(90, now=when(1), call_id="a"))]


def retry_of_an_interrupt_call_id(agent: AgentDriver) -> list[object]:
    first = _outcome(lambda: agent.interrupt(now=when(0), call_id="a"))
    return [first, _outcome(lambda: agent.start(60, now=when(1), call_id="a"))]


def busy_exclusive(agent: AgentDriver) -> list[object]:
    first = _outcome(lambda: agent.start(60, now=when(0), call_id="a"))
    return [first, _outcome(lambda: agent.start(60, now=when(1), call_id="b"))]


def after_an_interrupt(agent: AgentDriver) -> list[object]:
    """Interact back in front (it returned when the first focus ended), then a new start."""
    out = [_outcome(lambda: agent.start(60, now=when(0), call_id="a"))]
    out.append(_outcome(lambda: agent.interrupt(now=when(5), call_id="b")))
    out.append(_outcome(lambda: agent.start(60, now=when(10), call_id="c")))
    return out


def another_app_in_front(agent: AgentDriver) -> list[object]:
    """A quiz runs in front (with its initial_state snapshot); a Pomodoro start sends it back."""
    out = [_outcome(lambda: agent.call("quiz.start", QUIZ, now=when(0), call_id="a"))]
    out.append(_outcome(lambda: agent.start(60, now=when(1), call_id="b")))
    out.append(_outcome(lambda: agent.call("quiz.start", QUIZ, now=when(2), call_id="c")))  # still busy
    return out


def non_exclusive_app_already_in_front(agent: AgentDriver, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Two running operations of one app whose manifest does not make them exclusive: the second
    start's instance takes the front from the first's."""
    policy = dataclasses.replace(operation_views.policy_of("pomodoro.start"), exclusive=False)
    monkeypatch.setattr(starts, "policy_of", lambda tool: policy)
    return [_outcome(lambda n=n: _start_directly(agent, now_s=n, call_id=f"call-{n}")) for n in range(3)]


GOOD_STATE = {"operation_id": "op", "started_at": "then", "ends_at": "later", "display_state": "focusing"}


def initial_state_contract(agent: AgentDriver) -> list[object]:
    """A bad first state is refused (nothing written) unless the call is a retry or busy."""
    bad = {"initial_state": {"not": "in the schema"}}
    out = [_outcome(lambda: _start_directly(agent, now_s=0, call_id="a", **bad))]
    out.append(_outcome(lambda: _start_directly(agent, now_s=1, call_id="b", initial_state=GOOD_STATE)))
    out.append(_outcome(lambda: _start_directly(agent, now_s=2, call_id="b", **bad)))  # retry: answered
    out.append(_outcome(lambda: _start_directly(agent, now_s=3, call_id="c", **bad)))  # busy first
    return out


SCENARIOS = [
    fresh,
    retry_same_arguments,
    retry_other_arguments,
    retry_of_an_interrupt_call_id,
    busy_exclusive,
    after_an_interrupt,
    another_app_in_front,
    non_exclusive_app_already_in_front,
    initial_state_contract,
]

UUID_TEXT = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


class _Labels:
    """Replaces each id by the order it first appears in, and a time by its ISO text, so runs compare."""

    def __init__(self) -> None:
        self.seen: dict[str, str] = {}

    def __call__(self, value: Any) -> Any:
        if isinstance(value, uuid.UUID) or (isinstance(value, str) and UUID_TEXT.match(value)):
            return self.seen.setdefault(str(value), f"id{len(self.seen)}")
        if isinstance(value, datetime):
            return value.isoformat()
        if isinstance(value, dict):
            return {k: self(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self(v) for v in value]
        return value


def _rows(conversation: Conversation) -> dict[str, list[dict[str, Any]]]:
    by_conversation = {"conversation_id": conversation.id}
    return {
        "workspace": list(Workspace.objects.filter(**by_conversation).values()),
        "instances": list(AppInstance.objects.filter(**by_conversation).order_by("focus_seq").values()),
        "sessions": list(
            AppSession.objects.filter(**by_conversation).order_by("opened_at", "instance__focus_seq").values()
        ),
        "snapshots": list(
            InstanceSnapshot.objects.filter(instance__conversation_id=conversation.id)
            .order_by("instance__focus_seq")
            .values()
        ),
        "tool_calls": list(
            ToolCall.objects.filter(**by_conversation).order_by("created_at", "source_tool_call_id").values()
        ),
        "operations": list(Operation.objects.filter(**by_conversation).order_by("started_at").values()),
        "events": [
            {k: v for k, v in event.items() if k != "id"}
            for event in LifecycleEvent.objects.filter(**by_conversation).order_by("id").values()
        ],
    }


def _run(scenario, user, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    # A conversation with no workspace yet: its first start creates it (and Interact).
    conversation = Conversation.objects.create(owner=user, title=scenario.__name__)
    agent = AgentDriver(caller=Caller(label="agent:paths", user_id=user.id), conversation=conversation)
    with monkeypatch.context() as scoped:
        args = (agent, scoped) if "monkeypatch" in scenario.__code__.co_varnames else (agent,)
        outcomes = scenario(*args)
    labels = _Labels()
    labels(conversation.id)
    return {"outcomes": labels(outcomes), "rows": labels(_rows(conversation))}


def _expected() -> dict[str, Any]:
    return json.loads(EXPECTED.read_text()) if EXPECTED.exists() else {}


def _check(name: str, got: dict[str, Any]) -> None:
    got = json.loads(json.dumps(got))  # tuples as lists, as the file holds them
    if os.environ.get("LINEUP_WRITE_EXPECTED"):
        expected = _expected()
        expected[name] = got
        EXPECTED.write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")
        return
    expected = _expected()[name]
    assert got["outcomes"] == expected["outcomes"]
    for table in expected["rows"]:
        assert got["rows"][table] == expected["rows"][table], table


@pytest.mark.django_db
@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.__name__)
def test_a_start_in_a_callers_transaction_writes_the_expected_rows(scenario, user, monkeypatch):
    got = _run(scenario, user, monkeypatch)
    _check(scenario.__name__, got)
    assert got["rows"]["operations"] or scenario is retry_of_an_interrupt_call_id  # the scenarios start something


@pytest.mark.django_db(transaction=True)
def test_a_start_in_its_own_transaction_writes_the_same_rows(user, monkeypatch):
    """No transaction open: on PostgreSQL the start sends its own BEGIN and COMMIT with its statements."""
    for scenario in SCENARIOS:
        _check(scenario.__name__, _run(scenario, user, monkeypatch))


@pytest.mark.django_db
def test_a_start_writes_six_rows_and_one_audit_event(agent):
    """Instance, sub-session, snapshot, tool call, operation and one event (Interact exists)."""
    agent.start(60, now=when(-10))
    agent.interrupt(now=when(-5))
    before = {m: m.objects.count() for m in (AppInstance, AppSession, InstanceSnapshot, ToolCall, Operation)}
    events_before = LifecycleEvent.objects.count()
    assert isinstance(agent.start(60, now=when(0)), Accepted)
    after = {m: m.objects.count() for m in before}
    assert all(after[m] - before[m] == 1 for m in before), (before, after)
    assert LifecycleEvent.objects.count() - events_before == 1
