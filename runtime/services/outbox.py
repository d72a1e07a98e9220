"""The outbox: final results waiting for the Agent's ack (SPEC R-2.2.8, R-4.2.7).

Entries are written by settlement in the deciding transaction, owned by the Agent whose call
started the operation; delivery is at least once to that Agent only (every attempt is counted and
backs the entry off), the Agent dedupes by ``outbox_id`` and acks, and an ack is final.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

import structlog
from django.conf import settings
from django.db.models import Case, DateTimeField, F, Value, When

from runtime import metrics
from runtime.errors import Rejection, RejectionCode
from runtime.models import OutboxEntry

logger = structlog.get_logger("lineup.runtime")


def redelivery_delay(attempts: int) -> timedelta:
    """How long an entry sent ``attempts`` times waits before the next send: doubling, bounded."""
    base = settings.LINEUP_OUTBOX_REDELIVERY_SECONDS
    return timedelta(seconds=min(base * 2 ** max(attempts - 1, 0), settings.LINEUP_OUTBOX_REDELIVERY_MAX_SECONDS))


def next_attempt_after_send(*, attempts_sent_before: set[int], now: datetime) -> Case:
    """The ``next_attempt_at`` of a row sent once more at ``now``, as an SQL expression on its
    ``attempts`` (before the increment): one UPDATE backs off a whole page, whatever each row's count.

    Shared by every at-least-once queue to an Agent (outbox entries, person messages).
    A row whose count moved on after the page was read (its first send counted from a settlement's
    hint meanwhile) matches no ``When``: it backs off as for one more send than the highest count
    read, instead of the ``CASE`` yielding NULL for a column that can not hold it.
    """
    return Case(
        *(When(attempts=n, then=Value(now + redelivery_delay(n + 1))) for n in attempts_sent_before),
        default=Value(now + redelivery_delay(max(attempts_sent_before, default=0) + 2)),
        output_field=DateTimeField(),
    )


def mark_sent(*, entries: list[OutboxEntry], now: datetime) -> None:
    """Count one (re)delivery of each of ``entries`` and back each off, in one UPDATE for the page.

    One statement, so it needs no transaction around it; an entry acked meanwhile is left alone.
    The in-memory entries are updated to match.
    """
    if not entries:
        return
    backoff = next_attempt_after_send(attempts_sent_before={e.attempts for e in entries}, now=now)
    OutboxEntry.objects.filter(pk__in=[e.pk for e in entries], acked_at__isnull=True).update(
        attempts=F("attempts") + 1, last_attempt_at=now, next_attempt_at=backoff
    )
    first = sum(1 for entry in entries if entry.attempts == 0)
    metrics.count_outbox_sends(first=first, redelivered=len(entries) - first)
    for entry in entries:
        entry.attempts += 1
        entry.last_attempt_at = now
        entry.next_attempt_at = now + redelivery_delay(entry.attempts)


def mark_first_sent(*, outbox_ids: list[str], now: datetime) -> int:
    """Count the first send of entries pushed from their settlement's hint, in one UPDATE.

    The hint's send did not read the outbox (docs/decisions/0032), so it is counted just after
    the send instead of just before: a crash between the two leaves the entry due, and the next
    round sends it again (still at least once). One already sent by a delivery round is left
    alone; one the Agent acked meanwhile (a fast Agent acks before this runs) is still counted:
    its ack proves the send, and an acked entry is never sent again whatever its backoff says.
    """
    if not outbox_ids:
        return 0
    counted = OutboxEntry.objects.filter(pk__in=outbox_ids, attempts=0).update(
        attempts=1, last_attempt_at=now, next_attempt_at=now + redelivery_delay(1)
    )
    metrics.count_outbox_sends(first=counted, redelivered=0)
    return counted


def ack_outbox_entry(*, outbox_id: uuid.UUID | str, agent_id: uuid.UUID | str, now: datetime) -> bool:
    """Ack an entry owned by ``agent_id``; returns False when it was already acked.

    Another Agent's entry is refused exactly like one that does not exist, and changes nothing:
    a result is acked only by the Agent that asked for it. One conditional UPDATE, which is its
    own record (``acked_at``, ``attempts`` on the row; the log line says who acked): the ack is a
    delivery receipt, not a decision, so no audit row is written for it.
    """
    mine = OutboxEntry.objects.filter(pk=outbox_id, agent_id=agent_id)
    if mine.filter(acked_at__isnull=True).update(acked_at=now):
        logger.info("outbox.acked", outbox_id=str(outbox_id), agent_id=str(agent_id))
        return True
    if not mine.exists():  # only when nothing was acked: which refusal is it
        raise Rejection(RejectionCode.FORBIDDEN, "no such outbox entry for this Agent")
    return False
