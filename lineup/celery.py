"""The Celery app: eta tasks and the beat sweep that settle deadlines (see runtime.tasks).

Also the worker's consumer (``CELERY_WORKER_CONSUMER``): Celery's own, made to survive a Redis
restart while it holds unacked eta tasks (see ``ResilientConsumer``).
"""

import os

import structlog
from celery import Celery
from celery.worker.consumer import Consumer

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lineup.settings")

logger = structlog.get_logger("lineup.celery")


class ResilientConsumer(Consumer):
    """Celery's consumer, except that closing a broker connection that is already gone cannot end
    the worker.

    When Redis goes away under a worker that holds unacked messages (every eta task it has
    reserved), Celery 5.7 collects the lost connection and then closes it; kombu 5.7's Redis channel
    restores the unacked messages on close through a client the collect already released and
    raises ``AttributeError: 'NoneType' object has no attribute 'hostname'``, which Celery treats as
    an unrecoverable error: the worker exits. Nothing needs that close to succeed — the connection
    is dead, and the unacked messages are either still in Redis (restored by the next connection
    after the visibility timeout) or lost with it (the beat sweep settles what they would have) —
    so it is logged and the consumer reconnects as it does after any other connection loss.
    """

    def on_connection_error_after_connected(self, exc: Exception) -> None:
        try:
            super().on_connection_error_after_connected(exc)
        except AttributeError as error:
            logger.warning("broker.close_failed", error=repr(error), cause=repr(exc))


app = Celery("lineup")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
