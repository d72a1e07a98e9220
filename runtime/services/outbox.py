"""The outbox: final results waiting for the Agent's ack (SPEC R-2.2.8, R-4.2.7).

Entries are written by settlement in the deciding transaction, owned by the Agent whose call
started the operation; delivery is at least once to that Agent only (every attempt is counted and
backs the entry off), the Agent dedupes by ``outbox_id`` and acks, and an ack is final.
"""

from __future__ import annotations

import functools
import uuid
from datetime import datetime, timedelta

import structlog
from django.conf import settings
from django.db import connection
from django.db.models import Case, DateTimeField, F, Field, Value, When

from runtime import metrics
from runtime.errors import Rejection, RejectionCode
from runtime.models import OutboxEntry

logger = structlog.get_logger("lineup.runtime")


@functools.cache
def _outbox_columns() -> tuple[str, dict[str, Field]]:
    """The outbox table and its fields by name (their ``column`` quoted into SQL): the per-frame
    UPDATEs below are written as SQL, since building a one-row statement through the ORM cost more
    Python than the rest of its frame (docs/benchmarks.md, 27h)."""
    meta = OutboxEntry._meta
    names = ("id", "agent", "attempts", "acked_at", "last_attempt_at", "next_attempt_at")
    return meta.db_table, {name: meta.get_field(name) for name in names}


def _prep(field: Field, value: object) -> object:
    """``value`` as the ORM would send it for ``field`` on this connection (a uuid's hex on SQLite,
    an aware datetime's UTC form, a malformed id raising as the ORM's filter would)."""
    return field.get_db_prep_value(field.to_python(value), connection)


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
    table, fields = _outbox_columns()
    c = {name: field.column for name, field in fields.items()}
    with connection.cursor() as cursor:
        cursor.execute(
            f'UPDATE "{table}" SET "{c["attempts"]}" = 1, "{c["last_attempt_at"]}" = %s, "{c["next_attempt_at"]}" = %s'
            f' WHERE "{c["id"]}" IN ({", ".join(["%s"] * len(outbox_ids))}) AND "{c["attempts"]}" = 0',
            [
                _prep(fields["last_attempt_at"], now),
                _prep(fields["next_attempt_at"], now + redelivery_delay(1)),
                *(_prep(fields["id"], outbox_id) for outbox_id in outbox_ids),
            ],
        )
        counted = cursor.rowcount
    metrics.count_outbox_sends(first=counted, redelivered=0)
    return counted


def ack_outbox_entry(*, outbox_id: uuid.UUID | str, agent_id: uuid.UUID | str, now: datetime) -> bool:
    """Ack an entry owned by ``agent_id``; returns False when it was already acked.

    Another Agent's entry is refused exactly like one that does not exist, and changes nothing:
    a result is acked only by the Agent that asked for it. One conditional UPDATE, which is its
    own record (``acked_at``, ``attempts`` on the row; the log line says who acked): the ack is a
    delivery receipt, not a decision, so no audit row is written for it.
    """
    table, fields = _outbox_columns()
    c = {name: field.column for name, field in fields.items()}
    # ``agent_id=None`` (an in-process caller's entry) matches as the ORM's filter would: IS NULL.
    owner, owner_params = ("IS NULL", []) if agent_id is None else ("= %s", [_prep(fields["agent"], agent_id)])
    with connection.cursor() as cursor:
        cursor.execute(
            f'UPDATE "{table}" SET "{c["acked_at"]}" = %s'
            f' WHERE "{c["id"]}" = %s AND "{c["agent"]}" {owner} AND "{c["acked_at"]}" IS NULL',
            [_prep(fields["acked_at"], now), _prep(fields["id"], outbox_id), *owner_params],
        )
        acked = cursor.rowcount
    mine = OutboxEntry.objects.filter(pk=outbox_id, agent_id=agent_id)
    if acked:
        logger.info("outbox.acked", outbox_id=str(outbox_id), agent_id=str(agent_id))
        return True
    if not mine.exists():  # only when nothing was acked: which refusal is it
        raise Rejection(RejectionCode.FORBIDDEN, "no such outbox entry for this Agent")
    return False


def ack_lapsed_outbox_entries(*, channel: str, kept_for: timedelta, now: datetime, limit: int) -> int:
    """Ack, as lapsed, at most ``limit`` unacked ``channel`` entries whose promise ran out: both their
    operation's deadline and their own writing are more than ``kept_for`` ago. Returns how many.

    For a channel whose Agents fetch results instead of being sent them (MCP): an Agent that never
    asks would otherwise keep its entry unacked for ever. The result itself stays on the tool call;
    only the outbox stops counting it as owed. Oldest first, bounded, so one sweep stays short
    however large the backlog; a conditional UPDATE, so a concurrent ack is not counted twice.
    """
    cutoff = now - kept_for
    ids = list(
        OutboxEntry.objects.filter(
            channel=channel, acked_at__isnull=True, created_at__lte=cutoff, operation__ends_at__lte=cutoff
        )
        .order_by("created_at")
        .values_list("id", flat=True)[:limit]
    )
    if not ids:
        return 0
    acked = OutboxEntry.objects.filter(pk__in=ids, acked_at__isnull=True).update(acked_at=now)
    logger.info("outbox.lapsed_acked", channel=channel, count=acked)
    return acked
