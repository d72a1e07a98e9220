"""``/ws/workspace/`` (interact.consumers.WorkspaceConsumer) through the real ASGI stack.

Every test drives ``lineup.asgi.application`` — the URL router with the Origin check and the
session auth middleware in front of the consumer — with channels' WebsocketCommunicator, a real
session cookie and the in-memory channel layer (SPEC R-4.1.5, R-4.2.2, R-3.8, R-4.3, R-2.2.3).

The scenarios are coroutines run with asgiref's ``async_to_sync`` (no pytest-asyncio: the rest of
the suite runs coroutines the same way, and it keeps the consumer's ``database_sync_to_async`` work
in the test's own thread, on the test's database connection). The tests are ``transaction=True``
because that work commits and closes connections like it does in production.
"""

from __future__ import annotations

import json
import math
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import channel_layers, get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client
from django.utils import timezone

from interact.models import Interaction, InteractionStatus, Message
from interact.services.interactions import request_interaction
from lineup.asgi import application
from runtime.clock import isoformat
from runtime.models import (
    Agent,
    AppInstance,
    AppSession,
    Conversation,
    InstanceSnapshot,
    Operation,
    OutboxEntry,
    ToolCall,
)
from runtime.projections import RESYNC_ABOVE, RESYNC_GROUP
from runtime.services.agents import create_agent_token
from runtime.services.conversations import conversation_get_or_create_default
from runtime.services.lifecycle import open_app
from runtime.tool_calls import Accepted
from runtime.tool_router import Caller
from runtime.transitions import LifecycleState, OperationState
from runtime.wire import MAX_FRAME_BYTES
from tests.support.auth import password_login
from tests.support.factories import AgentDriver

pytestmark = pytest.mark.django_db(transaction=True)

LOCAL = "http://localhost"
REPLY_TIMEOUT = 5  # seconds; a healthy reply takes milliseconds


@pytest.fixture(autouse=True)
def in_memory_layer(settings):
    """The in-memory channel layer, fresh for each test (channels caches layer instances)."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends = {}
    yield
    channel_layers.backends = {}


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    async_to_sync(scenario)()


def session_cookie(username: str, password: str) -> str:
    """Log in like a browser does and return the session id Django set."""
    client = Client()
    assert password_login(client, username, password)
    return client.cookies[django_settings.SESSION_COOKIE_NAME].value


def headers(cookie: str | None, origin: str | None = LOCAL) -> list[tuple[bytes, bytes]]:
    """A browser's handshake on ``http://localhost`` (the ``Host``), from ``origin``, with the session cookie."""
    found = [(b"host", b"localhost")]
    if origin is not None:
        found.append((b"origin", origin.encode()))
    if cookie is not None:
        found.append((b"cookie", f"{django_settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    return found


class Page:
    """One browser tab's connection: request/reply with the events that arrive in between kept aside."""

    def __init__(self, ws: WebsocketCommunicator, hello: dict[str, Any]) -> None:
        self.ws = ws
        self.hello = hello
        self.events: list[dict[str, Any]] = []

    async def ask(self, frame_type: str, **body: Any) -> dict[str, Any]:
        await self.ws.send_json_to({"type": frame_type, **body})
        return await self.reply()

    async def send_raw(self, text: str | None = None, data: bytes | None = None) -> dict[str, Any]:
        await self.ws.send_to(text_data=text, bytes_data=data)
        return await self.reply()

    async def reply(self) -> dict[str, Any]:
        while True:
            frame = await self.ws.receive_json_from(timeout=REPLY_TIMEOUT)
            if frame["type"] != "event":
                return frame
            self.events.append(frame)

    async def event(self, kind: str, **match: Any) -> dict[str, Any]:
        """The next ``kind`` event whose payload has ``match`` (waiting for it if needed)."""

        def fits(frame: dict[str, Any]) -> bool:
            return frame["type"] == "event" and frame["kind"] == kind and match.items() <= frame["payload"].items()

        for frame in self.events:
            if fits(frame):
                self.events.remove(frame)
                return frame
        while True:
            frame = await self.ws.receive_json_from(timeout=REPLY_TIMEOUT)
            if fits(frame):
                return frame
            self.events.append(frame)

    async def nothing_more(self) -> bool:
        return await self.ws.receive_nothing(timeout=0.2)

    async def snapshot(self) -> dict[str, Any]:
        reply = await self.ask("snapshot.get")
        assert reply["type"] == "snapshot", reply
        return reply["snapshot"]


async def open_page(cookie: str) -> Page:
    ws = WebsocketCommunicator(application, "/ws/workspace/", headers=headers(cookie))
    connected, code = await ws.connect(timeout=REPLY_TIMEOUT)
    assert connected, code
    hello = await ws.receive_json_from(timeout=REPLY_TIMEOUT)
    assert hello["type"] == "hello", hello
    return Page(ws, hello)


async def refused(extra_headers: list[tuple[bytes, bytes]]) -> tuple[bool, Any]:
    ws = WebsocketCommunicator(application, "/ws/workspace/", headers=extra_headers)
    connected, code = await ws.connect(timeout=REPLY_TIMEOUT)
    if connected:
        await ws.disconnect()
    return connected, code


# --- scenario data (built through the real services) ---------------------------------------------


@pytest.fixture
def ada(user) -> str:
    return session_cookie("ada", "pw-ada-123")


@pytest.fixture
def bob(other_user) -> str:
    return session_cookie("bob", "pw-bob-123")


def driver_for(user: Any) -> AgentDriver:
    conversation = conversation_get_or_create_default(user=user)
    return AgentDriver(caller=Caller(label=f"agent:{user.username}", user_id=user.id), conversation=conversation)


def start_focus(user: Any, seconds: int = 1500) -> Accepted:
    # The consumer decides with the real clock, so the scenario is built on it too.
    outcome = driver_for(user).start(seconds, activity="reading", now=timezone.now())
    assert isinstance(outcome, Accepted), outcome
    return outcome


def agent_of(user: Any) -> Agent:
    agent, _token = create_agent_token(user=user, name="reference", now=timezone.now())
    return agent


def ask_person(user: Any, kind: str, interaction_id: str, **fields: Any) -> Interaction:
    return request_interaction(
        conversation=conversation_get_or_create_default(user=user),
        agent=agent_of(user),
        interaction_id=interaction_id,
        kind=kind,
        prompt=f"{kind}?",
        now=timezone.now(),
        **fields,
    )


def world(conversation: Any = None) -> dict[str, Any]:
    """Every row a workspace frame could change (of one conversation, or all), for before/after comparisons."""
    scope = {} if conversation is None else {"conversation_id": getattr(conversation, "id", conversation)}
    return {
        "messages": list(Message.objects.filter(**scope).order_by("id").values_list("id", "text", "app_session_id")),
        "interactions": list(Interaction.objects.filter(**scope).order_by("id").values_list("id", "status", "value")),
        "instances": list(
            AppInstance.objects.filter(**scope)
            .order_by("id")
            .values_list("id", "lifecycle_state", "focus_seq", "closed_at")
        ),
        "sessions": list(AppSession.objects.filter(**scope).order_by("id").values_list("id", "state")),
        "operations": list(
            Operation.objects.filter(**scope).order_by("id").values_list("id", "state", "interruption_reason")
        ),
        "snapshots": list(
            InstanceSnapshot.objects.filter(**{f"instance__{k}": v for k, v in scope.items()})
            .order_by("instance_id")
            .values_list("instance_id", "revision", "state")
        ),
        "outbox": list(OutboxEntry.objects.filter(**scope).order_by("id").values_list("id", flat=True)),
        "tool_calls": list(ToolCall.objects.filter(**scope).order_by("id").values_list("id", "status")),
    }


db_world = database_sync_to_async(world)


@database_sync_to_async
def operation_of(started: Accepted) -> Operation:
    return Operation.objects.get(pk=started.operation_id)


@database_sync_to_async
def lifecycle_of(instance_id: Any) -> str:
    return AppInstance.objects.get(pk=instance_id).lifecycle_state


@database_sync_to_async
def outbox_count(started: Accepted) -> int:
    return OutboxEntry.objects.filter(operation_id=started.operation_id).count()


# --- connecting ------------------------------------------------------------------------------------


@pytest.mark.spec("R-2.2.3")
def test_a_connection_without_a_logged_in_user_is_refused(user):
    """No session cookie, or one Django never issued, is refused with 4401 (from an allowed Origin)."""

    async def scenario() -> None:
        assert await refused(headers(None)) == (False, 4401)
        assert await refused(headers("not-a-session")) == (False, 4401)

    run(scenario)


@pytest.mark.spec("R-2.2.3")
def test_a_logged_in_user_is_accepted_and_greeted(user, ada):
    """A real session cookie from an allowed Origin is accepted; ``hello`` names the user and the
    user's conversations (the default one exists from the start)."""

    async def scenario() -> None:
        page = await open_page(ada)
        conversation = await database_sync_to_async(conversation_get_or_create_default)(user=user)
        assert page.hello == {"type": "hello", "user": "ada", "conversations": [str(conversation.id)]}
        await page.ws.disconnect()

    run(scenario)


@pytest.mark.spec("R-2.2.3")
@pytest.mark.parametrize(
    "origin",
    ["http://evil.example", "http://localhost.evil.example", "http://localhost:18899", "https://localhost", None],
)
def test_a_page_from_another_origin_is_refused(user, ada, origin):
    """Even with a valid session cookie, a foreign Origin (or none) is refused: no cross-site
    WebSocket hijacking, and nothing is created for the user."""

    async def scenario() -> None:
        connected, _code = await refused(headers(ada, origin=origin))
        assert connected is False

    run(scenario)
    assert not Conversation.objects.filter(owner=user).exists()


# --- snapshot, messages, interactions --------------------------------------------------------------


@pytest.mark.spec("R-4.1.5")
def test_snapshot_get_returns_the_whole_workspace_with_the_request_id(user, ada):
    """``snapshot.get`` answers ``snapshot`` with the echoed request_id; with or without an explicit
    conversation id it is the user's default conversation, with the running focus in it."""
    started = start_focus(user)
    ends_at = isoformat(Operation.objects.get(pk=started.operation_id).ends_at)

    async def scenario() -> None:
        page = await open_page(ada)
        conversation_id = page.hello["conversations"][0]
        implicit = await page.ask("snapshot.get", request_id="r-1")
        explicit = await page.ask("snapshot.get", conversation_id=conversation_id, request_id="r-2")
        assert (implicit["type"], implicit["request_id"], explicit["request_id"]) == ("snapshot", "r-1", "r-2")
        for snapshot in (implicit["snapshot"], explicit["snapshot"]):
            assert snapshot["conversation"]["id"] == conversation_id
            assert snapshot["foreground"]["instance_id"] == str(started.instance_id)
            assert snapshot["operation"]["ends_at"] == ends_at
        await page.ws.disconnect()

    run(scenario)


def test_ping_is_answered_pong_at_once_without_the_database(user, ada, monkeypatch):
    """The page's heartbeat: ``pong`` with the echoed request_id, and no database call (it runs every
    few seconds on every open page, so it must cost the server next to nothing)."""
    import interact.consumers

    calls: list[str] = []
    real_run_db = interact.consumers.run_db

    async def counting_run_db(call, *args, **kwargs):
        calls.append(getattr(call, "__name__", repr(call)))
        return await real_run_db(call, *args, **kwargs)

    async def scenario() -> None:
        page = await open_page(ada)
        monkeypatch.setattr(interact.consumers, "run_db", counting_run_db)
        reply = await page.ask("ping", request_id="hb-1")
        again = await page.ask("ping")
        assert reply == {"type": "pong", "request_id": "hb-1"}
        assert again == {"type": "pong"}
        assert calls == []
        await page.snapshot()  # the counter counts: a real frame goes to the database
        assert calls
        await page.ws.disconnect()

    run(scenario)


@pytest.mark.spec("R-4.3.2")
def test_message_send_posts_and_announces_to_every_page_of_the_user_only(user, ada, bob):
    """``message.send`` answers ``ok`` with the message id; the user's pages get a ``message.created``
    event, another user's page gets nothing."""

    async def scenario() -> None:
        page, second_tab, stranger = await open_page(ada), await open_page(ada), await open_page(bob)
        conversation_id = page.hello["conversations"][0]
        reply = await page.ask("message.send", conversation_id=conversation_id, text=" hello ", request_id="m-1")
        assert (reply["type"], reply["frame"], reply["request_id"]) == ("ok", "message.send", "m-1")

        for tab in (page, second_tab):
            event = await tab.event("message.created", message_id=reply["message_id"])
            assert event["payload"]["text"] == "hello"
            assert event["payload"]["author_kind"] == "human"
            assert event["payload"]["conversation_id"] == conversation_id
        assert await stranger.nothing_more()
        for tab in (page, second_tab, stranger):
            await tab.ws.disconnect()

    run(scenario)
    message = Message.objects.get()
    assert (message.author_user_id, message.text, message.app_session_id) == (user.id, "hello", None)


@pytest.mark.spec("R-2.1.1", "R-4.3.4")
def test_interactions_are_answered_and_dismissed_once_over_the_connection(user, ada):
    """``interaction.answer`` / ``interaction.dismiss`` resolve a pending interaction (ok + a
    ``interaction.resolved`` event); a second try is ``interaction_already_resolved``; a bad value
    (wrong type, unknown option, a list) is ``invalid_answer`` and leaves it pending."""
    confirm = ask_person(user, "confirm", "c-1")
    choice = ask_person(user, "choice", "ch-1", options=[{"id": "a", "label": "A"}, {"id": "b", "label": "B"}])
    notice = ask_person(user, "notice", "n-1")

    async def scenario() -> None:
        page = await open_page(ada)
        for value in ("yes", None, ["a"]):
            reply = await page.ask("interaction.answer", interaction_id=str(confirm.id), value=value, request_id="x")
            assert (reply["type"], reply["code"], reply["request_id"]) == ("error", "invalid_answer", "x")
        for value in ("c", ["a"], {"id": "a"}):
            reply = await page.ask("interaction.answer", interaction_id=str(choice.id), value=value)
            assert (reply["type"], reply["code"]) == ("error", "invalid_answer")

        reply = await page.ask("interaction.answer", interaction_id=str(confirm.id), value=True, request_id="a-1")
        assert reply == {
            "type": "ok",
            "frame": "interaction.answer",
            "request_id": "a-1",
            "interaction_id": str(confirm.id),
            "status": "answered",
        }
        event = await page.event("interaction.resolved", id=str(confirm.id))
        assert (event["payload"]["status"], event["payload"]["value"]) == ("answered", True)
        reply = await page.ask("interaction.answer", interaction_id=str(choice.id), value="b")
        assert (reply["type"], reply["status"]) == ("ok", "answered")

        reply = await page.ask("interaction.dismiss", interaction_id=str(notice.id))
        assert (reply["type"], reply["status"]) == ("ok", "dismissed")
        await page.event("interaction.resolved", id=str(notice.id), status="dismissed")

        for frame, extra in (("interaction.answer", {"value": False}), ("interaction.dismiss", {})):
            for target in (confirm, notice):
                reply = await page.ask(frame, interaction_id=str(target.id), **extra)
                assert (reply["type"], reply["code"]) == ("error", "interaction_already_resolved")
        await page.ws.disconnect()

    run(scenario)
    assert Interaction.objects.get(pk=confirm.pk).value is True
    assert Interaction.objects.get(pk=choice.pk).value == "b"
    assert Interaction.objects.get(pk=notice.pk).status == InteractionStatus.DISMISSED


# --- host lifecycle events -------------------------------------------------------------------------


@pytest.mark.spec("R-4.2.2", "R-4.4.5", "R-4.1.3")
def test_dim_and_lock_suspend_the_app_and_never_end_the_focus(user, ada):
    """``visibility`` false then true during a focus: ok each time, Pomodoro goes suspended and back to
    the foreground (with lifecycle events), and the operation is still focusing with no outbox."""
    started = start_focus(user)

    async def scenario() -> None:
        page = await open_page(ada)
        conversation_id = page.hello["conversations"][0]
        reply = await page.ask("visibility", conversation_id=conversation_id, visible=False, request_id="v-0")
        assert (reply["type"], reply["frame"], reply["request_id"]) == ("ok", "visibility", "v-0")
        await page.event("instance.lifecycle", instance_id=str(started.instance_id), lifecycle_state="suspended")
        assert await lifecycle_of(started.instance_id) == LifecycleState.SUSPENDED
        assert (await operation_of(started)).state == OperationState.RUNNING

        reply = await page.ask("visibility", conversation_id=conversation_id, visible=True)
        assert reply["type"] == "ok"
        await page.event("instance.lifecycle", instance_id=str(started.instance_id), lifecycle_state="foreground")
        assert await lifecycle_of(started.instance_id) == LifecycleState.FOREGROUND
        assert (await operation_of(started)).state == OperationState.RUNNING
        assert await outbox_count(started) == 0
        await page.ws.disconnect()

    run(scenario)


@pytest.mark.spec("R-4.2.2")
def test_a_surface_reload_is_not_an_exit(user, ada):
    """``surface.reloaded`` for the running Pomodoro is ok and changes nothing: still in front, still
    focusing, no result."""
    started = start_focus(user)

    async def scenario() -> None:
        page = await open_page(ada)
        before = await db_world()
        reply = await page.ask(
            "surface.reloaded", conversation_id=page.hello["conversations"][0], instance_id=str(started.instance_id)
        )
        assert (reply["type"], reply["frame"]) == ("ok", "surface.reloaded")
        assert await db_world() == before
        assert await page.nothing_more()
        await page.ws.disconnect()

    run(scenario)
    assert Operation.objects.get(pk=started.operation_id).state == OperationState.RUNNING


EXITS = {
    # frame -> (the interruption reason it must produce)
    "return_to_interact": "returned_to_interact",
    "app.open": "switched_app",
    "app.switch": "switched_app",
    "app.close": "app_closed",
    "workspace.close": "app_closed",  # the Desktop Host's window closing: every open app
}


@pytest.mark.spec("R-3.8", "R-4.1.2", "R-4.2.2", "R-4.2.6", "R-2.2.5")
@pytest.mark.parametrize("exit_frame", list(EXITS))
def test_each_exit_ends_the_focus_interrupted_exactly_once(user, ada, exit_frame):
    """Going back to Interact, opening or switching to another app, closing Pomodoro and closing the
    whole workspace (the desktop window) each answer ``ok`` and end the focus ``interrupted`` with the matching reason and exactly one outbox entry —
    also when the page sends the same exit again."""
    conversation = conversation_get_or_create_default(user=user)
    notes = open_app(conversation_id=conversation.id, app_id="notes", now=timezone.now())  # a second app to switch to
    started = start_focus(user)
    assert AppInstance.objects.get(pk=notes.pk).lifecycle_state == LifecycleState.BACKGROUND
    body: dict[str, Any] = {"conversation_id": str(conversation.id)}
    if exit_frame == "app.open":
        body["app_id"] = "notes"
    elif exit_frame == "app.switch":
        body["instance_id"] = str(notes.id)
    elif exit_frame == "app.close":
        body["instance_id"] = str(started.instance_id)

    async def scenario() -> None:
        page = await open_page(ada)
        for attempt in range(2):
            reply = await page.ask(exit_frame, request_id=f"exit-{attempt}", **body)
            assert (reply["type"], reply["frame"], reply["request_id"]) == ("ok", exit_frame, f"exit-{attempt}")
        settled = await page.event("operation.settled", operation_id=str(started.operation_id))
        assert (settled["payload"]["state"], settled["payload"]["interruption_reason"]) == (
            "interrupted",
            EXITS[exit_frame],
        )
        await page.ws.disconnect()

    run(scenario)
    operation = Operation.objects.get(pk=started.operation_id)
    assert (operation.state, operation.interruption_reason) == (OperationState.INTERRUPTED, EXITS[exit_frame])
    (entry,) = OutboxEntry.objects.filter(conversation=conversation)
    assert entry.payload["result"]["state"] == "interrupted"
    pomodoro = AppInstance.objects.get(pk=started.instance_id)
    assert (pomodoro.lifecycle_state, pomodoro.close_reason) == (LifecycleState.CLOSED, EXITS[exit_frame])


@pytest.mark.spec("R-2.2.4", "R-3.13")
def test_state_save_is_a_revision_compare_and_set(user, ada):
    """``state.save`` with the current revision is ok and bumps it; a stale revision is
    ``stale_revision`` and a state outside the schema ``state_schema_violation``, both changing
    nothing; the snapshot shows the last saved state."""
    conversation = conversation_get_or_create_default(user=user)
    notes = open_app(conversation_id=conversation.id, app_id="notes", now=timezone.now())
    target = {"conversation_id": str(conversation.id), "instance_id": str(notes.id)}

    async def scenario() -> None:
        page = await open_page(ada)
        reply = await page.ask("state.save", state={"text": "one"}, revision=0, request_id="s-1", **target)
        assert reply == {
            "type": "ok",
            "frame": "state.save",
            "request_id": "s-1",
            "instance_id": str(notes.id),
            "revision": 1,
        }
        reply = await page.ask("state.save", state={"text": "stale"}, revision=0, **target)
        assert (reply["type"], reply["code"]) == ("error", "stale_revision")
        reply = await page.ask("state.save", state={"text": 3}, revision=1, **target)
        assert (reply["type"], reply["code"]) == ("error", "state_schema_violation")
        reply = await page.ask("state.save", state={"text": "two"}, revision=1, **target)
        assert (reply["type"], reply["revision"]) == ("ok", 2)

        (view,) = [i for i in (await page.snapshot())["instances"] if i["instance_id"] == str(notes.id)]
        assert view["snapshot"] == {"revision": 2, "state": {"text": "two"}, "read_only": False}
        await page.ws.disconnect()

    run(scenario)


# --- tenancy ---------------------------------------------------------------------------------------


@pytest.mark.spec("R-2.2.3", "R-2.1.2")
def test_another_users_ids_are_refused_and_change_nothing(user, other_user, ada):
    """Ada's page naming Bob's conversation, instances or interactions gets an error with a stable
    code for every frame, nothing of Bob's changes, and Bob's activity is not pushed to her."""
    mine = str(conversation_get_or_create_default(user=user).id)
    theirs = conversation_get_or_create_default(user=other_user)
    bob_notes = open_app(conversation_id=theirs.id, app_id="notes", now=timezone.now())
    bob_focus = start_focus(other_user)
    bob_question = ask_person(other_user, "confirm", "c-1")
    bob_pomodoro = str(bob_focus.instance_id)
    attempts = [
        ("snapshot.get", {"conversation_id": str(theirs.id)}, "unknown_conversation"),
        ("message.send", {"conversation_id": str(theirs.id), "text": "hi"}, "unknown_conversation"),
        ("interaction.answer", {"interaction_id": str(bob_question.id), "value": True}, "unknown_interaction"),
        ("interaction.dismiss", {"interaction_id": str(bob_question.id)}, "unknown_interaction"),
        ("visibility", {"conversation_id": str(theirs.id), "visible": False}, "unknown_conversation"),
        ("return_to_interact", {"conversation_id": str(theirs.id)}, "unknown_conversation"),
        ("app.open", {"conversation_id": str(theirs.id), "app_id": "notes"}, "unknown_conversation"),
        ("app.close", {"conversation_id": str(theirs.id), "instance_id": bob_pomodoro}, "unknown_conversation"),
        ("app.close", {"conversation_id": mine, "instance_id": bob_pomodoro}, "unknown_instance"),
        ("app.switch", {"conversation_id": mine, "instance_id": str(bob_notes.id)}, "unknown_instance"),
        ("surface.reloaded", {"conversation_id": mine, "instance_id": bob_pomodoro}, "unknown_instance"),
        (
            "state.save",
            {"conversation_id": mine, "instance_id": str(bob_notes.id), "state": {"text": "x"}, "revision": 0},
            "unknown_instance",
        ),
        (
            "state.save",
            {
                "conversation_id": str(theirs.id),
                "instance_id": str(bob_notes.id),
                "state": {"text": "x"},
                "revision": 0,
            },
            "unknown_conversation",
        ),
    ]

    async def scenario() -> None:
        page = await open_page(ada)
        before = await db_world(theirs)
        for number, (frame, body, code) in enumerate(attempts):
            reply = await page.ask(frame, request_id=f"t-{number}", **body)
            assert (reply["type"], reply.get("code"), reply.get("request_id")) == ("error", code, f"t-{number}"), (
                frame,
                reply,
            )
        # Her own conversation still works over the same connection, and nothing of Bob's moved.
        assert (await page.ask("return_to_interact", conversation_id=mine))["type"] == "ok"
        assert await db_world(theirs) == before
        bob_ids = [str(theirs.id), bob_pomodoro, str(bob_notes.id), str(bob_question.id)]
        assert not [e for e in page.events if any(i in json.dumps(e) for i in bob_ids)]
        await page.ws.disconnect()

    run(scenario)
    assert Operation.objects.get(pk=bob_focus.operation_id).state == OperationState.RUNNING


# --- malformed frames ------------------------------------------------------------------------------


def _bad_frames(conversation_id: str) -> list[tuple[str, str | bytes]]:
    """(expected error code, raw frame)."""
    send = {"type": "message.send", "conversation_id": conversation_id, "text": "hi"}
    return [
        ("malformed_frame", "not json"),
        ("malformed_frame", "[1, 2]"),
        ("malformed_frame", '"message.send"'),
        ("malformed_frame", '{"type": "snapshot.get", "type": "message.send"}'),
        (
            "malformed_frame",
            json.dumps({"type": "visibility", "conversation_id": conversation_id, "visible": math.nan}),
        ),
        ("malformed_frame", b'{"type": "snapshot.get"}'),
        ("unknown_frame_type", json.dumps({"type": "tool.call"})),
        ("unknown_frame_type", json.dumps({"no": "type"})),
        ("unknown_frame_type", json.dumps({"type": 7})),
        ("invalid_frame", json.dumps({**send, "extra": 1})),
        ("invalid_frame", json.dumps({**send, "text": 5})),
        ("invalid_frame", json.dumps({"type": "message.send", "conversation_id": conversation_id})),
        ("invalid_frame", json.dumps({**send, "request_id": "r" * 65})),
        ("invalid_frame", json.dumps({**send, "conversation_id": ""})),
        ("invalid_frame", json.dumps({"type": "interaction.answer", "interaction_id": str(uuid.uuid4())})),
        ("invalid_frame", json.dumps({"type": "visibility", "conversation_id": conversation_id, "visible": "no"})),
        ("invalid_frame", json.dumps({"type": "snapshot.get", "conversation_id": None})),
        (
            "invalid_frame",
            json.dumps(
                {
                    "type": "state.save",
                    "conversation_id": conversation_id,
                    "instance_id": str(uuid.uuid4()),
                    "state": {},
                    "revision": -1,
                }
            ),
        ),
        ("frame_too_large", json.dumps({**send, "text": "x" * MAX_FRAME_BYTES})),
    ]


@pytest.mark.spec("R-2.2.3")
def test_malformed_unknown_and_extra_field_frames_get_an_error_and_the_connection_stays_usable(user, ada):
    """Non-JSON, non-object, binary, duplicate-key, NaN, unknown type, extra or missing or mistyped
    fields and oversized frames each get an ``error`` with a stable code, write nothing, and the
    next frame on the same connection is answered normally."""

    async def scenario() -> None:
        page = await open_page(ada)
        conversation_id = page.hello["conversations"][0]
        before = await db_world()
        for code, raw in _bad_frames(conversation_id):
            if isinstance(raw, bytes):
                reply = await page.send_raw(data=raw)
            else:
                reply = await page.send_raw(text=raw)
            assert (reply["type"], reply["code"]) == ("error", code), (raw[:80], reply)
            assert reply["detail"]
        assert await db_world() == before
        assert (await page.ask("snapshot.get", request_id="after"))["request_id"] == "after"
        reply = await page.ask("message.send", conversation_id=conversation_id, text="still here")
        assert reply["type"] == "ok"
        await page.ws.disconnect()

    run(scenario)
    assert list(Message.objects.values_list("text", flat=True)) == ["still here"]


@pytest.mark.spec("R-2.2.3")
@pytest.mark.parametrize(
    "text",
    [
        pytest.param("", id="empty"),
        pytest.param("   ", id="spaces"),
        pytest.param("\u200b", id="zero-width-space"),
        pytest.param("\u200c\u200d", id="zero-width-joiners"),
        pytest.param("\u2060", id="word-joiner"),
        pytest.param("\ufeff", id="bom"),
        pytest.param(" \u200b\n\u3000\u200d\t\ufeff ", id="mixed"),
    ],
)
def test_a_message_without_visible_characters_is_refused_over_the_connection(user, ada, text):
    """A message of only whitespace or zero-width characters passes the frame schema but is refused
    ``invalid_arguments`` with a detail that says why; nothing is written."""

    async def scenario() -> None:
        page = await open_page(ada)
        reply = await page.ask("message.send", conversation_id=page.hello["conversations"][0], text=text)
        assert (reply["type"], reply["code"], reply["frame"]) == ("error", "invalid_arguments", "message.send")
        assert reply["detail"] == "the message has no visible characters"
        await page.ws.disconnect()

    run(scenario)
    assert not Message.objects.exists()


@pytest.mark.spec("R-2.2.3")
def test_a_visible_character_among_invisible_ones_is_a_message(user, ada):
    """A zero-width joiner inside text (an emoji sequence) is not blank: the message is posted."""

    async def scenario() -> None:
        page = await open_page(ada)
        reply = await page.ask("message.send", conversation_id=page.hello["conversations"][0], text="\u200bok\u200d")
        assert reply["type"] == "ok", reply
        await page.ws.disconnect()

    run(scenario)
    assert list(Message.objects.values_list("text", flat=True)) == ["\u200bok\u200d"]


@pytest.mark.spec("R-2.2.3")
def test_a_too_long_message_is_refused_without_echoing_it(user, ada):
    """4 001 characters are refused with their count and the limit, never the text itself."""
    text = "Q" * 3990 + "0123456789+"

    async def scenario() -> None:
        page = await open_page(ada)
        reply = await page.ask("message.send", conversation_id=page.hello["conversations"][0], text=text)
        assert (reply["type"], reply["code"]) == ("error", "invalid_frame"), reply
        assert "4001 characters" in reply["detail"] and "4000" in reply["detail"]
        assert "QQQQ" not in json.dumps(reply), reply
        await page.ws.disconnect()

    run(scenario)
    assert not Message.objects.exists()


@pytest.mark.spec("R-2.2.3")
def test_malformed_ids_and_unknown_apps_get_stable_codes(user, ada):
    """Ids that are not ids, an app that does not exist, the system app and an Agent-started app
    each get their stable rejection code (never ``internal_error``) and change nothing."""
    conversation = conversation_get_or_create_default(user=user)
    started = start_focus(user)
    mine = str(conversation.id)
    attempts = [
        ("snapshot.get", {"conversation_id": "main"}, "unknown_conversation"),
        ("message.send", {"conversation_id": "main", "text": "hi"}, "unknown_conversation"),
        ("interaction.answer", {"interaction_id": "c-1", "value": True}, "unknown_interaction"),
        ("interaction.dismiss", {"interaction_id": str(uuid.uuid4())}, "unknown_interaction"),
        ("app.close", {"conversation_id": mine, "instance_id": "pomodoro"}, "unknown_instance"),
        ("app.switch", {"conversation_id": mine, "instance_id": str(uuid.uuid4())}, "unknown_instance"),
        ("surface.reloaded", {"conversation_id": mine, "instance_id": "1"}, "unknown_instance"),
        (
            "state.save",
            {"conversation_id": mine, "instance_id": "x", "state": {"text": "x"}, "revision": 0},
            "unknown_instance",
        ),
        ("app.open", {"conversation_id": mine, "app_id": "calendar"}, "unknown_app"),
        ("app.open", {"conversation_id": mine, "app_id": "interact"}, "unknown_app"),
        ("app.open", {"conversation_id": mine, "app_id": "pomodoro"}, "not_allowed"),
    ]

    async def scenario() -> None:
        page = await open_page(ada)
        before = await db_world()
        for frame, body, code in attempts:
            reply = await page.ask(frame, **body)
            assert (reply["type"], reply.get("code"), reply.get("frame")) == ("error", code, frame), reply
        assert await db_world() == before
        await page.ws.disconnect()

    run(scenario)
    assert Operation.objects.get(pk=started.operation_id).state == OperationState.RUNNING


@pytest.mark.spec("R-4.2.7")
def test_a_batch_resync_reaches_only_the_pages_of_the_conversations_it_names(user, ada, bob):
    """A batch settlement tells its conversations with one message to RESYNC_GROUP (decision 0035):
    each page showing a named conversation gets a ``conversation.resync`` event for it (the page
    takes a fresh snapshot on any event it does not patch in), a page of another user nothing."""

    async def scenario() -> None:
        page, stranger = await open_page(ada), await open_page(bob)
        conversation_id = page.hello["conversations"][0]
        layer = get_channel_layer()
        named = [str(uuid.uuid4()) for _ in range(RESYNC_ABOVE)] + [conversation_id]
        await layer.group_send(RESYNC_GROUP, {"type": "conversation.resync", "conversation_ids": named})
        event = await page.event("conversation.resync")
        assert event["payload"] == {"conversation_id": conversation_id}
        assert await stranger.nothing_more()
        for tab in (page, stranger):
            await tab.ws.disconnect()

    run(scenario)
