"""``update_rows``: one UPDATE over rows named by primary key, written as text from the model's
columns, the same statement on SQLite and PostgreSQL (decision 0056).

A settlement's writes are a handful of such updates a decision; building each as a queryset and
compiling it cost ~0.3-0.5 ms of Python apiece, the larger part of a settlement's own time. The
text here is built by string joins, and for one row (an interrupt, an eta settlement) it is the
same text every time, so PostgreSQL prepares it once per connection. The two engines differ only
in ``_Dialect``: how a list of ids is passed (``= ANY(%s)``, one parameter for any length, or
``IN (%s, …)``) and the typed placeholder PostgreSQL needs in a ``CASE`` whose parameters it can
not type (``CAST(%s AS <column type>)``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from django.db import connection
from django.db.models import Field, Model

from runtime.internals.django_db import note, set_note


class EachRow(dict):
    """A column's value for each primary key (a ``CASE``), where the rows differ."""


class _Dialect:
    @staticmethod
    def postgres() -> bool:
        return connection.vendor == "postgresql"

    @classmethod
    def in_ids(cls, column: str, pk: Field, ids: Sequence[Any]) -> tuple[str, list[Any]]:
        values = [pk.get_db_prep_value(value, connection) for value in ids]
        if cls.postgres():
            return f"{column} = ANY(%s)", [values]
        return f"{column} IN ({', '.join(['%s'] * len(values))})", values

    @classmethod
    def typed(cls, field: Field) -> str:
        """Cached per field and engine: ``db_type`` formats the type's text anew each call (~14
        placeholders a settlement)."""
        key = (connection.vendor, field)
        text = _TYPED.get(key)
        if text is None:
            text = _TYPED[key] = f"CAST(%s AS {field.db_type(connection)})" if cls.postgres() else "%s"
        return text


_TYPED: dict[tuple[str, Field], str] = {}


@contextlib.contextmanager
def one_cursor() -> Iterator[None]:
    """The statements of ``update_rows`` (without ``returning``) and ``insert_rows`` run in the
    block go through one cursor, opened once: a settlement's half-dozen writes, each of which
    opened a driver cursor and Django's wrapper of it."""
    if note(connection, "row_cursor") is not None:
        yield
        return
    with connection.cursor() as cursor:
        set_note(connection, "row_cursor", cursor)
        try:
            yield
        finally:
            set_note(connection, "row_cursor", None)


def _execute(sql: str, params: list[Any]) -> int:
    shared = note(connection, "row_cursor")
    if shared is not None:
        shared.execute(sql, params)
        return shared.rowcount
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


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
    """``UPDATE <table> SET … WHERE id IN ids [AND where]``; the rows it changed.

    ``values``: field name → one value for every row, or a ``EachRow`` (primary key → value), which
    becomes one value when all agree. ``where``: more conditions, in SQL over the table's columns.
    ``key``: the field ``ids`` name, when it is not the primary key (no ``EachRow`` then).
    ``returning``: fields the changed rows return (``UPDATE … RETURNING``, both engines): then a
    ``Returned`` is answered, read when its rows are asked for (in a pipeline, only then is the
    answer waited for), instead of the count."""
    if not ids:
        return 0
    meta = model._meta
    pk = meta.pk
    quote = connection.ops.quote_name
    sets: list[str] = []
    params: list[Any] = []
    for name, value in values.items():
        field = meta.get_field(name)
        column = quote(field.column)
        if isinstance(value, EachRow):
            distinct = list(value.values())
            if all(v == distinct[0] for v in distinct):
                value = distinct[0]
            else:
                cases = []
                for row_pk, row_value in value.items():
                    cases.append(f"WHEN %s THEN {_Dialect.typed(field)}")
                    params += [pk.get_db_prep_value(row_pk, connection), field.get_db_prep_save(row_value, connection)]
                sets.append(f"{column} = CASE {quote(pk.column)} {' '.join(cases)} END")
                continue
        sets.append(f"{column} = {_Dialect.typed(field)}")
        params.append(field.get_db_prep_save(value, connection))
    by = meta.get_field(key) if key else pk
    condition, id_params = _Dialect.in_ids(quote(by.column), by, ids)
    sql = f"UPDATE {quote(meta.db_table)} SET {', '.join(sets)} WHERE {condition}"
    if where:
        sql += f" AND {where}"
    if returning:
        fields = [meta.get_field(name) for name in returning]
        sql += f" RETURNING {', '.join(quote(f.column) for f in fields)}"
        cursor = connection.cursor()
        cursor.execute(sql, [*params, *id_params, *where_params])
        return Returned(model, fields, cursor)
    return _execute(sql, [*params, *id_params, *where_params])


class Returned:
    """The rows an ``UPDATE … RETURNING`` changed, as tuples of Python values (converted as the
    ORM converts them: SQLite's text uuids and datetimes, JSON), read once when first asked for."""

    def __init__(self, model: type[Model], fields: list[Field], cursor: Any) -> None:
        self.model, self.fields, self.cursor = model, fields, cursor
        self._rows: list[tuple[Any, ...]] | None = None

    def rows(self) -> list[tuple[Any, ...]]:
        if self._rows is None:
            try:
                raw = self.cursor.fetchall()
            finally:
                self.cursor.close()
            self._rows = [
                tuple(_converted(self.model, f, v) for f, v in zip(self.fields, row, strict=True)) for row in raw
            ]
        return self._rows


def _converted(model: type[Model], field: Field, value: Any) -> Any:
    expression = field.get_col(model._meta.db_table)
    for convert in connection.ops.get_db_converters(expression) + field.get_db_converters(connection):
        value = convert(value, expression, connection)
    return value


def insert_rows(objs: Sequence[Model]) -> None:
    """``INSERT INTO <table> (<every column>) VALUES (…), …`` for model instances of one model, as
    ``bulk_create`` writes them (each field's ``pre_save`` first), without compiling a query.

    For models whose primary key is set in Python (a uuid default): nothing is read back."""
    if not objs:
        return
    meta = objs[0]._meta
    fields = [f for f in meta.concrete_fields if not getattr(f, "db_returning", False)]
    quote = connection.ops.quote_name
    row = f"({', '.join(['%s'] * len(fields))})"
    params: list[Any] = []
    for obj in objs:
        params += [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    columns = ", ".join(quote(f.column) for f in fields)
    _execute(f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES {', '.join([row] * len(objs))}", params)
