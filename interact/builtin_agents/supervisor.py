"""One built-in Agent client per user, for every active user or for named ones.

``ReferenceAgentSupervisor`` polls the users every few seconds: a user that appears (created
with ``createsuperuser`` or the admin, or re-activated) gets the token of its built-in Agent
``reference`` (or ``llm``) and its own ``AgentClient``; a user that is deleted or deactivated
loses it.

The token is the one ``runtime.services.agents.builtin_agent_token`` derives: the same at every
start of this process, so restarts issue nothing and leave one active built-in token per user.
An operator turns the built-in Agent off for a user by revoking that token (admin: Agent tokens
→ Revoke); the live client is refused, and no round — in this process or after a restart —
connects it again (``reference_agent.builtin_disabled`` says why) until the operator re-enables
it (admin: Agents → Re-enable the built-in Agent), which the next round picks up.

``start_reference_agent_in_thread(url)`` runs a supervisor for every user in a daemon thread
with its own asyncio loop: the embedded default runs it inside the Daphne process it talks to.
The clients run the built-in Agent ``selection`` picks: the LLM Agent when
``LINEUP_LLM_BASE_URL`` and ``LINEUP_LLM_MODEL`` are set, this reference Agent otherwise.
Database work runs in worker threads, each closing its connection afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import threading
from collections.abc import Sequence
from typing import Any

import structlog
from django.contrib.auth import get_user_model
from django.utils import timezone

from agents.common.client import AgentClient, Unauthorized
from agents.reference.agent import ReferenceAgent
from interact.builtin_agents.db import run_db
from interact.builtin_agents.selection import REFERENCE_AGENT_NAME, builtin_agent
from runtime.services.agents import builtin_agent_token
from runtime.services.conversations import conversation_get_or_create_default

logger = structlog.get_logger("lineup.reference_agent")

DEFAULT_POLL_SECONDS = 3.0


def reference_token(*, user_id: int, name: str = REFERENCE_AGENT_NAME) -> tuple[str | None, str | None]:
    """``(token, None)`` for the user's built-in Agent ``name`` (its default conversation made sure
    of), or ``(None, disabled_at)`` while an operator has it off."""
    user = get_user_model().objects.get(pk=user_id)
    conversation_get_or_create_default(user=user)
    agent, token = builtin_agent_token(user=user, name=name, now=timezone.now())
    if token is None:
        return None, agent.builtin_disabled_at.isoformat() if agent.builtin_disabled_at else None
    return token, None


def active_users(usernames: Sequence[str] | None = None) -> dict[int, str]:
    """``{pk: username}`` of the active users (only ``usernames`` when given)."""
    users = get_user_model().objects.filter(is_active=True)
    if usernames is not None:
        users = users.filter(username__in=list(usernames))
    return dict(users.order_by("pk").values_list("pk", "username"))


class ReferenceAgentSupervisor:
    def __init__(
        self,
        url: str | Sequence[str],
        *,
        usernames: Sequence[str] | None = None,
        poll_seconds: float = DEFAULT_POLL_SECONDS,
        agent_name: str = REFERENCE_AGENT_NAME,
        client_options: dict[str, Any] | None = None,
    ) -> None:
        self.url = url
        self.usernames = list(usernames) if usernames is not None else None
        self.poll_seconds = poll_seconds
        self.agent_name = agent_name
        self.client_options = {"agent_factory": ReferenceAgent, **(client_options or {})}
        self.clients: dict[int, AgentClient] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}
        # user -> the token the server refused: not tried again; a re-enabled Agent has a new one.
        self._refused: dict[int, str] = {}
        # users whose built-in Agent an operator turned off, logged once per spell.
        self.disabled: set[int] = set()

    async def run(self, stop: asyncio.Event | None = None) -> None:
        """Keep one client per user until ``stop`` is set (or the task is cancelled)."""
        stop = stop or asyncio.Event()
        logger.info("reference_agent.supervisor_started", url=self.url, users=self.usernames or "all")
        try:
            while not stop.is_set():
                try:
                    await self.sync_users()
                except Exception:  # the database may be briefly away; the next poll retries
                    logger.exception("reference_agent.supervisor_poll_failed")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), timeout=self.poll_seconds)
        finally:
            await self.stop_clients()
            logger.info("reference_agent.supervisor_stopped")

    async def sync_users(self) -> None:
        users = await run_db(active_users, self.usernames)
        for user_id in [pk for pk in self._tasks if pk not in users]:
            logger.info("reference_agent.user_gone", user_id=user_id)
            await self._stop_client(user_id)
        for gone in set(self._refused) - set(users):  # a user deactivated and back again is served again
            del self._refused[gone]
        self.disabled &= set(users)
        for user_id, username in users.items():
            if user_id in self._tasks:
                continue
            token, disabled_at = await run_db(reference_token, user_id=user_id, name=self.agent_name)
            if token is None:
                if user_id not in self.disabled:
                    self.disabled.add(user_id)
                    logger.warning(
                        "reference_agent.builtin_disabled",
                        user_id=user_id,
                        username=username,
                        agent=self.agent_name,
                        disabled_at=disabled_at,
                        detail="an operator revoked its token; re-enable it in the admin (Agents)",
                    )
                continue
            self.disabled.discard(user_id)
            if self._refused.get(user_id) == token:
                continue
            self._refused.pop(user_id, None)
            client = AgentClient(self.url, token, label=f"{self.agent_name}:{username}", **self.client_options)
            task = asyncio.create_task(client.run(), name=f"reference-agent-{username}")
            task.add_done_callback(functools.partial(self._client_ended, user_id, token))
            self.clients[user_id] = client
            self._tasks[user_id] = task
            logger.info("reference_agent.user_served", user_id=user_id, username=username)

    def _client_ended(self, user_id: int, token: str, task: asyncio.Task[None]) -> None:
        if self._tasks.get(user_id) is task:
            self._tasks.pop(user_id, None)
            self.clients.pop(user_id, None)
        if task.cancelled():
            return
        error = task.exception()
        if isinstance(error, Unauthorized):
            self._refused[user_id] = token
            logger.warning("reference_agent.token_refused", user_id=user_id)
        elif error is not None:
            logger.error("reference_agent.client_crashed", user_id=user_id, exc_info=error)

    async def _stop_client(self, user_id: int) -> None:
        client, task = self.clients.pop(user_id, None), self._tasks.pop(user_id, None)
        if client is not None:
            await client.stop()
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def stop_clients(self) -> None:
        for user_id in list(self._tasks):
            await self._stop_client(user_id)


class ReferenceAgentThread:
    """A supervisor running in its own daemon thread and event loop."""

    def __init__(self, supervisor: ReferenceAgentSupervisor) -> None:
        self.supervisor = supervisor
        self._thread = threading.Thread(target=self._run, name="lineup-reference-agent", daemon=True)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._started = threading.Event()

    def start(self) -> ReferenceAgentThread:
        self._thread.start()
        self._started.wait(timeout=5)
        return self

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        self._started.set()
        await self.supervisor.run(self._stop)

    def stop(self, timeout: float = 10.0) -> None:
        if self._loop is not None and self._stop is not None and not self._loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop already ended
                self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(timeout)


def start_reference_agent_in_thread(
    url: str, *, poll_seconds: float = DEFAULT_POLL_SECONDS, usernames: Sequence[str] | None = None
) -> ReferenceAgentThread:
    """Serve every active user's conversations (or ``usernames``') from a background thread, with the
    built-in Agent the settings select: the LLM Agent when a model server is configured."""
    agent = builtin_agent()
    supervisor = ReferenceAgentSupervisor(
        url,
        usernames=usernames,
        poll_seconds=poll_seconds,
        agent_name=agent.name,
        client_options={"agent_factory": agent.factory},
    )
    return ReferenceAgentThread(supervisor).start()
