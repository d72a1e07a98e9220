# ruff: noqa: RUF001 -- Chinese text uses full-width punctuation on purpose
"""A live Daphne for the LLM Agent's tests, a fake model server per test, and the Agent itself.

Daphne runs ``lineup.asgi`` on the test database with its in-process deadline scheduler and no
built-in Agent of its own (``LINEUP_REFERENCE_AGENT_URL=""``); it is shared by the module, every
test getting a fresh transactional database. ``run_llm_agent(**config)`` starts the LLM Agent in
this process the way the embedded server does (supervisor thread, one client per user), pointed
at the test's ``FakeOpenAI``; it is stopped at the end of the test.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from agents.llm.agent import LLMAgent
from agents.llm.config import LLMConfig
from interact.builtin_agents.supervisor import ReferenceAgentSupervisor, ReferenceAgentThread
from tests.agents.llm.fake_openai import FakeOpenAI
from tests.support.processes import (
    PYTHON,
    ProcessSupervisor,
    free_port,
    lineup_env,
    port_open,
    supervised_processes,
    wait_for,
)

MODEL = "fake-model"
API_KEY = "sk-fake-test-key"
# The bundled apps, named after "nothing was done" and "the model failed" (the Inventory's ``apps``).
INSTALLED_EN = " Installed here: Scratch notes, Pomodoro, Practice quiz. Say “help” to see what they do."
INSTALLED_ZH = "这里安装了：笔记、番茄钟、口算练习。说“帮助”看看它们能做什么。"


@dataclass
class Live:
    processes: ProcessSupervisor
    env: dict[str, str]
    port: int

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/agent/"

    def wait(self, probe, what: str, timeout: float = 20.0):
        return wait_for(probe, timeout=timeout, what=what, describe=self.processes.describe)


@pytest.fixture(scope="module")
def daphne(request, django_db_setup, tmp_path_factory) -> Iterator[Live]:
    with supervised_processes(request, tmp_path_factory.mktemp("llm-agent")) as processes:
        env = lineup_env(
            LINEUP_SCHEDULER="embedded", LINEUP_OUTBOX_REDELIVERY_SECONDS="1", LINEUP_REFERENCE_AGENT_URL=""
        )
        port = free_port()
        argv = [PYTHON, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "lineup.asgi:application"]
        process = processes.start("daphne", argv, env=env)

        def listening() -> bool:
            if not process.alive:
                pytest.fail(f"daphne exited early\n{process.tail()}", pytrace=False)
            return port_open(port)

        wait_for(listening, timeout=30, what="daphne to listen")
        yield Live(processes=processes, env=env, port=port)


@pytest.fixture
def live(daphne, transactional_db) -> Live:
    return daphne


@pytest.fixture
def agent_processes(request, tmp_path) -> Iterator[ProcessSupervisor]:
    """Processes that end with the test (the module's Daphne outlives it)."""
    with supervised_processes(request, tmp_path) as processes:
        yield processes


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    server = FakeOpenAI().start()
    yield server
    server.stop()


@pytest.fixture
def run_llm_agent(live, fake_openai, user) -> Iterator[Callable[..., ReferenceAgentSupervisor]]:
    threads: list[ReferenceAgentThread] = []

    def start(**config: object) -> ReferenceAgentSupervisor:
        options = {"timeout_seconds": 10.0, "max_retries": 0, **config}
        llm = LLMConfig(base_url=fake_openai.base_url, model=MODEL, api_key=API_KEY, **options)  # type: ignore[arg-type]
        supervisor = ReferenceAgentSupervisor(
            live.url,
            usernames=[user.username],
            poll_seconds=0.2,
            agent_name="llm",
            client_options={"agent_factory": functools.partial(LLMAgent, config=llm), "max_backoff": 1.0},
        )
        threads.append(ReferenceAgentThread(supervisor).start())
        live.wait(lambda: user.pk in supervisor.clients and supervisor.clients[user.pk].welcomed.is_set(), "welcome")
        return supervisor

    yield start
    for thread in threads:
        thread.stop()
