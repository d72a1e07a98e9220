"""On PostgreSQL, ``runtime_settle`` writes one audit row per settled operation (decision 0035).

The same signature as 0018's, replaced in place; the text is frozen in ``_settle_0021`` and going
back restores 0018's frozen text.
"""

from django.db import migrations

from runtime.migrations import _settle_0018, _settle_0021


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(_settle_0021.CREATE, params=None)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(_settle_0018.CREATE, params=None)


class Migration(migrations.Migration):
    dependencies = [("runtime", "0020_start_in_autocommit")]
    operations = [migrations.RunPython(forwards, backwards)]
