"""Bounded WebSockets: an ASGI middleware between the server and a consumer.

Daphne puts every frame a client sends into an unbounded queue, and a consumer handles one frame at
a time: a client sending faster than its frames are handled made the server's memory grow without
limit, and the frames left in the queue were still handled after the client had gone. Here a reader
task takes each frame off the server's queue as it arrives and decides at once, in this order:

* after the connection was closed: dropped;
* before the connection is trusted (``Door.authenticated``, set by the Agent socket on ``welcome``),
  a frame over ``hello_max_bytes``: ``error frame_too_large`` and close 4401;
* over the rate (token bucket, ``rate_per_second`` and ``burst``): ``error rate_limited``, dropped;
* over ``max_frame_bytes``: ``error frame_too_large``, dropped, never parsed;
* with ``queue_frames`` frames or ``queue_bytes`` waiting: ``error rate_limited``, dropped;
* else queued for the consumer.

Refusals draw on a second bucket of the same size: a client that keeps sending after being told is
closed with 4429. On disconnect the frames still waiting are dropped, so no work outlives its client.
Every close the server sends carries a code and a reason (``CLOSE_REASONS``). ``Door.claim`` caps the
connections per key (an Agent token, a user) in this process.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from typing import Any

import structlog

from lineup.doors.limits import SocketLimits
from runtime import metrics
from runtime.wire import encode, request_ids

logger = structlog.get_logger("lineup.doors")

DOOR = "lineup.door"  # the scope key of a connection's Door

CLOSE_NORMAL = 1000
CLOSE_SERVER_ERROR = 1011
CLOSE_UNAUTHENTICATED = 4401
CLOSE_TOO_MANY = 4429
CLOSE_REASONS = {
    CLOSE_NORMAL: "closed",
    CLOSE_SERVER_ERROR: "server error",
    CLOSE_UNAUTHENTICATED: "not authenticated",
    CLOSE_TOO_MANY: "too many requests",
}

Message = dict[str, Any]
Echo = Callable[[str | bytes | None], dict[str, str]]

_claims: Counter[tuple[str, str]] = Counter()  # connections held per (kind, key) in this process


def echo_of(fields: tuple[str, ...]) -> Echo:
    """The request ids a refused frame carried, best effort, so a client can match the refusal."""

    def echo(data: str | bytes | None) -> dict[str, str]:
        if not isinstance(data, str):
            return {}
        try:
            return request_ids(json.loads(data), fields)
        except (ValueError, RecursionError):
            return {}

    return echo


def frame_bytes(message: Message) -> int:
    text = message.get("text")
    if text is not None:
        return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))
    return len(message.get("bytes") or b"")


class Door:
    """What a consumer tells its connection's limits: trusted yet, and the connections it holds."""

    def __init__(self) -> None:
        self.authenticated = False
        self.context: dict[str, Any] = {}  # the consumer's log ids (connection_id, agent_id), for the door's lines
        self._held: list[tuple[str, str]] = []

    def claim(self, kind: str, key: str, cap: int) -> bool:
        """Count this connection against ``cap`` connections of ``key``; False (nothing counted) if full."""
        if _claims[(kind, key)] >= cap:
            return False
        _claims[(kind, key)] += 1
        self._held.append((kind, key))
        return True

    def release(self) -> None:
        for held in self._held:
            _claims[held] -= 1
            if _claims[held] <= 0:
                del _claims[held]
        self._held.clear()


class _Bucket:
    def __init__(self, rate: float, size: int, now: float) -> None:
        self.rate, self.size, self.tokens, self.stamp = rate, size, float(size), now

    def take(self, now: float) -> bool:
        self.tokens = min(self.size, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class _Connection:
    def __init__(
        self, limits: SocketLimits, echo: Echo, receive: Callable, send: Callable, path: str, log_event: str
    ) -> None:
        self.limits, self.echo, self.upstream, self.downstream, self.path = limits, echo, receive, send, path
        self.log_event = log_event
        self.door = Door()
        self.inbox: deque[Message] = deque()
        self.queued_frames = 0
        self.queued_bytes = 0
        self.ready = asyncio.Event()
        now = asyncio.get_running_loop().time()
        self.frames = _Bucket(limits.rate_per_second, limits.burst, now)
        self.refusals = _Bucket(limits.rate_per_second, limits.burst, now)
        self.closed = False
        self.refused = 0

    # --- the consumer's side --------------------------------------------------------------

    async def receive(self) -> Message:
        while not self.inbox:
            self.ready.clear()
            await self.ready.wait()
        message = self.inbox.popleft()
        if message["type"] == "websocket.receive":
            self.queued_frames -= 1
            self.queued_bytes -= message.pop("lineup.size", 0)
        return message

    async def send(self, message: Message) -> None:
        if message["type"] == "websocket.close":
            if self.closed:
                return
            self.closed = True
            code = message.get("code") or CLOSE_NORMAL
            message = {**message, "code": code, "reason": message.get("reason") or CLOSE_REASONS.get(code, "closed")}
        elif self.closed and message["type"] == "websocket.send":
            return  # the client is gone or being closed: nothing more to say
        await self.downstream(message)

    # --- the server's side ----------------------------------------------------------------

    async def pump(self) -> None:
        try:
            await self._pump()
        except Exception:  # the consumer must not wait forever on a reader that died
            logger.exception("door.reader_failed", path=self.path)
            self._drop_waiting("reader failed")
            self._deliver({"type": "websocket.disconnect", "code": CLOSE_SERVER_ERROR})

    async def _pump(self) -> None:
        while True:
            message = await self.upstream()
            kind = message["type"]
            if kind == "websocket.receive":
                await self._admit(message)
                continue
            if kind == "websocket.disconnect":
                self._drop_waiting("disconnect")
                self._deliver(message)
                return
            self._deliver(message)

    async def _admit(self, message: Message) -> None:
        if self.closed:
            return
        size = frame_bytes(message)
        limits = self.limits
        if not self.door.authenticated and limits.hello_max_bytes is not None and size > limits.hello_max_bytes:
            await self._error(
                "frame_too_large", f"the first frame is a hello of at most {limits.hello_max_bytes} bytes"
            )
            await self.close(CLOSE_UNAUTHENTICATED, "a hello first, and a small one")
            return
        now = asyncio.get_running_loop().time()
        if not self.frames.take(now):
            await self._refuse(message, now, f"over {limits.rate_per_second:g} frames per second; slow down")
            return
        if size > limits.max_frame_bytes:
            if message.get("text") is None:  # both protocols are JSON text: what the consumers answer too
                await self._error("malformed_frame", "a frame is one JSON text, not binary")
            else:
                await self._error("frame_too_large", f"a frame may be at most {limits.max_frame_bytes} bytes")
            return
        if self.queued_frames >= limits.queue_frames or self.queued_bytes + size > limits.queue_bytes:
            await self._refuse(message, now, "too many frames waiting to be handled; wait for the answers")
            return
        message["lineup.size"] = size
        self.queued_frames += 1
        self.queued_bytes += size
        self._deliver(message)

    async def _refuse(self, message: Message, now: float, detail: str) -> None:
        self.refused += 1
        metrics.count_rate_limit_refusal("agent_socket" if self.path.startswith("/ws/agent") else "workspace_socket")
        if not self.refusals.take(now):
            logger.info("door.closed_for_abuse", path=self.path, refused=self.refused, **self.door.context)
            await self.close(CLOSE_TOO_MANY, "rate limit exceeded")
            return
        await self._error("rate_limited", detail, **self.echo(message.get("text")))

    async def _error(self, code: str, detail: str, **echoed: str) -> None:
        # The consumer's own refusal line, so a refusal reads the same whoever made it.
        logger.info(self.log_event, code=code, detail=detail, door=True, **self.door.context, **echoed)
        try:
            await self._send_error(code, detail, echoed)
        except Exception:  # the client is gone mid-refusal: its disconnect follows
            self.closed = True

    async def _send_error(self, code: str, detail: str, echoed: dict[str, str]) -> None:
        await self.send(
            {"type": "websocket.send", "text": encode({"type": "error", "code": code, "detail": detail, **echoed})}
        )

    async def close(self, code: int, reason: str) -> None:
        """Close from the door: the client is told, the consumer gets its disconnect, waiting frames go."""
        await self.send({"type": "websocket.close", "code": code, "reason": reason})
        self._drop_waiting(reason)
        self._deliver({"type": "websocket.disconnect", "code": code})

    def _deliver(self, message: Message) -> None:
        self.inbox.append(message)
        self.ready.set()

    def _drop_waiting(self, why: str) -> None:
        kept = deque(m for m in self.inbox if m["type"] != "websocket.receive")
        dropped = len(self.inbox) - len(kept)
        self.inbox, self.queued_frames, self.queued_bytes = kept, 0, 0
        if dropped:
            logger.info("door.frames_dropped", path=self.path, dropped=dropped, why=why)


class BoundedSocket:
    """ASGI middleware: ``app``'s WebSocket connections under ``limits()`` (read per connection)."""

    def __init__(
        self, app: Callable[..., Awaitable[None]], limits: Callable[[], SocketLimits], echo: Echo, *, log_event: str
    ) -> None:
        self.app, self.limits, self.echo, self.log_event = app, limits, echo, log_event

    async def __call__(self, scope: dict[str, Any], receive: Callable, send: Callable) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        connection = _Connection(self.limits(), self.echo, receive, send, scope.get("path", ""), self.log_event)
        pump = asyncio.ensure_future(connection.pump())
        try:
            await self.app({**scope, DOOR: connection.door}, connection.receive, connection.send)
        except Exception:
            if not connection.closed:  # a crash still tells the client why, not a bare 1006
                await connection.send({"type": "websocket.close", "code": CLOSE_SERVER_ERROR})
            raise
        finally:
            pump.cancel()
            connection.door.release()
