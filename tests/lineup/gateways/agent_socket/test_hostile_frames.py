"""Hostile input on ``/ws/agent/`` (docs/agent-protocol.md § Connection, § Codes; SPEC R-2.2.3).

Hypothesis builds Agent frames from the frame JSON Schemas (``lineup.gateways.agent_socket.frames``),
points some of their ids at real rows (the Agent's own conversations, open and ended blocks,
outbox entries; another user's too), and breaks others (a missing, extra or mistyped field, an
unknown type, not an object). Tool arguments are built from each published
tool's ``input_schema``. A hand-picked list adds what random data rarely hits: numbers past every
limit, floats and booleans for integers, nulls, duplicate keys, NaN, deep nesting, bad strings,
10 MB. Every frame gets the documented answer or a documented stable code, a refusal changes no
row, and the same connection answers the next frame.

The bulk runs in-process (channels' WebsocketCommunicator on ``lineup.asgi.application``, one
connection for all examples: tests/support/hostile.py); what only the transport decides (frames
over Daphne's 1 MiB message limit) runs against the package's live Daphne.
"""

from __future__ import annotations

import json
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from django.utils import timezone
from hypothesis import assume, given
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed

from interact.models import Message
from interact.services.interactions import request_interaction
from lineup.gateways.agent_socket.frames import CLIENT_FRAMES, PROTOCOL
from runtime.inventory import inventory_for_scope
from runtime.manifests import StrictValidator
from runtime.models import Agent, Conversation, Operation, OutboxEntry
from runtime.services.conversations import conversation_get_or_create_default
from runtime.tool_calls import Accepted
from runtime.tool_router import Caller
from runtime.wire import MAX_DEPTH, MAX_FRAME_BYTES
from tests.lineup.gateways.agent_socket.client import Closed as LiveClosed
from tests.support.factories import MAX_FOCUS_SECONDS, AgentDriver, activity_of, planned_seconds
from tests.support.hostile import (
    Closed,
    InProcessAgent,
    LoopThread,
    Mutant,
    database_state,
    documented_codes,
    from_schema,
    in_process,
    json_values,
    last_event_id,
    mutants,
    new_event_kinds,
    storable_text,
    valid_frames,
    violating,
)

pytestmark = pytest.mark.django_db(transaction=True)

HELLO_MAX_BYTES = 4096  # LINEUP_WS_HELLO_MAX_BYTES's default: a larger first frame is refused unread

TEN_MB = 10 * 1024 * 1024
OUTLIVES_THE_TEST_SECONDS = 3600  # see aimed_frames
TOKEN_USE = {"runtime.AgentToken": {"last_used_at"}}  # a hello stamps it: the one write a new connection makes

# What each client frame may be answered with: its answer (None: outbox.ack has none) and the
# refusals that can follow it. Every code must be a documented one (checked below).
ANSWER = {
    "hello": None,  # on an authenticated connection: always already_authenticated
    "inventory.get": {"inventory"},
    "conversation.state.get": {"conversation.state"},
    "tool.call": {"tool.accepted", "tool.receipt"},
    "message.send": {"message.sent"},
    "interaction.request": {"interaction.pending"},
    "interaction.withdraw": {"interaction.withdrawn"},
    "outbox.ack": None,
    "message.ack": None,
    "interaction.ack": None,
}
_ACCESS = {"unknown_conversation", "forbidden"}
_BLOCK = {"unknown_app_session", "app_session_ended"}
REFUSALS = {
    "hello": {("error", "already_authenticated")},
    "inventory.get": {("error", code) for code in _ACCESS},
    "conversation.state.get": {("error", code) for code in _ACCESS},
    "tool.call": {("tool.rejected", code) for code in documented_codes()["tool.rejected"]},
    "message.send": {("error", code) for code in {*_ACCESS, *_BLOCK, "invalid_arguments"}},
    "interaction.request": {
        ("error", code) for code in {*_ACCESS, *_BLOCK, "invalid_arguments", "idempotency_key_reused"}
    },
    "interaction.withdraw": {("error", code) for code in _ACCESS},
    "outbox.ack": {("error", "forbidden")},
    "message.ack": {("error", "forbidden")},
    "interaction.ack": {("error", code) for code in _ACCESS},
}


@cache
def agent_valid_frames() -> dict[str, st.SearchStrategy[dict[str, Any]]]:
    return valid_frames(CLIENT_FRAMES)


# --- the in-process connection ---------------------------------------------------------------------


@pytest.fixture
def runner(settings) -> Iterator[LoopThread]:
    with in_process(settings) as loop:
        yield loop


# --- the world the frames aim at -------------------------------------------------------------------


@dataclass
class Scenario:
    token: str
    mine: str  # Ada's default conversation: a focus is running in it (an open block)
    second: str  # Ada's other conversation: a focus ended in it (an ended block, an outbox entry)
    revision: str
    pools: dict[str, list[str]]  # field -> real values a generated frame may be pointed at


def _focus(user: Any, conversation: Conversation, seconds: int = 3600) -> Accepted:
    driver = AgentDriver(caller=Caller(label=f"agent:{user.username}", user_id=user.id), conversation=conversation)
    outcome = driver.start(seconds, activity="reading", now=timezone.now())
    assert isinstance(outcome, Accepted), outcome
    return outcome


def _ended_focus(user: Any, conversation: Conversation) -> tuple[Accepted, OutboxEntry]:
    driver = AgentDriver(caller=Caller(label=f"agent:{user.username}", user_id=user.id), conversation=conversation)
    started = driver.start(3600, now=timezone.now())
    assert isinstance(started, Accepted), started
    driver.interrupt(now=timezone.now())
    return started, OutboxEntry.objects.get(operation_id=started.operation_id)


@pytest.fixture
def scenario(user, other_user, conversation, token) -> Scenario:
    second = Conversation.objects.create(owner=user, title="Second")
    running = _focus(user, conversation)
    ended, own_entry = _ended_focus(user, second)
    bob = conversation_get_or_create_default(user=other_user)
    bob_ended, bob_entry = _ended_focus(other_user, bob)
    bob_running = _focus(other_user, bob)
    request_interaction(
        conversation=conversation,
        agent=Agent.objects.get(user=user),
        interaction_id="ask",
        kind="confirm",
        prompt="Ready?",
        now=timezone.now(),
    )
    revision = inventory_for_scope(conversation.scope).revision
    tools = [tool.name for tool in inventory_for_scope(conversation.scope).tools]
    return Scenario(
        token=token,
        mine=str(conversation.id),
        second=str(second.id),
        revision=revision,
        pools={
            "conversation_id": [str(conversation.id), str(second.id), str(bob.id)],
            "app_session_id": [str(s) for s in (running.app_session_id, ended.app_session_id)]
            + [str(s) for s in (bob_ended.app_session_id, bob_running.app_session_id)],
            "outbox_id": [str(own_entry.id), str(bob_entry.id)],
            "interaction_id": ["ask"],
            "tool": tools,
            "inventory_revision": [revision],
            "protocol": [PROTOCOL],
        },
    )


@pytest.fixture
def agent(runner, scenario) -> InProcessAgent:
    """Ada's Agent, welcomed, with the result waiting for it acked (so nothing is resent)."""
    ada = InProcessAgent(runner)
    ada.hello(scenario.token)
    ada.ack_pushed_results(scenario.mine)
    return ada


@st.composite
def aimed_frames(draw: st.DrawFn, pools: dict[str, list[str]]) -> dict[str, Any]:
    """A schema-valid Agent frame, some of whose fields name real rows (own and another user's)."""
    name = draw(st.sampled_from(sorted(CLIENT_FRAMES)))
    frame = draw(agent_valid_frames()[name])
    for key, values in pools.items():
        if key in frame and draw(st.integers(0, 3)):  # mostly: random ids only reach the first check
            frame[key] = draw(st.sampled_from(values))
    if "timeout_seconds" in frame:
        # Nothing an example leaves behind may come due while the test runs. When the package's live
        # Daphne is up (conftest.py: started by the modules before this one), its embedded scheduler
        # sweeps this database every second and would time out an interaction accepted with a 1 s
        # timeout in the middle of a later example: a change no frame made, which the replay does
        # not meet (Hypothesis reported it as a FlakyFailure).
        frame["timeout_seconds"] = max(frame["timeout_seconds"], OUTLIVES_THE_TEST_SECONDS)
    return frame


def _refusal(answer: dict[str, Any]) -> tuple[str, str] | None:
    if answer["type"] in ("error", "tool.rejected"):
        return answer["type"], answer["code"]
    return None


# --- schema-valid frames -----------------------------------------------------------------------------


@pytest.mark.spec("R-2.2.3", "R-3.11")
def test_the_codes_these_tests_expect_are_the_documented_ones():
    """Every refusal code below is in docs/agent-protocol.md § Codes (so 'documented' means it)."""
    codes = documented_codes()
    for refusals in REFUSALS.values():
        for answer_type, code in refusals:
            assert code in codes[answer_type], (answer_type, code)
    assert {"frame_too_large", "malformed_frame", "unknown_frame_type", "invalid_frame"} <= codes["error"]


@pytest.mark.spec("R-2.2.3", "R-2.2.8")
def test_schema_valid_frames_get_their_answer_or_a_documented_refusal_that_changes_nothing(agent, scenario):
    """A frame that satisfies its schema, with ids that are random, the Agent's own or another
    user's, gets its frame's answer or one of its documented refusals (never internal_error); a
    refusal changes no row (a tool.rejected writes only its own decision-log entry); the
    connection answers the next frame."""

    outcomes: Counter[str] = Counter()

    def answer_and_check(frame: dict[str, Any]) -> None:
        before, since = database_state(), last_event_id()
        if ANSWER[frame["type"]] is None and frame["type"] != "hello":  # the acks: no answer of their own
            agent.sock.send_frame(frame)
            answer = agent.request({"type": "inventory.get", "conversation_id": scenario.mine})
            refused = _refusal(answer)
            if refused is None:  # an accepted ack has no answer: this is the barrier's
                assert answer["type"] == "inventory", answer
                outcomes["answered"] += 1
                return
            assert agent.answer()["type"] == "inventory"  # the barrier's, after the refusal
        else:
            answer = agent.request(frame)
            refused = _refusal(answer)
        outcomes["refused" if refused else "answered"] += 1
        if refused is None:
            assert answer["type"] in (ANSWER[frame["type"]] or ()), (frame, answer)
            assert answer.get("conversation_id") == frame.get("conversation_id"), (frame, answer)
        else:
            assert refused in REFUSALS[frame["type"]], (frame, answer)
            assert answer["detail"], answer
            assert database_state() == before, (frame, answer)
            assert new_event_kinds(since) == (["tool.rejected"] if refused[0] == "tool.rejected" else []), frame
        agent.still_usable(scenario.mine)

    given(frame=aimed_frames(scenario.pools))(answer_and_check)()
    # Both sides are checked in every run, whatever the draws were (one run drew 70 refusals).
    answer_and_check({"type": "inventory.get", "conversation_id": scenario.mine})
    answer_and_check({"type": "inventory.get", "conversation_id": scenario.pools["conversation_id"][-1]})  # Bob's
    assert outcomes["answered"] and outcomes["refused"], outcomes  # both sides were reached
    assert agent.sock.nothing_within(0.05)  # no stray answer left over


# --- broken frames -------------------------------------------------------------------------------------


@pytest.mark.spec("R-2.2.3")
def test_broken_frames_get_their_stable_code_and_change_nothing(agent, scenario):
    """A valid frame with a field missing, an extra field, a value its schema refuses (bools and
    floats for integers, numbers past the limits, empty or too long strings, null, containers), an
    unknown or no type, or no object at all: exactly ``invalid_frame`` / ``unknown_frame_type`` /
    ``malformed_frame``, nothing written, the connection still answers."""
    before = database_state()
    since = last_event_id()

    @given(mutant=mutants(CLIENT_FRAMES, agent_valid_frames()))
    def check(mutant: Mutant) -> None:
        # A tool.call whose only fault is its arguments is still a call: the Tool Router answers it
        # tool.rejected invalid_arguments, a logged decision (test_tool_arguments_from_each_input_schema).
        assume(not mutant.how.startswith("tool.call with arguments="))
        answer = agent.request(json.dumps(mutant.frame, ensure_ascii=False))
        assert (answer["type"], answer.get("code")) == ("error", mutant.code), (mutant.how, answer)
        assert answer["detail"]
        agent.still_usable(scenario.mine)

    check()
    assert database_state() == before
    assert new_event_kinds(since) == []


@pytest.mark.spec("R-2.2.3")
def test_before_hello_every_frame_is_refused_and_the_connection_closed(runner, scenario):
    """Before a hello, a schema-valid frame of any other type gets ``not_authenticated`` and a broken
    one its frame code (``frame_too_large`` over the hello's size limit); then the connection is
    closed 4401; nothing is written; a new connection's hello still works."""
    before, since = database_state(), last_event_id()
    others = sorted(set(CLIENT_FRAMES) - {"hello"})
    valid = st.sampled_from(others).flatmap(lambda name: agent_valid_frames()[name])

    @given(
        frame=st.one_of(
            valid.map(lambda f: Mutant("valid", f, "not_authenticated")), mutants(CLIENT_FRAMES, agent_valid_frames())
        )
    )
    def check(frame: Mutant) -> None:
        stranger = InProcessAgent(runner)
        text = json.dumps(frame.frame, ensure_ascii=False)
        answer = stranger.request(text)
        expected = "frame_too_large" if len(text.encode("utf-8", "surrogatepass")) > HELLO_MAX_BYTES else frame.code
        assert (answer["type"], answer.get("code")) == ("error", expected), (frame.how, answer)
        with pytest.raises(Closed) as closed:
            stranger.sock.receive()
        assert closed.value.code == 4401
        stranger.sock.close()

    check()
    assert database_state() == before
    assert new_event_kinds(since) == []
    assert InProcessAgent(runner).hello(scenario.token)["conversations"]


# --- tool arguments --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ToolArguments:
    tool: str
    arguments: Any
    valid: bool


@cache
def _tool_strategies(scope: str) -> dict[str, tuple[dict[str, Any], Any, Any]]:
    """Per published tool: its input schema, values it accepts, its validator."""
    found = {}
    for descriptor in inventory_for_scope(scope).tools:
        schema = descriptor.input_schema
        found[descriptor.name] = (schema, from_schema(schema), StrictValidator(schema))
    return found


@st.composite
def tool_arguments(draw: st.DrawFn, scope: str) -> ToolArguments:
    """Arguments of a published tool: valid by its input_schema, or broken in one way."""
    tools = _tool_strategies(scope)
    name = draw(st.sampled_from(sorted(tools)))
    schema, valid, validator = tools[name]
    arguments = draw(valid)
    if draw(st.booleans()):
        return ToolArguments(name, arguments, True)
    properties = schema.get("properties", {})
    ways = ["extra"] if schema.get("additionalProperties") is False else []
    ways += ["wrong"] * bool(properties) + ["missing"] * bool(schema.get("required")) + ["any"]
    way = draw(st.sampled_from(ways))
    if way == "extra":
        arguments[draw(storable_text.filter(lambda k: k not in properties))] = draw(st.sampled_from([None, 1, "x", {}]))
    elif way == "wrong":
        key = draw(st.sampled_from(sorted(properties)))
        arguments[key] = draw(violating(properties[key]))
    elif way == "missing":
        del arguments[draw(st.sampled_from(schema["required"]))]
    else:
        arguments = draw(
            st.dictionaries(storable_text, json_values, max_size=3).filter(lambda a: not validator.is_valid(a))
        )
    assert not validator.is_valid(arguments)
    return ToolArguments(name, arguments, False)


@dataclass(frozen=True)
class OperationTool:
    """What the test needs of a published operation tool: its manifest policy and its app's short tool."""

    duration_argument: str
    max_duration_seconds: int
    stop_tool: str  # the app's short tool, which ends its running operation
    idle_receipts: frozenset[str]  # that short tool's receipts when nothing of the app runs


def _operation_tools(scope: str) -> dict[str, OperationTool]:
    tools = inventory_for_scope(scope).tools
    found = {}
    for descriptor in tools:
        if descriptor.operation is None:
            continue
        app_id = descriptor.name.split(".", 1)[0]
        (stop,) = [t for t in tools if t.call_model == "short" and t.name.split(".", 1)[0] == app_id]
        statuses = set(stop.result_schema["properties"]["status"]["enum"]) - {"interrupted"}
        found[descriptor.name] = OperationTool(
            duration_argument=descriptor.operation.duration_argument,
            max_duration_seconds=descriptor.operation.max_duration_seconds,
            stop_tool=stop.name,
            idle_receipts=frozenset(statuses),
        )
    return found


LONG_FOCUS_SECONDS = 1800  # a fixed example's focus: still running when its stop comes, however loaded


def _minimal(schema: dict[str, Any]) -> Any:
    """The smallest value of ``schema`` (its required fields only), built without drawing."""
    kind = schema.get("type")
    if kind == "object":
        return {key: _minimal(schema["properties"][key]) for key in schema.get("required", [])}
    if kind == "array":
        return [_minimal(schema["items"]) for _ in range(schema.get("minItems", 0))]
    if kind == "string":
        return "x" * max(1, schema.get("minLength", 0))
    if kind == "integer":
        return schema.get("minimum", 0)
    if kind == "boolean":
        return False
    raise NotImplementedError(f"_minimal does not know {schema}")


def _long_start_arguments(scope: str, start: str, tool: OperationTool) -> dict[str, Any]:
    schema, _, validator = _tool_strategies(scope)[start]
    arguments = {**_minimal(schema), tool.duration_argument: min(LONG_FOCUS_SECONDS, tool.max_duration_seconds)}
    assert validator.is_valid(arguments), arguments
    return arguments


def _check_stop(operation: Operation, stop: Any) -> None:
    """The stop of a just-started operation: ``interrupted`` — or, when a short drawn focus came
    due first (a loaded machine), ``operation_already_final`` with the focus settled ``completed``
    by that stop. Which one is decided by the clock: a stop sent at or after ``ends_at`` finds it
    due, one answered before ``ends_at`` interrupts it; in between either is right."""
    sent_at = timezone.now()
    stopped = stop()
    answered_at = timezone.now()
    operation.refresh_from_db()
    status = stopped["receipt"]["status"]
    if status == "interrupted":
        assert operation.state == "interrupted" and sent_at < operation.ends_at, (stopped, operation.ends_at)
    else:
        assert (status, operation.state) == ("operation_already_final", "completed"), stopped
        assert answered_at >= operation.ends_at, (stopped, operation.ends_at, answered_at)


@pytest.mark.spec("R-3.11", "R-2.2.3", "R-3.12")
def test_tool_arguments_from_each_input_schema(runner, user, conversation, token):
    """For each tool the Inventory publishes: arguments its input_schema accepts are accepted (a
    start with exactly the duration sent, and Pomodoro's activity) or refused by the Runtime's own
    rule (a duration over its manifest's limit: invalid_arguments); arguments it refuses are
    ``tool.rejected invalid_arguments`` that change nothing but the decision log. Never an error
    frame, never internal_error; the connection answers the next call."""
    ada = InProcessAgent(runner)
    conversation_id = str(conversation.id)
    ada.hello(token)
    revision = ada.request({"type": "inventory.get", "conversation_id": conversation_id})["revision"]
    operation_tools = _operation_tools(conversation.scope)
    assert MAX_FOCUS_SECONDS == operation_tools["pomodoro.start"].max_duration_seconds
    short_tools = {t.stop_tool: t for t in operation_tools.values()}

    def call(tool: str, arguments: Any) -> dict[str, Any]:
        return ada.request(
            {
                "type": "tool.call",
                "conversation_id": conversation_id,
                "source_tool_call_id": uuid.uuid4().hex,
                "tool": tool,
                "arguments": arguments,
                "inventory_revision": revision,
            }
        )

    outcomes: Counter[tuple[str, str]] = Counter()

    def answer_and_check(case: ToolArguments) -> None:
        before, since = database_state(), last_event_id()
        answer = call(case.tool, case.arguments)
        outcomes[(case.tool, answer["type"])] += 1
        started = operation_tools.get(case.tool)
        over_limit = (
            case.valid
            and started is not None
            and case.arguments[started.duration_argument] > started.max_duration_seconds
        )
        if not case.valid or over_limit:
            assert (answer["type"], answer.get("code")) == ("tool.rejected", "invalid_arguments"), (case, answer)
            assert database_state() == before
            assert new_event_kinds(since) == ["tool.rejected"]
        elif started is not None:
            assert answer["type"] == "tool.accepted" and answer["replayed"] is False, (case, answer)
            operation = Operation.objects.get(pk=answer["operation_id"])
            assert (operation.app_id, planned_seconds(operation)) == (
                case.tool.split(".", 1)[0],
                case.arguments[started.duration_argument],
            )
            if case.tool == "pomodoro.start":
                assert (activity_of(operation) or None) == (case.arguments.get("activity") or None)
            # Stopped so that the next start is not a second running one.
            _check_stop(operation, lambda: call(started.stop_tool, {}))
            ada.ack_pushed_results(conversation_id)
        elif case.tool in short_tools:
            assert answer["type"] == "tool.receipt", (case, answer)
            assert answer["receipt"]["status"] in short_tools[case.tool].idle_receipts
        elif answer["type"] == "tool.rejected":
            # A short tool of an app without operations (Scratch notes) may refuse a valid call with
            # its app's documented code (the notes are full): nothing but the decision log changes.
            assert answer["code"] in documented_codes()["tool.rejected"], (case, answer)
            assert database_state() == before
        else:
            assert answer["type"] == "tool.receipt", (case, answer)
            descriptor = inventory_for_scope(conversation.scope).get(case.tool)
            assert descriptor.result_validator.is_valid(answer["receipt"]), (case, answer)
        ada.still_usable(conversation_id)

    given(case=tool_arguments(conversation.scope))(answer_and_check)()
    # What the coverage below asserts is reached in every run, whatever the draws (and the replayed
    # examples of a local .hypothesis/ database) were: per operation tool, a valid start that runs
    # far longer than the test (so its stop surely interrupts it), then its short tool with nothing
    # running (an idle receipt).
    for start, tool in operation_tools.items():
        answer_and_check(ToolArguments(start, _long_start_arguments(conversation.scope, start, tool), True))
        answer_and_check(ToolArguments(tool.stop_tool, {}, True))
    for start, tool in operation_tools.items():
        assert {(start, "tool.accepted"), (tool.stop_tool, "tool.receipt")} <= set(outcomes), outcomes
    assert {tool.name for tool in inventory_for_scope(conversation.scope).tools} == set(
        _tool_strategies(conversation.scope)
    )


# --- hand-picked -------------------------------------------------------------------------------------------


def _nested(depth: int, leaf: str = "1") -> str:
    return "[" * (depth - 1) + leaf + "]" * (depth - 1)


def hand_picked(conversation_id: str, revision: str) -> list[tuple[str, str | bytes, str, str]]:
    """(what, raw frame, answer type, code): what random data rarely produces."""

    def tool_call(arguments: str, tool: str = "pomodoro.start") -> str:
        return (
            f'{{"type":"tool.call","conversation_id":"{conversation_id}","source_tool_call_id":"{uuid.uuid4().hex}",'
            f'"tool":"{tool}","arguments":{arguments},"inventory_revision":"{revision}"}}'
        )

    def ask(extra: str) -> str:
        return (
            f'{{"type":"interaction.request","conversation_id":"{conversation_id}","interaction_id":"{uuid.uuid4().hex}",'
            f'"kind":"confirm","prompt":"Ready?"{extra}}}'
        )

    send = f'{{"type":"message.send","conversation_id":"{conversation_id}","text":%s}}'
    return [
        # huge numbers
        ("duration 2**63", tool_call(f'{{"duration_seconds":{2**63}}}'), "tool.rejected", "invalid_arguments"),
        ("duration 2**64", tool_call(f'{{"duration_seconds":{2**64}}}'), "tool.rejected", "invalid_arguments"),
        ("duration 10**300", tool_call(f'{{"duration_seconds":{10**300}}}'), "tool.rejected", "invalid_arguments"),
        ("duration -(2**63)", tool_call(f'{{"duration_seconds":{-(2**63)}}}'), "tool.rejected", "invalid_arguments"),
        ("a 5000-digit integer", tool_call('{"duration_seconds":' + "9" * 5000 + "}"), "error", "malformed_frame"),
        ("1e309 (overflows to inf)", tool_call('{"duration_seconds":1e309}'), "error", "malformed_frame"),
        ("-1e309", ask(',"timeout_seconds":-1e309'), "error", "malformed_frame"),
        ("1e308 is finite", tool_call('{"duration_seconds":1e308}'), "tool.rejected", "invalid_arguments"),
        ("timeout 2**64", ask(f',"timeout_seconds":{2**64}'), "error", "invalid_frame"),
        # floats and booleans where integers belong
        ("duration 60.0", tool_call('{"duration_seconds":60.0}'), "tool.rejected", "invalid_arguments"),
        ("duration 6e1", tool_call('{"duration_seconds":6e1}'), "tool.rejected", "invalid_arguments"),
        ("duration -0.0", tool_call('{"duration_seconds":-0.0}'), "tool.rejected", "invalid_arguments"),
        ("duration true", tool_call('{"duration_seconds":true}'), "tool.rejected", "invalid_arguments"),
        ("timeout 60.0", ask(',"timeout_seconds":60.0'), "error", "invalid_frame"),
        ("timeout true", ask(',"timeout_seconds":true'), "error", "invalid_frame"),
        # nulls
        ("arguments null", tool_call("null"), "tool.rejected", "invalid_arguments"),
        ("arguments a list", tool_call("[1]"), "tool.rejected", "invalid_arguments"),
        ("duration null", tool_call('{"duration_seconds":null}'), "tool.rejected", "invalid_arguments"),
        ("text null", send % "null", "error", "invalid_frame"),
        ("type null", '{"type":null}', "error", "unknown_frame_type"),
        ("the frame null", "null", "error", "malformed_frame"),
        ("every field null", '{"type":"outbox.ack","outbox_id":null}', "error", "invalid_frame"),
        # duplicate keys, at any depth
        ("duplicate type", '{"type":"inventory.get","type":"hello","conversation_id":"x"}', "error", "malformed_frame"),
        (
            "duplicate argument",
            tool_call('{"duration_seconds":60,"duration_seconds":61}'),
            "error",
            "malformed_frame",
        ),
        ("duplicate deep key", tool_call('{"a":{"b":[{"c":1,"c":1}]}}'), "error", "malformed_frame"),
        # NaN and Infinity literals
        ("NaN", tool_call('{"duration_seconds":NaN}'), "error", "malformed_frame"),
        ("Infinity", tool_call('{"duration_seconds":Infinity}'), "error", "malformed_frame"),
        ("-Infinity", ask(',"timeout_seconds":-Infinity'), "error", "malformed_frame"),
        # nesting
        (f"{MAX_DEPTH + 1} levels", tool_call('{"a":' + _nested(MAX_DEPTH - 1) + "}"), "error", "malformed_frame"),
        (
            f"{MAX_DEPTH} levels",
            tool_call('{"a":' + _nested(MAX_DEPTH - 2) + "}"),
            "tool.rejected",
            "invalid_arguments",
        ),
        ("30 000 levels", tool_call(_nested(30_000)), "error", "malformed_frame"),
        ("10 000 objects deep", '{"a":' * 10_000 + "1" + "}" * 10_000, "error", "malformed_frame"),
        # strings
        ("U+0000 escaped", send % '"a\\u0000b"', "error", "malformed_frame"),
        ("U+0000 in a key", tool_call('{"a\\u0000":1}'), "error", "malformed_frame"),
        ("lone surrogate escaped", send % '"\\ud800"', "error", "malformed_frame"),
        ("lone surrogate raw", send % '"\ud800"', "error", "malformed_frame"),
        ("reversed surrogate pair", send % '"\\udc00\\ud800"', "error", "malformed_frame"),
        ("4001 characters", send % json.dumps("x" * 4001), "error", "invalid_frame"),
        ("blank text", send % '" \\t\\n\\u00a0 "', "error", "invalid_arguments"),
        # not one JSON object
        ("empty", "", "error", "malformed_frame"),
        ("whitespace", " \n", "error", "malformed_frame"),
        ("a BOM first", '\ufeff{"type":"inventory.get"}', "error", "malformed_frame"),
        ("two objects", '{"type":"outbox.ack","outbox_id":"a"}{}', "error", "malformed_frame"),
        ("trailing comma", '{"type":"outbox.ack","outbox_id":"a",}', "error", "malformed_frame"),
        ("single quotes", "{'type':'outbox.ack'}", "error", "malformed_frame"),
        ("a list", '[{"type":"outbox.ack","outbox_id":"a"}]', "error", "malformed_frame"),
        ("binary JSON", b'{"type":"inventory.get","conversation_id":"x"}', "error", "malformed_frame"),
        ("binary garbage", bytes(range(256)), "error", "malformed_frame"),
        # types
        ("type in capitals", '{"type":"HELLO"}', "error", "unknown_frame_type"),
        ("type with a space", '{"type":"hello "}', "error", "unknown_frame_type"),
        ("type a number", '{"type":1}', "error", "unknown_frame_type"),
        ("a server frame", '{"type":"welcome"}', "error", "unknown_frame_type"),
        ("hello again", f'{{"type":"hello","token":"x","protocol":"{PROTOCOL}"}}', "error", "already_authenticated"),
        # size: the consumer's own limit (Daphne would drop a 10 MB frame before it, see below)
        ("64 KiB + 1", send % json.dumps("x" * (MAX_FRAME_BYTES - 60)) + " " * 20, "error", "frame_too_large"),
        ("10 MB text", send % json.dumps("x" * TEN_MB), "error", "frame_too_large"),
        ("10 MB of é", "é" * (TEN_MB // 2), "error", "frame_too_large"),
        ("10 MB binary", b"\x00" * TEN_MB, "error", "malformed_frame"),
    ]


@pytest.mark.spec("R-2.2.3")
def test_hand_picked_hostile_frames_get_a_stable_code_and_change_nothing(agent, scenario):
    """Each hand-picked frame gets exactly its answer type and code (frame-level codes as ``error``,
    argument-level ones as ``tool.rejected``), nothing is written but the refusals' own log
    entries, and the connection answers the next frame after each."""
    for what, raw, answer_type, code in hand_picked(scenario.mine, scenario.revision):
        before, since = database_state(), last_event_id()
        answer = agent.request(raw)
        assert (answer["type"], answer.get("code")) == (answer_type, code), (what, answer)
        assert answer["detail"]
        assert database_state() == before, what
        assert new_event_kinds(since) == (["tool.rejected"] if answer_type == "tool.rejected" else []), what
        agent.still_usable(scenario.mine)
    assert agent.sock.nothing_within(0.05)


UNICODE = [
    "\u200bzero\u200bwidth\u200b",  # zero-width spaces around visible text (alone they are refused: no visible characters)
    "Fokus 🍅 — 25 min",
    "e\u0301 vs é",  # combining vs precomposed: stored as sent, not normalised
    "\u202eevil\u202c",  # right-to-left override
    "👩‍💻" * 100,  # zero-width joiner sequences
    "\U0010fffd" + "\ufffe" + "\uffff",  # the last code points, noncharacters
    "line\u2028separator\u2029paragraph",
    "日本語のテキスト",
    "x" * 4000,
]


@pytest.mark.spec("R-2.2.3")
def test_unicode_that_is_valid_is_stored_exactly_as_sent(agent, scenario):
    """Valid but unusual text (astral, combining, bidi overrides, noncharacters, U+2028, 4000
    characters) is accepted and stored and echoed unchanged, in messages and as a focus activity."""
    before = database_state()
    for text in UNICODE:
        sent = agent.request({"type": "message.send", "conversation_id": scenario.mine, "text": text})
        assert sent["type"] == "message.sent", (text[:20], sent)
        assert Message.objects.get(pk=sent["message_id"]).text == text
    assert database_state() != before  # the comparison the refusal tests rely on does see a write
    revision = scenario.revision
    stop = {"type": "tool.call", "conversation_id": scenario.second, "tool": "pomodoro.interrupt", "arguments": {}}
    for activity in [t for t in UNICODE if len(t) <= 256]:
        start = {
            "type": "tool.call",
            "conversation_id": scenario.second,
            "source_tool_call_id": uuid.uuid4().hex,
            "tool": "pomodoro.start",
            "arguments": {"duration_seconds": 60, "activity": activity},
            "inventory_revision": revision,
        }
        accepted = agent.request(start)
        assert accepted["type"] == "tool.accepted", accepted
        assert activity_of(Operation.objects.get(pk=accepted["operation_id"])) == activity
        stopped = agent.request({**stop, "source_tool_call_id": uuid.uuid4().hex, "inventory_revision": revision})
        assert stopped["receipt"]["status"] == "interrupted", stopped
        agent.ack_pushed_results(scenario.mine)


# --- over a live Daphne: what the transport decides ---------------------------------------------------------


def _dropped(sock) -> int | None:
    """Read until the connection ends; the close code (None: dropped without one)."""
    with pytest.raises(LiveClosed) as closed:
        sock.answer(timeout=20)
    return closed.value.code


@pytest.mark.spec("R-2.2.3")
def test_frames_over_the_transport_limit_drop_only_their_connection_and_the_server_survives(
    live, connect, token, conversation
):
    """Beyond the oversized text frame of test_rejections: a 10 MB binary frame, a 10 MB frame
    before hello, and a 10 MB message sent in 64 KiB fragments are each refused by Daphne itself
    (its 1 MiB message limit), which drops that connection without a close code before LineUp
    reads a byte. Nothing is written, the Agent's other connection keeps working, the server
    process is still up and logged no traceback, and the Agent can connect again."""
    conversation_id = str(conversation.id)
    bystander = connect()
    bystander.hello(token)
    before = database_state(ignore=TOKEN_USE)
    chunk = "x" * (64 * 1024)
    for what in ("binary", "before hello", "fragmented"):
        sock = connect()
        try:
            if what == "binary":
                sock.hello(token)
                sock.send_raw(b"\x00" * TEN_MB)
            elif what == "before hello":
                sock.send_raw(json.dumps({"type": "hello", "token": "x" * TEN_MB, "protocol": PROTOCOL}))
            else:
                sock.hello(token)
                sock.ws.send(iter([chunk] * (TEN_MB // len(chunk))))
        except ConnectionClosed:
            pass  # the server may drop it while the client is still sending
        assert _dropped(sock) is None, what
        answer = bystander.request({"type": "inventory.get", "conversation_id": conversation_id})
        assert answer["type"] == "inventory", (what, answer)
    assert live.main.process.alive
    assert "Traceback" not in live.main.process.log_text()
    again = connect()
    assert again.hello(token)["conversations"] == bystander.welcome["conversations"]
    assert database_state(ignore=TOKEN_USE) == before
