"""The start of a deadline operation as one PostgreSQL function (decision 0031); nothing on SQLite.

The function's text is frozen in ``_start_0019`` (runtime/sql/__init__.py says why).
"""

from django.db import migrations

from runtime.migrations import _start_0019 as start


def create_function(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(start.FUNCTION)


def drop_function(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(start.DROP)


class Migration(migrations.Migration):
    dependencies = [("runtime", "0018_settle_in_sql")]

    operations = [migrations.RunPython(create_function, drop_function)]
