"""Time as the Runtime writes it: aware UTC datetimes, millisecond precision, ISO 8601 with Z."""

from __future__ import annotations

from datetime import UTC, datetime


def to_millis(moment: datetime) -> datetime:
    """Drop sub-millisecond digits so a stored time and its ISO text are the same instant."""
    if moment.tzinfo is None:
        raise ValueError("the Runtime only takes aware datetimes")
    moment = moment.astimezone(UTC)
    return moment.replace(microsecond=moment.microsecond // 1000 * 1000)


def isoformat(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
