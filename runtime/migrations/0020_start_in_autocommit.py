"""``lineup_start_operation`` again: it takes the workspace's focus number only when it writes, so it
can run in autocommit (decision 0036); nothing on SQLite.

The function's text is frozen in ``_start_0020``; going back restores 0019's (``_start_0019``).
"""

from django.db import migrations

from runtime.migrations import _start_0019, _start_0020


def create_function(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(_start_0020.FUNCTION)


def restore_0019(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(_start_0019.FUNCTION)


class Migration(migrations.Migration):
    dependencies = [("runtime", "0019_start_in_sql")]

    operations = [migrations.RunPython(create_function, restore_0019)]
