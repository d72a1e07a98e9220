"""``manage.py upgrade_check``: what ``migrate`` would do to this database, before it does it.

Run it with the new code checked out and before ``migrate`` (docs/operations.md, "Upgrades"). For each
unapplied migration it says whether it only expands (the running release keeps working while it
applies), contracts (drops, renames or requires what the running release uses: stop it first), or
rewrites rows or builds an index over an existing table (with the table's row estimate, so the operator
knows what it will cost). It reads the schema's state only; it changes nothing.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandParser
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor

from lineup.releases import CONTRACTIONS, NEXT_RELEASE, ROLLING_CONTRACTIONS, latest_release
from lineup.upgrades import CONTRACT, DATA, INDEX, classify


def estimated_rows(connection, table: str) -> int | None:
    """PostgreSQL's planner estimate (no table scan) or, on SQLite, the count; None if the table is new."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT reltuples::bigint FROM pg_class WHERE oid = to_regclass(%s)", [table])
            row = cursor.fetchone()
            if row is None:
                return None
            if row[0] >= 0:
                return int(row[0])
            # Never analysed: a count is the only figure (a small table, as a rule, if autovacuum never ran).
        elif table not in connection.introspection.table_names(cursor):
            return None
        cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
        return int(cursor.fetchone()[0])


class Command(BaseCommand):
    help = "Say what `migrate` would do to this database: expand, contract (stop first), data and index work with row estimates."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS)

    def handle(self, *args: object, database: str, **options: object) -> None:
        connection = connections[database]
        executor = MigrationExecutor(connection)
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
        nodes = [(migration.app_label, migration.name) for migration, backwards in plan if not backwards]
        self.stdout.write(f"This code: {NEXT_RELEASE} (in the making) after {latest_release().tag}.")
        if not nodes:
            self.stdout.write("No unapplied migrations: `migrate` has nothing to do.")
            return
        self.stdout.write(f"{len(nodes)} unapplied migration(s), in the order `migrate` applies them:")
        stop_first = False
        findings = classify(executor.loader, nodes)
        for finding in findings:
            line = f"  {finding.label}: {finding.kind}: {finding.what}"
            if finding.kind == CONTRACT:
                stop_first = True
                release = CONTRACTIONS.get(finding.node)
                line += f" [ships in {release}]" if release else " [NOT in lineup.releases.CONTRACTIONS]"
            if finding.kind in (DATA, INDEX):
                for table in finding.tables:
                    rows = estimated_rows(connection, table)
                    line += f"; {table}: {'new table' if rows is None else f'~{rows:,} rows'}"
            self.stdout.write(line)
        for node in nodes:
            if node not in ROLLING_CONTRACTIONS:
                continue
            release, reached = ROLLING_CONTRACTIONS[node]
            if reached in nodes:  # the database is older than the release this contraction rolls from
                stop_first = True
                self.stdout.write(
                    f"  {node[0]}.{node[1]}: contracts what releases before {release} use, and this database is "
                    f"older than {release}: upgrade to {release} first, or stop before migrate"
                )
            else:
                self.stdout.write(
                    f"  {node[0]}.{node[1]}: contracts only what releases before {release} used (rolling from {release})"
                )
        kinds = {f.kind for f in findings}
        if stop_first:
            self.stdout.write(
                "Stop before migrate: a contraction takes away what the running release uses. Stop every "
                "LineUp process, migrate, then start the new release (docs/releases.md)."
            )
        else:
            self.stdout.write(
                "Rolling upgrade: every migration expands; the running processes keep serving while they apply."
            )
        if DATA in kinds or INDEX in kinds:
            self.stdout.write(
                "Data and index work holds locks for as long as it runs over the rows above: on a big table "
                "see docs/releases.md for that migration (how long it took per 100 000 rows, how to run it ahead)."
            )
