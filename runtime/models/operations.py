"""Tool calls, the deadline operations they start, and the outbox that holds each one's result."""

from __future__ import annotations

import uuid

from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from runtime.models.instances import AppInstance, AppSession
from runtime.transitions import RUNNING_STATES, InterruptionReason, OperationState


class ToolCallStatus(models.TextChoices):
    PENDING = "pending", _("pending")  # delivered to an instance, no answer yet
    ACCEPTED = "accepted", _("accepted")  # a long operation is running
    SUCCEEDED = "succeeded", _("succeeded")  # final result or receipt recorded
    CANCELLED = "cancelled", _("cancelled")  # settled by the Runtime, e.g. cancelled(app_closed)


NON_FINAL_TOOL_CALL_STATUSES = (ToolCallStatus.PENDING, ToolCallStatus.ACCEPTED)


class DeliveryChannel(models.TextChoices):
    """How the calling Agent reads its results: pushed over its WebSocket, or read over MCP."""

    AGENT_SOCKET = "agent_socket", _("Agent socket")  # /ws/agent/: sent as tool.result until outbox.ack
    MCP = "mcp", _("MCP")  # /mcp/: read with tasks/result (counts as the ack), never pushed


class ToolCall(models.Model):
    """Every accepted Agent tool call, keyed by its idempotency key.

    Rejected calls are not stored here (they changed nothing and may be retried once the cause
    is gone); they are kept in the event log.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False, verbose_name=_("ID"))
    # No index of its own: unique_source_tool_call_id leads with the conversation.
    conversation = models.ForeignKey(
        "runtime.Conversation",
        on_delete=models.CASCADE,
        related_name="tool_calls",
        db_index=False,
        verbose_name=_("conversation"),
    )
    source_tool_call_id = models.CharField(max_length=128, verbose_name=_("tool call id (idempotency key)"))
    tool = models.CharField(max_length=128, verbose_name=_("tool"))
    arguments = models.JSONField(default=dict, verbose_name=_("arguments"))
    caller = models.CharField(
        max_length=128, help_text=_("Who called: 'agent:<id>' or 'user:<id>'."), verbose_name=_("caller")
    )
    agent = models.ForeignKey(
        "runtime.Agent",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("The caller."),
        verbose_name=_("Agent"),
    )
    channel = models.CharField(
        max_length=16, choices=DeliveryChannel.choices, default=DeliveryChannel.AGENT_SOCKET, verbose_name=_("channel")
    )
    status = models.CharField(max_length=16, choices=ToolCallStatus.choices, verbose_name=_("status"))
    # No index of its own: the (instance, status) index leads with it.
    instance = models.ForeignKey(
        AppInstance,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tool_calls",
        db_index=False,
        verbose_name=_("instance"),
    )
    receipt = models.JSONField(null=True, blank=True, verbose_name=_("receipt"))
    result = models.JSONField(null=True, blank=True, verbose_name=_("result"))
    cancel_reason = models.CharField(max_length=32, blank=True, default="", verbose_name=_("cancel reason"))
    created_at = models.DateTimeField(verbose_name=_("created at"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))

    class Meta:
        verbose_name = _("tool call")
        verbose_name_plural = _("tool calls")
        ordering = ["created_at"]
        indexes = [models.Index(fields=["instance", "status"])]
        constraints = [
            models.UniqueConstraint(fields=["conversation", "source_tool_call_id"], name="unique_source_tool_call_id"),
        ]

    def __str__(self) -> str:
        return str(_("%(tool)s %(id)s (%(state)s)")) % {
            "tool": self.tool,
            "id": self.source_tool_call_id,
            "state": self.get_status_display(),
        }


class Operation(models.Model):
    """A deadline operation (R-3.3), started by one MiniApp tool call.

    Generic: which app it belongs to, whether it is exclusive (at most one running per app and
    conversation) and the app's own details (JSON, e.g. what the person is doing) — the Runtime
    decides its end from ``ends_at`` alone and never reads ``details``.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False, verbose_name=_("ID"))
    # Indexed by operations_by_conversation, which leads with it.
    conversation = models.ForeignKey(
        "runtime.Conversation",
        on_delete=models.CASCADE,
        related_name="operations",
        db_index=False,
        verbose_name=_("conversation"),
    )
    instance = models.OneToOneField(
        AppInstance, on_delete=models.CASCADE, related_name="operation", verbose_name=_("instance")
    )
    app_session = models.OneToOneField(
        AppSession, on_delete=models.CASCADE, related_name="operation", verbose_name=_("app session")
    )
    tool_call = models.OneToOneField(
        ToolCall, on_delete=models.CASCADE, related_name="operation", verbose_name=_("tool call")
    )
    source_tool_call_id = models.CharField(max_length=128, verbose_name=_("tool call id (idempotency key)"))
    app_id = models.CharField(max_length=64, help_text=_("The MiniApp whose tool started it."), verbose_name=_("app"))
    exclusive = models.BooleanField(
        default=True,
        help_text=_("At most one such operation runs per app and conversation (the app's manifest says)."),
        verbose_name=_("exclusive"),
    )
    details = models.JSONField(
        default=dict, blank=True, help_text=_("The app's own details of this operation."), verbose_name=_("details")
    )
    started_at = models.DateTimeField(verbose_name=_("started at"))
    # while running, ends_at is the only time fact; the result is decided from it.
    ends_at = models.DateTimeField(
        help_text=_("When the focus ends. While it runs, this is the only time stored; its result is decided from it."),
        verbose_name=_("end time"),
    )
    state = models.CharField(
        max_length=16, choices=OperationState.choices, default=OperationState.RUNNING, verbose_name=_("state")
    )
    ended_at = models.DateTimeField(null=True, blank=True, verbose_name=_("ended at"))
    interruption_reason = models.CharField(  # noqa: DJ001
        max_length=32, choices=InterruptionReason.choices, null=True, blank=True, verbose_name=_("interruption reason")
    )
    settled_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("When LineUp recorded how it ended. Compare with the end time to see how late that was."),
        verbose_name=_("settled at"),
    )
    # Poison isolation (decision 0011): a settlement that raised is rolled back alone and counted
    # here, in a transaction of its own. Kept after the operation settles, as its history.
    settle_failures = models.PositiveIntegerField(
        default=0,
        help_text=_("How many times recording its end failed with an error."),
        verbose_name=_("settle failures"),
    )
    next_settle_attempt_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("After a failure, the periodic sweep tries again no earlier than this."),
        verbose_name=_("next settle attempt at"),
    )
    last_settle_error = models.TextField(
        blank=True,
        default="",
        help_text=_("The error of the last failed attempt."),
        verbose_name=_("last settle error"),
    )
    settle_flagged_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_(
            "When it had failed too often (LINEUP_SETTLE_MAX_FAILURES): the periodic sweep stopped trying, "
            "and it waits for an operator to run the recovery sweep."
        ),
        verbose_name=_("settle flagged at"),
    )

    class Meta:
        verbose_name = _("operation")
        verbose_name_plural = _("operations")
        ordering = ["started_at"]
        # The admin's settle action and recovery sweep write (settle, outbox, events), so viewing is
        # not enough; "change" can not be it, the admin refuses every hand edit of an operation.
        permissions = [
            ("settle_operations", "Can settle due operations and run the recovery sweep"),
            # Ending someone's focus early changes its outcome: more than settling what is due.
            ("interrupt_operations", "Can interrupt running operations with a reason"),
            # A MiniApp's private details (a quiz's answer key) are masked on every admin page
            # for staff without this one (runtime.miniapps.redact_private).
            ("view_private_details", "Can see MiniApps' private details (e.g. a quiz's answer key)"),
        ]
        indexes = [
            # A conversation's latest operation (an interrupt with nothing running) is the last
            # entry of its range, however many it had; and the foreign key's index.
            models.Index(fields=["conversation", "started_at"], name="operations_by_conversation"),
            # (ends_at, id): the sweep's keyset pages read it in order, with no sort (decision 0011).
            # Both over RUNNING_STATES (made by migration 0024, narrowed to `running` by 0027).
            models.Index(fields=["ends_at", "id"], condition=Q(state__in=RUNNING_STATES), name="running_by_ends_at"),
            # The few running operations whose settlement failed: retries by next attempt, and the
            # flagged ones (the admin's "needs an operator", recovery's report) without a scan.
            models.Index(
                fields=["next_settle_attempt_at"],
                condition=Q(state__in=RUNNING_STATES, settle_failures__gt=0),
                name="running_settle_retries",
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["conversation", "app_id"],
                condition=Q(state__in=RUNNING_STATES, exclusive=True),
                name="one_running_exclusive_operation_per_app",
            ),
            models.CheckConstraint(condition=Q(ends_at__gt=F("started_at")), name="operation_ends_after_start"),
            models.CheckConstraint(
                condition=Q(state__in=RUNNING_STATES, ended_at__isnull=True, settled_at__isnull=True)
                | (~Q(state__in=RUNNING_STATES) & Q(ended_at__isnull=False, settled_at__isnull=False)),
                name="operation_final_iff_ended",
            ),
            models.CheckConstraint(
                condition=Q(state=OperationState.INTERRUPTED, interruption_reason__isnull=False)
                | (~Q(state=OperationState.INTERRUPTED) & Q(interruption_reason__isnull=True)),
                name="operation_interrupted_iff_reason",
            ),
            # A failure always leaves its count, its error and when to try again; nothing else
            # (in particular no flag) exists without one.
            models.CheckConstraint(
                condition=Q(
                    settle_failures=0,
                    next_settle_attempt_at__isnull=True,
                    last_settle_error="",
                    settle_flagged_at__isnull=True,
                )
                | (Q(settle_failures__gte=1, next_settle_attempt_at__isnull=False) & ~Q(last_settle_error="")),
                name="operation_settle_failure_recorded",
            ),
        ]

    def __str__(self) -> str:
        # The admin's object titles are in the operator's language (issue 40).
        return str(_("operation %(id)s (%(state)s)")) % {"id": self.id, "state": self.get_state_display()}


class OutboxEntry(models.Model):
    """The single final result of a long tool call, kept until the Agent acks it (R-2.2.8)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False, verbose_name=_("ID"))
    conversation = models.ForeignKey(
        "runtime.Conversation", on_delete=models.CASCADE, related_name="outbox_entries", verbose_name=_("conversation")
    )
    operation = models.OneToOneField(
        Operation, on_delete=models.CASCADE, related_name="outbox_entry", verbose_name=_("operation")
    )
    tool_call = models.OneToOneField(
        ToolCall, on_delete=models.CASCADE, related_name="outbox_entry", verbose_name=_("tool call")
    )
    # The owner: the Agent whose call started the operation, however it settled. Only it is sent the
    # entry and only it can ack it (docs/agent-protocol.md § Whose result it is).
    agent = models.ForeignKey(
        "runtime.Agent",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="outbox_entries",
        verbose_name=_("Agent"),
    )
    channel = models.CharField(
        max_length=16, choices=DeliveryChannel.choices, default=DeliveryChannel.AGENT_SOCKET, verbose_name=_("channel")
    )
    payload = models.JSONField(
        help_text=_("The tool.result body: source_tool_call_id and result."), verbose_name=_("payload")
    )
    created_at = models.DateTimeField(verbose_name=_("created at"))
    attempts = models.PositiveIntegerField(default=0, verbose_name=_("attempts"))
    last_attempt_at = models.DateTimeField(null=True, blank=True, verbose_name=_("last attempt at"))
    next_attempt_at = models.DateTimeField(
        default=timezone.now,
        help_text=_("Not sent again before this (backoff per entry); due when written."),
        verbose_name=_("next attempt at"),
    )
    acked_at = models.DateTimeField(null=True, blank=True, verbose_name=_("acked at"))

    class Meta:
        verbose_name = _("outbox entry")
        ordering = ["created_at"]
        verbose_name_plural = _("outbox entries")
        indexes = [
            models.Index(
                fields=["conversation", "created_at"], condition=Q(acked_at__isnull=True), name="outbox_unacked"
            ),
            # A delivery round reads one page of one Agent's due entries: a range scan of this index,
            # whatever the size of that Agent's (or anyone's) backlog.
            models.Index(
                fields=["agent", "channel", "next_attempt_at"],
                condition=Q(acked_at__isnull=True),
                name="outbox_due_by_agent",
            ),
        ]

    def __str__(self) -> str:
        state = _("acked") if self.acked_at else _("pending")
        return str(_("outbox %(id)s (%(state)s)")) % {"id": self.id, "state": state}
