"""On PostgreSQL, refuse UPDATE and DELETE of lifecycle events: the audit log is append-only.

Other databases (the embedded SQLite) rely on the application, which never updates the log.
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION runtime_lifecycleevent_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'runtime_lifecycleevent is append-only (% refused)', TG_OP;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER runtime_lifecycleevent_append_only
    BEFORE UPDATE OR DELETE ON runtime_lifecycleevent
    FOR EACH ROW EXECUTE FUNCTION runtime_lifecycleevent_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS runtime_lifecycleevent_append_only ON runtime_lifecycleevent;
DROP FUNCTION IF EXISTS runtime_lifecycleevent_append_only();
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("runtime", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
