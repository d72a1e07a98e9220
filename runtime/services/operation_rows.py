"""The rows a settlement locks, read in the statement that locks them: one constant statement on
either engine (decision 0056).

``lock_operations`` reads each operation with what its settlement needs (its instance, its start
call, the conversation's previous valid foreground app) and locks it. The statement is written once
per shape from the models' columns (no ORM compilation per decision: building the equivalent
queryset cost ~1.5 ms of Python a settlement, most of an interrupt's); its rows become model
instances as a query would have built them (``runtime.internals.django_db``). What differs between
the engines is only the writer's ``Dialect`` (``runtime.services.row_writes``): the row lock
(``FOR UPDATE OF o``; SQLite's IMMEDIATE transaction already holds the database) and how a list
of ids is passed (``= ANY(%s)``, one parameter and one prepared statement for any length, or
``IN (%s, …)``).
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection
from django.db.models import Field, Q

from runtime.internals.django_db import cache_related, model_from_row
from runtime.models import NON_FINAL_TOOL_CALL_STATUSES, AppInstance, Operation, ToolCall
from runtime.services.row_writes import converted, dialect, prep, value
from runtime.transitions import RUNNING_STATES, LifecycleState


def _uuid(value: Any) -> uuid.UUID:
    return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))


@functools.cache
def _select() -> tuple[str, list[Field], list[Field], list[Field]]:
    """The columns every lock reads: the operation's, its start call's, its instance's and the
    conversation's previous valid instance (the open one focused last, other than its own)."""
    op, call, inst = Operation._meta, ToolCall._meta, AppInstance._meta
    op_fields, call_fields, inst_fields = (
        list(op.concrete_fields),
        list(call.concrete_fields),
        list(inst.concrete_fields),
    )

    def previous(column: str) -> str:
        return (
            f'(SELECT p."{column}" FROM "{inst.db_table}" p WHERE p."conversation_id" = o."conversation_id"'
            f""" AND p."lifecycle_state" <> '{LifecycleState.CLOSED}' AND p."id" <> o."instance_id\""""
            ' ORDER BY p."focus_seq" DESC LIMIT 1)'
        )

    # Whether its instance has calls a close would cancel (non-final, not an operation's start):
    # almost never, so the close skips that UPDATE when the lock read none (the workspace lock,
    # held before this read, keeps any from being added meanwhile).
    pending = (
        f'(SELECT 1 FROM "{call.db_table}" c WHERE c."instance_id" = o."instance_id"'
        f""" AND c."status" IN ({", ".join(f"'{s}'" for s in NON_FINAL_TOOL_CALL_STATUSES)})"""
        f' AND NOT EXISTS (SELECT 1 FROM "{op.db_table}" x WHERE x."tool_call_id" = c."id") LIMIT 1)'
    )
    sql = (
        "SELECT "
        + ", ".join(f'o."{f.column}"' for f in op_fields)
        + ", "
        + ", ".join(f't."{f.column}"' for f in call_fields)
        + ", "
        + ", ".join(f'i."{f.column}"' for f in inst_fields)
        + ", "
        + ", ".join(previous(c) for c in ("id", "app_id", "lifecycle_state"))
        + f", {pending}"
        + f'\n FROM "{op.db_table}" o JOIN "{call.db_table}" t ON t."id" = o."tool_call_id"'
        f' JOIN "{inst.db_table}" i ON i."id" = o."instance_id"'
    )
    return sql, op_fields, call_fields, inst_fields


def _instance(model: type[Any], fields: list[Field], values: Sequence[Any]) -> Any:
    """A model instance from one row's columns, converted as the ORM converts them (the backend's
    converters, e.g. SQLite's text uuids and datetimes, then the field's, e.g. JSON text)."""
    row = converted(model, fields, values, key=(model, "lock"))
    return model_from_row(model, connection, _ATTNAMES[model], row)


_ATTNAMES = {model: [f.attname for f in model._meta.concrete_fields] for model in (Operation, ToolCall, AppInstance)}


def _key(model: type[Any], value: Any) -> Any:
    """Another model's id read by hand-written SQL, as the ORM converts it (None stays None)."""
    return None if value is None else converted(model, [model._meta.pk], [value], key=(model, "pk"))[0]


_TEXTS: dict[tuple[Any, str, tuple[str, ...]], str] = {}


def _lock(where: str, params: list[Any], *, also: Iterable[str] = ()) -> list[Operation]:
    """Run the lock with ``where`` (and extra selected columns ``also``, named ``extra_<n>``)."""
    select, op_fields, call_fields, inst_fields = _select()
    engine, extra = dialect(), tuple(also)
    sql = _TEXTS.get((engine, where, extra))
    if sql is None:  # a constant text per engine and shape (one row, or a list length on SQLite)
        sql = select.replace("\n FROM ", "".join(f", {e}" for e in extra) + "\n FROM ", 1)
        sql += f' WHERE {where} ORDER BY o."conversation_id"{engine.lock(of="o")}'
        _TEXTS[(engine, where, extra)] = sql
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    a, b, c = len(op_fields), len(op_fields) + len(call_fields), len(op_fields) + len(call_fields) + len(inst_fields)
    locked = []
    for row in rows:
        operation = _instance(Operation, op_fields, row[:a])
        cache_related(operation, "tool_call", _instance(ToolCall, call_fields, row[a:b]))
        cache_related(operation, "instance", _instance(AppInstance, inst_fields, row[b:c]))
        previous_id, operation.previous_app_id, operation.previous_lifecycle_state, pending = row[c : c + 4]
        operation.pending_calls = pending is not None
        operation.previous_id = _key(AppInstance, previous_id)
        for n, extra in enumerate(row[c + 4 :]):
            setattr(operation, f"extra_{n}", extra)
        locked.append(operation)
    return locked


def lock_operations_by_id(ids: Sequence[Any], *, conversations: Sequence[Any] | None = None) -> list[Operation]:
    """Lock the operations ``ids`` (of ``conversations`` only, when given) with what their
    settlement reads, ordered by conversation."""
    engine, pk, conversation = dialect(), Operation._meta.pk, Operation._meta.get_field("conversation")
    where, params = engine.in_ids('o."id"', [prep(pk, _uuid(i)) for i in ids])
    if conversations is not None:
        also_where, also_params = engine.in_ids(
            'o."conversation_id"', [prep(conversation, _uuid(c)) for c in conversations]
        )
        where, params = f"{where} AND {also_where}", params + also_params
    return _lock(where, params)


def lock_running_of_app(conversation_id: Any, app_id: str, source_tool_call_id: str) -> list[Operation]:
    """Lock the app's running operations in the conversation (an interrupt binds one of them), each
    with ``retry_call_id``: the id of a call ``source_tool_call_id`` of the conversation, if one
    was answered already (the interrupt's retry)."""
    conversation = value(Operation, "conversation", _uuid(conversation_id))
    running = ", ".join(["%s"] * len(RUNNING_STATES))
    retry = (
        f'(SELECT r."id" FROM "{ToolCall._meta.db_table}" r WHERE r."conversation_id" = %s'
        ' AND r."source_tool_call_id" = %s ORDER BY r."created_at" LIMIT 1)'
    )
    locked = _lock(
        f'o."conversation_id" = %s AND o."app_id" = %s AND o."state" IN ({running})',
        [conversation, source_tool_call_id, conversation, app_id, *RUNNING_STATES],
        also=[retry],
    )
    for operation in locked:
        operation.retry_call_id = _key(ToolCall, operation.extra_0)
    return locked


def lock_operations(which: Q) -> list[Operation]:
    """``lock_operations_by_id`` for the operations ``which`` selects (a start's switch names them
    by id, ``Q(pk__in=…)``); any other filter has its ids read first."""
    if not which.negated and len(which.children) == 1 and isinstance(which.children[0], tuple):
        name, value = which.children[0]
        if name in ("pk", "id"):
            return lock_operations_by_id([value])
        if name in ("pk__in", "id__in"):
            return lock_operations_by_id(list(value))
    return lock_operations_by_id(list(Operation.objects.filter(which).values_list("pk", flat=True)))
