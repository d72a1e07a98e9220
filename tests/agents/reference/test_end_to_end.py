# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！（）) on purpose
"""The reference Agent against a live Daphne, over real WebSockets, PostgreSQL and Redis.

Daphne runs ``lineup.asgi`` on the test database with its in-process deadline scheduler
(``LINEUP_SCHEDULER=embedded``); the person's side is played through the Interact services
(``post_human_message``, ``answer_interaction``), whose hints reach Daphne over the Redis
channel layer. Everything is observed in the database, polled with deadlines.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass

import pytest
from django.utils import timezone

from agents.common.client import AgentClient, Unauthorized
from agents.reference.agent import ReferenceAgent
from interact.builtin_agents.supervisor import ReferenceAgentSupervisor, ReferenceAgentThread
from interact.models import AuthorKind, Interaction, InteractionStatus, Message
from interact.services.interactions import answer_interaction
from interact.services.messages import post_human_message
from runtime.models import AgentToken, Operation, OutboxEntry
from runtime.services.conversations import conversation_get_or_create_default
from runtime.transitions import RUNNING_STATES, OperationState
from tests.support.factories import activity_of, planned_seconds
from tests.support.processes import (
    PYTHON,
    ManagedProcess,
    ProcessSupervisor,
    free_port,
    lineup_env,
    manage_py_argv,
    port_open,
    supervised_processes,
    wait_for,
)

TIMEOUT = 20.0


@dataclass
class Server:
    processes: ProcessSupervisor
    env: dict[str, str]
    port: int
    daphne: ManagedProcess | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/agent/"

    def start(self) -> None:
        argv = [PYTHON, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), "lineup.asgi:application"]
        self.daphne = self.processes.start(f"daphne-{len(self.processes.processes)}", argv, env=self.env)

        def listening() -> bool:
            if not self.daphne.alive:
                pytest.fail(f"daphne exited early\n{self.daphne.tail()}", pytrace=False)
            return port_open(self.port)

        wait_for(listening, timeout=30, what="daphne to listen", describe=self.processes.describe)

    def wait(self, probe, what: str, timeout: float = TIMEOUT):
        return wait_for(probe, timeout=timeout, what=what, describe=self.processes.describe)


@pytest.fixture
def server(request, tmp_path, transactional_db):
    with supervised_processes(request, tmp_path) as processes:
        env = lineup_env(LINEUP_SCHEDULER="embedded", LINEUP_OUTBOX_REDELIVERY_SECONDS="1")
        live = Server(processes=processes, env=env, port=free_port())
        live.start()
        yield live


def say(conversation, user, text: str) -> None:
    post_human_message(conversation=conversation, user_id=user.id, text=text, now=timezone.now())


def agent_message(conversation, text: str, *, in_block: bool) -> Message | None:
    return Message.objects.filter(
        conversation=conversation, author_kind=AuthorKind.AGENT, text=text, app_session__isnull=not in_block
    ).first()


def pending_confirm(conversation, prompt: str) -> Interaction | None:
    return Interaction.objects.filter(
        conversation=conversation, kind="confirm", prompt=prompt, status=InteractionStatus.PENDING
    ).first()


def all_results_acked(conversation) -> bool:
    entries = OutboxEntry.objects.filter(conversation=conversation)
    return entries.exists() and not entries.filter(acked_at__isnull=True).exists()


@pytest.mark.spec("R-2.1.1", "R-3.10", "R-4.3.3", "R-4.3.5", "R-3.6")
def test_the_command_runs_rounds_in_english_and_stops_one_in_chinese(server, user, conversation):
    """run_reference_agent --user: start -> block message -> completed report + confirm; yes -> a new
    round; 专注 ... then 停止专注 -> interrupted, reported in Chinese. Each result reported once, all acked."""
    server.processes.start(
        "reference-agent",
        manage_py_argv("run_reference_agent", "--url", server.url, "--user", user.username),
        env=server.env,
        ready=r"reference_agent\.connected",
    )

    say(conversation, user, "start a 2 second reading focus")
    started = server.wait(
        lambda: agent_message(
            conversation, "Focus started: 2 seconds of reading. I'll let you know when it's done.", in_block=True
        ),
        "the start announced in the sub-session block",
    )
    first = Operation.objects.get(conversation=conversation)
    assert (planned_seconds(first), activity_of(first), started.app_session_id) == (2, "reading", first.app_session_id)
    server.wait(
        lambda: agent_message(conversation, "Focus complete: 2 seconds of reading.", in_block=False),
        "the completed report in the main IM",
    )
    confirm = server.wait(lambda: pending_confirm(conversation, "Start another 2-second round?"), "the confirm")
    server.wait(lambda: all_results_acked(conversation), "the result acked")

    answer_interaction(conversation_ids=[conversation.id], interaction_pk=confirm.pk, value=True, now=timezone.now())
    second = server.wait(
        lambda: Operation.objects.filter(conversation=conversation).exclude(pk=first.pk).first(), "another round"
    )
    assert (planned_seconds(second), activity_of(second)) == (2, "reading")
    server.wait(
        lambda: (
            Message.objects.filter(conversation=conversation, text="Focus complete: 2 seconds of reading.").count() == 2
        ),
        "the second round reported",
    )
    server.wait(
        lambda: Operation.objects.filter(conversation=conversation, state__in=RUNNING_STATES).count() == 0, "it ended"
    )

    say(conversation, user, "专注 1 分钟 写作业")
    server.wait(
        lambda: agent_message(conversation, "专注开始：写作业，1分钟。结束时我会告诉你。", in_block=True),
        "the Chinese start announced in its block",
    )
    say(conversation, user, "停止专注")
    stopped = server.wait(
        lambda: Message.objects.filter(
            conversation=conversation, author_kind=AuthorKind.AGENT, text__startswith="专注已停止：写作业，进行了"
        ).first(),
        "the Chinese interrupted report",
    )
    assert stopped.app_session_id is None and stopped.text.endswith("（按你的要求停止）。")
    third = Operation.objects.get(conversation=conversation, details__activity="写作业")
    assert (third.state, third.interruption_reason, planned_seconds(third)) == (
        OperationState.INTERRUPTED,
        "agent_interrupt",
        60,
    )
    server.wait(
        lambda: OutboxEntry.objects.filter(conversation=conversation, acked_at__isnull=False).count() == 3, "acks"
    )
    # The second round's "another round?" was withdrawn when the person started something else, and a
    # focus the person stopped gets no such question: nothing is left waiting for an answer.
    server.wait(
        lambda: Interaction.objects.filter(conversation=conversation, status=InteractionStatus.SUPERSEDED).count() == 1,
        "the stale question withdrawn",
    )
    assert not Interaction.objects.filter(conversation=conversation, status=InteractionStatus.PENDING).exists()

    # Redelivery runs every second until an ack; with all three acked, no report was made twice.
    reports = Message.objects.filter(conversation=conversation, author_kind=AuthorKind.AGENT, app_session__isnull=True)
    assert sorted(m.text for m in reports) == sorted(["Focus complete: 2 seconds of reading."] * 2 + [stopped.text])


@pytest.mark.spec("R-4.2.7", "R-4.4.1")
def test_the_in_process_supervisor_serves_a_later_user_across_a_server_restart(server, django_user_model):
    """A user created after the supervisor started gets its own client; a focus that ends while the
    server is down is reported once after the client reconnects, naming the activity it remembered."""
    with pytest.raises(Unauthorized):
        asyncio.run(AgentClient(server.url, "lu_not-a-token", agent_factory=ReferenceAgent).run())

    supervisor = ReferenceAgentSupervisor(server.url, poll_seconds=0.2, client_options={"max_backoff": 1.0})
    thread = ReferenceAgentThread(supervisor).start()
    try:
        later = django_user_model.objects.create_user(username="cy", password="pw-cy-12345")
        server.wait(
            lambda: AgentToken.objects.filter(
                agent__user=later, agent__name="reference", last_used_at__isnull=False
            ).exists(),
            "the supervisor to connect for the new user",
        )
        conversation = conversation_get_or_create_default(user=later)
        say(conversation, later, "start a 2 second focus on writing")
        server.wait(
            lambda: agent_message(
                conversation, "Focus started: 2 seconds of writing. I'll let you know when it's done.", in_block=True
            ),
            "the start announced",
        )

        server.daphne.kill()  # a crash: no server, so no Agent connection, until the deadline passed
        ends_at = Operation.objects.get(conversation=conversation).ends_at
        server.wait(lambda: timezone.now() >= ends_at, "the deadline to pass while the server is down")
        server.start()  # start-up recovery settles it; the client reconnects and gets the result

        server.wait(
            lambda: agent_message(conversation, "Focus complete: 2 seconds of writing.", in_block=False),
            "the result reported after the reconnect",
        )
        server.wait(lambda: all_results_acked(conversation), "the result acked")
        assert supervisor.clients[later.pk].connections >= 2
        assert Message.objects.filter(conversation=conversation, text__startswith="Focus complete").count() == 1
    finally:
        thread.stop()
    assert not thread.alive


def test_the_built_in_agent_answers_through_another_daphne_when_its_own_dies(request, tmp_path, transactional_db, user):
    """run_reference_agent with one --url per Daphne: killed under it, the Daphne it used is
    replaced by the other on the next connection, and the person's next message is answered."""
    conversation = conversation_get_or_create_default(user=user)
    with supervised_processes(request, tmp_path) as processes:
        env = lineup_env(LINEUP_SCHEDULER="embedded", LINEUP_OUTBOX_REDELIVERY_SECONDS="1")
        first, second = (Server(processes=processes, env=env, port=free_port()) for _ in range(2))
        first.start()
        second.start()
        agent = processes.start(
            "reference-agent",
            manage_py_argv("run_reference_agent", "--url", first.url, "--url", second.url, "--user", user.username),
            env=env,
            ready=r"reference_agent\.connected",
        )

        def connected_to(server: Server) -> str:
            return rf'"url": "{re.escape(server.url)}"[^\n]*"event": "reference_agent\.connected"'

        assert re.search(connected_to(first), agent.log_text()), agent.log_text()
        first.daphne.kill()
        agent.wait_for_log(connected_to(second))

        say(conversation, user, "start a 2 second reading focus")
        second.wait(
            lambda: agent_message(
                conversation, "Focus started: 2 seconds of reading. I'll let you know when it's done.", in_block=True
            ),
            "the start answered through the second Daphne",
        )
