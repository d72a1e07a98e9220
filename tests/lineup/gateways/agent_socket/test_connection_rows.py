"""Live ``/ws/agent/`` connections as the Agents page counts them: one ``AgentConnection`` row per
welcomed connection, on whichever Daphne process holds it, refreshed by its heartbeat and deleted
when it closes (docs/decisions/0017-agents-page-and-live-connections.md)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from runtime.models import AgentConnection, AgentToken
from runtime.selectors import agents_of_user
from runtime.services.agents import liveness_window, revoke_agent_token
from tests.lineup.gateways.agent_socket.conftest import HEARTBEAT_SECONDS


def live_count(user) -> int:
    summaries = agents_of_user(user_id=user.pk, now=timezone.now(), window=liveness_window())
    return sum(summary.live_connections for summary in summaries)


@pytest.mark.spec("R-2.2.8")
def test_connections_on_two_processes_are_counted_and_closing_one_uncounts_it(
    live, connect, token_for, user, conversation
):
    """Two connections of one Agent, one on each Daphne process, are two live rows (a count in one
    process's memory would see one); their heartbeats move ``seen_at``; closing one deletes its row
    and records the token's last use; an unauthenticated socket is no row at all."""
    token = token_for(user, "claude")
    on_main, on_remote = connect(live.main), connect(live.remote)
    on_main.hello(token)
    on_remote.hello(token)
    stranger = connect(live.main)
    stranger.send({"type": "inventory.get", "conversation_id": str(conversation.id)})
    assert stranger.answer()["code"] == "not_authenticated"
    live.wait(lambda: live_count(user) == 2, "two live connections")
    assert AgentConnection.objects.count() == 2

    first_seen = {row.pk: row.seen_at for row in AgentConnection.objects.all()}
    live.wait(
        lambda: all(row.seen_at > first_seen[row.pk] for row in AgentConnection.objects.all()),
        "both heartbeats",
        timeout=HEARTBEAT_SECONDS * 10,
    )

    before_close = timezone.now()
    on_remote.close()
    live.wait(lambda: live_count(user) == 1, "the closed connection to be uncounted")
    assert AgentConnection.objects.count() == 1
    assert AgentToken.objects.get(agent__name="claude").last_used_at >= before_close


@pytest.mark.spec("R-2.2.8")
def test_a_revoked_tokens_connection_is_closed_and_uncounted(live, connect, token_for, user, conversation):
    """Revoking the token closes its connection (as before), and with it the row goes."""
    token = token_for(user, "claude")
    sock = connect(live.main)
    sock.hello(token)
    live.wait(lambda: live_count(user) == 1, "the live connection")
    revoke_agent_token(token_id=AgentToken.objects.get(agent__name="claude").pk, now=timezone.now())
    assert sock.close_code() == 4401
    live.wait(lambda: not AgentConnection.objects.exists(), "the row of the closed connection to go")
