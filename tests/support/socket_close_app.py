"""An ASGI app for tests/lineup/test_socket_close.py: ``lineup.asgi`` (so Daphne runs with LineUp's
hooks, lineup.internals.daphne), plus two sockets behind the same door (lineup.doors.websocket):
``/ws/test/crash/`` accepts, then its consumer crashes; ``/ws/test/close/<code>/`` accepts, then
closes with ``code`` and the reason ``closing <code>``."""

from __future__ import annotations

from typing import Any

from lineup.asgi import application as lineup_application
from lineup.doors import limits
from lineup.doors.websocket import BoundedSocket, echo_of


async def crash(scope: dict[str, Any], receive: Any, send: Any) -> None:
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    raise RuntimeError("a consumer's bug")


async def close(scope: dict[str, Any], receive: Any, send: Any) -> None:
    await receive()
    await send({"type": "websocket.accept"})
    code = int(scope["path"].rstrip("/").rsplit("/", 1)[1])
    await send({"type": "websocket.close", "code": code, "reason": f"closing {code}"})


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    path = scope.get("path", "")
    if scope["type"] == "websocket" and path.startswith("/ws/test/"):
        consumer = crash if path == "/ws/test/crash/" else close
        door = BoundedSocket(consumer, limits.agent_socket, echo_of(()), log_event="test.frame_rejected")
        await door(scope, receive, send)
        return
    await lineup_application(scope, receive, send)
