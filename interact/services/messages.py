"""IM messages from the person and from the Agent (SPEC R-2.1.1, R-4.3.2, R-4.3.3).

A message may go into an App sub-session block only while that sub-session is open; an ended
block is read-only. Each new message is announced to the conversation's clients after commit.
"""

from __future__ import annotations

import re
import unicodedata
import uuid
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F

from interact.models import MAX_MESSAGE_LENGTH, AuthorKind, Message, MessageDelivery
from runtime import crashpoints
from runtime.clock import isoformat
from runtime.errors import Rejection, RejectionCode
from runtime.events import record_event
from runtime.models import Agent, AppSession, AppSessionState, Conversation
from runtime.projections import project_on_commit
from runtime.services.agents import lock_user_against_new_agents
from runtime.services.outbox import next_attempt_after_send

# Characters that draw nothing although they are not whitespace to ``str.strip``: zero-width space,
# joiners, word joiner, BOM (category Cf), controls (Cc), and letters and symbols that render blank
# (the Hangul fillers, the blank Braille pattern, the combining grapheme joiner).
_INVISIBLE_CATEGORIES = {"Cf", "Cc", "Zs", "Zl", "Zp"}
_BLANK_CHARACTERS = {"\u034f", "\u115f", "\u1160", "\u2800", "\u3164", "\uffa0"}

NO_VISIBLE_CHARACTERS = "the message has no visible characters"


def is_blank(text: str) -> bool:
    """True if ``text`` would show nothing: only whitespace and invisible characters (U+200B, U+FEFF, …)."""
    return all(
        ch.isspace() or ch in _BLANK_CHARACTERS or unicodedata.category(ch) in _INVISIBLE_CATEGORIES for ch in text
    )


def clean_text(text: object) -> str:
    """The message text, stripped; refused if it shows nothing or is too long (never echoed back)."""
    if not isinstance(text, str):
        raise Rejection(RejectionCode.INVALID_ARGUMENTS, "text must be a string")
    text = text.strip()
    if is_blank(text):
        raise Rejection(RejectionCode.INVALID_ARGUMENTS, NO_VISIBLE_CHARACTERS)
    if len(text) > MAX_MESSAGE_LENGTH:
        raise Rejection(
            RejectionCode.INVALID_ARGUMENTS, f"text is {len(text)} characters; the limit is {MAX_MESSAGE_LENGTH}"
        )
    return text


def open_app_session(conversation: Conversation, app_session_id: object) -> AppSession:
    """The conversation's open sub-session ``app_session_id``; ended ones are read-only (R-4.3.5).

    Call inside the transaction that writes into the block: the row lock makes a write racing the
    close that ends the sub-session wait for it and then see ``ended``, so an ended block never
    gains an entry.
    """
    try:
        session = (
            AppSession.objects.select_for_update()
            .filter(pk=uuid.UUID(str(app_session_id)), conversation=conversation)
            .first()
        )
    except ValueError:
        session = None
    if session is None:
        raise Rejection(RejectionCode.UNKNOWN_APP_SESSION, "no such app sub-session in this conversation")
    if session.state != AppSessionState.OPEN:
        raise Rejection(RejectionCode.APP_SESSION_ENDED, "that sub-session has ended and is read-only")
    return session


def message_payload(message: Message) -> dict[str, Any]:
    return {
        "message_id": str(message.id),
        "conversation_id": str(message.conversation_id),
        "author_kind": message.author_kind,
        "app_session_id": str(message.app_session_id) if message.app_session_id else None,
        "text": message.text,
        "data": message.data,
        "created_at": isoformat(message.created_at),
        "client_message_id": message.client_message_id,
    }


def _announce(message: Message, now: datetime) -> None:
    record_event(
        "message.posted",
        at=now,
        conversation_id=message.conversation_id,
        app_session_id=message.app_session_id,
        message_id=str(message.id),
        author_kind=message.author_kind,
        length=len(message.text),
    )
    project_on_commit(message.conversation_id, "message.created", message_payload(message))


CLIENT_MESSAGE_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
# The page's languages (settings.LANGUAGES) as stored with a message, for the Agent to answer in.
PAGE_LANGUAGES = ("en", "zh-hans")


def _check_client_message_id(client_message_id: object) -> str | None:
    if client_message_id is None:
        return None
    if not isinstance(client_message_id, str) or not CLIENT_MESSAGE_ID.match(client_message_id):
        raise Rejection(RejectionCode.INVALID_ARGUMENTS, "client_message_id must be 8 to 64 letters, digits, - or _")
    return client_message_id


def _stored_resend(conversation: Conversation, user_id: int, client_message_id: str, text: str) -> Message | None:
    """The message this client id already stored, if any: a resend is answered with it."""
    stored = Message.objects.filter(conversation=conversation, client_message_id=client_message_id).first()
    if stored is not None and (stored.author_user_id != user_id or stored.text != text):
        raise Rejection(
            RejectionCode.IDEMPOTENCY_KEY_REUSED, "this client_message_id was already used for another message"
        )
    return stored


@transaction.atomic
@crashpoints.scope("post_human_message")  # inside the transaction: the harness counts its statements
def post_human_message(
    *,
    conversation: Conversation,
    user_id: int,
    text: object,
    now: datetime,
    client_message_id: object = None,
    language: object = None,
) -> Message:
    """The person writes in the main IM of ``conversation`` (already access-checked).

    ``client_message_id`` (the page's id for it) makes this idempotent: a resend after a dropped
    connection returns the stored message, with ``replayed`` set, and stores and delivers nothing
    again (the unique constraint ``one_message_per_client_id`` settles a race of two resends).
    ``language`` is the page's language when it was written, kept for the Agent's reply.
    """
    cleaned = clean_text(text)
    client_id = _check_client_message_id(client_message_id)
    if client_id is not None:
        stored = _stored_resend(conversation, user_id, client_id, cleaned)
        if stored is not None:
            stored.replayed = True  # type: ignore[attr-defined]
            return stored
    data = {"language": language} if language in PAGE_LANGUAGES else {}
    try:
        with transaction.atomic():  # a savepoint: a lost race must not break the caller's transaction
            message = Message.objects.create(
                conversation=conversation,
                author_kind=AuthorKind.HUMAN,
                author_user_id=user_id,
                text=cleaned,
                data=data,
                client_message_id=client_id,
                created_at=now,
            )
    except IntegrityError:
        stored = _stored_resend(conversation, user_id, client_id, cleaned) if client_id is not None else None
        if stored is None:
            raise
        stored.replayed = True  # type: ignore[attr-defined]
        return stored
    message.replayed = False  # type: ignore[attr-defined]
    # One delivery per Agent of the user, in the same transaction: each Agent gets every message.
    # An Agent created meanwhile either is read here or finds this message unanswered (the lock).
    lock_user_against_new_agents(conversation.owner_id)
    agents = Agent.objects.filter(user_id=conversation.owner_id).values_list("pk", flat=True)
    MessageDelivery.objects.bulk_create(
        MessageDelivery(message=message, agent_id=agent_id, next_attempt_at=now) for agent_id in agents
    )
    _announce(message, now)
    return message


# What a newly created Agent is given of the person's earlier messages: those still unanswered
# (no Agent has written in that conversation since), if recent — an Agent connected tomorrow should
# not answer what the person asked last week, but a new user's first words, written while their
# built-in Agent was being made, must reach it.
UNANSWERED_WINDOW = timedelta(hours=1)
UNANSWERED_LIMIT = 20  # per conversation, the newest


def deliver_unanswered_messages(*, agent: Agent, now: datetime) -> int:
    """Give the new ``agent`` a delivery of each unanswered recent message of its user; returns how many.

    Called inside the transaction that creates the Agent (``runtime.extensions.agent_created``),
    which holds the user's row: a message being written at the same moment is either seen here or
    sees the Agent itself (``lock_user_against_new_agents``).
    """
    deliveries = []
    for conversation_id in Conversation.objects.filter(owner_id=agent.user_id).values_list("pk", flat=True):
        last_answer = (
            Message.objects.filter(conversation_id=conversation_id, author_kind=AuthorKind.AGENT)
            .order_by("-created_at")
            .values_list("created_at", flat=True)
            .first()
        )
        since = max(filter(None, [last_answer, now - UNANSWERED_WINDOW]))
        unanswered = (
            Message.objects.filter(
                conversation_id=conversation_id,
                author_kind=AuthorKind.HUMAN,
                app_session__isnull=True,
                created_at__gt=since,
            )
            .order_by("-created_at")
            .values_list("pk", flat=True)[:UNANSWERED_LIMIT]
        )
        deliveries += [MessageDelivery(message_id=pk, agent=agent, next_attempt_at=now) for pk in unanswered]
    MessageDelivery.objects.bulk_create(deliveries, ignore_conflicts=True)
    return len(deliveries)


@transaction.atomic
def post_agent_message(
    *, conversation: Conversation, agent: Agent, text: object, app_session_id: object = None, now: datetime
) -> Message:
    """The Agent writes in the main IM, or in an open sub-session block when ``app_session_id`` is given."""
    session = open_app_session(conversation, app_session_id) if app_session_id is not None else None
    message = Message.objects.create(
        conversation=conversation,
        author_kind=AuthorKind.AGENT,
        author_agent=agent,
        app_session=session,
        text=clean_text(text),
        created_at=now,
    )
    _announce(message, now)
    return message


def mark_messages_sent(*, deliveries: list[MessageDelivery], now: datetime) -> None:
    """Count one (re)delivery of each and back each off (as the outbox does), in one UPDATE."""
    if not deliveries:
        return
    backoff = next_attempt_after_send(attempts_sent_before={d.attempts for d in deliveries}, now=now)
    MessageDelivery.objects.filter(pk__in=[d.pk for d in deliveries], acked_at__isnull=True).update(
        attempts=F("attempts") + 1, next_attempt_at=backoff
    )


@transaction.atomic
def ack_message(*, agent: Agent, message_id: uuid.UUID | str, now: datetime) -> bool:
    """The Agent has the person's message: it is not sent to that Agent again. False if already acked.

    A message that is not on its way to this Agent is refused ``forbidden``, like an unknown one.
    """
    delivery = MessageDelivery.objects.select_for_update().filter(agent=agent, message_id=message_id).first()
    if delivery is None:
        raise Rejection(RejectionCode.FORBIDDEN, "no such message for this Agent")
    if delivery.acked_at is not None:
        return False
    delivery.acked_at = now
    delivery.save(update_fields=["acked_at"])
    Message.objects.filter(pk=message_id, delivered_to_agent_at__isnull=True).update(delivered_to_agent_at=now)
    return True
