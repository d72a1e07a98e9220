"""The one writer of a decision's rows: statements as text built from the models' columns, the same
on PostgreSQL and SQLite (decisions 0055, 0056).

A start (``start_writes``) and a settlement (``settlements``, ``workspace``) write through this
module alone: ``insert`` / ``insert_rows`` (one ``INSERT`` text per model, engine and row count,
cached), ``update_rows`` (one ``UPDATE`` over rows named by key; constant text cached), run in a
``batch`` (psycopg's pipeline on PostgreSQL, so a batch costs about one round trip; one cursor for
its writes on either engine). Parameters are prepared by the model's own fields, so a uuid, a time
or a JSON value is stored as the engine stores it. Building each statement as a queryset and
compiling it cost ~0.3-0.5 ms of Python apiece (~1.5 ms for the settlement's lock read).

What differs between the engines lives in ``Dialect`` and nowhere else (``operation_rows`` and
``workspace_locks`` use it too):

* the row lock: ``FOR UPDATE [OF …] [SKIP LOCKED]`` on PostgreSQL, nothing on SQLite (its
  IMMEDIATE transaction already holds the one write lock);
* how a list of ids is passed: ``= ANY(%s)`` (one parameter, one prepared statement for any
  length) or ``IN (%s, …)``;
* the typed placeholder PostgreSQL needs in a ``CASE`` whose parameters it cannot type
  (``CAST(%s AS <column type>)``);
* what PostgreSQL alone has: ``FOR KEY SHARE``, typed raw rows, the audit log's trigger;
* who opens the transaction: on PostgreSQL with none open, a decision may open its own (``BEGIN``
  sent with its first batch, ``COMMIT`` with its last), which saves the two round trips of
  Django's ``atomic``; on SQLite it is always Django's.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import BooleanField, CharField, Field, IntegerField, JSONField, Model, TextField, UUIDField

from runtime.internals.django_db import in_transaction, note, pipeline, server_transaction_open, set_note


class Dialect:
    """The little PostgreSQL and SQLite say differently (one instance per engine: ``dialect()``)."""

    def __init__(self, vendor: str) -> None:
        self.vendor = vendor
        self.postgres = vendor == "postgresql"
        self._typed: dict[Field, str] = {}

    def lock(self, of: str = "", *, skip_locked: bool = False) -> str:
        """The row-lock clause of a ``SELECT`` (``of``: the alias locked in a join)."""
        if not self.postgres:
            return ""
        return " FOR UPDATE" + (f" OF {of}" if of else "") + (" SKIP LOCKED" if skip_locked else "")

    def in_ids(self, column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
        """``column`` among ``values`` (already prepared): a condition and its parameters."""
        if self.postgres:
            return f"{column} = ANY(%s)", [list(values)]
        return f"{column} IN ({', '.join(['%s'] * len(values)) or 'NULL'})", list(values)

    def in_select(self, column: str, select: str) -> str:
        """``column`` among the rows of a sub-``SELECT``. On PostgreSQL ``= ANY(ARRAY(…))``: the keys
        become an array the outer statement probes its index with; ``IN (…)`` let the planner
        hash-join them against a sequential scan of the whole table, once per batch (a recovery of
        N due operations cost O(N²), issue 27)."""
        return f"{column} = ANY(ARRAY({select}))" if self.postgres else f"{column} IN ({select})"

    def typed(self, field: Field) -> str:
        """A parameter of ``field``'s type; cached, as ``db_type`` formats its text anew each call."""
        text = self._typed.get(field)
        if text is None:
            text = self._typed[field] = f"CAST(%s AS {field.db_type(connection)})" if self.postgres else "%s"
        return text

    def key_share(self) -> str:
        """The lock clause that orders a reader against a row's ``FOR UPDATE`` without waiting for another
        reader; "" on SQLite, where there is nothing to take (its one writer at a time orders them)."""
        return " FOR KEY SHARE" if self.postgres else ""

    @property
    def typed_rows(self) -> bool:
        """Whether a raw row comes back with its values' Python types (uuid, datetime): psycopg's do;
        sqlite3's are text and numbers that only the model's fields convert."""
        return self.postgres

    @property
    def audit_guard(self) -> bool:
        """Whether the audit log has its append-only trigger (migration 0002 makes it on PostgreSQL)."""
        return self.postgres

    def owns_transaction(self) -> bool:
        """Whether a decision running now opens and ends its own transaction (PostgreSQL, none open)."""
        return self.postgres and not in_transaction(connection)


_DIALECT: list[Dialect] = []


def dialect() -> Dialect:
    """This process's engine's (the default database's, which never changes while it runs):
    looked up once, as ``django.db.connection``'s proxy costs a thread-local lookup per attribute."""
    if not _DIALECT:
        _DIALECT.append(Dialect(connection.vendor))
    return _DIALECT[0]


def owns_transaction() -> bool:
    return dialect().owns_transaction()


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


# --- parameters and names --------------------------------------------------------------------

# Per engine and field, the Python types whose values the field's ``get_db_prep_save`` passes on
# unchanged: a start prepares ~70 parameters, most of them text, flags, None, uuids (PostgreSQL)
# and numbers (SQLite), and each went through two or three calls of the field for nothing.
# tests/runtime/services/test_row_writes.py holds it to what the fields answer, on each engine.
_PLAIN: dict[Field, tuple[type, ...]] = {}


def _plain_types(f: Field) -> tuple[type, ...]:
    target = f.target_field if f.is_relation else f
    plain: tuple[type, ...] = ()
    if type(target).__module__.startswith("django."):  # a field of our own may prepare anything
        postgres = dialect().postgres
        plain = () if isinstance(target, JSONField) else (type(None),)
        if isinstance(target, CharField | TextField):
            plain += (str,)
        elif isinstance(target, BooleanField):
            plain += (bool,)
        elif isinstance(target, IntegerField) and not postgres:  # PostgreSQL's are typed (psycopg's Int8, …)
            plain += (int,)
        elif isinstance(target, UUIDField) and postgres:  # SQLite's are hex text
            plain += (uuid.UUID,)
    _PLAIN[f] = plain
    return plain


def prep(f: Field, value: Any) -> Any:
    """``value`` as the field ``f`` stores it on this connection (a parameter)."""
    plain = _PLAIN.get(f)
    if plain is None:
        plain = _plain_types(f)
    return value if type(value) in plain else f.get_db_prep_save(value, connection)


def value(model: type[Model], field_name: str, python_value: Any) -> Any:
    """``python_value`` as ``model.field_name`` stores it on this connection (a parameter)."""
    return prep(model._meta.get_field(field_name), python_value)


def quote(name: str) -> str:
    return connection.ops.quote_name(name)


_TABLES: dict[type[Model], str] = {}


def table(model: type[Model]) -> str:
    """The model's quoted table name (looked up once: a start names five tables a decision)."""
    name = _TABLES.get(model)
    if name is None:
        name = _TABLES[model] = quote(model._meta.db_table)
    return name


# --- statements and their batch ----------------------------------------------------------------


@dataclass(frozen=True)
class Statement:
    """One statement of a decision, and whether its rows are read."""

    sql: str
    params: Sequence[Any] | None = field(default=None)
    rows: bool = False


BEGIN = Statement("BEGIN")
COMMIT = Statement("COMMIT")


@contextlib.contextmanager
def batch() -> Iterator[None]:
    """The statements run in the block: on PostgreSQL in psycopg's pipeline mode (sent without
    waiting for each answer, read when a result is asked for or the block ends: about one round
    trip), and on either engine the writes through one cursor, opened once (not a driver cursor and
    Django's wrapper of it per statement). A batch inside a batch is part of it."""
    if note(connection, "row_cursor") is not None:
        yield
        return
    with pipeline(connection), connection.cursor() as cursor:
        set_note(connection, "row_cursor", cursor)
        try:
            yield
        finally:
            set_note(connection, "row_cursor", None)


def execute(statement: Statement, returned: Returned | None = None) -> int | Returned:
    """Run ``statement`` now (in the batch, if one is open). A statement whose rows are read gets a
    cursor of its own and answers ``returned`` (or a ``Returned`` of raw tuples), read when asked
    for; a write answers its row count (not known before the batch ends in a pipeline)."""
    if statement.rows:
        cursor = connection.cursor()
        cursor.execute(statement.sql, statement.params)
        if returned is None:
            returned = Returned(None, [])
        returned.cursor = cursor
        return returned
    shared = note(connection, "row_cursor")
    if shared is not None:
        shared.execute(statement.sql, statement.params)
        return shared.rowcount
    with connection.cursor() as cursor:
        cursor.execute(statement.sql, statement.params)
        return cursor.rowcount


def run(statements: Sequence[Statement]) -> list[list[tuple] | None]:
    """Run ``statements`` in order, in one batch; the rows of each that reads them (None for the others)."""
    with batch():
        answers = [execute(statement) for statement in statements]
        return [a.rows() if isinstance(a, Returned) else None for a in answers]


class Returned:
    """The rows a statement read (``UPDATE … RETURNING``, a ``SELECT``), read once when first asked
    for (in a pipeline, only then is the answer waited for); converted as the ORM converts them
    (SQLite's text uuids and datetimes, JSON) when the ``fields`` of ``model`` are given."""

    def __init__(self, model: type[Model] | None, fields: list[Field]) -> None:
        self.model, self.fields, self.cursor = model, fields, None
        self._rows: list[tuple[Any, ...]] | None = None

    def rows(self) -> list[tuple[Any, ...]]:
        if self._rows is None:
            try:
                raw = self.cursor.fetchall()
            finally:
                self.cursor.close()
            if self.model is None:
                self._rows = raw
            else:
                key = (self.model, tuple(self.fields))
                self._rows = [converted(self.model, self.fields, row, key=key) for row in raw]
        return self._rows


def converted(model: type[Model], fields: Sequence[Field], row: Sequence[Any], *, key: Any) -> tuple[Any, ...]:
    """One row's columns (of ``fields`` of ``model``) as the ORM converts them: the backend's
    converters, then the field's. Which converters run is looked up once per connection and
    ``key`` (the lock read has ~60 columns, most of them with none)."""
    cache = note(connection, "converters")
    if cache is None:
        set_note(connection, "converters", cache := {})
    steps = cache.get(key)
    if steps is None:
        steps = cache[key] = []
        for n, f in enumerate(fields):
            expression = f.get_col(model._meta.db_table)
            convert = connection.ops.get_db_converters(expression) + f.get_db_converters(connection)
            if convert:
                steps.append((n, expression, convert))
    if not steps:
        return tuple(row)
    values = list(row)
    for n, expression, convert in steps:
        for step in convert:
            values[n] = step(values[n], expression, connection)
    return tuple(values)


# --- INSERT ------------------------------------------------------------------------------------

_INSERTS: dict[tuple[str, type[Model], int], str] = {}
_COLUMNS: dict[type[Model], list[Field]] = {}


def _insert_fields(model: type[Model]) -> list[Field]:
    """Every column but a database-generated key (an event's id, left to the database)."""
    fields = _COLUMNS.get(model)
    if fields is None:
        fields = _COLUMNS[model] = [f for f in model._meta.concrete_fields if not getattr(f, "db_returning", False)]
    return fields


def _insert_sql(model: type[Model], count: int) -> str:
    key = (dialect().vendor, model, count)
    sql = _INSERTS.get(key)
    if sql is None:
        fields = _insert_fields(model)
        row = f"({', '.join(['%s'] * len(fields))})"
        columns = ", ".join(quote(f.column) for f in fields)
        sql = _INSERTS[key] = f"INSERT INTO {table(model)} ({columns}) VALUES {', '.join([row] * count)}"
    return sql


def insert(model: type[Model], **values: Any) -> Statement:
    """The ``INSERT`` of one row of ``model``, every column given: ``values`` by attribute name
    (``conversation_id``), the field's default for the others."""
    params = [prep(f, values[f.attname] if f.attname in values else f.get_default()) for f in _insert_fields(model)]
    return Statement(_insert_sql(model, 1), params)


def insert_statement(objs: Sequence[Model]) -> Statement:
    """The ``INSERT … VALUES (…), …`` of model instances of one model, built in Python (not saved),
    as ``bulk_create`` writes them (each field's ``pre_save`` first) without compiling a query."""
    model = type(objs[0])
    fields = _insert_fields(model)
    params = [prep(f, f.pre_save(obj, True)) for obj in objs for f in fields]
    return Statement(_insert_sql(model, len(objs)), params)


def insert_rows(objs: Sequence[Model]) -> None:
    """Write ``insert_statement(objs)`` now, for models whose key is set in Python (a uuid default):
    nothing is read back."""
    if objs:
        execute(insert_statement(objs))


# --- UPDATE ------------------------------------------------------------------------------------


class EachRow(dict):
    """A column's value for each primary key (a ``CASE``), where the rows differ."""


_UPDATES: dict[tuple, str] = {}


def update_rows(
    model: type[Model],
    ids: Sequence[Any],
    values: Mapping[str, Any],
    *,
    where: str = "",
    where_params: Sequence[Any] = (),
    key: str = "",
    returning: Sequence[str] = (),
) -> int | Returned:
    """``UPDATE <table> SET … WHERE <key> IN ids [AND where]``; the rows it changed.

    ``values``: field name → one value for every row, or an ``EachRow`` (primary key → value), which
    becomes one value when all agree. ``where``: more conditions, in SQL over the table's columns.
    ``key``: the field ``ids`` name, when it is not the primary key (no ``EachRow`` then).
    ``returning``: fields the changed rows return (``UPDATE … RETURNING``, both engines): then a
    ``Returned`` is answered instead of the count."""
    if not ids:
        return 0
    engine, meta = dialect(), model._meta
    by = meta.get_field(key) if key else meta.pk
    id_params = [prep(by, i) for i in ids]
    params: list[Any] = []
    cases: dict[str, list[str]] = {}
    for name, v in values.items():
        f = meta.get_field(name)
        if isinstance(v, EachRow):
            distinct = list(v.values())
            if any(d != distinct[0] for d in distinct):
                cases[name] = []
                for row_pk, row_value in v.items():
                    cases[name].append(f"WHEN %s THEN {engine.typed(f)}")
                    params += [prep(meta.pk, row_pk), prep(f, row_value)]
                continue
            v = distinct[0]
        params.append(prep(f, v))
    text_key = (engine.vendor, model, tuple(values), key, where, tuple(returning), len(ids) * (not engine.postgres))
    sql = None if cases else _UPDATES.get(text_key)
    if sql is None:
        sets = [
            f"{quote(meta.get_field(name).column)} = "
            + (
                f"CASE {quote(meta.pk.column)} {' '.join(cases[name])} END"
                if name in cases
                else engine.typed(meta.get_field(name))
            )
            for name in values
        ]
        condition, _ = engine.in_ids(quote(by.column), id_params)
        sql = f"UPDATE {table(model)} SET {', '.join(sets)} WHERE {condition}" + (f" AND {where}" if where else "")
        if returning:
            sql += f" RETURNING {', '.join(quote(meta.get_field(name).column) for name in returning)}"
        if not cases:  # constant text: built once per engine and shape
            _UPDATES[text_key] = sql
    _, id_params = engine.in_ids("", id_params)
    statement = Statement(sql, [*params, *id_params, *where_params], rows=bool(returning))
    if returning:
        return execute(statement, Returned(model, [meta.get_field(name) for name in returning]))
    return execute(statement)
