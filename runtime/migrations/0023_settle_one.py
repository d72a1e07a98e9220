"""On PostgreSQL, ``runtime_settle_one``: one operation's settlement statement by statement (decision 0030).

A sibling of ``runtime_settle`` (unchanged) with the same writes and answer for a batch of one; the
text is frozen in ``_settle_one_0023`` and going back drops the function.
"""

from django.db import migrations

from runtime.migrations import _settle_one_0023


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(_settle_one_0023.CREATE, params=None)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(_settle_one_0023.DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("runtime", "0022_workspace_fillfactor")]
    operations = [migrations.RunPython(forwards, backwards)]
