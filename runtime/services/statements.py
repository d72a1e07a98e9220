"""Running a decision's statements: the same SQL on PostgreSQL and SQLite, and the thin dialect
adapter for what truly differs between them (decision 0055).

A decision writes with ``Statement``s that both engines accept (``INSERT … VALUES``, ``UPDATE``,
``SELECT`` with scalar subqueries; parameters prepared by the model's own fields, so a uuid, a
datetime or a JSON value is stored as the engine stores it). What differs, and lives here only:

* the row lock: ``FOR UPDATE`` on PostgreSQL, nothing on SQLite (its IMMEDIATE transaction
  already holds the one write lock);
* the transport: on PostgreSQL a batch is sent in psycopg's pipeline mode, so a batch costs one
  round trip however many statements it holds; SQLite runs them one after the other;
* who opens the transaction: on PostgreSQL, with no transaction open, a decision may open its own
  (``BEGIN`` sent with its first batch, ``COMMIT`` with its last: ``owns_transaction``), which
  saves the two round trips of Django's ``atomic``; on SQLite it is always Django's.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import Field, Model

from runtime.internals.django_db import in_transaction, pipeline, server_transaction_open


@dataclass(frozen=True)
class Statement:
    """One statement of a decision, and whether its rows are read."""

    sql: str
    params: Sequence[Any] | None = field(default=None)
    rows: bool = False


BEGIN = Statement("BEGIN")
COMMIT = Statement("COMMIT")


def quote(name: str) -> str:
    return connection.ops.quote_name(name)


def table(model: type[Model]) -> str:
    return quote(model._meta.db_table)


def for_update() -> str:
    """The row-lock clause of a ``SELECT`` (nothing on SQLite: see the module's docstring)."""
    return " FOR UPDATE" if connection.features.has_select_for_update else ""


def value(model: type[Model], field_name: str, python_value: Any) -> Any:
    """``python_value`` as ``model.field_name`` stores it on this connection (a parameter)."""
    return model._meta.get_field(field_name).get_db_prep_save(python_value, connection)


def insert(model: type[Model], **values: Any) -> Statement:
    """The ``INSERT … VALUES`` of one row of ``model``, every column given: ``values`` by attribute
    name (``conversation_id``), the field's default for the others; a database-generated key (an
    event's id) is left to the database."""
    sql, fields = _insert_template(model, connection.vendor)
    params = [
        f.get_db_prep_save(values[f.attname] if f.attname in values else f.get_default(), connection) for f in fields
    ]
    return Statement(sql, params)


def insert_instance(instance: Model) -> Statement:
    """``insert`` of a model instance built in Python (not saved)."""
    _, fields = _insert_template(type(instance), connection.vendor)
    return insert(type(instance), **{f.attname: getattr(instance, f.attname) for f in fields})


@functools.cache
def _insert_template(model: type[Model], vendor: str) -> tuple[str, list[Field]]:
    fields = [f for f in model._meta.concrete_fields if not (f.primary_key and f.db_returning)]
    columns = ", ".join(quote(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    return f"INSERT INTO {table(model)} ({columns}) VALUES ({marks})", fields


def owns_transaction() -> bool:
    """Whether a decision running now opens and ends its own transaction (PostgreSQL, nothing open)."""
    return connection.vendor == "postgresql" and not in_transaction(connection)


def run(statements: Sequence[Statement]) -> list[list[tuple] | None]:
    """Run ``statements`` in order; the rows of each that reads them (None for the others).

    On PostgreSQL all are sent before any result is awaited: one round trip for the batch.
    """
    if connection.vendor != "postgresql":
        return [_execute_and_fetch(statement) for statement in statements]
    # A cursor of its own for each statement whose rows are read; one for all the others.
    writes = connection.cursor()
    cursors = [connection.cursor() if statement.rows else writes for statement in statements]
    try:
        with pipeline(connection):
            for cursor, statement in zip(cursors, statements, strict=True):
                cursor.execute(statement.sql, statement.params)
            return [
                cursor.fetchall() if statement.rows else None
                for cursor, statement in zip(cursors, statements, strict=True)
            ]
    finally:
        for cursor in {id(cursor): cursor for cursor in cursors}.values():
            cursor.close()
        writes.close()


def _execute_and_fetch(statement: Statement) -> list[tuple] | None:
    with connection.cursor() as cursor:
        cursor.execute(statement.sql, statement.params)
        return cursor.fetchall() if statement.rows else None


@contextlib.contextmanager
def own_transaction(owned: bool) -> Iterator[None]:
    """If ``owned``, roll back a transaction this decision opened and failed to end (an error
    between its ``BEGIN`` and ``COMMIT``): the connection goes back to autocommit clean."""
    try:
        yield
    except BaseException:
        if owned and server_transaction_open(connection):
            with connection.cursor() as cursor:
                cursor.execute("ROLLBACK")
        raise
