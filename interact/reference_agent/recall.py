"""What the built-in Agents read back from the database: a result's activity after a restart.

The Agents run inside a LineUp process (the embedded server's supervisor or ``manage.py
run_reference_agent``), so besides the protocol they can read their own user's rows. Only this:
the ``tool.result`` frame's frozen result_schema has no activity, and what the Agent remembered
of the call is gone once the process restarted.
"""

from __future__ import annotations

import uuid

from interact.reference_agent.supervisor import run_db
from runtime.models import Operation


def _activity(conversation_id: str, operation_id: str) -> str | None:
    try:
        ids = uuid.UUID(conversation_id), uuid.UUID(operation_id)
    except ValueError:
        return None
    return (
        Operation.objects.filter(pk=ids[1], conversation_id=ids[0]).values_list("details__activity", flat=True).first()
        or None
    )


async def activity_of_operation(conversation_id: str, operation_id: str) -> str | None:
    """The activity of the operation behind a result, read in a worker thread (never on the loop)."""
    return await run_db(_activity, conversation_id, operation_id)
