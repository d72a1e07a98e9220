"""The built-in Agent's credentials across restarts of the embedded default, against live Daphne.

Daphne runs ``lineup.asgi`` on PostgreSQL with ``LINEUP_REFERENCE_AGENT_URL`` pointing at itself,
as the embedded default does: its supervisor thread serves every user. The test restarts that
process and plays the operator through the admin (a staff user's requests), observing tokens in
the database and the supervisor's reasons in the server's log.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from interact.models import AuthorKind, Message
from interact.services.messages import post_human_message
from runtime.models import Agent, AgentToken
from runtime.services.conversations import conversation_get_or_create_default
from tests.support.processes import (
    PYTHON,
    ManagedProcess,
    ProcessSupervisor,
    free_port,
    lineup_env,
    port_open,
    supervised_processes,
    wait_for,
)

TIMEOUT = 30.0


@dataclass
class EmbeddedServer:
    processes: ProcessSupervisor
    port: int
    daphne: ManagedProcess | None = None
    starts: int = 0

    @property
    def env(self) -> dict[str, str]:
        return lineup_env(
            LINEUP_SCHEDULER="embedded", LINEUP_REFERENCE_AGENT_URL=f"ws://127.0.0.1:{self.port}/ws/agent/"
        )

    def restart(self) -> ManagedProcess:
        if self.daphne is not None:
            self.daphne.terminate()
        self.starts += 1
        argv = [PYTHON, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), "lineup.asgi:application"]
        self.daphne = self.processes.start(f"daphne-{self.starts}", argv, env=self.env)

        def listening() -> bool:
            if not self.daphne.alive:
                pytest.fail(f"daphne exited early\n{self.daphne.tail()}", pytrace=False)
            return port_open(self.port)

        self.wait(listening, "daphne to listen")
        return self.daphne

    def wait(self, probe, what: str, timeout: float = TIMEOUT):
        return wait_for(probe, timeout=timeout, what=what, describe=self.processes.describe)

    def logged(self, event: str, **fields: object) -> dict | None:
        """The first JSON log line of the current process with this event and these fields."""
        for line in self.daphne.log_text().splitlines():
            if line.startswith("{"):
                entry = json.loads(line)
                if entry.get("event") == event and all(entry.get(k) == v for k, v in fields.items()):
                    return entry
        return None


@pytest.fixture
def embedded(request, tmp_path, transactional_db):
    with supervised_processes(request, tmp_path) as processes:
        yield EmbeddedServer(processes=processes, port=free_port())


def tokens(user) -> list[AgentToken]:
    return list(AgentToken.objects.filter(agent__user=user, agent__name="reference").order_by("pk"))


def active(user) -> list[AgentToken]:
    return [t for t in tokens(user) if t.revoked_at is None]


def connected_since(user, since) -> AgentToken | None:
    """The user's active built-in token, once a connection authenticated with it after ``since``."""
    live = [t for t in active(user) if t.last_used_at is not None and t.last_used_at >= since]
    return live[0] if live else None


def answered(embedded: EmbeddedServer, user, activity: str) -> Message:
    conversation = conversation_get_or_create_default(user=user)
    post_human_message(
        conversation=conversation, user_id=user.id, text=f"start a 2 second focus on {activity}", now=timezone.now()
    )
    text = f"Focus started: 2 seconds of {activity}. I'll let you know when it's done."
    return embedded.wait(
        lambda: Message.objects.filter(conversation=conversation, author_kind=AuthorKind.AGENT, text=text).first(),
        f"the built-in Agent to answer {user.username}",
    )


def admin_action(client: Client, model: str, action: str, pk: object) -> str:
    page = client.post(
        reverse(f"admin:runtime_{model}_changelist"), {"action": action, "_selected_action": [pk]}, follow=True
    )
    assert page.status_code == 200
    return page.content.decode()


@pytest.mark.spec("R-2.2.3", "R-4.4.1")
def test_restarts_reuse_one_token_and_an_operator_revocation_stands_until_re_enabled(
    embedded, user, other_user, admin_client
):
    # (a) Two starts of the embedded default: one token per user, the same one, and it still works.
    started = timezone.now()
    embedded.restart()
    for person in (user, other_user):
        embedded.wait(lambda p=person: connected_since(p, started), f"the first start to connect {person.username}")
    first = {person.pk: [t.digest for t in tokens(person)] for person in (user, other_user)}
    assert all(len(digests) == 1 for digests in first.values()), first

    restarted = timezone.now()
    embedded.restart()
    for person in (user, other_user):
        embedded.wait(lambda p=person: connected_since(p, restarted), f"the restart to connect {person.username}")
        assert [t.digest for t in tokens(person)] == first[person.pk], "a restart issued a token"
        assert len(active(person)) == 1
    answered(embedded, user, "reading")

    # (b) The operator revokes ada's built-in token: she is cut off, and a restart does not undo it.
    (token,) = active(user)
    assert "stays off for that user" in admin_action(admin_client, "agenttoken", "revoke", token.pk)
    embedded.wait(
        lambda: embedded.logged("reference_agent.builtin_disabled", username=user.username),
        "the supervisor to say why it stopped serving ada",
    )
    again = timezone.now()
    embedded.restart()
    embedded.wait(lambda: connected_since(other_user, again), "the restart to connect bob")
    why = embedded.wait(
        lambda: embedded.logged("reference_agent.builtin_disabled", username=user.username),
        "the restarted supervisor to say why it does not serve ada",
    )
    assert why["detail"].startswith("an operator revoked its token")
    assert [t.digest for t in tokens(user)] == first[user.pk] and active(user) == []
    assert embedded.logged("reference_agent.user_served", username=user.username) is None
    assert embedded.logged("reference_agent.user_served", username=other_user.username) is not None

    # (c) The operator re-enables it: the running supervisor's next round connects ada again.
    agent = Agent.objects.get(user=user, name="reference")
    reenabled = timezone.now()
    assert "Re-enabled the built-in Agent for 1 user;" in admin_action(
        admin_client, "agent", "enable_builtin", agent.pk
    )
    fresh = embedded.wait(lambda: connected_since(user, reenabled), "the supervisor to connect ada again")
    assert fresh.digest not in first[user.pk] and len(active(user)) == 1 and len(tokens(user)) == 2
    answered(embedded, user, "writing")
    assert len(active(other_user)) == 1 and len(tokens(other_user)) == 1
