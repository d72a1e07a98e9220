"""Strangers at ``/mcp/``: a credential that is no Agent's costs the database once, then nothing;
look-ups of tokens never seen draw on per-address and everyone's budgets; every refusal is late.

In process (``httpx2.ASGITransport`` on ``lineup.asgi``), so the test can see the process's memory
and count its statements; the live-server side is tests/lineup/gateways/agent_socket/test_strangers.py.
"""

from __future__ import annotations

import asyncio
import secrets
import time

import httpx2
import pytest
from django.db.backends.utils import CursorWrapper
from django.utils import timezone

from lineup.doors import strangers
from runtime import metrics, refused_tokens
from runtime.services.agents import authenticate_agent, create_agent_token, token_digest

ACCEPT = {"Accept": "application/json, text/event-stream"}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": "s-1",
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}},
}


@pytest.fixture
def token_statements(monkeypatch) -> list[str]:
    """Every SQL statement that reads the token table, from any thread of this process."""
    seen: list[str] = []
    execute = CursorWrapper.execute

    def counting(self, sql, params=None):
        if "runtime_agenttoken" in str(sql):
            seen.append(str(sql))
        return execute(self, sql, params)

    monkeypatch.setattr(CursorWrapper, "execute", counting)
    return seen


def random_token() -> str:
    return "lu_" + secrets.token_urlsafe(32)


async def post_all(conversation_id, tokens: list[str], forwarded_for: list[str] | None = None) -> list[httpx2.Response]:
    from lineup.asgi import application

    transport = httpx2.ASGITransport(app=application)
    async with httpx2.AsyncClient(transport=transport, base_url="http://localhost", timeout=30) as client:

        async def one(index: int, token: str) -> httpx2.Response:
            headers = {**ACCEPT, "Authorization": f"Bearer {token}"}
            if forwarded_for:
                headers["X-Forwarded-For"] = forwarded_for[index]
            return await client.post(f"/mcp/{conversation_id}/", json=INITIALIZE, headers=headers)

        return list(await asyncio.gather(*(one(i, t) for i, t in enumerate(tokens))))


def refusals(door: str) -> float:
    return metrics.RATE_LIMIT_REFUSALS.labels(door)._value.get()


@pytest.mark.spec("R-2.2.3")
def test_an_unknown_token_is_looked_up_once_and_every_401_is_late(transactional_db, conversation, token_statements):
    """The first attempt with a made-up token reads the token table; the same token again is refused
    from memory, with no statement; both answers wait at least a second and are counted."""
    stranger = random_token()
    counted = refusals("mcp_unauthenticated")
    asked = time.monotonic()
    first = asyncio.run(post_all(conversation.id, [stranger]))[0]
    assert first.status_code == 401, first.text
    assert first.json()["id"] == "s-1"
    assert time.monotonic() - asked >= strangers.RETRY_AFTER_SECONDS
    assert len(token_statements) == 1

    asked = time.monotonic()
    again = asyncio.run(post_all(conversation.id, [stranger, stranger, "not-a-token", "x" * 300]))
    assert [r.status_code for r in again] == [401] * 4
    assert time.monotonic() - asked >= strangers.RETRY_AFTER_SECONDS
    assert len(token_statements) == 1  # no statement for any of them
    assert refusals("mcp_unauthenticated") - counted == 5


def test_the_refused_memory_is_bounded_and_forgets_a_digest_whose_token_is_created(db, user, django_assert_num_queries):
    """A made-up token is remembered after its look-up (none the second time); a token row created
    with a remembered digest is not refused from memory; the memory keeps MAX_ENTRIES at most."""
    stranger = random_token()
    assert authenticate_agent(stranger, now=timezone.now()) is None
    with django_assert_num_queries(0):
        assert authenticate_agent(stranger, now=timezone.now()) is None

    _, token = create_agent_token(user=user, name="fresh", now=timezone.now())
    refused_tokens.remember(token_digest(token))  # as if it had been offered just before it existed
    _, another = create_agent_token(user=user, name="fresh", now=timezone.now())
    assert not refused_tokens.is_refused(token_digest(another))
    refused_tokens.forget(token_digest(token))
    assert authenticate_agent(token, now=timezone.now()) is not None

    for n in range(refused_tokens.MAX_ENTRIES + 10):
        refused_tokens.remember(f"{n:064x}")
    assert len(refused_tokens._refused) == refused_tokens.MAX_ENTRIES
    assert not refused_tokens.is_refused(f"{0:064x}")  # the oldest went first


@pytest.mark.spec("R-2.2.3")
def test_fresh_tokens_from_one_address_are_capped_and_an_agent_already_in_is_not(
    transactional_db, settings, user, conversation, token_statements
):
    """Per address: a burst of five seconds' worth of look-ups of never-seen tokens, then 429 with
    Retry-After and no statement; meanwhile an Agent whose token authenticated here is served."""
    settings.LINEUP_STRANGER_LOOKUPS_PER_SECOND_PER_ADDRESS = 1  # a burst of 5
    settings.LINEUP_STRANGER_LOOKUPS_PER_SECOND = 1000
    _, agent_token = create_agent_token(user=user, name="working", now=timezone.now())
    assert asyncio.run(post_all(conversation.id, [agent_token]))[0].status_code == 200  # its look-up: 1 of 5
    token_statements.clear()
    answers = asyncio.run(post_all(conversation.id, [random_token() for _ in range(8)]))
    statuses = sorted(r.status_code for r in answers)
    assert statuses == [401] * 4 + [429] * 4, statuses
    busy = next(r for r in answers if r.status_code == 429)
    assert busy.headers["retry-after"] == "1"
    assert busy.json()["error"]["data"] == {"code": "too_many_requests"}
    assert len(token_statements) == 4
    assert asyncio.run(post_all(conversation.id, [agent_token]))[0].status_code == 200


@pytest.mark.spec("R-2.2.3")
def test_everyones_budget_holds_when_each_stranger_has_an_address_of_its_own(
    transactional_db, settings, conversation, token_statements
):
    """Behind a trusted proxy every stranger may have its own address: the budget for everyone
    together still caps the look-ups that reach the database."""
    settings.LINEUP_TRUSTED_PROXY_HOPS = 1
    settings.LINEUP_STRANGER_LOOKUPS_PER_SECOND_PER_ADDRESS = 1000
    settings.LINEUP_STRANGER_LOOKUPS_PER_SECOND = 1  # a burst of 5
    addresses = [f"203.0.113.{n}" for n in range(8)]
    answers = asyncio.run(post_all(conversation.id, [random_token() for _ in range(8)], addresses))
    assert sorted(r.status_code for r in answers) == [401] * 5 + [429] * 3
    assert len(token_statements) == 5
