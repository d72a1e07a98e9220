"""``lineup_start_operation`` again (runtime.sql.start): it takes the workspace's focus number only
when it writes, so it can run in autocommit (decision 0036); nothing on SQLite."""

from django.db import migrations

from runtime.sql import start


def create_function(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(start.FUNCTION)


class Migration(migrations.Migration):
    dependencies = [("runtime", "0019_start_in_sql")]

    operations = [migrations.RunPython(create_function, migrations.RunPython.noop)]
