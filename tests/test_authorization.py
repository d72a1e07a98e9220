"""Who may do what, across the Agent socket, the workspace socket, the HTTP forms and the admin (SPEC R-2.2.3).

Covered elsewhere and not repeated here: another user's Agent refused on every frame and hearing
nothing (tests/lineup/gateways/agent_socket/test_tenancy.py), a revoked token's live connections closed
on every server process (same file), unknown tokens closed with 4401 (test_rejections.py), another
user's ids refused on every workspace frame, no session or a foreign Origin refused
(tests/interact/test_consumers.py), a non-staff user sent away from two admin pages
(tests/runtime/test_admin.py). Here:

- the workspace socket ends with its session: logged out in another tab, expired, password changed,
  user deactivated - checked on the next frame and the next event, not only at connect;
- Origins a page can not come from, beyond a foreign host: ``null`` (a sandboxed Surface, a file),
  userinfo and fragment tricks;
- what is not an Agent token: the stored digest, the shown prefix, near misses, a revoked token, a
  token of a deactivated user - refused at hello with 4401, not even stamped as used;
- two Agents of one user: each gets only its own interactions' resolutions, and revoking one
  leaves the other connected, its questions pending; one re-using the other's interaction_id is
  refused and learns nothing of it;
- CSRF on every form (login, logout, admin actions and the recovery sweep) with the checks a
  browser gets (``enforce_csrf_checks``), and the workspace page takes no POST at all;
- every admin page: anonymous and non-staff users are sent to the admin login, staff without
  permissions get 403, staff with view permission read but can not revoke or run the recovery sweep.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from importlib import import_module
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.conf import settings as django_settings
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from interact.models import Interaction, InteractionStatus
from interact.services.interactions import answer_interaction
from interact.services.messages import post_human_message
from lineup.gateways.agent_socket.frames import PROTOCOL
from runtime.models import Agent, AgentToken, Conversation, LifecycleEvent, Operation, ToolCall
from runtime.services.agents import create_agent_token, revoke_agent_token, token_digest
from runtime.services.conversations import conversation_get_or_create_default
from tests.support.auth import password_login
from tests.support.hostile import (
    Closed,
    InProcessAgent,
    InProcessPage,
    InProcessSocket,
    LoopThread,
    database_state,
    in_process,
    last_event_id,
    new_event_kinds,
    page_headers,
)

pytestmark = pytest.mark.django_db(transaction=True)

CLOSE_UNAUTHENTICATED = 4401


@pytest.fixture
def runner(settings) -> Iterator[LoopThread]:
    with in_process(settings) as loop:
        yield loop


def login(username: str, password: str) -> Client:
    client = Client()
    assert password_login(client, username, password)
    return client


def cookie_of(client: Client) -> str:
    return client.cookies[django_settings.SESSION_COOKIE_NAME].value


def on_loop(runner: LoopThread, function: Any, **kwargs: Any) -> Any:
    """Call a service on the connections' loop, so the events it sends after commit reach them there."""
    return runner.call(database_sync_to_async(function)(**kwargs))


# --- the workspace socket ends with its session --------------------------------------------------


def _log_out(user: Any, client: Client) -> None:
    client.post("/accounts/logout/")


def _expire(user: Any, client: Client) -> None:
    import_module(django_settings.SESSION_ENGINE).SessionStore(session_key=cookie_of(client)).delete()


def _change_password(user: Any, client: Client) -> None:
    user.set_password("a-new-password-1")
    user.save()


def _deactivate(user: Any, client: Client) -> None:
    user.is_active = False
    user.save()


def _refused_and_closed(page: InProcessPage) -> None:
    error = page.sock.receive()
    assert (error["type"], error["code"]) == ("error", "unauthorized"), error
    with pytest.raises(Closed) as closed:
        page.sock.receive()
    assert closed.value.code == CLOSE_UNAUTHENTICATED


@pytest.mark.spec("R-2.2.3")
@pytest.mark.parametrize("end", [_log_out, _expire, _change_password, _deactivate], ids=lambda f: f.__name__[1:])
def test_a_workspace_socket_ends_with_its_session(runner, user, end):
    """A page connected while its session was good: once the session no longer logs the user in,
    its next frame is not handled (the message is not posted) but answered ``error unauthorized``,
    and the connection is closed with 4401 (the page then goes to the login)."""
    conversation = conversation_get_or_create_default(user=user)
    tab = login("ada", "pw-ada-123")
    page = InProcessPage(runner, cookie_of(tab))
    assert page.request({"type": "snapshot.get", "request_id": "before"})["type"] == "snapshot"
    end(user, tab)
    before = database_state()
    page.sock.send_frame({"type": "message.send", "conversation_id": str(conversation.id), "text": "still me?"})
    _refused_and_closed(page)
    assert database_state() == before


@pytest.mark.spec("R-2.2.3")
def test_a_logged_out_page_gets_no_more_events_and_the_users_other_session_is_unaffected(runner, user):
    """Logged out in one tab, a page of that session is told so (unauthorized, 4401) instead of
    being sent the next event of the user's conversation; a page of the user's other session
    gets the event and goes on working."""
    conversation = conversation_get_or_create_default(user=user)
    tab = login("ada", "pw-ada-123")
    page = InProcessPage(runner, cookie_of(tab))
    elsewhere = InProcessPage(runner, cookie_of(login("ada", "pw-ada-123")))
    tab.post("/accounts/logout/")
    said = on_loop(
        runner, post_human_message, conversation=conversation, user_id=user.id, text="hi", now=timezone.now()
    )
    _refused_and_closed(page)
    event = elsewhere.sock.receive()
    assert (event["type"], event["kind"], event["payload"]["message_id"]) == ("event", "message.created", str(said.id))
    assert elsewhere.request({"type": "snapshot.get", "request_id": "s"})["type"] == "snapshot"


# --- where a page may come from ----------------------------------------------------------------------


@pytest.mark.spec("R-2.2.3")
@pytest.mark.parametrize(
    "origin",
    [
        "null",  # an opaque origin: a sandboxed Surface (allow-scripts without allow-same-origin), a file
        "file://",
        "http://localhost@evil.example",  # userinfo: the host is evil.example
        "http://evil.example#localhost",
        "http://evil.example/localhost",
        "http://127.0.0.1.evil.example",
        "ws://evil.example",
        "http://localhost:18899",  # another port of the same host: another page, another origin
        "https://localhost",  # another scheme
        "http://127.0.0.1",  # an allowed host, but not the one the page was served from
    ],
)
def test_a_page_from_any_origin_but_its_own_is_refused(runner, user, origin):
    """With a valid session cookie, a WebSocket from any origin but the page's own (scheme, host and
    port) is refused before the consumer runs: nothing is created for the user."""
    cookie = f"{django_settings.SESSION_COOKIE_NAME}={cookie_of(login('ada', 'pw-ada-123'))}".encode()
    sock = InProcessSocket(runner, "/ws/workspace/", page_headers(cookie, origin=origin))
    runner.sockets.append(sock)
    connected, _code = sock.connect()
    assert connected is False
    assert not Conversation.objects.filter(owner=user).exists()
    # The same cookie from the page's own origin is accepted (so the refusal was the Origin's).
    assert InProcessPage(runner, cookie_of(login("ada", "pw-ada-123"))).hello["user"] == "ada"


# --- what is not an Agent token --------------------------------------------------------------------------


def _digest(token: str, user: Any) -> str:
    return token_digest(token)


def _prefix(token: str, user: Any) -> str:
    return token[:10]


def _padded(token: str, user: Any) -> str:
    return f" {token} "


def _upper(token: str, user: Any) -> str:
    return token.upper()


def _zero_width(token: str, user: Any) -> str:
    return token + "\u200b"


def _one_off(token: str, user: Any) -> str:
    return token[:-1] + ("A" if token[-1] != "A" else "B")


def _revoked(token: str, user: Any) -> str:
    assert revoke_agent_token(token_id=AgentToken.objects.get(prefix=token[:10]).pk, now=timezone.now())
    return token


def _user_deactivated(token: str, user: Any) -> str:
    user.is_active = False
    user.save()
    return token


@pytest.mark.spec("R-2.2.3")
@pytest.mark.parametrize(
    "variant",
    [_digest, _prefix, _padded, _upper, _zero_width, _one_off, _revoked, _user_deactivated],
    ids=lambda f: f.__name__[1:],
)
def test_only_a_live_agent_token_opens_the_agent_socket(runner, user, conversation, variant):
    """The stored digest, the shown prefix, the token with spaces, in capitals, with a zero-width
    space or one character off, a revoked token, and the token of a deactivated user: ``error
    unauthorized`` and close 4401; nothing is written (the token is not even stamped as used)."""
    _agent, token = create_agent_token(user=user, name="claude", now=timezone.now())
    presented = variant(token, user)
    before = database_state()
    stranger = InProcessAgent(runner)
    answer = stranger.request({"type": "hello", "token": presented, "protocol": PROTOCOL})
    assert (answer["type"], answer["code"]) == ("error", "unauthorized"), answer
    with pytest.raises(Closed) as closed:
        stranger.sock.receive()
    assert closed.value.code == CLOSE_UNAUTHENTICATED
    assert database_state() == before


# --- two Agents of one user ----------------------------------------------------------------------------------


def _ask(agent: InProcessAgent, conversation_id: str, interaction_id: str) -> None:
    pending = agent.request(
        {
            "type": "interaction.request",
            "conversation_id": conversation_id,
            "interaction_id": interaction_id,
            "kind": "confirm",
            "prompt": f"{interaction_id}?",
        }
    )
    assert pending["status"] == "pending", pending


@dataclass
class TwoAgents:
    """Ada's "planner" and "coach" Agents, each connected and welcomed."""

    planner: InProcessAgent
    coach: InProcessAgent
    coach_agent: Agent
    coach_token: str


def _two_agents(runner: LoopThread, user: Any) -> TwoAgents:
    _planner, planner_token = create_agent_token(user=user, name="planner", now=timezone.now())
    coach_agent, coach_token = create_agent_token(user=user, name="coach", now=timezone.now())
    planner, coach = InProcessAgent(runner), InProcessAgent(runner)
    planner.hello(planner_token)
    coach.hello(coach_token)
    return TwoAgents(planner=planner, coach=coach, coach_agent=coach_agent, coach_token=coach_token)


def _answer(runner: LoopThread, conversation: Conversation, interaction_id: str) -> None:
    """Ada answers ``interaction_id`` "yes" (on the loop: the service projects to the layer)."""
    asked = Interaction.objects.get(conversation=conversation, interaction_id=interaction_id)
    on_loop(
        runner,
        answer_interaction,
        conversation_ids=[conversation.id],
        interaction_pk=asked.pk,
        value=True,
        now=timezone.now(),
    )


@pytest.mark.spec("R-2.2.3", "R-2.1.1")
def test_two_agents_of_one_user_get_only_their_own_resolutions_and_are_revoked_apart(runner, user, conversation):
    """Ada runs two Agents. Each asks her something; her answer to one is delivered to the Agent that
    asked, never to the other (not on a new connection either). Revoking the second Agent's token
    closes only its connection and fails only its pending question; the first stays connected and
    its question stays answerable."""
    conversation_id = str(conversation.id)
    agents = _two_agents(runner, user)
    planner, coach, coach_agent, coach_token = agents.planner, agents.coach, agents.coach_agent, agents.coach_token
    _ask(planner, conversation_id, "plan-1")
    _ask(planner, conversation_id, "plan-2")
    _ask(coach, conversation_id, "coach-1")

    _answer(runner, conversation, "plan-1")
    planner.still_usable(conversation_id)
    coach.still_usable(conversation_id)
    assert [(f["type"], f["interaction_id"]) for f in planner.pushed] == [("interaction.resolved", "plan-1")]
    assert coach.pushed == []
    again = InProcessAgent(runner)
    again.hello(coach_token)
    again.still_usable(conversation_id)
    assert again.pushed == []

    on_loop(runner, revoke_agent_token, token_id=AgentToken.objects.get(agent=coach_agent).pk, now=timezone.now())
    for closed_agent in (coach, again):
        with pytest.raises(Closed) as closed:
            while True:
                closed_agent.answer()
        assert closed.value.code == CLOSE_UNAUTHENTICATED
    planner.still_usable(conversation_id)
    statuses = dict(Interaction.objects.filter(conversation=conversation).values_list("interaction_id", "status"))
    assert statuses == {
        "plan-1": InteractionStatus.ANSWERED,
        "plan-2": InteractionStatus.PENDING,
        "coach-1": InteractionStatus.FAILED,
    }
    assert {frame.get("interaction_id") for frame in planner.pushed} == {"plan-1"}  # nothing of the coach's


@pytest.mark.spec("R-2.2.3", "R-2.1.1")
@pytest.mark.parametrize("answered", [False, True], ids=["pending", "answered"])
def test_an_agent_reusing_another_agents_interaction_id_is_refused_and_learns_nothing(
    runner, user, conversation, answered
):
    """The interaction_id is an idempotency key of the Agent that asked. The user's other Agent sending
    the same id in the same conversation - even with the same question - is refused
    ``idempotency_key_reused`` with the same detail whatever the first question was, whether it is
    pending or answered: no status, no answer, no resolution pushed, the database unchanged. The Agent
    that asked still gets its own retry answered."""
    conversation_id = str(conversation.id)
    agents = _two_agents(runner, user)
    planner, coach = agents.planner, agents.coach
    _ask(planner, conversation_id, "ask-1")
    if answered:
        _answer(runner, conversation, "ask-1")
    planner.still_usable(conversation_id)
    coach.still_usable(conversation_id)

    same = {
        "type": "interaction.request",
        "conversation_id": conversation_id,
        "interaction_id": "ask-1",
        "kind": "confirm",
        "prompt": "ask-1?",
    }
    different = {**same, "kind": "input", "prompt": "Something else?"}
    before, events = database_state(), last_event_id()
    refusals = [coach.request(frame) for frame in (same, different)]
    for refusal in refusals:
        assert refusal["type"] == "error" and refusal["code"] == "idempotency_key_reused", refusal
        assert "status" not in refusal and "value" not in refusal, refusal
    assert refusals[0] == refusals[1]  # no oracle on what the other Agent asked
    coach.still_usable(conversation_id)
    assert coach.pushed == []
    assert database_state() == before
    assert "interaction.requested" not in new_event_kinds(events)

    retry = planner.request(same)
    assert retry["type"] == "interaction.pending" and retry["interaction_id"] == "ask-1", retry
    assert retry["status"] == (InteractionStatus.ANSWERED if answered else InteractionStatus.PENDING)


# --- CSRF ------------------------------------------------------------------------------------------------------


def _csrf_token(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return (
        response.context["csrf_token"]
        if "csrf_token" in (response.context or {})
        else client.cookies["csrftoken"].value
    )


@pytest.mark.spec("R-2.2.3")
def test_the_login_and_logout_forms_need_the_csrf_token(user):
    """With a browser's CSRF checks: a login or logout POST without the token is 403 and changes
    nothing (not logged in; still logged in); with the token from the form it works. The session
    cookie is HttpOnly and SameSite=Lax."""
    browser = Client(enforce_csrf_checks=True)
    credentials = {"username": "ada", "password": "pw-ada-123"}
    assert browser.post("/accounts/login/", credentials).status_code == 403
    assert browser.get("/workspace/").status_code == 302
    token = _csrf_token(browser, "/accounts/login/")
    response = browser.post("/accounts/login/", {**credentials, "csrfmiddlewaretoken": token})
    assert (response.status_code, response["Location"]) == (302, "/workspace/")
    session = browser.cookies[django_settings.SESSION_COOKIE_NAME]
    assert session["httponly"] and session["samesite"] == "Lax"

    assert browser.post("/accounts/logout/").status_code == 403
    assert browser.get("/workspace/").status_code == 200  # still logged in
    token = browser.cookies["csrftoken"].value
    assert browser.post("/accounts/logout/", {"csrfmiddlewaretoken": token}).status_code == 302
    assert browser.get("/workspace/").status_code == 302


@pytest.mark.spec("R-2.2.3")
def test_the_workspace_page_and_surfaces_take_no_post(user):
    """State changes go over the workspace socket, never a form: the page and the Surface files
    answer a POST with 405, even with a valid CSRF token and session."""
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(user)
    token = _csrf_token(browser, "/workspace/")
    for url in ("/workspace/", "/surfaces/notes/"):
        assert browser.post(url, {"csrfmiddlewaretoken": token}, HTTP_X_CSRFTOKEN=token).status_code == 405, url


@pytest.mark.spec("R-2.2.3")
def test_admin_actions_and_the_recovery_sweep_need_the_csrf_token(django_user_model, user):
    """A superuser's revoke action and recovery sweep without the CSRF token are 403 and change
    nothing; with it they run."""
    root = django_user_model.objects.create_superuser("root", password="pw-root-123")
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(root)
    _agent, token = create_agent_token(user=user, name="claude", now=timezone.now())
    row = AgentToken.objects.get(prefix=token[:10])
    changelist = reverse("admin:runtime_agenttoken_changelist")
    revoke = {"action": "revoke", "_selected_action": [row.pk]}
    recover = reverse("admin:runtime_operation_recover")

    assert browser.post(changelist, revoke).status_code == 403
    assert browser.post(recover).status_code == 403
    row.refresh_from_db()
    assert row.revoked_at is None
    assert not LifecycleEvent.objects.filter(kind="recovery.ran").exists()

    csrf = _csrf_token(browser, changelist)
    assert browser.post(changelist, {**revoke, "csrfmiddlewaretoken": csrf}).status_code == 302
    assert browser.post(recover, {"csrfmiddlewaretoken": csrf}).status_code == 302
    row.refresh_from_db()
    assert row.revoked_at is not None
    assert LifecycleEvent.objects.filter(kind="recovery.ran").count() == 1


# --- the admin is for staff ----------------------------------------------------------------------------------


def _changelists() -> list[str]:
    return sorted(
        reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist") for model in admin.site._registry
    )


@pytest.mark.spec("R-2.2.3")
def test_every_admin_page_is_for_staff_with_permissions_only(client, django_user_model, user):
    """Every registered admin page and the recovery sweep: anonymous visitors and logged-in users
    who are not staff are sent to the admin login; staff without permissions get 403 (the index
    shows them nothing); staff with view permissions read every page but can not revoke a token."""
    pages = [*_changelists(), reverse("admin:runtime_operation_recover")]
    _agent, token = create_agent_token(user=user, name="claude", now=timezone.now())
    row = AgentToken.objects.get(prefix=token[:10])
    login_url = reverse("admin:login")
    for who in ("anonymous", "user"):
        if who == "user":
            client.force_login(user)
        for url in [reverse("admin:index"), *pages]:
            response = client.get(url)
            assert response.status_code == 302 and response["Location"].startswith(login_url), (who, url)

    staff = django_user_model.objects.create_user("clerk", password="pw-clerk-123", is_staff=True)
    client.force_login(staff)
    index = client.get(reverse("admin:index"))
    assert index.status_code == 200 and index.context["app_list"] == []
    for url in pages:
        assert client.get(url).status_code == 403, url

    staff.user_permissions.set(Permission.objects.filter(codename__startswith="view_"))
    for url in pages:
        assert client.get(url).status_code == 200, url
    changelist = reverse("admin:runtime_agenttoken_changelist")
    client.post(changelist, {"action": "revoke", "_selected_action": [row.pk]})
    row.refresh_from_db()
    assert row.revoked_at is None  # revoking needs the change permission
    assert client.post(reverse("admin:runtime_operation_recover")).status_code == 403  # needs settle_operations
    assert not LifecycleEvent.objects.filter(kind="recovery.ran").exists()


@pytest.mark.spec("R-2.2.3", "R-3.4")
def test_an_agent_reusing_another_agents_tool_call_id_is_refused_and_learns_nothing(runner, user, conversation):
    """``source_tool_call_id`` is an idempotency key of the Agent that called. The user's other Agent
    sending the same id with the same call is refused ``idempotency_key_reused`` (the detail a
    different call gets): no operation id, no receipt, nothing started. The caller's own retry is
    still a replay."""
    conversation_id = str(conversation.id)
    agents = _two_agents(runner, user)
    planner, coach = agents.planner, agents.coach
    revision = planner.request({"type": "inventory.get", "conversation_id": conversation_id})["revision"]
    call = {
        "type": "tool.call",
        "conversation_id": conversation_id,
        "source_tool_call_id": "plan-start",
        "tool": "pomodoro.start",
        "arguments": {"duration_seconds": 600},
        "inventory_revision": revision,
    }
    accepted = planner.request(call)
    assert accepted["type"] == "tool.accepted", accepted

    different = {**call, "arguments": {"duration_seconds": 900}}
    refusals = [coach.request(frame) for frame in (call, different)]
    for refusal in refusals:
        assert refusal["type"] == "tool.rejected" and refusal["code"] == "idempotency_key_reused", refusal
        assert accepted["operation_id"] not in str(refusal), refusal
    assert refusals[0]["detail"] == refusals[1]["detail"]  # no oracle on what the other Agent called
    assert ToolCall.objects.filter(conversation=conversation).count() == 1
    assert Operation.objects.filter(conversation=conversation).count() == 1

    retry = planner.request(call)
    assert (retry["type"], retry["operation_id"], retry.get("replayed")) == (
        "tool.accepted",
        accepted["operation_id"],
        True,
    ), retry
