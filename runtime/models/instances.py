"""App instances, their sub-sessions and their business-state snapshots (SPEC §3, R-4.3.1)."""

from __future__ import annotations

import uuid

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from runtime.transitions import LifecycleState


class AppInstance(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False, verbose_name=_("ID"))
    conversation = models.ForeignKey(
        "runtime.Conversation", on_delete=models.CASCADE, related_name="app_instances", verbose_name=_("conversation")
    )
    app_id = models.CharField(max_length=64, verbose_name=_("app"))
    is_system = models.BooleanField(default=False, verbose_name=_("system app"))
    lifecycle_state = models.CharField(
        max_length=16,
        choices=LifecycleState.choices,
        default=LifecycleState.LAUNCHING,
        verbose_name=_("lifecycle state"),
    )
    focus_seq = models.PositiveBigIntegerField(default=0, verbose_name=_("focus sequence"))
    opened_at = models.DateTimeField(verbose_name=_("opened at"))
    closed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("closed at"))
    close_reason = models.CharField(max_length=32, blank=True, default="", verbose_name=_("close reason"))
    restored_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("Set when recovery found this instance alive after a restart."),
        verbose_name=_("restored at"),
    )

    class Meta:
        verbose_name = _("app instance")
        verbose_name_plural = _("app instances")
        ordering = ["opened_at"]
        indexes = [
            # The open instances of a conversation by focus order: the previous valid instance, the
            # app in front, the host closing. It holds only the few open ones, so these reads do not
            # grow with the conversation's closed history (runtime migration 0010 has the plans).
            models.Index(
                fields=["conversation", "focus_seq"],
                condition=~Q(lifecycle_state=LifecycleState.CLOSED),
                name="open_instances_by_focus",
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["conversation"],
                condition=Q(lifecycle_state=LifecycleState.FOREGROUND),
                name="one_foreground_instance_per_conversation",
            ),
            models.UniqueConstraint(
                fields=["conversation", "app_id"],
                condition=Q(is_system=True),
                name="one_system_instance_per_app_and_conversation",
            ),
            models.CheckConstraint(
                condition=Q(lifecycle_state=LifecycleState.CLOSED, closed_at__isnull=False)
                | (~Q(lifecycle_state=LifecycleState.CLOSED) & Q(closed_at__isnull=True)),
                name="instance_closed_iff_closed_at",
            ),
            models.CheckConstraint(
                condition=Q(is_system=False) | ~Q(lifecycle_state=LifecycleState.CLOSED),
                name="system_instance_never_closed",
            ),
        ]

    def __str__(self) -> str:
        return str(_("%(app)s %(id)s (%(state)s)")) % {
            "app": self.app_id,
            "id": self.id,
            "state": self.get_lifecycle_state_display(),
        }


class AppSessionState(models.TextChoices):
    OPEN = "open", _("open")
    ENDED = "ended", _("ended")


class AppSession(models.Model):
    """The sub-session in Interact about one instance (R-3.1, R-4.3.1); read-only once ended."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False, verbose_name=_("ID"))
    instance = models.OneToOneField(
        AppInstance, on_delete=models.CASCADE, related_name="app_session", verbose_name=_("instance")
    )
    conversation = models.ForeignKey(
        "runtime.Conversation", on_delete=models.CASCADE, related_name="app_sessions", verbose_name=_("conversation")
    )
    state = models.CharField(
        max_length=8, choices=AppSessionState.choices, default=AppSessionState.OPEN, verbose_name=_("state")
    )
    opened_at = models.DateTimeField(verbose_name=_("opened at"))
    ended_at = models.DateTimeField(null=True, blank=True, verbose_name=_("ended at"))

    class Meta:
        verbose_name = _("app session")
        verbose_name_plural = _("app sessions")
        ordering = ["opened_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(state=AppSessionState.ENDED, ended_at__isnull=False)
                | Q(state=AppSessionState.OPEN, ended_at__isnull=True),
                name="app_session_ended_iff_ended_at",
            ),
        ]

    def __str__(self) -> str:
        return str(_("app session %(id)s (%(state)s)")) % {"id": self.id, "state": self.get_state_display()}


class InstanceSnapshot(models.Model):
    """The instance's business-state snapshot (``app.instance-state.v1``, R-2.2.4, R-3.13).

    Written only through a revision compare-and-set; frozen (read-only history) once the
    instance is closed.
    """

    instance = models.OneToOneField(
        AppInstance, on_delete=models.CASCADE, primary_key=True, related_name="snapshot", verbose_name=_("instance")
    )
    schema_version = models.PositiveSmallIntegerField(verbose_name=_("schema version"))
    revision = models.PositiveIntegerField(default=0, verbose_name=_("revision"))
    state = models.JSONField(null=True, blank=True, verbose_name=_("state"))
    size_bytes = models.PositiveIntegerField(default=0, verbose_name=_("size (bytes)"))
    updated_at = models.DateTimeField(verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("instance snapshot")
        verbose_name_plural = _("instance snapshots")
        constraints = [
            models.CheckConstraint(
                condition=Q(revision=0, state__isnull=True) | Q(revision__gt=0, state__isnull=False),
                name="snapshot_state_iff_revision",
            ),
        ]

    def __str__(self) -> str:
        return str(_("snapshot of %(instance)s r%(revision)s")) % {
            "instance": self.instance_id,
            "revision": self.revision,
        }
