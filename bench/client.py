"""An asyncio ``lineup.agent.v1`` client for benchmarks: pipelined requests and pushed results.

The server answers the frames of one connection in order, so ``request`` queues a future per
frame sent and the reader resolves the oldest one with each answer; several conversations can
share one connection without a lock around the whole round trip. ``tool.result`` pushes are
timestamped on arrival (wall clock, to compare with the server's ``ends_at``), acked at once and
deduplicated by ``outbox_id`` (redeliveries are counted, not errors: delivery is at least once).
Anything unexpected — an ``error`` frame, a push nobody waits for — is kept in ``unexpected``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections import deque
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

PROTOCOL = "lineup.agent.v1"
ANSWER_TIMEOUT = 30.0
_call_ids = itertools.count(1)


def new_call_id(prefix: str) -> str:
    return f"{prefix}-{next(_call_ids)}-{time.monotonic_ns() % 10**9}"


def parse_time(text: str) -> float:
    """A Runtime timestamp (ISO 8601 with Z) as a POSIX time."""
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


@dataclass
class Delivered:
    frame: dict[str, Any]
    received_at: float  # time.time() when the frame arrived


class AgentConnection:
    """One Agent's connection to ``/ws/agent/``."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url
        self.token = token
        self.ws: ClientConnection | None = None
        self.answers: deque[asyncio.Future] = deque()
        self.results: dict[str, asyncio.Future] = {}  # source_tool_call_id -> Future[Delivered]
        self.outbox_seen: set[str] = set()
        self.redeliveries = 0
        self.unexpected: list[dict[str, Any]] = []
        self.closed_error: str | None = None
        self._send_lock = asyncio.Lock()
        self._reader: asyncio.Task | None = None
        self.welcome: dict[str, Any] = {}

    async def open(self) -> AgentConnection:
        self.ws = await connect(self.url, compression=None, ping_interval=None, open_timeout=15, max_size=2**20)
        self._reader = asyncio.create_task(self._read())
        self.welcome, _ = await self.request({"type": "hello", "token": self.token, "protocol": PROTOCOL})
        if self.welcome.get("type") != "welcome":
            raise ConnectionError(f"hello refused: {self.welcome}")
        return self

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await asyncio.wait([self._reader], timeout=5)

    async def request(self, frame: dict[str, Any], timeout: float = ANSWER_TIMEOUT) -> tuple[dict[str, Any], float]:
        """Send ``frame``; return its answer and the round trip in seconds."""
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        async with self._send_lock:  # the queue order must be the send order
            self.answers.append(future)
            started = time.perf_counter()
            await self.ws.send(json.dumps(frame))
        answer = await asyncio.wait_for(future, timeout)
        return answer, time.perf_counter() - started

    async def inventory_revision(self, conversation_id: str) -> str:
        answer, _ = await self.request({"type": "inventory.get", "conversation_id": conversation_id})
        if answer.get("type") != "inventory":
            raise ConnectionError(f"inventory.get refused: {answer}")
        return answer["revision"]

    async def tool_call(
        self, conversation_id: str, call_id: str, tool: str, arguments: dict[str, Any], revision: str
    ) -> tuple[dict[str, Any], float]:
        return await self.request(tool_call_frame(conversation_id, call_id, tool, arguments, revision))

    def result_for(self, call_id: str) -> asyncio.Future:
        """The future ``tool.result`` of the call ``call_id`` (it may already have arrived)."""
        if call_id not in self.results:
            self.results[call_id] = asyncio.get_running_loop().create_future()
        return self.results[call_id]

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                received_at = time.time()
                frame = json.loads(raw)
                if frame.get("type") == "tool.result":
                    await self._on_result(frame, received_at)
                elif frame.get("type") in ("user.message", "interaction.resolved"):
                    self.unexpected.append(frame)
                elif self.answers:
                    future = self.answers.popleft()
                    if not future.done():  # a request that timed out still had its place in the queue
                        future.set_result(frame)
                else:
                    self.unexpected.append(frame)  # e.g. an error answering an ack
        except ConnectionClosed as closed:
            self.closed_error = f"connection closed: {closed}"
        finally:
            while self.answers:
                future = self.answers.popleft()
                if not future.done():
                    future.set_exception(ConnectionError(self.closed_error or "connection closed"))

    async def _on_result(self, frame: dict[str, Any], received_at: float) -> None:
        outbox_id = frame["outbox_id"]
        async with self._send_lock:  # acks have no answer: nothing is queued for them
            await self.ws.send(json.dumps({"type": "outbox.ack", "outbox_id": outbox_id}))
        if outbox_id in self.outbox_seen:
            self.redeliveries += 1
            return
        self.outbox_seen.add(outbox_id)
        future = self.result_for(frame["source_tool_call_id"])
        if future.done():  # a second outbox entry for one call would be a Runtime bug
            self.unexpected.append(frame)
        else:
            future.set_result(Delivered(frame=frame, received_at=received_at))


def tool_call_frame(
    conversation_id: str, call_id: str, tool: str, arguments: dict[str, Any], revision: str
) -> dict[str, Any]:
    return {
        "type": "tool.call",
        "conversation_id": conversation_id,
        "source_tool_call_id": call_id,
        "tool": tool,
        "arguments": arguments,
        "inventory_revision": revision,
    }
