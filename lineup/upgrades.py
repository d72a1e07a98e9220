"""What a set of migrations does to a running deployment: expand, contract, or move data.

The previous release's processes keep running while a release's migrations apply (docs/operations.md,
"Upgrades"), so a migration may only *expand* the schema: add a table, a nullable column, or a column
with a database default (``db_default``: a Python ``default`` is not in the database, and the old code's
INSERTs, which do not name the new column, would fail). Anything that takes away what the old code reads
or writes is a *contraction* and ships one release later (``lineup.releases.CONTRACTIONS``).

``classify`` reads the operations of the given migrations against the project state before each one;
the expand-only test and ``manage.py upgrade_check`` both use it, so they cannot disagree.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import migrations
from django.db.migrations.loader import MigrationLoader

Node = tuple[str, str]  # (app label, migration name)

EXPAND = "expand"
CONTRACT = "contract"
DATA = "data"  # rewrites rows: its cost grows with the table
INDEX = "index"  # builds an index: holds a write lock on the table while it builds

# Statements in raw SQL that take something away from the old code.
_CONTRACTING_SQL = re.compile(
    r"\bDROP\s+(COLUMN|TABLE)\b|\bRENAME\s+(COLUMN\b|TO\b)|\bSET\s+NOT\s+NULL\b|\bALTER\s+COLUMN\s+\S+\s+TYPE\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Finding:
    node: Node
    kind: str
    what: str  # one line an operator can read
    tables: tuple[str, ...] = ()  # the tables a data or index operation works through

    @property
    def label(self) -> str:
        return f"{self.node[0]}.{self.node[1]}"


def ordered(loader: MigrationLoader, nodes: Iterable[Node]) -> list[Node]:
    """``nodes`` in the order ``migrate`` applies them."""
    wanted = set(nodes)
    plan: list[Node] = []
    for leaf in sorted(loader.graph.leaf_nodes()):
        for node in loader.graph.forwards_plan(leaf):
            if node in wanted and node not in plan:
                plan.append(node)
    missing = wanted - set(plan)
    if missing:
        raise ValueError(f"not in the migration graph: {sorted(missing)}")
    return plan


def classify(loader: MigrationLoader, nodes: Iterable[Node]) -> list[Finding]:
    """One finding per operation that is not a plain expansion (and one ``expand`` line per migration
    that only expands), in the order the migrations apply."""
    plan = ordered(loader, nodes)
    created: set[tuple[str, str]] = set()  # models whose table is new in these migrations
    findings: list[Finding] = []
    for node in plan:
        migration = loader.graph.nodes[node]
        state = loader.project_state(node, at_end=False)
        before = len(findings)
        for operation in _flatten(migration.operations):
            findings.extend(_classify_operation(node, operation, state, created))
            operation.state_forwards(node[0], state)
        if len(findings) == before:
            findings.append(Finding(node, EXPAND, "adds only (tables, nullable or db_default columns, options)"))
    return findings


def _flatten(operations: Iterable[migrations.operations.base.Operation]) -> list:
    """Operations as the database sees them (SeparateDatabaseAndState: its database side only, whose
    state changes the state side repeats, so the state stays right for the operations after it)."""
    flat = []
    for operation in operations:
        if isinstance(operation, migrations.SeparateDatabaseAndState):
            flat.extend(_StateOnly(op) for op in operation.state_operations)
            flat.extend(_DatabaseOnly(op) for op in operation.database_operations)
        else:
            flat.append(operation)
    return flat


class _StateOnly:
    """A state operation of SeparateDatabaseAndState: moves the state, touches no table."""

    def __init__(self, operation) -> None:
        self.operation = operation

    def state_forwards(self, app_label: str, state) -> None:
        self.operation.state_forwards(app_label, state)


class _DatabaseOnly:
    """A database operation of SeparateDatabaseAndState: classified, but its state is the other side's."""

    def __init__(self, operation) -> None:
        self.operation = operation

    def state_forwards(self, app_label: str, state) -> None:
        return None


def _table(state, app_label: str, model_name: str) -> str:
    model = state.models.get((app_label, model_name.lower()))
    if model is None:
        return f"{app_label}_{model_name.lower()}"
    return model.options.get("db_table") or f"{app_label}_{model_name.lower()}"


def _classify_operation(node: Node, operation, state, created: set[tuple[str, str]]) -> list[Finding]:
    if isinstance(operation, _StateOnly):
        return []
    if isinstance(operation, _DatabaseOnly):
        operation = operation.operation
    app = node[0]
    ops = migrations
    if isinstance(operation, ops.CreateModel):
        created.add((app, operation.name_lower))
        return []
    model_name = getattr(operation, "model_name", None) or getattr(operation, "name", None)
    key = (app, model_name.lower()) if isinstance(model_name, str) else None
    is_new_table = key in created
    if isinstance(operation, ops.DeleteModel):
        return [] if is_new_table else [Finding(node, CONTRACT, f"drops the table of {operation.name}")]
    if isinstance(operation, ops.RenameModel):
        return [Finding(node, CONTRACT, f"renames {operation.old_name} to {operation.new_name}")]
    if isinstance(operation, ops.AlterModelTable):
        return [] if is_new_table else [Finding(node, CONTRACT, f"renames the table of {operation.name}")]
    if isinstance(operation, ops.RemoveField):
        if is_new_table:
            return []
        return [Finding(node, CONTRACT, f"drops {operation.model_name}.{operation.name}")]
    if isinstance(operation, ops.RenameField):
        if is_new_table:
            return []
        return [Finding(node, CONTRACT, f"renames {operation.model_name}.{operation.old_name} to {operation.new_name}")]
    if isinstance(operation, ops.AddField):
        field = operation.field
        if is_new_table or field.many_to_many or field.null or _has_db_default(field):
            return []
        return [
            Finding(
                node,
                CONTRACT,
                f"adds required column {operation.model_name}.{operation.name} without db_default "
                "(the previous release's INSERTs do not name it)",
            )
        ]
    if isinstance(operation, ops.AlterField):
        if is_new_table:
            return []
        old = state.models[(app, operation.model_name_lower)].fields.get(operation.name)
        new = operation.field
        if old is None:
            return []
        old_column = old.db_column or operation.name
        new_column = new.db_column or operation.name
        if old_column != new_column:
            return [Finding(node, CONTRACT, f"renames column {old_column} to {new_column}")]
        if old.null and not new.null:
            return [Finding(node, CONTRACT, f"makes {operation.model_name}.{operation.name} NOT NULL")]
        if _has_db_default(old) and not _has_db_default(new) and not new.null:
            return [Finding(node, CONTRACT, f"drops the database default of {operation.model_name}.{operation.name}")]
        return []
    if isinstance(operation, ops.AddIndex | ops.AddConstraint):
        if is_new_table:
            return []
        return [Finding(node, INDEX, f"builds {operation.describe()}", (_table(state, app, operation.model_name),))]
    if isinstance(operation, ops.RunSQL):
        sql = _sql_text(operation.sql)
        if _CONTRACTING_SQL.search(sql):
            return [Finding(node, CONTRACT, f"raw SQL that drops, renames or tightens: {_first_line(sql)}")]
        tables = _tables_named(sql, state)
        if tables:
            return [Finding(node, DATA, "raw SQL over existing rows", tables)]
        return []
    if isinstance(operation, ops.RunPython):
        try:
            source = inspect.getsource(operation.code)
        except (OSError, TypeError):
            source = ""
        if _CONTRACTING_SQL.search(source):  # raw SQL run through schema_editor.execute
            return [
                Finding(node, CONTRACT, f"Python running SQL that drops, renames or tightens: {_first_line(source)}")
            ]
        tables = tuple(
            _table(state, label, name)
            for label, name in re.findall(r"get_model\(\s*[\"'](\w+)[\"']\s*,\s*[\"'](\w+)[\"']", source)
        )
        if tables:
            return [Finding(node, DATA, f"Python over existing rows ({operation.code.__name__})", tables)]
        return []
    return []


def _has_db_default(field) -> bool:
    from django.db.models.fields import NOT_PROVIDED

    return getattr(field, "db_default", NOT_PROVIDED) is not NOT_PROVIDED


def _sql_text(sql) -> str:
    if isinstance(sql, str):
        return sql
    parts = []
    for item in sql or ():
        parts.append(item if isinstance(item, str) else str(item[0]))
    return "\n".join(parts)


def _first_line(sql: str) -> str:
    for line in sql.strip().splitlines():
        if _CONTRACTING_SQL.search(line):
            return line.strip()[:120]
    return sql.strip().splitlines()[0][:120] if sql.strip() else ""


_WRITES = re.compile(r"\b(?:UPDATE|INSERT\s+INTO|DELETE\s+FROM)\s+\"?(\w+)\"?", re.IGNORECASE)


def _tables_named(sql: str, state) -> tuple[str, ...]:
    """The existing tables a raw statement writes (CREATE FUNCTION bodies are not run by migrate)."""
    if re.search(r"\bCREATE\s+(OR\s+REPLACE\s+)?FUNCTION\b", sql, re.IGNORECASE):
        return ()
    known = {_table(state, app, name) for (app, name) in state.models}
    return tuple(sorted({t for t in _WRITES.findall(sql) if t in known}))
