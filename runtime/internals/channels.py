"""The Channels internals LineUp relies on, each behind one short definition.

Checked against Channels 4.3.2 (``CHECKED_AGAINST``; tests/runtime/internals/test_channels_4_3_2.py
fails on any other version and exercises each one). ``AsyncConsumer.dispatch`` is not a documented
hook: overriding it here depends on how Channels routes a message to its handler
(``get_handler_name``) and on what its own ``dispatch`` adds around that call.
"""

from __future__ import annotations

from channels.consumer import get_handler_name

CHECKED_AGAINST = {"channels": "4.3.2"}


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
