"""The Agents page (``/workspace/agents/``): a person's Agents with last-seen time and live
connections, creating a token (shown once), revoking one, and the configurations of the usual
clients for each conversation. HTTP through Django's test client on PostgreSQL; the browser test
with a real MCP client is tests/browser/test_agents_page.py."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from interact.agent_setup import AGENT_PROTOCOL, TOKEN_PLACEHOLDER, mcp_configurations
from lineup.gateways.agent_socket.frames import PROTOCOL
from runtime.models import Agent, AgentConnection, AgentToken
from runtime.services.agents import (
    agent_connection_closed,
    agent_connection_opened,
    builtin_agent_token,
    create_agent_token,
    liveness_window,
    token_digest,
)
from tests.support.auth import password_login

pytestmark = pytest.mark.django_db

PAGE = "/workspace/agents/"


@pytest.fixture
def signed_in(client, user):
    assert password_login(client, "ada", "pw-ada-123")
    return client


def text_of(response) -> str:
    return response.content.decode()


def test_the_page_needs_a_login(client):
    """Like the workspace, the page sends a stranger to the sign-in page."""
    response = client.get(PAGE)
    assert response.status_code == 302 and response["Location"] == f"/accounts/login/?next={PAGE}"


def test_creating_a_token_shows_it_once_with_the_configurations_filled_in(signed_in, user):
    """A POST issues a token for the named Agent: the answer shows it and puts it into every client
    configuration; only its digest is stored, and the next GET shows its prefix, never the token."""
    response = signed_in.post(PAGE, {"name": "  claude  "})
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store" and "frame-ancestors 'none'" in response["Content-Security-Policy"]
    agent = Agent.objects.get(user=user, name="claude")
    row = AgentToken.objects.get(agent=agent)
    page = text_of(response)
    token = page.split('id="new-token" class="secret">', 1)[1].split("<", 1)[0]
    assert token.startswith("lu_") and token_digest(token) == row.digest
    conversation = user.conversations.get(is_default=True)
    mcp_url = f"http://testserver/mcp/{conversation.id}/"
    assert f"Bearer {token}" in page and mcp_url in page and TOKEN_PLACEHOLDER not in page
    assert (
        f"claude mcp add --transport http lineup {mcp_url} --header &quot;Authorization: Bearer {token}&quot;" in page
    )
    assert "ws://testserver/ws/agent/" in page

    again = text_of(signed_in.get(PAGE))
    assert token not in again and row.prefix in again and TOKEN_PLACEHOLDER in again


@pytest.mark.parametrize(
    ("name", "error"),
    [("   ", "1 to 100 characters"), ("x" * 101, "1 to 100 characters"), ("reference", "built-in Agent")],
)
def test_a_blank_long_or_built_in_name_is_refused_and_creates_nothing(signed_in, user, name, error):
    """The form says what is wrong (400) and no token is issued."""
    builtin_agent_token(user=user, name="reference", now=timezone.now())
    before = AgentToken.objects.count()
    response = signed_in.post(PAGE, {"name": name})
    assert response.status_code == 400 and error in text_of(response)
    assert 'aria-invalid="true"' in text_of(response)
    assert AgentToken.objects.count() == before


def test_revoking_a_token_on_the_page_revokes_it_and_says_so(signed_in, user):
    """The Revoke button's POST revokes that token only and comes back to the page with a notice."""
    agent, _ = create_agent_token(user=user, name="claude", now=timezone.now())
    create_agent_token(user=user, name="claude", now=timezone.now())
    first, second = AgentToken.objects.filter(agent=agent).order_by("pk")
    response = signed_in.post(f"{PAGE}tokens/{first.pk}/revoke/", follow=True)
    assert response.redirect_chain == [(PAGE, 302)]
    assert "Token revoked" in text_of(response)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.revoked_at is not None and second.revoked_at is None
    assert first.prefix not in text_of(response) and second.prefix in text_of(response)


def test_another_users_token_and_the_built_in_agents_can_not_be_revoked_here(signed_in, user, other_user):
    """Someone else's token is a 404, as is the built-in Agent's (an operator turns that off); a GET
    changes nothing; neither token is revoked."""
    create_agent_token(user=other_user, name="bobs", now=timezone.now())
    builtin_agent_token(user=user, name="reference", now=timezone.now())
    foreign = AgentToken.objects.get(agent__user=other_user)
    builtin = AgentToken.objects.get(agent__user=user, builtin=True)
    for token in (foreign, builtin):
        assert signed_in.post(f"{PAGE}tokens/{token.pk}/revoke/").status_code == 404
        assert signed_in.get(f"{PAGE}tokens/{token.pk}/revoke/").status_code == 405
    assert not AgentToken.objects.filter(revoked_at__isnull=False).exists()
    page = text_of(signed_in.get(PAGE))
    assert "bobs" not in page and foreign.prefix not in page
    assert "built-in" in page and f"tokens/{builtin.pk}/revoke/" not in page


def test_live_connections_are_the_fresh_rows_and_last_seen_is_the_latest_use(signed_in, user):
    """Two connection rows refreshed within the liveness window count; a row whose heartbeat
    stopped (its process died) does not, and goes when a connection of the Agent closes. Closing one
    leaves the token's last use at the close."""
    agent, token = create_agent_token(user=user, name="claude", now=timezone.now())
    now = timezone.now()
    ids = [uuid.uuid4() for _ in range(3)]
    for connection_id in ids[:2]:
        agent_connection_opened(connection_id=connection_id, agent_id=agent.id, digest=token_digest(token), now=now)
    AgentConnection.objects.create(
        id=ids[2],
        agent=agent,
        token=AgentToken.objects.get(agent=agent),
        opened_at=now - timedelta(hours=1),
        seen_at=now - liveness_window() - timedelta(seconds=1),
    )
    page = text_of(signed_in.get(PAGE))
    assert 'data-live-connections="2"' in page and "connected now" in page

    agent_connection_closed(connection_id=ids[0], agent_id=agent.id, now=now - timedelta(minutes=5))
    assert 'data-live-connections="1"' in text_of(signed_in.get(PAGE))
    # The dead row stopped counting at once; the Agent's next close deletes it with its own.
    assert AgentConnection.objects.filter(pk=ids[2]).exists()
    agent_connection_closed(connection_id=ids[1], agent_id=agent.id, now=now)
    assert not AgentConnection.objects.exists()
    page = text_of(signed_in.get(PAGE))
    assert 'data-live-connections="0"' in page and ">just now<" in page


def test_last_seen_reads_never_then_how_long_ago(signed_in, user):
    """An Agent that never connected was never seen; one last seen five minutes ago says so."""
    create_agent_token(user=user, name="claude", now=timezone.now())
    page = text_of(signed_in.get(PAGE))
    assert 'data-live-connections="0"' in page and ">never<" in page
    AgentToken.objects.update(last_used_at=timezone.now() - timedelta(minutes=5, seconds=3))
    assert "5\xa0minutes ago" in text_of(signed_in.get(PAGE))


def test_the_page_speaks_chinese(signed_in, user):
    """With zh-hans chosen, the headings and buttons are Chinese (the configurations stay code)."""
    signed_in.post("/i18n/setlang/", {"language": "zh-hans", "next": PAGE})
    create_agent_token(user=user, name="claude", now=timezone.now())
    page = text_of(signed_in.get(PAGE))
    assert '<html lang="zh-hans">' in page
    assert "创建令牌" in page and "撤销" in page and "Create token" not in page
    assert "mcpServers" in page


def test_configurations_are_valid_and_name_the_url_and_header():
    """The JSON blocks parse and carry the URL and the bearer header; plain http off localhost gets
    mcp-remote's --allow-http; the hello frame names the protocol /ws/agent/ speaks."""
    url = "http://lineup.example:8000/mcp/abc/"
    configurations = {c.key: c for c in mcp_configurations(mcp_url=url, token="lu_x")}
    bridge = json.loads(configurations["mcp-remote"].text)["mcpServers"]["lineup"]
    assert bridge["args"][2] == url and "--allow-http" in bridge["args"]
    assert bridge["env"] == {"LINEUP_AUTH": "Bearer lu_x"}
    local = json.loads(mcp_configurations(mcp_url="http://127.0.0.1:8000/mcp/abc/", token=None)[0].text)
    assert "--allow-http" not in local["mcpServers"]["lineup"]["args"]
    assert json.loads(configurations["streamable-http"].text) == {
        "url": url,
        "headers": {"Authorization": "Bearer lu_x"},
    }
    compile(configurations["python-sdk"].text, "snippet.py", "exec")
    assert AGENT_PROTOCOL == PROTOCOL
