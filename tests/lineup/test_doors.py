"""The WebSocket door (lineup.doors.websocket) in front of an application that is slow on purpose.

The application here stands for a consumer whose every frame waits on the database: it handles
nothing until the test lets it. What the client sends meanwhile must not pile up in the server
(bounded queue, rate limit, abuse closes the connection), and what is still waiting when the client
leaves is dropped, never handled.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from typing import Any

import pytest
from prometheus_client import REGISTRY

from lineup.doors.limits import SocketLimits
from lineup.doors.websocket import CLOSE_TOO_MANY, CLOSE_UNAUTHENTICATED, DOOR, BoundedSocket, echo_of

LIMITS = SocketLimits(
    max_frame_bytes=1000, rate_per_second=10, burst=20, queue_frames=5, queue_bytes=4000, hello_max_bytes=100
)


def refusals_counted() -> float:
    return REGISTRY.get_sample_value("lineup_rate_limit_refusals_total", {"door": "workspace_socket"}) or 0.0


class SlowApp:
    """Accepts, then handles one frame each time ``go`` is set; records what it handled."""

    def __init__(self, *, trust: bool = True) -> None:
        self.handled: list[str] = []
        self.go = asyncio.Event()
        self.ended = asyncio.Event()
        self.trust = trust

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        scope[DOOR].authenticated = self.trust
        try:
            while True:
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    return
                await self.go.wait()
                self.handled.append(message["text"])
                await send({"type": "websocket.send", "text": json.dumps({"type": "ok"})})
        finally:
            self.ended.set()


class Client:
    def __init__(self, app: SlowApp, limits: SocketLimits = LIMITS) -> None:
        self.incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()  # client -> server (Daphne's queue)
        self.outgoing: list[dict[str, Any]] = []
        door = BoundedSocket(app, lambda: limits, echo_of(("request_id",)), log_event="test.frame_rejected")
        self.task = asyncio.ensure_future(
            door({"type": "websocket", "path": "/ws/test/"}, self.incoming.get, self._sent)
        )

    async def _sent(self, message: dict[str, Any]) -> None:
        self.outgoing.append(message)

    def send(self, text: str) -> None:
        self.incoming.put_nowait({"type": "websocket.receive", "text": text})

    def frames(self) -> list[dict[str, Any]]:
        return [json.loads(m["text"]) for m in self.outgoing if m["type"] == "websocket.send"]

    def close_code(self) -> int | None:
        closes = [m for m in self.outgoing if m["type"] == "websocket.close"]
        assert len(closes) <= 1
        return closes[0]["code"] if closes else None


async def settle(condition: Any, timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "condition not met in time"
        await asyncio.sleep(0.005)


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


@pytest.mark.spec("R-2.2.3")
def test_frames_a_slow_consumer_has_not_taken_are_bounded_and_refused_with_rate_limited():
    """While the consumer is busy, at most ``queue_frames`` wait; the others are answered
    ``rate_limited`` (with the request id they carried) at once, not kept."""

    async def scenario() -> None:
        app = SlowApp()
        client = Client(app)
        counted_before = refusals_counted()
        client.incoming.put_nowait({"type": "websocket.connect"})
        for n in range(12):
            client.send(json.dumps({"type": "x", "request_id": f"r{n}"}))
        # Five wait (the consumer may already hold one of them); the others are refused at once.
        await settle(lambda: len(client.frames()) >= 6)
        refused = client.frames()
        assert all(f["code"] == "rate_limited" for f in refused)
        assert refusals_counted() == counted_before + len(refused)  # what operators see on /metrics
        assert [f["request_id"] for f in refused] == [f"r{n}" for n in range(12 - len(refused), 12)]
        app.go.set()
        await settle(lambda: len(app.handled) == 12 - len(refused))
        assert client.close_code() is None
        client.incoming.put_nowait({"type": "websocket.disconnect", "code": 1000})
        await client.task

    run(scenario())


@pytest.mark.spec("R-2.2.3")
def test_frames_still_waiting_when_the_client_leaves_are_dropped_not_handled():
    """No orphan work: the consumer is told of the disconnect next, whatever was queued."""

    async def scenario() -> None:
        app = SlowApp()
        client = Client(app)
        client.incoming.put_nowait({"type": "websocket.connect"})
        for n in range(5):
            client.send(json.dumps({"type": "x", "n": n}))
        client.incoming.put_nowait({"type": "websocket.disconnect", "code": 1001})
        await settle(lambda: client.incoming.empty())
        app.go.set()
        await asyncio.wait_for(app.ended.wait(), 5)
        assert len(app.handled) <= 1  # at most the frame it had already taken
        await client.task

    run(scenario())


@pytest.mark.spec("R-2.2.3")
def test_a_client_that_keeps_sending_past_the_rate_is_closed_4429():
    """Over the token bucket's burst a frame is refused; over as many refusals again, the connection ends."""

    async def scenario() -> None:
        app = SlowApp()
        app.go.set()
        client = Client(app, dataclasses.replace(LIMITS, queue_frames=1000, queue_bytes=10**6))
        client.incoming.put_nowait({"type": "websocket.connect"})
        for _ in range(200):
            client.send('{"type":"x"}')
        await asyncio.wait_for(app.ended.wait(), 5)
        assert client.close_code() == CLOSE_TOO_MANY
        closing = next(m for m in client.outgoing if m["type"] == "websocket.close")
        assert closing["reason"] == "rate limit exceeded"
        assert len(app.handled) <= 25  # the burst (and what refilled meanwhile), not the flood
        assert any(f.get("code") == "rate_limited" for f in client.frames())
        client.incoming.put_nowait({"type": "websocket.disconnect", "code": CLOSE_TOO_MANY})
        await client.task

    run(scenario())


@pytest.mark.spec("R-2.2.3")
def test_before_it_is_trusted_a_connection_sends_only_a_small_frame():
    """A first frame over ``hello_max_bytes`` is refused and the connection closed 4401; after
    trust, frames up to ``max_frame_bytes`` pass and larger ones get ``frame_too_large``."""

    async def scenario() -> None:
        stranger_app = SlowApp(trust=False)
        stranger_app.go.set()
        stranger = Client(stranger_app)
        stranger.incoming.put_nowait({"type": "websocket.connect"})
        stranger.send("x" * 101)
        await asyncio.wait_for(stranger_app.ended.wait(), 5)
        assert stranger.close_code() == CLOSE_UNAUTHENTICATED
        assert [f["code"] for f in stranger.frames()] == ["frame_too_large"]
        assert stranger_app.handled == []
        stranger.incoming.put_nowait({"type": "websocket.disconnect", "code": CLOSE_UNAUTHENTICATED})
        await stranger.task

        app = SlowApp()
        app.go.set()
        client = Client(app)
        client.incoming.put_nowait({"type": "websocket.connect"})
        await settle(lambda: client.outgoing)  # accepted, and so trusted
        client.send("y" * 1000)
        client.send("z" * 1001)
        await settle(lambda: len(client.frames()) == 2)
        assert app.handled == ["y" * 1000]
        assert sorted(str(f.get("code")) for f in client.frames()) == ["None", "frame_too_large"]
        client.incoming.put_nowait({"type": "websocket.disconnect", "code": 1000})
        await client.task

    run(scenario())


@pytest.mark.spec("R-2.2.3")
def test_every_close_carries_a_code_and_a_reason():
    """A consumer's bare ``close()`` and its crash both reach the client with a code and a reason."""

    class Closer:
        def __init__(self, crash: bool) -> None:
            self.crash = crash

        async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
            await receive()
            await send({"type": "websocket.accept"})
            if self.crash:
                raise RuntimeError("a bug")
            await send({"type": "websocket.close"})

    async def scenario(crash: bool) -> dict[str, Any]:
        sent: list[dict[str, Any]] = []
        incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        incoming.put_nowait({"type": "websocket.connect"})

        async def record(message: dict[str, Any]) -> None:
            sent.append(message)

        door = BoundedSocket(Closer(crash), lambda: LIMITS, echo_of(()), log_event="test.frame_rejected")
        try:
            await door({"type": "websocket", "path": "/ws/test/"}, incoming.get, record)
        except RuntimeError:
            assert crash
        return sent[-1]

    assert run(scenario(False)) == {"type": "websocket.close", "code": 1000, "reason": "closed"}
    assert run(scenario(True)) == {"type": "websocket.close", "code": 1011, "reason": "server error"}
