"""On PostgreSQL, the workspace table keeps a fifth of each page free (``fillfactor = 80``; decision 0038).

Every decision locks its conversation's workspace row and most move its focus number, columns no
index holds, so the new version can stay on the same page without an index entry (a HOT update)
only if the page has room. Rows written densely (a page filled by new conversations, a bulk load)
leave none: the first update of each moves to another page and adds a primary-key entry. New pages
keep the room; existing ones are unchanged until rewritten (VACUUM FULL).
"""

from django.db import migrations


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE runtime_workspace SET (fillfactor = 80)")


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE runtime_workspace RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [("runtime", "0021_settle_one_event")]
    operations = [migrations.RunPython(forwards, backwards)]
