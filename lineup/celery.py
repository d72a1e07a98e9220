"""The Celery app: eta tasks and the beat sweep that settle deadlines (see runtime.tasks).

Also the broker transport (``CELERY_BROKER_TRANSPORT``): kombu's Redis transport, made to survive a
Redis restart under a worker that holds unacked tasks (see ``RedisTransport``).
"""

import os

import redis
from celery import Celery, signals
from kombu.transport import redis as kombu_redis

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lineup.settings")


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


class RedisTransport(kombu_redis.Transport):
    """kombu's Redis transport with ``_Channel``; ``redis://`` URLs as usual."""

    Channel = _Channel


app = Celery("lineup")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.setup_logging.connect
def _keep_lineup_logging(**_: object) -> None:
    # The settings' LOGGING (LINEUP_LOG_LEVEL, JSON lines) stays as it is: without this receiver
    # Celery sets the root level from its own -l option (WARNING by default), which silenced every
    # decision line of the worker (operation.completed and its lag) unless -l INFO was given.
    return None


@signals.task_prerun.connect
@signals.task_postrun.connect
def _keep_database_connection(**_: object) -> None:
    # Django's own per-request rule (LINEUP_DB_CONN_MAX_AGE, a connection left broken by an error,
    # the health check at the next query), instead of Celery's Django fixup closing the connection
    # around every task (it does unless CELERY_DB_REUSE_MAX is set, see lineup/settings.py): a new
    # connection per eta task cost a PostgreSQL backend start, SET TIME ZONE and runtime_settle_single's
    # PL/pgSQL compile and plans every time, ~40 ms of a settlement's lag (decision 0039).
    from django.db import close_old_connections

    close_old_connections()


@signals.worker_process_init.connect
def _configure_tracing(**_: object) -> None:
    # In each child, after the fork: the span exporter's thread would not survive it.
    from runtime.tracing import configure

    configure()
