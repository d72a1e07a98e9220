"""``manage.py run_reference_agent --url ws://HOST:PORT/ws/agent/ (--token T | --user NAME | --all-users)``.

``--url`` may be given once per server (every Daphne): a lost connection is followed by one to the
next, so the built-in Agent keeps answering when the Daphne it used dies.

Runs the built-in Agent as a separate process, an ordinary client of ``/ws/agent/``: the LLM Agent
(agents.llm) when ``LINEUP_LLM_BASE_URL`` and ``LINEUP_LLM_MODEL`` are set, the reference
Agent (agents.reference) otherwise. With ``--token`` it uses an existing token; with
``--user`` / ``--all-users`` it uses each user's built-in token (Agent ``llm`` or ``reference``),
the same at every start and none while an operator has it off, and ``--all-users`` also picks up
users created later. It reconnects forever; SIGINT / SIGTERM stop it.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from agents.common.client import AgentClient, Unauthorized
from interact.builtin_agents.selection import builtin_agent
from interact.builtin_agents.supervisor import DEFAULT_POLL_SECONDS, ReferenceAgentSupervisor


class Command(BaseCommand):
    help = "Run the built-in Agent (LLM Agent if LINEUP_LLM_* is set, else the reference Agent) against /ws/agent/."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--url",
            action="append",
            dest="urls",
            help="the server's /ws/agent/ URL (default ws://127.0.0.1:8000/ws/agent/); repeat it for each server",
        )
        who = parser.add_mutually_exclusive_group(required=True)
        who.add_argument("--token", help="an Agent token (manage.py create_agent_token)")
        who.add_argument(
            "--user", action="append", dest="users", metavar="USERNAME", help="serve this user (repeatable)"
        )
        who.add_argument("--all-users", action="store_true", help="serve every active user, new ones too")
        parser.add_argument(
            "--poll-seconds", type=float, default=DEFAULT_POLL_SECONDS, help="how often to look for new users"
        )

    def handle(
        self,
        *args: object,
        urls: list[str] | None,
        token: str | None,
        users: list[str] | None,
        all_users: bool,
        poll_seconds: float,
        **options: object,
    ) -> None:
        urls = urls or ["ws://127.0.0.1:8000/ws/agent/"]
        if not all(url.startswith(("ws://", "wss://")) for url in urls):
            raise CommandError("--url must be a ws:// or wss:// URL, e.g. ws://127.0.0.1:8000/ws/agent/")
        if users:
            known = set(get_user_model().objects.filter(username__in=users).values_list("username", flat=True))
            missing = sorted(set(users) - known)
            if missing:
                raise CommandError(f"no such user: {', '.join(missing)}")
        try:
            asyncio.run(self._run(urls, token, None if all_users else users, poll_seconds))
        except Unauthorized as error:
            raise CommandError(f"the server refused the token: {error}") from None

    async def _run(self, url: list[str], token: str | None, users: list[str] | None, poll_seconds: float) -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):  # not on Windows
                loop.add_signal_handler(sig, stop.set)
        agent = builtin_agent()
        if token is not None:
            client = AgentClient(url, token, label=f"{agent.name}:token", agent_factory=agent.factory)
            task = asyncio.create_task(client.run())
            stopper = asyncio.create_task(stop.wait())
            await asyncio.wait({task, stopper}, return_when=asyncio.FIRST_COMPLETED)
            stopper.cancel()
            if task.done():
                task.result()  # Unauthorized surfaces here
                return
            await client.stop()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            return
        supervisor = ReferenceAgentSupervisor(
            url,
            usernames=users,
            poll_seconds=poll_seconds,
            agent_name=agent.name,
            client_options={"agent_factory": agent.factory},
        )
        await supervisor.run(stop)
