"""Standard interactions: notice / choice / confirm / input (SPEC R-2.1.1, R-4.3.4, R-4.3.5).

They belong to Interact and their conversation whatever app is in the foreground. Life cycle:
``pending`` -> ``answered`` | ``dismissed`` | ``timed_out`` | ``failed`` | ``superseded`` (exactly
once, by a compare-and-set on ``status``). One still pending when its sub-session ends stays
answerable in the main IM and is never appended to the ended block.

Questions stay few and current: an ``interaction_id`` with a topic (``<topic>.<rest>``, e.g. the
reference Agent's ``again.en.1500.<outbox_id>``) supersedes the same Agent's still-pending
interactions of that topic in the conversation, so a person who never answers "another round?"
has one such question waiting, the newest, never a pile of stale ones. An Agent may also withdraw
its pending question (``withdraw_interaction``) once the moment has passed; it ends ``superseded``.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction

from interact.models import Interaction, InteractionKind, InteractionStatus
from interact.services.messages import open_app_session
from runtime import crashpoints
from runtime.clock import isoformat
from runtime.errors import Rejection, RejectionCode
from runtime.events import record_event
from runtime.models import Agent, Conversation
from runtime.projections import project_on_commit

MAX_PROMPT_LENGTH = 1000
MAX_INPUT_LENGTH = 2000
MAX_OPTIONS = 10
MAX_TIMEOUT_SECONDS = 24 * 60 * 60


def interaction_payload(interaction: Interaction) -> dict[str, Any]:
    return {
        "id": str(interaction.id),
        "interaction_id": interaction.interaction_id,
        "conversation_id": str(interaction.conversation_id),
        "app_session_id": str(interaction.app_session_id) if interaction.app_session_id else None,
        "kind": interaction.kind,
        "prompt": interaction.prompt,
        "options": interaction.options,
        "status": interaction.status,
        "value": interaction.value,
        "created_at": isoformat(interaction.created_at),
        "expires_at": isoformat(interaction.expires_at) if interaction.expires_at else None,
        "resolved_at": isoformat(interaction.resolved_at) if interaction.resolved_at else None,
    }


def _check_request(kind: object, prompt: object, options: object, timeout_seconds: object) -> list[dict[str, str]]:
    if kind not in InteractionKind.values:
        raise Rejection(RejectionCode.INVALID_ARGUMENTS, f"kind must be one of {', '.join(InteractionKind.values)}")
    if not isinstance(prompt, str) or not prompt.strip() or len(prompt) > MAX_PROMPT_LENGTH:
        raise Rejection(RejectionCode.INVALID_ARGUMENTS, f"prompt must be 1 to {MAX_PROMPT_LENGTH} characters")
    if timeout_seconds is not None and (
        not isinstance(timeout_seconds, int)
        or isinstance(timeout_seconds, bool)
        or not 1 <= timeout_seconds <= MAX_TIMEOUT_SECONDS
    ):
        raise Rejection(
            RejectionCode.INVALID_ARGUMENTS, f"timeout_seconds must be an integer from 1 to {MAX_TIMEOUT_SECONDS}"
        )
    if kind != InteractionKind.CHOICE:
        if options not in (None, []):
            raise Rejection(RejectionCode.INVALID_ARGUMENTS, "options are only for a choice")
        return []
    if not isinstance(options, list) or not 2 <= len(options) <= MAX_OPTIONS:
        raise Rejection(RejectionCode.INVALID_ARGUMENTS, f"a choice needs 2 to {MAX_OPTIONS} options")
    cleaned, seen = [], set()
    for index, option in enumerate(options):
        if (
            not isinstance(option, dict)
            or set(option) != {"id", "label"}
            or not all(isinstance(option[k], str) and 1 <= len(option[k]) <= 200 for k in ("id", "label"))
        ):
            raise Rejection(
                RejectionCode.INVALID_ARGUMENTS, f"options/{index} must be {{id, label}} strings of 1 to 200 characters"
            )
        if option["id"] in seen:
            raise Rejection(RejectionCode.INVALID_ARGUMENTS, f"options/{index}: duplicate id {option['id']!r}")
        seen.add(option["id"])
        cleaned.append({"id": option["id"], "label": option["label"]})
    return cleaned


@transaction.atomic
def request_interaction(
    *,
    conversation: Conversation,
    agent: Agent,
    interaction_id: object,
    kind: object,
    prompt: object,
    options: object = None,
    timeout_seconds: object = None,
    app_session_id: object = None,
    now: datetime,
) -> Interaction:
    """The Agent asks the person something. Idempotent by ``interaction_id`` within the conversation.

    The id stays unique in the conversation (the person's timeline and the event log name an
    interaction by it), but only the Agent that asked may replay it: see ``_replay``.
    """
    if not isinstance(interaction_id, str) or not 1 <= len(interaction_id) <= 128:
        raise Rejection(RejectionCode.INVALID_ARGUMENTS, "interaction_id must be a string of 1 to 128 characters")
    cleaned = _check_request(kind, prompt, options, timeout_seconds)
    existing = Interaction.objects.filter(conversation=conversation, interaction_id=interaction_id).first()
    if existing is not None:
        return _replay(existing, agent, kind, prompt, cleaned)
    session = open_app_session(conversation, app_session_id) if app_session_id is not None else None
    try:
        with transaction.atomic():  # a savepoint: losing the race below must not break the caller's transaction
            interaction = Interaction.objects.create(
                conversation=conversation,
                interaction_id=interaction_id,
                agent=agent,
                app_session=session,
                kind=kind,
                prompt=prompt,
                options=cleaned,
                created_at=now,
                expires_at=now + timedelta(seconds=timeout_seconds) if timeout_seconds else None,
            )
    except IntegrityError:
        # The same interaction_id was committed concurrently (a retry on another connection): the
        # unique constraint made this insert wait for it; answer like any retry.
        existing = Interaction.objects.filter(conversation=conversation, interaction_id=interaction_id).first()
        if existing is None:
            raise
        return _replay(existing, agent, kind, prompt, cleaned)
    record_event(
        "interaction.requested",
        at=now,
        conversation_id=conversation.id,
        app_session_id=interaction.app_session_id,
        interaction_id=interaction_id,
        interaction_kind=kind,
    )
    project_on_commit(conversation.id, "interaction.created", interaction_payload(interaction))
    _supersede_older(interaction, now)
    return interaction


def interaction_topic(interaction_id: str) -> str | None:
    """``again`` for ``again.en.1500.<outbox_id>``; None for an id without a topic (no dot)."""
    topic, dot, _ = interaction_id.partition(".")
    return topic if dot and topic else None


def _supersede_older(newer: Interaction, now: datetime) -> int:
    """Resolve the same Agent's older pending interactions of ``newer``'s topic as ``superseded``."""
    topic = interaction_topic(newer.interaction_id)
    if topic is None or newer.agent_id is None:
        return 0
    older = (
        Interaction.objects.select_for_update()
        .filter(
            conversation_id=newer.conversation_id,
            agent_id=newer.agent_id,
            status=InteractionStatus.PENDING,
            interaction_id__startswith=f"{topic}.",
            created_at__lte=newer.created_at,
        )
        .exclude(pk=newer.pk)
    )
    return sum(
        _resolve(interaction, InteractionStatus.SUPERSEDED, None, now, superseded_by=newer.interaction_id)
        for interaction in older
    )


def _replay(
    existing: Interaction, agent: Agent, kind: object, prompt: object, cleaned: list[dict[str, str]]
) -> Interaction:
    """A request repeating ``existing``'s interaction_id: the same row, or refused.

    A retry is the same Agent asking the same thing. Another Agent of the user (or any Agent once the
    one that asked was deleted) re-using the id is refused like a content mismatch, and with the very
    same detail whatever the first question was: answering it with ``existing`` would hand it
    another Agent's question, status and answer, and a different detail would tell it whether it
    guessed the question right.
    """
    if existing.agent_id != agent.pk or (existing.kind, existing.prompt, existing.options) != (kind, prompt, cleaned):
        raise Rejection(
            RejectionCode.IDEMPOTENCY_KEY_REUSED,
            f"interaction_id {existing.interaction_id!r} was already used in this conversation",
        )
    return existing


def _check_answer(interaction: Interaction, value: object) -> object:
    kind = interaction.kind
    if kind == InteractionKind.NOTICE:
        if value is not None:
            raise Rejection(RejectionCode.INVALID_ANSWER, "a notice is acknowledged without a value")
    elif kind == InteractionKind.CONFIRM:
        if not isinstance(value, bool):
            raise Rejection(RejectionCode.INVALID_ANSWER, "a confirm is answered true or false")
    elif kind == InteractionKind.CHOICE:
        # Check the type first: a list or object answer is not hashable, so no set lookup for it.
        if not isinstance(value, str) or value not in {o["id"] for o in interaction.options}:
            raise Rejection(RejectionCode.INVALID_ANSWER, "the answer must be one of the option ids")
    elif not isinstance(value, str) or len(value) > MAX_INPUT_LENGTH:
        raise Rejection(
            RejectionCode.INVALID_ANSWER, f"an input is answered with text of at most {MAX_INPUT_LENGTH} characters"
        )
    return value


def _resolve(
    interaction: Interaction, status: InteractionStatus, value: object, now: datetime, **event: object
) -> bool:
    won = Interaction.objects.filter(pk=interaction.pk, status=InteractionStatus.PENDING).update(
        status=status, value=value, resolved_at=now
    )
    if won != 1:
        return False
    interaction.refresh_from_db()
    record_event(
        f"interaction.{status}",
        at=now,
        conversation_id=interaction.conversation_id,
        app_session_id=interaction.app_session_id,
        interaction_id=interaction.interaction_id,
        interaction_kind=interaction.kind,
        **event,
    )
    project_on_commit(interaction.conversation_id, "interaction.resolved", interaction_payload(interaction))
    return True


def _pending_for(conversation_ids: list[uuid.UUID], interaction_pk: object) -> Interaction:
    try:
        interaction = (
            Interaction.objects.select_for_update()
            .filter(pk=uuid.UUID(str(interaction_pk)), conversation_id__in=conversation_ids)
            .first()
        )
    except ValueError:
        interaction = None
    if interaction is None:
        raise Rejection(RejectionCode.UNKNOWN_INTERACTION, "no such interaction")
    if interaction.status == InteractionStatus.SUPERSEDED:
        raise Rejection(
            RejectionCode.INTERACTION_RESOLVED, "this interaction is already superseded: a newer question replaced it"
        )
    if interaction.status != InteractionStatus.PENDING:
        raise Rejection(RejectionCode.INTERACTION_RESOLVED, f"this interaction is already {interaction.status}")
    return interaction


@transaction.atomic
def withdraw_interaction(
    *, conversation: Conversation, agent: Agent, interaction_id: object, now: datetime
) -> Interaction:
    """The Agent takes back its own question: still pending, it is resolved ``superseded`` (the moment
    it was about has passed: the person started something else, or stopped). Idempotent: an already
    resolved one is returned as it is. Another Agent's id, or an unknown one, is ``forbidden``."""
    interaction = (
        Interaction.objects.select_for_update()
        .filter(conversation=conversation, interaction_id=interaction_id, agent=agent)
        .first()
    )
    if interaction is None:
        raise Rejection(RejectionCode.FORBIDDEN, "no such interaction of this Agent in this conversation")
    if interaction.status == InteractionStatus.PENDING:
        _resolve(interaction, InteractionStatus.SUPERSEDED, None, now, withdrawn=True)
    return interaction


@transaction.atomic
@crashpoints.scope("answer_interaction")  # inside the transaction: the crash-point harness counts its statements
def answer_interaction(
    *, conversation_ids: list[uuid.UUID], interaction_pk: object, value: object, now: datetime
) -> Interaction:
    """The person answers, from wherever it is displayed (main IM or over a foreground app)."""
    interaction = _pending_for(conversation_ids, interaction_pk)
    _resolve(interaction, InteractionStatus.ANSWERED, _check_answer(interaction, value), now)
    return interaction


@transaction.atomic
def dismiss_interaction(*, conversation_ids: list[uuid.UUID], interaction_pk: object, now: datetime) -> Interaction:
    interaction = _pending_for(conversation_ids, interaction_pk)
    _resolve(interaction, InteractionStatus.DISMISSED, None, now)
    return interaction


def expire_due_interactions(*, now: datetime) -> int:
    """Time out every pending interaction whose ``expires_at`` has passed (run by the sweep)."""
    expired = 0
    due = Interaction.objects.filter(status=InteractionStatus.PENDING, expires_at__lte=now).values_list("pk", flat=True)
    for pk in list(due[:500]):
        with transaction.atomic():
            interaction = Interaction.objects.select_for_update().get(pk=pk)
            expired += _resolve(interaction, InteractionStatus.TIMED_OUT, None, now)
    return expired


def fail_pending_interactions_of_agent(*, agent: Agent, reason: str, now: datetime) -> int:
    """The Runtime fails what an Agent that can no longer hear the answer was waiting for."""
    failed = 0
    for interaction in Interaction.objects.select_for_update().filter(agent=agent, status=InteractionStatus.PENDING):
        failed += _resolve(interaction, InteractionStatus.FAILED, None, now, reason=reason)
    return failed


def ack_resolution(*, agent: Agent, conversation_id: uuid.UUID | str, interaction_id: str, now: datetime) -> bool:
    """The Agent has the resolution of its interaction: it is not sent again. False if already acked.

    An interaction that is not this Agent's, or not resolved yet, is refused ``forbidden``.
    """
    resolved = Interaction.objects.filter(
        agent=agent, conversation_id=conversation_id, interaction_id=interaction_id
    ).exclude(status=InteractionStatus.PENDING)
    if resolved.filter(resolution_delivered_at__isnull=True).update(resolution_delivered_at=now):
        return True
    if not resolved.exists():
        raise Rejection(RejectionCode.FORBIDDEN, "no such resolved interaction for this Agent")
    return False
