"""The rows a settlement locks, read in the statement that locks them.

``lock_operations`` reads each operation with what its settlement needs (its instance, its start
call, the conversation's previous valid foreground app), on either engine: the settlement that
follows writes through one path (``runtime.services.settlements``, decision 0056).
"""

from __future__ import annotations

from django.db.models import Q, Subquery

from runtime.models import Operation
from runtime.services.workspace import previous_valid_instance_of


def lock_operations(which: Q, **also: Subquery) -> list[Operation]:
    """Lock the operations ``which`` selects, reading in the same statement their instance, their
    start call (whose caller owns the result) and their conversation's previous valid foreground app."""
    return list(
        Operation.objects.select_for_update(of=("self",))
        .select_related("instance", "tool_call")
        .filter(which)
        .annotate(**previous_valid_instance_of("instance_id"), **also)
        .order_by("conversation_id")
    )
