"""The kombu internals LineUp relies on: its Redis channel's connection parameters and clients.

Checked against kombu 5.7.0 (``CHECKED_AGAINST``; tests/lineup/internals/test_kombu_5_7_0.py fails on
any other version and exercises the overrides). ``Channel._connparams``, ``Channel._create_client``
and ``Channel._pool`` are private to kombu's Redis transport; ``lineup.celery`` names
``RedisTransport`` for ``CELERY_BROKER_TRANSPORT``.
"""

from __future__ import annotations

import redis
from kombu.transport import redis as kombu_redis

CHECKED_AGAINST = {"kombu": "5.7.0"}


class _Channel(kombu_redis.Channel):
    """A channel whose use after its connection closed is a connection error, not an ``AttributeError``.

    When Redis goes away under a worker, Celery closes the lost connection and reconnects. Two
    things then still touch a channel of the closed connection: the close itself, which restores
    the channel's unacked messages (every eta task the worker reserved), and the ack of a task that
    was running during the restart and finishes after it. kombu 5.7 builds a Redis client for them
    from the connection's parameters, which the close already dropped: ``AttributeError:
    'NoneType' object has no attribute 'hostname'``, which Celery takes for an unrecoverable error
    and the worker exits. As a connection error instead, Celery handles both as it handles any
    lost connection: the close is ignored, the ack is logged ("Couldn't ack") and the message is
    redelivered after the visibility timeout if Redis kept it (a settlement is idempotent; the beat
    sweep settles what a lost message would have).
    """

    def _connparams(self, asynchronous: bool = False) -> dict:
        if self.connection.client is None:
            raise redis.exceptions.ConnectionError("the broker connection of this channel is closed")
        return super()._connparams(asynchronous=asynchronous)

    def _create_client(self, asynchronous: bool = False) -> redis.Redis:
        """One client per connection pool for the channel's commands, not one per command.

        kombu 5.7 builds a new ``redis.Redis`` for every ``conn_or_acquire()`` (two per eta
        publish: the message and its delayed-delivery entry), and building one costs more CPU than
        the command it sends. The client holds no connection of its own (each command borrows one
        from the pool; redis-py's clients are thread-safe), so one serves every command of the
        channel. It is built again when the pool is replaced (after a fork, a close); a closed
        connection still fails, as ``self.pool`` is read first and ``_connparams`` raises.
        """
        if asynchronous:  # the BRPOP/publish client kombu caches itself (``Channel.client``)
            return super()._create_client(asynchronous=True)
        pool = self.pool
        client = self.__dict__.get("_lineup_client")
        if client is None or client.connection_pool is not pool:
            client = super()._create_client()
            self._lineup_client = client
        return client


class RedisTransport(kombu_redis.Transport):
    """kombu's Redis transport with ``_Channel``; ``redis://`` URLs as usual."""

    Channel = _Channel
