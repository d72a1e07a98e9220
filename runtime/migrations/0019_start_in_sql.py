"""The start of a deadline operation as one PostgreSQL function (runtime.sql.start); nothing on SQLite."""

from django.db import migrations

from runtime.sql import start


def create_function(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(start.FUNCTION)


def drop_function(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(start.DROP)


class Migration(migrations.Migration):
    dependencies = [("runtime", "0018_settle_in_sql")]

    operations = [migrations.RunPython(create_function, drop_function)]
