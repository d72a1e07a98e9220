"""The rows a settlement locks, read in the statement that locks them, and which write path it takes.

``lock_operations`` reads each operation with what its settlement needs (its instance, its start
call, the conversation's previous valid foreground app); an interrupt on the SQL path locks with
one constant hand-written statement instead (``lock_running_for_interrupt``), whose rows become
model instances as a query would have built them (``runtime.internals.django_db``).
``settles_in_sql`` says whether the settlement writes through ``runtime_settle_batch``
(PostgreSQL, ``runtime.services.settlement_sql``) or through the ORM (``runtime.services.settlements``).
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import uuid
from collections.abc import Iterator
from typing import Any

from django.db import connection
from django.db.models import Field, Q, Subquery

from runtime.internals.django_db import cache_related, model_from_row
from runtime.models import Operation, ToolCall
from runtime.services.workspace import previous_valid_instance_of
from runtime.transitions import RUNNING_STATES


def lock_operations(which: Q, **also: Subquery) -> list[Operation]:
    """Lock the operations ``which`` selects, reading in the same statement their instance, their
    start call (whose caller owns the result) and their conversation's previous valid foreground app."""
    if settles_in_sql():  # runtime_settle_batch reads the instance and the previous foreground app itself
        locking = Operation.objects.select_for_update(of=("self",)).select_related("tool_call").filter(which)
        return list(locking.annotate(**also).order_by("conversation_id"))
    return list(
        Operation.objects.select_for_update(of=("self",))
        .select_related("instance", "tool_call")
        .filter(which)
        .annotate(**previous_valid_instance_of("instance_id"), **also)
        .order_by("conversation_id")
    )


@functools.cache
def _interrupt_lock_statement() -> tuple[str, list[Field], list[Field]]:
    """The statement ``lock_running_for_interrupt`` runs, and the fields its columns fill."""
    op, call = Operation._meta, ToolCall._meta
    op_fields, call_fields = list(op.concrete_fields), list(call.concrete_fields)
    o, t = op.db_table, call.db_table

    def column(name: str, meta: Any = op) -> str:
        return f'"{meta.get_field(name).column}"'

    sql = (
        "SELECT "
        + ", ".join(f'o."{f.column}"' for f in op_fields)
        + f', (SELECT r."id" FROM "{t}" r WHERE r.{column("conversation", call)} = %s'
        f" AND r.{column('source_tool_call_id', call)} = %s ORDER BY r.{column('created_at', call)} LIMIT 1), "
        + ", ".join(f't."{f.column}"' for f in call_fields)
        + f' FROM "{o}" o JOIN "{t}" t ON t."id" = o.{column("tool_call")}'
        f" WHERE o.{column('conversation')} = %s AND o.{column('app_id')} = %s"
        f" AND o.{column('state')} IN ({', '.join(['%s'] * len(RUNNING_STATES))})"
        " FOR UPDATE OF o"
    )
    return sql, op_fields, call_fields


def _from_row(model: type[Any], fields: list[Field], values: tuple[Any, ...]) -> Any:
    """A model instance from one row's columns, converted as the ORM converts them (JSON text)."""
    converted = []
    for f, value in zip(fields, values, strict=True):
        for convert in f.get_db_converters(connection):
            value = convert(value, f, connection)
        converted.append(value)
    return model_from_row(model, connection, [f.attname for f in fields], converted)


def lock_running_for_interrupt(conversation_id: uuid.UUID, app_id: str, source_tool_call_id: str) -> list[Operation]:
    """``lock_operations`` for an interrupt on the SQL settlement path: the app's running
    operations in the conversation, locked, with their start call and ``retry_call_id`` (the
    interrupt's own call id, if it was already answered) — the same rows and the same lock, one
    constant statement instead of the ORM building it per frame (~1 ms of Python, 27h's profile)."""
    sql, op_fields, call_fields = _interrupt_lock_statement()
    with connection.cursor() as cursor:
        cursor.execute(sql, [conversation_id, source_tool_call_id, conversation_id, app_id, *RUNNING_STATES])
        rows = cursor.fetchall()
    n = len(op_fields)
    locked = []
    for row in rows:
        operation = _from_row(Operation, op_fields, row[:n])
        operation.retry_call_id = row[n]
        call = _from_row(ToolCall, call_fields, row[n + 1 :])
        cache_related(operation, "tool_call", call)  # as select_related("tool_call") leaves them
        locked.append(operation)
    return locked


_SQL_SETTLEMENT = contextvars.ContextVar("sql_settlement", default=True)


def settles_in_sql() -> bool:
    """Whether settlements here go through ``runtime_settle_batch`` (PostgreSQL, unless turned off)."""
    return connection.vendor == "postgresql" and _SQL_SETTLEMENT.get()


@contextlib.contextmanager
def python_settlement() -> Iterator[None]:
    """Settle through the Python path even on PostgreSQL (the property test compares the two)."""
    token = _SQL_SETTLEMENT.set(False)
    try:
        yield
    finally:
        _SQL_SETTLEMENT.reset(token)
