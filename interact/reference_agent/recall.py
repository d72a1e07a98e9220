"""What the built-in Agents read back from the database, about their own user's conversations.

The Agents run inside a LineUp process (the embedded server's supervisor or ``manage.py
run_reference_agent``), so besides the protocol they can read their own user's rows. Only these:

* a result's activity after a restart (the ``tool.result`` frame's frozen result_schema has none,
  and what the Agent remembered of the call is gone once the process restarted);
* the running focus, for "how long is left?" (the protocol has no read tool);
* the person's language: the page's language a message was written in (``Message.data``), else
  their saved one (``LanguagePreference``), so replies, questions and buttons speak one language.
"""

from __future__ import annotations

import uuid
from typing import Any

from interact.models import AuthorKind, LanguagePreference, Message
from interact.reference_agent.intents import Language
from interact.reference_agent.supervisor import run_db
from runtime.clock import isoformat
from runtime.models import Conversation, Operation
from runtime.transitions import RUNNING_STATES


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


def _running_focus(conversation_id: str) -> dict[str, Any] | None:
    try:
        conversation = uuid.UUID(conversation_id)
    except ValueError:
        return None
    row = (
        Operation.objects.filter(conversation_id=conversation, app_id="pomodoro", state__in=RUNNING_STATES)
        .values("details__activity", "started_at", "ends_at")
        .first()
    )
    if row is None:
        return None
    return {
        "activity": row["details__activity"],
        "started_at": isoformat(row["started_at"]),
        "ends_at": isoformat(row["ends_at"]),
    }


async def running_focus(conversation_id: str) -> dict[str, Any] | None:
    """The conversation's focusing operation (activity, started_at, ends_at), for "how long is left?"."""
    return await run_db(_running_focus, conversation_id)


def agent_language(code: str | None) -> Language | None:
    """A page language code ("zh-hans", "en") as the Agent's language; None for an unknown one."""
    if not code:
        return None
    if code.lower().startswith("zh"):
        return "zh"
    return "en" if code.lower().startswith("en") else None


def _language(conversation_id: str, message_id: str | None) -> Language | None:
    try:
        conversation = uuid.UUID(conversation_id)
        message = uuid.UUID(message_id) if message_id else None
    except ValueError:
        return None
    humans = Message.objects.filter(conversation_id=conversation, author_kind=AuthorKind.HUMAN)
    if message is not None:
        # The page's language when the person wrote this message: what they are reading right now.
        written_in = humans.filter(pk=message).values_list("data__language", flat=True).first()
        if agent_language(written_in):
            return agent_language(written_in)
    owner = Conversation.objects.filter(pk=conversation).values_list("owner_id", flat=True).first()
    saved = LanguagePreference.objects.filter(user_id=owner).values_list("language", flat=True).first()
    if agent_language(saved):
        return agent_language(saved)
    latest = (
        humans.exclude(data__language=None).order_by("-created_at").values_list("data__language", flat=True).first()
    )
    return agent_language(latest)


async def person_language(conversation_id: str, message_id: str | None) -> Language | None:
    """The person's language: the page's when they wrote ``message_id``, else their saved one, else the
    page's of their latest message; None when none is known (the Agent then follows the message)."""
    return await run_db(_language, conversation_id, message_id)
