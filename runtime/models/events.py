"""The append-only audit log of every decision."""

from __future__ import annotations

from django.db import models


class LifecycleEvent(models.Model):
    """Append-only audit of every lifecycle, tool, rejection and recovery decision.

    Ids are plain values, not foreign keys, so the log outlives what it describes. On
    PostgreSQL a trigger (migration 0002) refuses UPDATE and DELETE.
    """

    id = models.BigAutoField(primary_key=True)
    at = models.DateTimeField(db_index=True)
    kind = models.CharField(max_length=64, db_index=True)
    conversation_id = models.UUIDField(null=True, blank=True, db_index=True)
    instance_id = models.UUIDField(null=True, blank=True)
    app_session_id = models.UUIDField(null=True, blank=True)
    operation_id = models.UUIDField(null=True, blank=True, db_index=True)
    source_tool_call_id = models.CharField(max_length=128, blank=True, default="")
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.kind}"
