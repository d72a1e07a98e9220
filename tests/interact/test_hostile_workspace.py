"""Hostile input on ``/ws/workspace/`` (interact.consumers; SPEC R-2.2.3).

The same treatment as the Agent socket (tests/lineup/gateways/agent_socket/test_hostile_frames.py), for
the page's frames (``WORKSPACE_FRAMES``): Hypothesis frames from the frame schemas, some aimed at
the user's own rows and some at another user's, broken frames, and a hand-picked list. A
schema-valid frame gets ``ok`` / ``snapshot`` or an ``error`` with a stable Runtime code (never
``internal_error``); a refusal writes nothing but its own decision-log entry; the page's
``request_id`` comes back in every reply - also when the frame as a whole was refused, as long as
it was a JSON object carrying a valid one (a request the page would otherwise wait on forever).

In-process through the real ASGI stack (Origin check, session auth) with one connection for all
examples (tests/support/hostile.py); the 10 MB frame against a live Daphne.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from interact.consumers import WORKSPACE_FRAMES
from interact.services.interactions import request_interaction
from runtime.errors import RejectionCode
from runtime.models import Conversation
from runtime.services.agents import create_agent_token
from runtime.services.conversations import conversation_get_or_create_default
from runtime.services.lifecycle import close_instance, open_app
from runtime.tool_calls import Accepted
from runtime.tool_router import Caller
from runtime.wire import MAX_DEPTH
from tests.support.auth import password_login
from tests.support.factories import AgentDriver
from tests.support.hostile import (
    REJECTION_EVENTS,
    InProcessPage,
    LoopThread,
    Mutant,
    database_state,
    in_process,
    last_event_id,
    mutants,
    new_event_kinds,
    valid_frames,
)
from tests.support.processes import PYTHON, free_port, lineup_env, port_open, supervised_processes, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = "http://127.0.0.1"  # the live Daphne is reached as 127.0.0.1:<port>
SCHEMAS = {name: validator.schema for name, validator in WORKSPACE_FRAMES.items()}
CODES = frozenset(code.value for code in RejectionCode)
TEN_MB = 10 * 1024 * 1024


@cache
def workspace_valid_frames() -> dict[str, st.SearchStrategy[dict[str, Any]]]:
    return valid_frames(SCHEMAS)


def session_cookie(username: str, password: str) -> str:
    client = Client()
    assert password_login(client, username, password)
    return client.cookies[django_settings.SESSION_COOKIE_NAME].value


def echoable(frame: Any) -> str | None:
    """The request_id a reply to ``frame`` must carry: a valid one of a JSON object, else none."""
    if not isinstance(frame, dict):
        return None
    request_id = frame.get("request_id")
    return request_id if isinstance(request_id, str) and len(request_id) <= 64 else None


# --- the in-process page -------------------------------------------------------------------------


@pytest.fixture
def runner(settings) -> Iterator[LoopThread]:
    with in_process(settings) as loop:
        yield loop


# --- the world the frames aim at -------------------------------------------------------------------


@dataclass
class Scenario:
    mine: str
    foreign: str
    notes: str  # Ada's open Notes instance
    pools: dict[str, list[str]]


def _ask(user: Any, interaction_id: str, kind: str, **fields: Any) -> str:
    conversation = conversation_get_or_create_default(user=user)
    agent, _token = create_agent_token(user=user, name="reference", now=timezone.now())
    interaction = request_interaction(
        conversation=conversation,
        agent=agent,
        interaction_id=interaction_id,
        kind=kind,
        prompt=f"{kind}?",
        now=timezone.now(),
        **fields,
    )
    return str(interaction.id)


@pytest.fixture
def scenario(user, other_user) -> Scenario:
    mine = conversation_get_or_create_default(user=user)
    theirs = conversation_get_or_create_default(user=other_user)
    now = timezone.now()
    closed = open_app(conversation_id=mine.id, app_id="notes", now=now)
    close_instance(conversation_id=mine.id, instance_id=closed.id, now=now)
    notes = open_app(conversation_id=mine.id, app_id="notes", now=now)
    driver = AgentDriver(caller=Caller(label="agent:ada", user_id=user.id), conversation=mine)
    focus = driver.start(3600, activity="reading", now=timezone.now())
    assert isinstance(focus, Accepted), focus
    bob_notes = open_app(conversation_id=theirs.id, app_id="notes", now=now)
    options = [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]
    interactions = [
        _ask(user, "c-1", "confirm"),
        _ask(user, "ch-1", "choice", options=options),
        _ask(user, "in-1", "input"),
        _ask(other_user, "bob-1", "confirm"),
    ]
    return Scenario(
        mine=str(mine.id),
        foreign=str(theirs.id),
        notes=str(notes.id),
        pools={
            "conversation_id": [str(mine.id), str(theirs.id)],
            "instance_id": [str(i) for i in (notes.id, focus.instance_id, closed.id, bob_notes.id)],
            "interaction_id": interactions,
            "app_id": ["notes", "pomodoro", "interact"],
        },
    )


@pytest.fixture
def page(runner, user, scenario) -> InProcessPage:
    return InProcessPage(runner, session_cookie("ada", "pw-ada-123"))


@st.composite
def aimed_frames(draw: st.DrawFn, pools: dict[str, list[str]]) -> dict[str, Any]:
    name = draw(st.sampled_from(sorted(SCHEMAS)))
    frame = draw(workspace_valid_frames()[name])
    for key, values in pools.items():
        if key in frame and draw(st.integers(0, 3)):  # mostly: random ids only reach the first check
            frame[key] = draw(st.sampled_from(values))
    return frame


# --- Hypothesis ----------------------------------------------------------------------------------------


@pytest.mark.spec("R-2.2.3", "R-4.1.5")
def test_schema_valid_frames_get_ok_or_a_stable_refusal_that_changes_nothing(page, scenario):
    """A schema-valid page frame, with ids that are random, the user's own or another user's, is
    answered ``snapshot`` (snapshot.get), ``pong`` (ping) or ``ok`` naming the frame, or refused with a stable
    Runtime code - never ``internal_error``; the request_id comes back; a refusal changes no row
    (only its own ``*.rejected`` decision-log entry); the connection answers the next frame."""

    outcomes: Counter[str] = Counter()

    def answer_and_check(frame: dict[str, Any]) -> None:
        before, since = database_state(), last_event_id()
        reply = page.request(frame)
        outcomes[reply["type"]] += 1
        assert reply.get("request_id") == frame.get("request_id"), (frame, reply)
        if reply["type"] == "error":
            assert reply["code"] in CODES and reply.get("frame") == frame["type"], (frame, reply)
            assert reply["detail"]
            assert database_state() == before, (frame, reply)
            assert set(new_event_kinds(since)) <= REJECTION_EVENTS, (frame, new_event_kinds(since))
        elif frame["type"] == "snapshot.get":
            assert reply["type"] == "snapshot", (frame, reply)
        elif frame["type"] == "ping":  # the page's heartbeat: answered at once, nothing read or written
            assert reply["type"] == "pong", (frame, reply)
            assert database_state() == before, (frame, reply)
        else:
            assert (reply["type"], reply["frame"]) == ("ok", frame["type"]), (frame, reply)
        page.still_usable()

    given(frame=aimed_frames(scenario.pools))(answer_and_check)()
    # A draw reaches ``snapshot`` only with snapshot.get on Ada's own conversation (~4 % of frames), so
    # a run of new examples misses it about once in twenty: these frames make sure every outcome is
    # checked in every run, whatever the draws were.
    answer_and_check({"type": "snapshot.get", "conversation_id": scenario.mine, "request_id": "r-snapshot"})
    answer_and_check({"type": "visibility", "conversation_id": scenario.mine, "visible": True, "request_id": "r-ok"})
    answer_and_check({"type": "snapshot.get", "conversation_id": scenario.foreign, "request_id": "r-error"})
    assert outcomes["error"] and outcomes["ok"] and outcomes["snapshot"], outcomes  # both sides were reached
    foreign_ids = [scenario.foreign, *scenario.pools["instance_id"][-1:], scenario.pools["interaction_id"][-1]]
    assert not [e for e in page.events if any(i in json.dumps(e) for i in foreign_ids)]  # nothing of Bob's


@pytest.mark.spec("R-2.2.3")
def test_broken_frames_get_their_stable_code_with_the_request_id_and_change_nothing(page):
    """A page frame with a field missing, an extra field, a value its schema refuses, an unknown or
    no type, or no object at all gets exactly its frame-level code; the request_id comes back if
    the frame was an object with a valid one (and only then); nothing is written."""
    before, since = database_state(), last_event_id()

    @given(mutant=mutants(SCHEMAS, workspace_valid_frames()))
    def check(mutant: Mutant) -> None:
        reply = page.request(json.dumps(mutant.frame, ensure_ascii=False))
        assert (reply["type"], reply["code"]) == ("error", mutant.code), (mutant.how, reply)
        assert reply.get("request_id") == echoable(mutant.frame), (mutant.how, mutant.frame, reply)
        assert "request_id" in reply or echoable(mutant.frame) is None
        page.still_usable()

    check()
    assert database_state() == before
    assert new_event_kinds(since) == []


# --- hand-picked -----------------------------------------------------------------------------------------


def hand_picked(scenario: Scenario) -> list[tuple[str, str | bytes, str, str | None]]:
    """(what, raw frame, error code, the request_id the error must carry)."""
    mine, notes = scenario.mine, scenario.notes
    confirm, choice, text_input = scenario.pools["interaction_id"][:3]

    def save(state: str, revision: str = "0") -> str:
        return (
            f'{{"type":"state.save","request_id":"s","conversation_id":"{mine}","instance_id":"{notes}",'
            f'"state":{state},"revision":{revision}}}'
        )

    def answer(interaction: str, value: str) -> str:
        return f'{{"type":"interaction.answer","request_id":"a","interaction_id":"{interaction}","value":{value}}}'

    def visibility(visible: str) -> str:
        return f'{{"type":"visibility","request_id":"v","conversation_id":"{mine}","visible":{visible}}}'

    def capability(extra: str) -> str:
        return (
            f'{{"type":"capability.request","request_id":"c","conversation_id":"{mine}","instance_id":"{notes}",'
            f'"name":"notifications"{extra}}}'
        )

    deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    return [
        # request_id: echoed from any JSON object that carries a valid one
        ("unknown type", '{"type":"tool.call","request_id":"r-1"}', "unknown_frame_type", "r-1"),
        ("no type", '{"request_id":"r-2"}', "unknown_frame_type", "r-2"),
        ("an extra field", '{"type":"snapshot.get","request_id":"r-3","x":1}', "invalid_frame", "r-3"),
        ("a missing field", '{"type":"message.send","request_id":"r-4"}', "invalid_frame", "r-4"),
        ("too deep", '{"type":"snapshot.get","request_id":"r-5","x":' + deep + "}", "malformed_frame", "r-5"),
        ("U+0000 elsewhere", '{"type":"snapshot.get","request_id":"r-6","x":"\\u0000"}', "malformed_frame", "r-6"),
        ("an empty request_id", '{"type":"nope","request_id":""}', "unknown_frame_type", ""),
        # ... and not from what did not decode to a strict JSON object, nor a request_id that is not valid
        ("request_id too long", '{"type":"snapshot.get","request_id":"' + "r" * 65 + '"}', "invalid_frame", None),
        ("request_id a number", '{"type":"snapshot.get","request_id":7}', "invalid_frame", None),
        ("request_id null", '{"type":"snapshot.get","request_id":null}', "invalid_frame", None),
        ("request_id U+0000", '{"type":"snapshot.get","request_id":"r\\u0000"}', "malformed_frame", None),
        ("request_id a lone surrogate", '{"type":"snapshot.get","request_id":"\\ud800"}', "malformed_frame", None),
        ("duplicate request_id", '{"type":"snapshot.get","request_id":"a","request_id":"b"}', "malformed_frame", None),
        ("NaN", '{"type":"snapshot.get","request_id":"r","x":NaN}', "malformed_frame", None),
        ("not JSON", '{"type":"snapshot.get","request_id":"r"', "malformed_frame", None),
        ("a list", '[{"type":"snapshot.get","request_id":"r"}]', "malformed_frame", None),
        ("binary", b'{"type":"snapshot.get","request_id":"r"}', "malformed_frame", None),
        ("64 KiB + 1", '{"type":"snapshot.get","request_id":"r"}' + " " * 65536, "frame_too_large", None),
        ("10 MB", '{"type":"snapshot.get","request_id":"r","x":"' + "x" * TEN_MB + '"}', "frame_too_large", None),
        # numbers
        ("revision 2**64", save('{"text":"x"}', str(2**64)), "stale_revision", "s"),
        ("revision 10**300", save('{"text":"x"}', str(10**300)), "stale_revision", "s"),
        ("revision 1.0", save('{"text":"x"}', "1.0"), "invalid_frame", "s"),
        ("revision -0.0", save('{"text":"x"}', "-0.0"), "invalid_frame", "s"),
        ("revision true", save('{"text":"x"}', "true"), "invalid_frame", "s"),
        ("revision -1", save('{"text":"x"}', "-1"), "invalid_frame", "s"),
        ("revision 1e309", save('{"text":"x"}', "1e309"), "malformed_frame", None),
        ("revision 5000 digits", save('{"text":"x"}', "9" * 5000), "malformed_frame", None),
        ("state 1e309", save('{"text":1e309}'), "malformed_frame", None),
        ("state Infinity", save('{"text":Infinity}'), "malformed_frame", None),
        # values the schema lets through for the service to judge
        ("state null", save("null"), "state_schema_violation", "s"),
        ("state a number", save(str(2**64)), "state_schema_violation", "s"),
        ("state over its quota", save(json.dumps({"text": "x" * 5000})), "state_too_large", "s"),
        ("state 32 deep", save('{"text":' + "[" * 28 + "]" * 28 + "}"), "state_schema_violation", "s"),
        ("state duplicate key", save('{"text":"a","text":"b"}'), "malformed_frame", None),
        ("confirm with 1", answer(confirm, "1"), "invalid_answer", "a"),
        ("confirm with 0", answer(confirm, "0"), "invalid_answer", "a"),
        ("confirm with null", answer(confirm, "null"), "invalid_answer", "a"),
        ("confirm with 2**64", answer(confirm, str(2**64)), "invalid_answer", "a"),
        ("confirm with 1e308", answer(confirm, "1e308"), "invalid_answer", "a"),
        ("confirm with 1e309", answer(confirm, "1e309"), "malformed_frame", None),
        ("choice with an object", answer(choice, '{"id":"a"}'), "invalid_answer", "a"),
        ("choice with a list", answer(choice, '["a"]'), "invalid_answer", "a"),
        ("input with 2001 characters", answer(text_input, json.dumps("x" * 2001)), "invalid_answer", "a"),
        ("input with a number", answer(text_input, "42"), "invalid_answer", "a"),
        ("visible 1", visibility("1"), "invalid_frame", "v"),
        ("visible 0", visibility("0"), "invalid_frame", "v"),
        ("visible null", visibility("null"), "invalid_frame", "v"),
        ("visible 'true'", visibility('"true"'), "invalid_frame", "v"),
        ("capability args a list", capability(',"args":[]'), "invalid_frame", "c"),
        ("capability args too deep", capability(',"args":{"a":' + deep + "}"), "malformed_frame", "c"),
        ("capability name too long", capability("").replace("notifications", "n" * 129), "invalid_frame", "c"),
        # ids and names
        (
            "an app with a path",
            f'{{"type":"app.open","conversation_id":"{mine}","app_id":"../notes"}}',
            "unknown_app",
            None,
        ),
        (
            "an app in capitals",
            f'{{"type":"app.open","conversation_id":"{mine}","app_id":"NOTES"}}',
            "unknown_app",
            None,
        ),
        (
            "a conversation id of digits",
            '{"type":"snapshot.get","conversation_id":"' + "\u0661" * 32 + '"}',
            "unknown_conversation",
            None,
        ),
    ]


@pytest.mark.spec("R-2.2.3")
def test_hand_picked_hostile_frames_get_a_stable_code_and_change_nothing(page, scenario):
    """Each hand-picked frame gets exactly its code and, where it was a JSON object with a valid
    request_id, that request_id; nothing is written but the refusals' own log entries; the
    connection answers the next frame after each."""
    for what, raw, code, request_id in hand_picked(scenario):
        before, since = database_state(), last_event_id()
        reply = page.request(raw)
        assert (reply["type"], reply.get("code")) == ("error", code), (what, reply)
        assert reply.get("request_id", None) == request_id and (request_id is None) == ("request_id" not in reply), (
            what,
            reply,
        )
        assert reply["detail"]
        assert database_state() == before, what
        assert set(new_event_kinds(since)) <= REJECTION_EVENTS, (what, new_event_kinds(since))
        page.still_usable()


# --- over a live Daphne ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def daphne_port(request, django_db_setup, tmp_path_factory) -> Iterator[int]:
    """One live Daphne on the test database (no scheduler, no reference Agent) for this module."""
    with supervised_processes(request, tmp_path_factory.mktemp("hostile-workspace")) as processes:
        port = free_port()
        env = lineup_env(LINEUP_SCHEDULER="none", LINEUP_REFERENCE_AGENT_URL="", LINEUP_LOG_FORMAT="json")
        argv = [PYTHON, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "lineup.asgi:application"]
        process = processes.start("daphne", argv, env=env)

        def listening() -> bool:
            if not process.alive:
                pytest.fail(f"daphne exited early\n{process.tail()}", pytrace=False)
            return port_open(port)

        wait_for(listening, timeout=30, what="daphne to listen")
        yield port
        assert process.alive, process.tail()
        assert "Traceback" not in process.log_text(), process.tail(80)


def _live_page(port: int, cookie: str):
    ws = connect(
        f"ws://127.0.0.1:{port}/ws/workspace/",
        origin=f"{ORIGIN}:{port}",
        additional_headers={"Cookie": f"{django_settings.SESSION_COOKIE_NAME}={cookie}"},
        compression=None,
        ping_interval=None,
        max_size=2**22,
        legacy=True,  # connect directly, not as a context manager
    )
    hello = json.loads(ws.recv(timeout=10))
    assert hello["type"] == "hello", hello
    return ws


def _live_reply(ws) -> dict[str, Any]:
    while True:
        frame = json.loads(ws.recv(timeout=10))
        if frame["type"] != "event":
            return frame


@pytest.mark.spec("R-2.2.3")
def test_a_10_mb_frame_drops_only_that_page_and_the_server_survives(daphne_port, user, scenario):
    """A 10 MB page frame is beyond Daphne's 1 MiB message limit: Daphne drops that connection
    before LineUp reads it (no reply, no close code). Nothing is written; another page of the same
    user keeps working, a new one connects, and the server logged no traceback."""
    cookie = session_cookie("ada", "pw-ada-123")
    bystander = _live_page(daphne_port, cookie)
    before = database_state()
    hostile = _live_page(daphne_port, cookie)
    try:
        hostile.send(json.dumps({"type": "snapshot.get", "request_id": "x" * TEN_MB}))
    except ConnectionClosed:
        pass  # dropped while still sending
    with pytest.raises(ConnectionClosed) as dropped:
        while True:
            hostile.recv(timeout=20)
    assert dropped.value.rcvd is None  # dropped, not closed with a code

    bystander.send(json.dumps({"type": "snapshot.get", "request_id": "after"}))
    assert _live_reply(bystander)["request_id"] == "after"
    again = _live_page(daphne_port, cookie)
    again.send(json.dumps({"type": "message.send", "conversation_id": scenario.mine, "text": " ", "request_id": "m"}))
    assert (_live_reply(again)["code"], database_state()) == ("invalid_arguments", before)
    for ws in (bystander, again):
        ws.close()


@pytest.mark.spec("R-2.2.3")
def test_a_page_of_another_port_or_host_is_refused_by_the_live_server(daphne_port, user):
    """Over real Daphne and a real WebSocket client, with a valid session cookie: a page served from
    another port of the same host, another spelling of the host or another scheme is refused at the
    handshake (HTTP 403) and nothing is created; the page's own origin is let in."""
    cookie = session_cookie("ada", "pw-ada-123")
    for origin in (
        "http://127.0.0.1:18899",
        f"http://localhost:{daphne_port}",
        f"https://127.0.0.1:{daphne_port}",
        "http://127.0.0.1",
    ):
        with pytest.raises(InvalidStatus) as refused:
            connect(
                f"ws://127.0.0.1:{daphne_port}/ws/workspace/",
                origin=origin,
                additional_headers={"Cookie": f"{django_settings.SESSION_COOKIE_NAME}={cookie}"},
                open_timeout=10,
            )
        assert refused.value.response.status_code == 403, origin
    assert not Conversation.objects.filter(owner=user).exists()
    _live_page(daphne_port, cookie).close()  # ORIGIN:port, the page's own
