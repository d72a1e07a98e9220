# The generic deadline operation, step 2 of 3: every stored operation keeps what it said.
#
# Until now every operation was a Pomodoro focus: its app is its instance's app ("pomodoro"),
# it was exclusive per conversation, and its activity becomes its details. Its duration is
# ends_at - started_at (the start wrote both from it); a row where that is not so keeps its
# stored duration in its details too, so nothing is lost. Batched, so a big history is not
# read into memory at once.

from django.db import migrations

BATCH = 500


def _planned_seconds(operation) -> float:
    return (operation.ends_at - operation.started_at).total_seconds()


def forward(apps, schema_editor) -> None:
    Operation = apps.get_model("runtime", "Operation")
    batch = []
    for operation in Operation.objects.select_related("instance").order_by("pk").iterator(chunk_size=BATCH):
        operation.app_id = operation.instance.app_id
        operation.exclusive = True
        operation.details = {"activity": operation.activity}
        if operation.duration_seconds is not None and operation.duration_seconds != _planned_seconds(operation):
            operation.details["duration_seconds"] = operation.duration_seconds
        batch.append(operation)
        if len(batch) >= BATCH:
            Operation.objects.bulk_update(batch, ["app_id", "exclusive", "details"])
            batch = []
    if batch:
        Operation.objects.bulk_update(batch, ["app_id", "exclusive", "details"])


def backward(apps, schema_editor) -> None:
    Operation = apps.get_model("runtime", "Operation")
    batch = []
    for operation in Operation.objects.order_by("pk").iterator(chunk_size=BATCH):
        details = operation.details or {}
        operation.activity = details.get("activity")
        operation.duration_seconds = details.get("duration_seconds", round(_planned_seconds(operation)))
        batch.append(operation)
        if len(batch) >= BATCH:
            Operation.objects.bulk_update(batch, ["activity", "duration_seconds"])
            batch = []
    if batch:
        Operation.objects.bulk_update(batch, ["activity", "duration_seconds"])


class Migration(migrations.Migration):
    dependencies = [
        ("runtime", "0012_operation_app_id_exclusive_details"),
    ]

    operations = [migrations.RunPython(forward, backward)]
