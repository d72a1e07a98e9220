"""Who may use ``/mcp/<conversation_id>/``: an Agent token on every request, one explicit conversation.

The official client meets the refusals as MCP errors; raw HTTP shows the statuses behind them.
"""

from __future__ import annotations

import time

import httpx2
import pytest
from django.utils import timezone
from mcp.shared.exceptions import MCPError

from runtime.models import AgentToken
from runtime.services.agents import revoke_agent_token
from runtime.services.conversations import conversation_get_or_create_default
from tests.lineup.gateways.agent_socket.client import row_counts

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}},
}
ACCEPT = {"Accept": "application/json, text/event-stream"}


def _post(url: str, token: str | None = None, **headers: str) -> httpx2.Response:
    auth = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx2.post(url, json=INITIALIZE, headers={**ACCEPT, **auth, **headers}, timeout=10)


@pytest.mark.spec("R-2.2.3")
def test_a_request_without_a_valid_agent_token_is_refused_401(live, connect, user, conversation, token):
    """No token, a malformed header, or a token that is not an Agent's: 401 with a Bearer challenge and
    a JSON-RPC error the official client raises; nothing is written. A real token is let in."""
    url = live.main.url(conversation.id)
    before = row_counts()
    for response in (
        _post(url),
        _post(url, "lu_not-a-real-token"),
        _post(url, Authorization="Basic YWRhOnB3LWFkYS0xMjM="),
        _post(url, Authorization=f"Token {token}"),
    ):
        assert response.status_code == 401, response.text
        assert response.headers["www-authenticate"] == 'Bearer realm="lineup"'
        assert response.json()["error"]["message"].startswith("send Authorization: Bearer <Agent token>")
    assert row_counts() == before

    with pytest.raises(MCPError, match="missing, unknown or revoked"):
        connect("lu_not-a-real-token", conversation.id)
    assert _post(url, token).status_code == 200


@pytest.mark.spec("R-2.2.3")
def test_a_revoked_token_stops_working_at_the_next_request(live, connect, user, conversation, token):
    """The token is checked on every request, not once per connection: revoking it refuses the very
    next call of a client that was already initialized, and the call changes nothing."""
    client = connect(token, conversation.id)
    assert client.list_tools().tools
    revoke_agent_token(token_id=AgentToken.objects.get(agent__user=user).pk, now=timezone.now())
    before = row_counts()
    with pytest.raises(MCPError, match="missing, unknown or revoked"):
        client.call("pomodoro.start", {"duration_seconds": 60}, key="after-revoke")
    assert row_counts() == before


@pytest.mark.spec("R-2.2.3")
def test_the_conversation_is_named_in_the_url_and_must_be_the_users(
    live, connect, user, other_user, conversation, token
):
    """No default conversation: ``/mcp/`` without one, a malformed or unknown id are 404; another user's
    conversation is 403 ``forbidden`` — before any MCP method runs."""
    theirs = conversation_get_or_create_default(user=other_user)
    base = f"http://127.0.0.1:{live.main.port}/mcp"
    for path in ("", "/", "/not-a-uuid/", "/00000000-0000-4000-8000-000000000000/"):
        response = _post(base + path, token)
        assert response.status_code == 404, (path, response.text)
    assert "name the conversation" in _post(base + "/", token).json()["error"]["message"]

    refused = _post(live.main.url(theirs.id), token)
    assert refused.status_code == 403
    assert refused.json()["error"]["data"] == {"code": "forbidden"}
    with pytest.raises(MCPError, match="may not act on that conversation"):
        connect(token, theirs.id)

    # The bound conversation works, with its id in any spelling of the UUID.
    assert _post(live.main.url(str(conversation.id).upper()), token).status_code == 200


@pytest.mark.spec("R-2.2.3")
def test_a_host_outside_allowed_hosts_is_refused(live, conversation, token):
    """This path bypasses Django, so the endpoint checks the Host header against ALLOWED_HOSTS itself."""
    url = live.main.url(conversation.id)
    assert _post(url, token, Host="evil.example").status_code == 400
    assert _post(url, token, Host=f"localhost:{live.main.port}").status_code == 200


@pytest.mark.spec("R-2.2.3")
def test_tasks_are_the_calling_agents_own(live, connect, user, conversation, token, token_for):
    """Another Agent of the same user, in the same conversation, can not read or collect this Agent's
    task: ``tasks/get`` and ``tasks/result`` answer it as unknown."""
    mine = connect(token, conversation.id)
    task = mine.call_as_task("pomodoro.start", {"duration_seconds": 300}, key="mine").task
    other = connect(token_for(user, "another-agent"), conversation.id)
    with pytest.raises(MCPError, match="no such task"):
        other.get_task(task.task_id)
    with pytest.raises(MCPError, match="no such task"):
        other.task_result(task.task_id)
    with pytest.raises(MCPError, match="no such task"):
        mine.get_task("not-a-task-id")
    assert mine.get_task(task.task_id).status == "working"


@pytest.mark.spec("R-2.2.3")
def test_a_refusal_made_before_the_body_was_read_still_echoes_the_request_id(live, conversation):
    """A 401 (no token, or a revoked one) names the request it refuses: its id, read within the size limit."""
    response = _post(live.main.url(conversation.id), "lu_not-a-real-token")
    assert response.status_code == 401
    assert response.json()["id"] == INITIALIZE["id"]


@pytest.mark.spec("R-2.2.3")
def test_a_token_with_its_requests_in_flight_at_the_cap_is_refused_429(transactional_db, user, conversation, token):
    """Fair share: with the token's cap of requests in flight taken (here by the counter itself, as
    parallel slow requests would), the next is refused 429 with its id and a Retry-After, answered
    only after that wait; once a slot is free the token is served again."""
    import asyncio

    from django.conf import settings

    from lineup.asgi import application
    from lineup.gateways.mcp import fairness
    from runtime.services.agents import token_digest

    async def post(bearer: str) -> httpx2.Response:
        transport = httpx2.ASGITransport(app=application)
        async with httpx2.AsyncClient(transport=transport, base_url="http://localhost") as client:
            return await client.post(
                f"/mcp/{conversation.id}/",
                json={**INITIALIZE, "id": "call-7"},
                headers={**ACCEPT, "Authorization": f"Bearer {bearer}"},
            )

    fairness.in_flight[token_digest(token)] = settings.LINEUP_MCP_IN_FLIGHT_PER_TOKEN
    try:
        asked = time.monotonic()
        response = asyncio.run(post(token))
        answered_after = time.monotonic() - asked
    finally:
        fairness.in_flight.clear()
    assert response.status_code == 429, response.text
    assert response.headers["retry-after"] == "1"
    assert response.json()["id"] == "call-7"
    assert response.json()["error"]["data"] == {"code": "too_many_requests"}
    assert answered_after >= fairness.RETRY_AFTER_SECONDS  # a client retrying at once can not spin the server
    assert asyncio.run(post(token)).status_code == 200


@pytest.mark.spec("R-2.2.3")
def test_a_person_at_the_cap_of_requests_in_flight_is_refused_429_whichever_token(
    transactional_db, user, conversation, token, token_for
):
    """Fair share per person: anyone can make tokens, so a fresh token does not buy more requests at
    once; the refusal names the request (its id, read from the body admission already read)."""
    import asyncio

    from django.conf import settings

    from lineup.asgi import application
    from lineup.gateways.mcp import fairness

    async def post(bearer: str) -> httpx2.Response:
        transport = httpx2.ASGITransport(app=application)
        async with httpx2.AsyncClient(transport=transport, base_url="http://localhost") as client:
            return await client.post(
                f"/mcp/{conversation.id}/",
                json={**INITIALIZE, "id": "call-8"},
                headers={**ACCEPT, "Authorization": f"Bearer {bearer}"},
            )

    another = token_for(user, "another-token")
    fairness.in_flight_by_user[user.id] = settings.LINEUP_MCP_IN_FLIGHT_PER_USER
    try:
        response = asyncio.run(post(another))
    finally:
        fairness.in_flight_by_user.clear()
    assert response.status_code == 429, response.text
    assert response.json()["id"] == "call-8"
    assert "this person" in response.json()["error"]["message"]
    assert asyncio.run(post(another)).status_code == 200


@pytest.mark.spec("R-2.2.3")
def test_held_requests_of_many_people_together_are_capped_per_process(
    live, connect, settings, monkeypatch, user, other_user, django_user_model, token_for
):
    """Each person holds at most a few ``tasks/result`` at once, but many people together could hold
    any number in one process (a connection and a coroutine each): past the process's cap (here 2,
    held by two different people) the next is refused 429 with its id and ``Retry-After``, counted
    as an ``/mcp/`` refusal; once a held request's client leaves, the next is held again."""
    import asyncio

    from prometheus_client import REGISTRY

    from lineup.asgi import application
    from lineup.gateways.mcp import fairness, holding

    settings.LINEUP_MCP_HELD_PER_PROCESS = 2
    people = [user, other_user, django_user_model.objects.create_user(username="cyd", password="pw-cyd-123")]
    asks = []
    for person in people:  # a long focus each, started on a live server; held below, in this process
        person_token = token_for(person)
        conversation_id = conversation_get_or_create_default(user=person).id
        task = (
            connect(person_token, conversation_id)
            .call_as_task("pomodoro.start", {"duration_seconds": 600}, key=f"held-{person.username}")
            .task
        )
        asks.append((person_token, conversation_id, task.task_id))
    monkeypatch.setattr(holding, "watcher", holding.Watcher())  # one of this test's event loop

    def refusals() -> float:
        return REGISTRY.get_sample_value("lineup_rate_limit_refusals_total", {"door": "mcp"}) or 0.0

    async def ask(person: int, request_id: str) -> httpx2.Response:
        bearer, conversation_id, task_id = asks[person]
        transport = httpx2.ASGITransport(app=application)
        async with httpx2.AsyncClient(transport=transport, base_url="http://localhost", timeout=60) as client:
            return await client.post(
                f"/mcp/{conversation_id}/",
                json={"jsonrpc": "2.0", "id": request_id, "method": "tasks/result", "params": {"taskId": task_id}},
                headers={**ACCEPT, "Authorization": f"Bearer {bearer}", "MCP-Protocol-Version": "2025-11-25"},
            )

    async def until(probe, what: str) -> None:
        deadline = time.monotonic() + 20
        while not probe():
            assert time.monotonic() < deadline, f"timed out waiting for {what}"
            await asyncio.sleep(0.02)

    async def scenario() -> tuple[httpx2.Response, float]:
        held = [asyncio.ensure_future(ask(person, f"held-{person}")) for person in (0, 1)]
        try:
            await until(lambda: len(holding.watcher) == 2, "two people's requests to be held")
            before = refusals()
            # Refused after its Retry-After; without the cap it would be held for the whole focus.
            refused = await asyncio.wait_for(ask(2, "over-the-cap"), timeout=20)
            counted = refusals() - before
            held[0].cancel()  # the first person's client leaves: its place is free
            await until(lambda: fairness.held[fairness.PROCESS] == 1, "the place to be given back")
            held.append(asyncio.ensure_future(ask(2, "again")))
            await until(lambda: len(holding.watcher) == 2, "the third person's request to be held")
            assert fairness.held[fairness.PROCESS] == 2
            return refused, counted
        finally:
            for request in held:
                request.cancel()
            await asyncio.gather(*held, return_exceptions=True)

    try:
        refused, counted = asyncio.run(scenario())
    finally:
        fairness.held.clear()
    assert refused.status_code == 429, refused.text
    assert refused.headers["retry-after"] == "1"
    assert refused.json()["id"] == "over-the-cap"
    assert refused.json()["error"]["data"] == {"code": "too_many_requests"}
    assert "held open in this server process (at most 2)" in refused.json()["error"]["message"]
    assert counted == 1
