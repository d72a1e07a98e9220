"""On PostgreSQL, ``runtime_settle``: a settlement's writes in one server-side call (decision 0030).

Other databases (the embedded SQLite) settle through the Python path, which this function mirrors.
"""

from django.db import migrations

from runtime.migrations import _settle_0018 as settle  # frozen: 0020 replaces the function


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(settle.CREATE, params=None)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(settle.DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("runtime", "0017_operator_reason_label")]
    operations = [migrations.RunPython(forwards, backwards)]
