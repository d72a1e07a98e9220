"""The append-only audit log of every decision."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class LifecycleEvent(models.Model):
    """Append-only audit of every lifecycle, tool, rejection and recovery decision.

    Ids are plain values, not foreign keys, so the log outlives what it describes. On
    PostgreSQL a trigger (migration 0002) refuses UPDATE and DELETE.
    """

    id = models.BigAutoField(primary_key=True, verbose_name=_("ID"))
    at = models.DateTimeField(db_index=True, verbose_name=_("at"))
    kind = models.CharField(max_length=64, db_index=True, verbose_name=_("kind"))
    conversation_id = models.UUIDField(null=True, blank=True, db_index=True, verbose_name=_("conversation id"))
    instance_id = models.UUIDField(null=True, blank=True, verbose_name=_("instance id"))
    app_session_id = models.UUIDField(null=True, blank=True, verbose_name=_("app session id"))
    operation_id = models.UUIDField(null=True, blank=True, db_index=True, verbose_name=_("operation id"))
    source_tool_call_id = models.CharField(
        max_length=128, blank=True, default="", verbose_name=_("tool call id (idempotency key)")
    )
    data = models.JSONField(default=dict, blank=True, verbose_name=_("data"))

    class Meta:
        verbose_name = _("lifecycle event")
        verbose_name_plural = _("lifecycle events")
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.kind}"
