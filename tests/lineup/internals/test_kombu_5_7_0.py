"""lineup.internals.kombu, checked against kombu 5.7.0: a channel of a closed broker connection
fails as a connection error, which Celery survives, where kombu's own fails as an ``AttributeError``,
which ends the worker (decision 0052; the Redis restart itself is
tests/reliability/test_worker_and_redis.py's); a channel keeps one client for its commands. A kombu upgrade fails here first; re-check the
override against the new ``Channel._connparams``, then rename this file and update ``CHECKED_AGAINST``."""

from __future__ import annotations

import inspect
import os
import uuid
from types import SimpleNamespace

import kombu
import pytest
import redis
from kombu.transport import redis as kombu_redis

from lineup import celery as lineup_celery
from lineup.internals import kombu as kombu_internals
from tests.support.pins import assert_checked_against


def test_the_pinned_and_installed_kombu_is_the_one_checked() -> None:
    assert_checked_against(kombu_internals.CHECKED_AGAINST, __file__)


def _closed_channel(cls: type) -> object:
    channel = cls.__new__(cls)  # a channel as a closed connection leaves it: its client dropped
    channel.connection = SimpleNamespace(client=None, default_port=6379)
    return channel


def test_a_closed_connections_channel_fails_as_a_connection_error() -> None:
    assert lineup_celery.RedisTransport is kombu_internals.RedisTransport  # what the setting names
    assert kombu_internals.RedisTransport.Channel.__mro__[1] is kombu_redis.Channel
    assert list(inspect.signature(kombu_redis.Channel._connparams).parameters) == ["self", "asynchronous"]
    with pytest.raises(AttributeError):  # kombu's own: what the override is for
        kombu_redis.Channel._connparams(_closed_channel(kombu_redis.Channel))
    with pytest.raises(redis.exceptions.ConnectionError):
        kombu_internals.RedisTransport.Channel._connparams(_closed_channel(kombu_internals.RedisTransport.Channel))


@pytest.fixture
def broker():
    """A connection with LineUp's transport to the test Redis (the suite's broker)."""
    url = os.environ.get("REDIS_URL", "")
    if not url.startswith("redis://"):
        pytest.fail("this test needs Redis: set REDIS_URL (scripts/test does)", pytrace=False)
    connection = kombu.Connection(url, transport=kombu_internals.RedisTransport)
    yield connection
    connection.close()


def _count_clients(channel) -> list[object]:
    """The clients ``channel`` builds from now on (kombu builds each with ``channel.Client``)."""
    built: list[object] = []
    build = channel.Client

    def counted(**kwargs):
        built.append(build(**kwargs))
        return built[-1]

    channel.Client = counted
    return built


def test_one_client_serves_every_command_of_a_channel(broker) -> None:
    """kombu's own channel builds a client per command (two per eta publish); LineUp's keeps one
    on the channel's pool, builds another when the pool is replaced, and a closed connection's
    channel still fails as a connection error."""
    channel = broker.channel()
    assert kombu_redis.Channel._create_client(channel) is not kombu_redis.Channel._create_client(channel)  # kombu's
    built = _count_clients(channel)
    queue = broker.SimpleQueue(f"lineup-kombu-test-{uuid.uuid4()}", channel=channel)
    try:
        for n in range(3):
            queue.put({"n": n})
        assert [queue.get(timeout=5).payload["n"] for _ in range(3)] == [0, 1, 2]
    finally:
        queue.clear()
        queue.close()
    assert len(built) == 1

    channel._disconnect_pools()  # what a fork or a close does: the pool is replaced
    with channel.conn_or_acquire() as client:
        assert client.ping() and client.connection_pool is channel.pool
    assert len(built) == 2 and client is built[1]

    channel.connection.client = None  # a closed connection (kombu's Connection._do_close_transport)
    channel._disconnect_pools()  # and its channel's close
    with pytest.raises(redis.exceptions.ConnectionError), channel.conn_or_acquire():
        pass
