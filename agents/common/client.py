"""The reference Agent's WebSocket client: connect, ``hello``, feed frames, reconnect forever.

Any disconnect (server restart, network, a refused connection while Daphne is still starting)
is followed by a new connection after a capped exponential backoff with jitter; the same
Agent logic carries on, so unanswered calls are resent and redelivered results deduped.
Only a refused token ends the client (``Unauthorized``): a revoked token does not come back.

The protocol logic is whatever ``agent_factory`` makes (the reference Agent, agents.reference, or the
LLM Agent, agents.llm): this module owns the connection, not what is said on it.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

import structlog
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

logger = structlog.get_logger("lineup.reference_agent")

# runtime.wire.MAX_FRAME_BYTES is the server's limit for client frames; server frames (an
# Inventory, a batch of results) stay far below websockets' 1 MiB default.
MAX_SERVER_FRAME_BYTES = 1024 * 1024


PROTOCOL = "lineup.agent.v1"

Send = Callable[[dict[str, Any]], Awaitable[None]]


class AgentLogic(Protocol):
    """What the client drives: fed every server frame, told when the connection is gone or stopping."""

    async def handle(self, frame: dict[str, Any]) -> None: ...

    def disconnected(self) -> None: ...

    async def close(self) -> None: ...


# ``factory(send, label=...)``: the Agent the client feeds every frame to.
AgentFactory = Callable[..., AgentLogic]


class Unauthorized(Exception):
    """The server refused the token (unknown or revoked)."""


class AgentClient:
    """One Agent token's connection to ``/ws/agent/``, kept up until ``stop()`` or ``Unauthorized``."""

    def __init__(
        self,
        url: str | Sequence[str],
        token: str,
        *,
        label: str = "reference",
        initial_backoff: float = 0.5,
        max_backoff: float = 30.0,
        open_timeout: float = 10.0,
        agent_factory: AgentFactory,
    ) -> None:
        # Several servers (every Daphne): each reconnect after a lost connection tries the next one,
        # so the Agent is not tied to one process — when the one it uses dies, another serves it.
        self.urls = [url] if isinstance(url, str) else list(url)
        self._current = 0
        self.token = token
        self.label = label
        self.initial_backoff = initial_backoff
        self.max_backoff = max_backoff
        self.open_timeout = open_timeout
        self.agent = agent_factory(self._send, label=label)
        self.connections = 0  # how many times a welcome was received
        self.welcomed = asyncio.Event()
        self._ws: ClientConnection | None = None
        self._stopping = False

    @property
    def url(self) -> str:
        return self.urls[self._current]

    async def _send(self, frame: dict[str, Any]) -> None:
        if self._ws is None:
            raise ConnectionError("not connected")
        await self._ws.send(json.dumps(frame, ensure_ascii=False, separators=(",", ":")))

    def backoff(self, attempt: int) -> float:
        """Seconds to wait before reconnect ``attempt`` (0-based): doubling, capped, 50-100% jitter."""
        ceiling = min(self.max_backoff, self.initial_backoff * (2**attempt))
        return ceiling * random.uniform(0.5, 1.0)

    async def stop(self) -> None:
        self._stopping = True
        if self._ws is not None:
            await self._ws.close()
        await self.agent.close()

    async def run(self) -> None:
        """Connect and serve until ``stop()``; raise ``Unauthorized`` if the token is refused."""
        attempt = 0
        while not self._stopping:
            try:
                await self._serve_one_connection()
                attempt = 0  # a clean close after a welcome: reconnect soon
            except (Unauthorized, InvalidURI):
                logger.error("reference_agent.refused", agent=self.label, url=self.url, exc_info=True)
                raise
            except asyncio.CancelledError:
                raise
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as error:
                logger.warning(
                    "reference_agent.disconnected",
                    agent=self.label,
                    url=self.url,
                    error=f"{type(error).__name__}: {error}",
                )
            except Exception:  # a bug must not stop the Agent for good; log it and reconnect
                logger.exception("reference_agent.failed", agent=self.label, url=self.url)
            finally:
                self._ws = None
                self.welcomed.clear()
                self.agent.disconnected()
            if self._stopping:
                break
            self._current = (self._current + 1) % len(self.urls)
            delay = self.backoff(attempt)
            if self.connections and attempt == 0:
                delay = min(delay, self.initial_backoff)
            attempt += 1
            logger.info("reference_agent.reconnecting", agent=self.label, attempt=attempt, delay=round(delay, 2))
            await asyncio.sleep(delay)

    async def _serve_one_connection(self) -> None:
        async with connect(
            self.url,
            open_timeout=self.open_timeout,
            max_size=MAX_SERVER_FRAME_BYTES,
            proxy=None,  # the server is addressed directly; never through an environment proxy
            compression=None,
        ) as ws:
            self._ws = ws
            await ws.send(json.dumps({"type": "hello", "token": self.token, "protocol": PROTOCOL}))
            first = json.loads(await asyncio.wait_for(ws.recv(), timeout=self.open_timeout))
            if first.get("type") != "welcome":
                if first.get("code") == "unauthorized":
                    raise Unauthorized(first.get("detail", "unauthorized"))
                raise ConnectionError(f"expected welcome, got {first.get('type')}: {first.get('code')}")
            self.connections += 1
            logger.info(
                "reference_agent.connected",
                agent=self.label,
                url=self.url,
                agent_id=first.get("agent_id"),
                conversations=len(first.get("conversations", [])),
                connection=self.connections,
            )
            await self.agent.handle(first)
            self.welcomed.set()
            async for raw in ws:
                try:
                    frame = json.loads(raw)
                except ValueError:
                    logger.warning("reference_agent.bad_frame", agent=self.label)
                    continue
                try:
                    await self.agent.handle(frame)
                except ConnectionClosed:
                    raise
                except Exception:  # one frame it could not handle must not drop the others
                    logger.exception("reference_agent.frame_failed", agent=self.label, frame_type=frame.get("type"))
