"""The Channels internals LineUp relies on, each behind one short definition.

Checked against Channels 4.3.2 (``CHECKED_AGAINST``; tests/runtime/internals/test_channels_4_3_2.py
fails on any other version and exercises each one). ``AsyncConsumer.dispatch`` is not a documented
hook: overriding it here depends on how Channels routes a message to its handler
(``get_handler_name``) and on what its own ``dispatch`` adds around that call. ``ChannelOnDemand``
depends on ``AsyncConsumer.__call__`` setting ``self.channel_receive`` and passing it to
``await_many_dispatch``; ``NoConnectionHopAtDisconnect`` on what ``websocket_disconnect`` does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer

CHECKED_AGAINST = {"channels": "4.3.2"}
RECEIVE_RETRY_PAUSES = (0.1, 0.2, 0.4, 0.8, 1.6)  # seconds between a channel receive's attempts

try:  # channels_redis' connection errors (the in-memory layer, without Redis, raises none)
    from redis.exceptions import ConnectionError as _RedisConnectionError

    LAYER_CONNECTION_ERRORS: tuple[type[BaseException], ...] = (_RedisConnectionError,)
except ImportError:  # pragma: no cover - redis is in requirements.txt
    LAYER_CONNECTION_ERRORS = ()


class NoConnectionHopPerMessage:
    """For an async consumer whose database work all goes through ``run_db``: dispatch each
    message without Channels' ``aclose_old_connections()`` hop first.

    Channels (4.2+) sends every message a consumer handles through a hop to its single sync
    thread to close that thread's old connections: a thread switch there and back per frame and
    per channel-layer hint (~2.5 per decision on an Agent socket, the start's projection
    included), for a connection this consumer never uses. ``run_db`` closes old connections of
    the thread it runs on before and after each call (and ``database_sync_to_async`` does on
    SQLite), which is where this consumer's connections are. Disconnect keeps Channels' hop (once
    per connection)."""

    async def dispatch(self, message: dict) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class ChannelOnDemand:
    """For a consumer that joins its groups only once trusted: its channel-layer receive waits
    until ``listen()`` instead of starting with the connection.

    Channels starts every consumer's ``channel_layer.receive`` at once. With channels_redis, one
    of a process's waiting receives holds a blocking ``BZPOPMIN`` on a Redis connection; when that
    consumer ends, the command is cancelled and redis-py drops the connection, so the next waiter
    reconnects (TCP, ``HELLO``, ``SELECT``) on the server's loop. A stranger's connection, refused
    before it joins a group, ended that way about once per connection. Here the receive waits on
    an event until ``listen()`` (call it before the first ``group_add``: nothing can be sent to
    the channel before that); a connection that never listens costs Redis nothing."""

    def listen(self) -> None:
        self._listening().set()

    def _listening(self) -> asyncio.Event:
        event = self.__dict__.get("_channel_wanted")
        if event is None:
            event = self.__dict__["_channel_wanted"] = asyncio.Event()
        return event

    @property
    def channel_receive(self) -> Callable[[], Awaitable[Any]]:
        return self._receive_when_listening

    @channel_receive.setter
    def channel_receive(self, receive: Callable[[], Awaitable[Any]]) -> None:
        self.__dict__["_layer_receive"] = receive  # AsyncConsumer.__call__ sets it, then dispatches on it

    async def _receive_when_listening(self) -> Any:
        await self._listening().wait()
        receive = self.__dict__["_layer_receive"]
        # After a Redis restart the first receive may meet a pooled connection the server closed
        # (redis-py raises "Connection closed by server" once its own retries met Redis still
        # starting). One Redis blip must not end every Agent connection: retry a few times over
        # ~3 s, then fail as before.
        for pause in RECEIVE_RETRY_PAUSES:
            try:
                return await receive()
            except LAYER_CONNECTION_ERRORS:
                await asyncio.sleep(pause)
        return await receive()


class NoConnectionHopAtDisconnect:
    """For a WebSocket consumer whose database work all goes through ``run_db``: Channels'
    ``websocket_disconnect`` (leave ``groups``, ``disconnect``, raise ``StopConsumer``) without its
    ``aclose_old_connections()`` hop to the single sync thread, as ``NoConnectionHopPerMessage``
    does for each message. Once per connection, but every stranger's connection is one: under a
    flood of them the hops queue on that thread behind whatever else runs there."""

    groups: list[str]

    async def websocket_disconnect(self, message: dict) -> None:
        for group in self.groups:
            await self.channel_layer.group_discard(group, self.channel_name)  # type: ignore[attr-defined]
        await self.disconnect(message["code"])  # type: ignore[attr-defined]
        raise StopConsumer()
