"""The Django database-layer internals LineUp relies on, each behind one short function.

Checked against Django 5.2.19 (``CHECKED_AGAINST``; tests/runtime/internals/test_django_5_2_19.py
fails on any other version and exercises each function). None of these attributes is documented;
each is read or changed here only, for the reason its function gives.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model

CHECKED_AGAINST = {"Django": "5.2.19"}

M = TypeVar("M", bound=Model)
ExecuteWrapper = Callable[..., Any]


def skip_health_check(connection: BaseDatabaseWrapper) -> None:
    """Mark the connection checked, so the next statement is sent without ``CONN_HEALTH_CHECKS``'
    ``SELECT 1`` round trip first: the caller's own first statement is the check (decision 0036).

    ``health_check_done`` is what ``ensure_connection`` sets after the check; Django clears it
    again in ``close_if_unusable_or_obsolete`` (each request's or task's start)."""
    connection.health_check_done = True


@contextlib.contextmanager
def first_execute_wrapper(connection: BaseDatabaseWrapper, wrapper: ExecuteWrapper) -> Iterator[None]:
    """``wrapper`` as the outermost execute wrapper of ``connection`` while the block runs.

    Not ``connection.execute_wrapper()``: that one appends and then pops the *last* wrapper, which
    is another one if a wrapper was appended meanwhile (the crash-point harness appends its own
    when a connection opens inside the block). This inserts in front and removes exactly itself."""
    connection.execute_wrappers.insert(0, wrapper)
    try:
        yield
    finally:
        connection.execute_wrappers.remove(wrapper)


def add_execute_wrapper(connection: BaseDatabaseWrapper, wrapper: ExecuteWrapper) -> None:
    """``wrapper`` for the rest of this connection's life (once, however often it is called)."""
    if wrapper not in connection.execute_wrappers:
        connection.execute_wrappers.append(wrapper)


def execute_wrappers(connection: BaseDatabaseWrapper) -> list[ExecuteWrapper]:
    """The wrappers each statement of ``connection`` goes through now, outermost first (a copy)."""
    return list(connection.execute_wrappers)


def in_transaction(connection: BaseDatabaseWrapper) -> bool:
    """Whether an ``atomic`` block is open on ``connection`` (a test's own transaction included)."""
    return connection.in_atomic_block


def savepoint_depth(connection: BaseDatabaseWrapper) -> int:
    """How many ``atomic`` blocks are nested inside the outermost one (its savepoints)."""
    return len(connection.savepoint_ids)


def transaction_token(connection: BaseDatabaseWrapper) -> object:
    """An object that stays the same while the running transaction goes on and is another once it
    ends (commit or rollback) or a savepoint of it rolls back: its on-commit list.

    Django replaces ``run_on_commit`` with a new list at each of those moments (and never merely
    clears it), so holding on to it tells whether what was registered with ``on_commit`` since is
    still going to run (runtime.projections batches a transaction's hints on it)."""
    return connection.run_on_commit


def note(connection: BaseDatabaseWrapper, key: str) -> Any:
    """What LineUp noted on this connection under ``key`` (None if nothing).

    A connection wrapper is per thread (per async context) and lives across transactions: the
    place for what one transaction of this connection gathers (a decision's event buffer)."""
    return getattr(connection, f"_lineup_{key}", None)  # through django.db.connection's proxy too


def set_note(connection: BaseDatabaseWrapper, key: str, value: Any) -> None:
    """Note ``value`` on this connection under ``key`` (None forgets it)."""
    setattr(connection, f"_lineup_{key}", value)


def model_from_row(
    model: type[M], connection: BaseDatabaseWrapper, attnames: Sequence[str], values: Sequence[Any]
) -> M:
    """A model instance built from a row read by hand-written SQL, as a query would have built it.

    ``Model.from_db`` is documented, but for rows a queryset read: here the values must already
    be in their Python types (the driver's, e.g. psycopg's uuid and datetime), no field converter
    runs, and the instance is marked as loaded from ``connection`` (``_state.adding`` False)."""
    return model.from_db(connection.alias, list(attnames), values)


def cache_related(instance: Model, field_name: str, related: Model) -> None:
    """Attach ``related`` to ``instance`` as ``select_related(field_name)`` would, both ways for a
    one-to-one (reading ``instance.<field_name>`` and back then costs no query).

    ``set_cached_value`` is the fields' private cache (``FieldCacheMixin``), which is what a
    ``select_related`` fills: the documented way would be a second query or a queryset per row."""
    field = instance._meta.get_field(field_name)
    field.set_cached_value(instance, related)
    if field.one_to_one:
        field.remote_field.set_cached_value(related, instance)


def related_is_cached(instance: Model, field_name: str) -> bool:
    """Whether ``instance.<field_name>`` is loaded already (reading it costs no query)."""
    return instance._meta.get_field(field_name).is_cached(instance)


@contextlib.contextmanager
def pipeline(connection: BaseDatabaseWrapper) -> Iterator[None]:
    """psycopg 3's pipeline mode on PostgreSQL while the block runs (a no-op on other engines):
    statements are sent without waiting for each answer, and the answers are read when a result
    is fetched or the block ends, so a decision's writes cost one round trip, not one each.

    ``connection.connection`` is the driver's connection Django holds (documented for psycopg, not
    for Django's wrapper). An error the server reports at the block's end is raised there, through
    ``wrap_database_errors`` as Django raises it from a statement (``IntegrityError``, …)."""
    if connection.vendor != "postgresql":
        yield
        return
    connection.ensure_connection()
    with connection.wrap_database_errors, connection.connection.pipeline():
        yield


def server_transaction_open(connection: BaseDatabaseWrapper) -> bool:
    """Whether the PostgreSQL session is inside a transaction block Django did not open (a
    ``BEGIN`` sent as a statement in autocommit mode), or one that failed: what a ``ROLLBACK`` ends."""
    from psycopg.pq import TransactionStatus

    raw = connection.connection
    return raw is not None and raw.info.transaction_status != TransactionStatus.IDLE
