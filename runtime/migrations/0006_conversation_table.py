"""The conversation becomes a Runtime model (docs/decisions/0010-layers.md).

Step 3 of 3: the table is renamed ``interact_conversation`` -> ``runtime_conversation``. The
foreign keys that reference it follow the rename (PostgreSQL references tables by oid; SQLite
3.26+ rewrites the references), so every row, id and relation is kept. The content type is
moved to the new app label, so permissions granted on conversations stay granted.
"""

from django.db import migrations


def move_content_type(apps, schema_editor):
    content_type = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    if content_type.objects.using(db).filter(app_label="runtime", model="conversation").exists():
        return
    content_type.objects.using(db).filter(app_label="interact", model="conversation").update(app_label="runtime")


def restore_content_type(apps, schema_editor):
    content_type = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    content_type.objects.using(db).filter(app_label="runtime", model="conversation").update(app_label="interact")


class Migration(migrations.Migration):
    dependencies = [
        ("runtime", "0005_conversation_moves_to_runtime"),
        ("interact", "0003_conversation_moves_to_runtime"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.AlterModelTable(name="conversation", table=None),
        migrations.RunPython(move_content_type, restore_content_type),
    ]
