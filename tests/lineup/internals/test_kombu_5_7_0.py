"""lineup.internals.kombu, checked against kombu 5.7.0: a channel of a closed broker connection
fails as a connection error, which Celery survives, where kombu's own fails as an ``AttributeError``,
which ends the worker (decision 0052; the Redis restart itself is
tests/reliability/test_worker_and_redis.py's). A kombu upgrade fails here first; re-check the
override against the new ``Channel._connparams``, then rename this file and update ``CHECKED_AGAINST``."""

from __future__ import annotations

import inspect
from types import SimpleNamespace

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
