"""The Runtime's data and the database constraints behind its invariants.

Models hold data, not workflows: every change goes through ``runtime.services``. The
constraints below are the last line of defence for the promises of SPEC §3-4, so that a bug
in a service can fail a transaction but never corrupt the state:

* one ``focusing`` operation per conversation (partial unique index, R-3.12);
* one tool call per ``(conversation, source_tool_call_id)`` — the idempotency key (R-3.5);
* one operation per instance (a closed instance can not run a new round, R-3.13);
* one outbox entry per operation (exactly one result, R-2.2.5);
* one foreground instance per conversation (R-4.1.1);
* terminal fields present exactly when the state is terminal.
"""

from __future__ import annotations

import uuid

from django.db import models
from django.db.models import F, Q

from runtime.transitions import InterruptionReason, LifecycleState, OperationState


class Workspace(models.Model):
    """A conversation's workspace: the row every deciding transaction locks first.

    Locking this row (``select_for_update``) serialises all decisions about one conversation —
    start vs. interrupt vs. deadline vs. close — in a fixed order (workspace, then operation),
    so they can not deadlock. ``focus_seq`` numbers foreground changes, which makes the focus
    stack derivable: the previous valid foreground app is the open instance with the highest
    ``focus_seq`` (R-4.2.8).
    """

    conversation = models.OneToOneField(
        "interact.Conversation", on_delete=models.CASCADE, primary_key=True, related_name="workspace"
    )
    focus_seq = models.PositiveBigIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"workspace of {self.conversation_id}"


class AppInstance(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    conversation = models.ForeignKey("interact.Conversation", on_delete=models.CASCADE, related_name="app_instances")
    app_id = models.CharField(max_length=64)
    is_system = models.BooleanField(default=False)
    lifecycle_state = models.CharField(max_length=16, choices=LifecycleState.choices, default=LifecycleState.LAUNCHING)
    focus_seq = models.PositiveBigIntegerField(default=0)
    opened_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    close_reason = models.CharField(max_length=32, blank=True, default="")
    restored_at = models.DateTimeField(
        null=True, blank=True, help_text="Set when recovery found this instance alive after a restart."
    )

    class Meta:
        ordering = ["opened_at"]
        indexes = [models.Index(fields=["conversation", "lifecycle_state"])]
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
        return f"{self.app_id} {self.id} ({self.lifecycle_state})"


class AppSessionState(models.TextChoices):
    OPEN = "open"
    ENDED = "ended"


class AppSession(models.Model):
    """The sub-session in Interact about one instance (R-3.1, R-4.3.1); read-only once ended."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    instance = models.OneToOneField(AppInstance, on_delete=models.CASCADE, related_name="app_session")
    conversation = models.ForeignKey("interact.Conversation", on_delete=models.CASCADE, related_name="app_sessions")
    state = models.CharField(max_length=8, choices=AppSessionState.choices, default=AppSessionState.OPEN)
    opened_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["opened_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(state=AppSessionState.ENDED, ended_at__isnull=False)
                | Q(state=AppSessionState.OPEN, ended_at__isnull=True),
                name="app_session_ended_iff_ended_at",
            ),
        ]

    def __str__(self) -> str:
        return f"app session {self.id} ({self.state})"


class ToolCallStatus(models.TextChoices):
    PENDING = "pending"  # delivered to an instance, no answer yet
    ACCEPTED = "accepted"  # a long operation is running
    SUCCEEDED = "succeeded"  # final result or receipt recorded
    CANCELLED = "cancelled"  # settled by the Runtime, e.g. cancelled(app_closed)


NON_FINAL_TOOL_CALL_STATUSES = (ToolCallStatus.PENDING, ToolCallStatus.ACCEPTED)


class ToolCall(models.Model):
    """Every accepted Agent tool call, keyed by its idempotency key.

    Rejected calls are not stored here (they changed nothing and may be retried once the cause
    is gone); they are kept in the event log.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    conversation = models.ForeignKey("interact.Conversation", on_delete=models.CASCADE, related_name="tool_calls")
    source_tool_call_id = models.CharField(max_length=128)
    tool = models.CharField(max_length=128)
    arguments = models.JSONField(default=dict)
    caller = models.CharField(max_length=128, help_text="Who called: 'agent:<id>' or 'user:<id>'.")
    status = models.CharField(max_length=16, choices=ToolCallStatus.choices)
    instance = models.ForeignKey(
        AppInstance, null=True, blank=True, on_delete=models.SET_NULL, related_name="tool_calls"
    )
    receipt = models.JSONField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    cancel_reason = models.CharField(max_length=32, blank=True, default="")
    created_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]
        indexes = [models.Index(fields=["instance", "status"])]
        constraints = [
            models.UniqueConstraint(fields=["conversation", "source_tool_call_id"], name="unique_source_tool_call_id"),
        ]

    def __str__(self) -> str:
        return f"{self.tool} {self.source_tool_call_id} ({self.status})"


class Operation(models.Model):
    """A deadline operation (R-3.3): the focus started by one ``pomodoro.start`` call."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    conversation = models.ForeignKey("interact.Conversation", on_delete=models.CASCADE, related_name="operations")
    instance = models.OneToOneField(AppInstance, on_delete=models.CASCADE, related_name="operation")
    app_session = models.OneToOneField(AppSession, on_delete=models.CASCADE, related_name="operation")
    tool_call = models.OneToOneField(ToolCall, on_delete=models.CASCADE, related_name="operation")
    source_tool_call_id = models.CharField(max_length=128)
    activity = models.CharField(max_length=256, null=True, blank=True)  # noqa: DJ001 (absent is not empty)
    duration_seconds = models.PositiveIntegerField()
    started_at = models.DateTimeField()
    ends_at = models.DateTimeField(help_text="The only time fact while focusing (R-3.4).")
    state = models.CharField(max_length=16, choices=OperationState.choices, default=OperationState.FOCUSING)
    ended_at = models.DateTimeField(null=True, blank=True)
    interruption_reason = models.CharField(max_length=32, choices=InterruptionReason.choices, null=True, blank=True)  # noqa: DJ001
    settled_at = models.DateTimeField(
        null=True, blank=True, help_text="When the Runtime decided the terminal state (for lag metrics)."
    )

    class Meta:
        ordering = ["started_at"]
        # The admin's settle action and recovery sweep write (settle, outbox, events), so viewing is
        # not enough; "change" can not be it, the admin refuses every hand edit of an operation.
        permissions = [("settle_operations", "Can settle due operations and run the recovery sweep")]
        indexes = [
            models.Index(fields=["ends_at"], condition=Q(state=OperationState.FOCUSING), name="focusing_by_ends_at")
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["conversation"],
                condition=Q(state=OperationState.FOCUSING),
                name="one_focusing_operation_per_conversation",
            ),
            models.CheckConstraint(condition=Q(duration_seconds__gte=1), name="operation_duration_positive"),
            models.CheckConstraint(condition=Q(ends_at__gt=F("started_at")), name="operation_ends_after_start"),
            models.CheckConstraint(
                condition=Q(state=OperationState.FOCUSING, ended_at__isnull=True, settled_at__isnull=True)
                | (~Q(state=OperationState.FOCUSING) & Q(ended_at__isnull=False, settled_at__isnull=False)),
                name="operation_final_iff_ended",
            ),
            models.CheckConstraint(
                condition=Q(state=OperationState.INTERRUPTED, interruption_reason__isnull=False)
                | (~Q(state=OperationState.INTERRUPTED) & Q(interruption_reason__isnull=True)),
                name="operation_interrupted_iff_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"operation {self.id} ({self.state})"


class InstanceSnapshot(models.Model):
    """The instance's business-state snapshot (``app.instance-state.v1``, R-2.2.4, R-3.13).

    Written only through a revision compare-and-set; frozen (read-only history) once the
    instance is closed.
    """

    instance = models.OneToOneField(AppInstance, on_delete=models.CASCADE, primary_key=True, related_name="snapshot")
    schema_version = models.PositiveSmallIntegerField()
    revision = models.PositiveIntegerField(default=0)
    state = models.JSONField(null=True, blank=True)
    size_bytes = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(revision=0, state__isnull=True) | Q(revision__gt=0, state__isnull=False),
                name="snapshot_state_iff_revision",
            ),
        ]

    def __str__(self) -> str:
        return f"snapshot of {self.instance_id} r{self.revision}"


class OutboxEntry(models.Model):
    """The single final result of a long tool call, kept until the Agent acks it (R-2.2.8)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    conversation = models.ForeignKey("interact.Conversation", on_delete=models.CASCADE, related_name="outbox_entries")
    operation = models.OneToOneField(Operation, on_delete=models.CASCADE, related_name="outbox_entry")
    tool_call = models.OneToOneField(ToolCall, on_delete=models.CASCADE, related_name="outbox_entry")
    payload = models.JSONField(help_text="The tool.result body: source_tool_call_id and result.")
    created_at = models.DateTimeField()
    attempts = models.PositiveIntegerField(default=0)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    acked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]
        verbose_name_plural = "outbox entries"
        indexes = [
            models.Index(
                fields=["conversation", "created_at"], condition=Q(acked_at__isnull=True), name="outbox_unacked"
            )
        ]

    def __str__(self) -> str:
        return f"outbox {self.id} ({'acked' if self.acked_at else 'pending'})"


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


class Agent(models.Model):
    """An Agent that acts for one user over ``/ws/agent/`` (docs/agent-protocol.md)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=100)
    user = models.ForeignKey("auth.User", on_delete=models.CASCADE, related_name="agents")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at"]
        constraints = [models.UniqueConstraint(fields=["user", "name"], name="unique_agent_name_per_user")]

    def __str__(self) -> str:
        return f"{self.name} (for {self.user})"


class AgentToken(models.Model):
    """A bearer token of an Agent, stored only as its SHA-256 digest; revoked tokens stay for audit."""

    id = models.BigAutoField(primary_key=True)
    agent = models.ForeignKey(Agent, on_delete=models.CASCADE, related_name="tokens")
    digest = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(max_length=12, editable=False, help_text="The first characters, to recognise it.")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.prefix}… ({'revoked' if self.revoked_at else 'active'})"
