"""The Celery app: eta tasks and the beat sweep that settle deadlines (see runtime.tasks).

Also the broker transport (``CELERY_BROKER_TRANSPORT = "lineup.celery:RedisTransport"``): kombu's
Redis transport, made to survive a Redis restart under a worker that holds unacked tasks. It overrides
a private kombu method, so it lives with the other libraries' internals (``lineup.internals.kombu``,
decision 0052) and is named here, where the setting points.
"""

import os

from celery import Celery, signals

from lineup.internals.kombu import RedisTransport

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lineup.settings")

__all__ = ["RedisTransport", "app"]


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
    # connection per eta task cost a PostgreSQL backend start, SET TIME ZONE and the settlement's statement
    # plans every time (measured with the PL/pgSQL settlement then: ~40 ms of a settlement's lag, decision 0039).
    from django.db import close_old_connections

    close_old_connections()


@signals.worker_process_init.connect
def _configure_tracing(**_: object) -> None:
    # In each child, after the fork: the span exporter's thread would not survive it.
    from runtime.tracing import configure

    configure()
