"""Contract step 1 of 2 for the running state (decision 0053): the rows of releases before 0024 say ``running``.

Migration 0024 made ``running`` the stored word while every read still accepted ``focusing``, the
word v2026.12.2 and earlier wrote. v2026.12.3 writes only ``running``, so once no process of
v2026.12.2 runs no new ``focusing`` row appears, and this converts the old ones.

In batches, each its own short transaction (the migration is not atomic): a batch locks only its
own rows, found through the old release's partial index ``focusing_by_ends_at`` from where the
previous batch ended (not from its start, where the converted rows' index entries are still to be
stepped over until a vacuum), while v2026.12.3 keeps serving (it reads both words until 0027
narrows the constraints). A row a settlement holds is waited for and skipped if it is no longer
``focusing`` when the lock is granted. Cost per 100 000 rows: docs/releases.md. Backwards: nothing to undo (the widened constraints accept
``running``, and which rows once said ``focusing`` is not kept).
"""

from django.db import migrations, transaction
from django.db.models import Q

PREVIOUS = "focusing"  # the word of v2026.12.2 and before: spelt in migrations only from now on
RUNNING = "running"
BATCH = 1000


def convert(apps, schema_editor) -> None:
    Operation = apps.get_model("runtime", "Operation")
    alias = schema_editor.connection.alias
    rows = Operation.objects.using(alias).filter(state=PREVIOUS).order_by("ends_at", "id")
    after = None  # (ends_at, id) of the last row converted: each batch starts past it in the index
    while True:
        page = rows if after is None else rows.filter(ends_at__gte=after[0]).filter(Q(ends_at__gt=after[0]) | Q(id__gt=after[1]))
        with transaction.atomic(using=alias):
            batch = list(page.values_list("ends_at", "id")[:BATCH])
            if not batch:
                return
            Operation.objects.using(alias).filter(pk__in=[pk for _, pk in batch], state=PREVIOUS).update(state=RUNNING)
        after = batch[-1]


class Migration(migrations.Migration):
    atomic = False  # each batch commits on its own: no lock outlives a batch

    dependencies = [("runtime", "0025_view_private_details")]

    operations = [migrations.RunPython(convert, migrations.RunPython.noop, elidable=False)]
