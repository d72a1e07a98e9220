"""Bench-only ASGI application: LineUp's own application plus an echo WebSocket.

``python -m daphne bench.asgi:application`` serves exactly what ``lineup.asgi`` serves (HTTP,
``/ws/agent/``, ``/ws/workspace/``) and ``/ws/bench-echo/``, a bare Channels consumer that sends
every frame back. It is the floor of a WebSocket round trip through the same Daphne process,
the same ASGI stack and the same channel layer set-up as ``/ws/agent/``. It exists only here:
production runs ``lineup.asgi``, which has no such route.
"""

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import ProtocolTypeRouter, URLRouter
from django.urls import path

from lineup.asgi import http_app, websocket_app, with_server_loop


class EchoConsumer(AsyncWebsocketConsumer):
    """Accept, then answer every frame with itself: no parsing, no database."""

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data=text_data, bytes_data=bytes_data)


application = with_server_loop(
    ProtocolTypeRouter(
        {
            "http": http_app,
            "websocket": URLRouter([path("ws/bench-echo/", EchoConsumer.as_asgi()), *websocket_app.routes]),
        }
    )
)
