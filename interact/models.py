"""Interact's data: IM messages and standard interactions (SPEC §2.1, §4.3).

Both belong to a Runtime conversation (``runtime.Conversation``, the scope every decision is bound
to). Interaction records belong to Interact and their conversation, never to a MiniApp's UI (R-2.1.2).
"""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class AuthorKind(models.TextChoices):
    HUMAN = "human", _("human")
    AGENT = "agent", _("agent")
    SYSTEM = "system", _("system")


MAX_MESSAGE_LENGTH = 4000


class Message(models.Model):
    """One IM message. With ``app_session`` set it is part of that App sub-session block (R-4.3.2).

    A block holds only the person-Agent exchange about its app and its result (R-4.3.3); it is
    read-only once the sub-session ended, so nothing is ever added to it after that.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False, verbose_name=_("ID"))
    # No index of its own: the (conversation, created_at) index leads with it.
    conversation = models.ForeignKey(
        "runtime.Conversation",
        on_delete=models.CASCADE,
        related_name="messages",
        db_index=False,
        verbose_name=_("conversation"),
    )
    author_kind = models.CharField(max_length=8, choices=AuthorKind.choices, verbose_name=_("author kind"))
    author_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("author user"),
    )
    author_agent = models.ForeignKey(
        "runtime.Agent",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="messages",
        verbose_name=_("author agent"),
    )
    app_session = models.ForeignKey(
        "runtime.AppSession",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="messages",
        verbose_name=_("app session"),
    )
    text = models.TextField(max_length=MAX_MESSAGE_LENGTH, verbose_name=_("text"))
    data = models.JSONField(
        default=dict, blank=True, help_text=_("Structured content, e.g. a sub-session result."), verbose_name=_("data")
    )
    created_at = models.DateTimeField(verbose_name=_("created at"))
    delivered_to_agent_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("Human messages: when an Agent first acked it."),
        verbose_name=_("delivered to agent at"),
    )
    # The page's own id for a message it sends (kept across reloads and resent after a reconnect):
    # stored once per conversation, so a resend is answered with the stored message, never a second one.
    client_message_id = models.CharField(  # noqa: DJ001 (absent is not empty: Agents' messages have none)
        max_length=64,
        null=True,
        blank=True,
        help_text=_("The sending page's id for this message."),
        verbose_name=_("client message id"),
    )

    class Meta:
        verbose_name = _("message")
        verbose_name_plural = _("messages")
        ordering = ["created_at", "id"]
        indexes = [
            models.Index(fields=["conversation", "created_at"]),
            models.Index(
                fields=["conversation", "created_at"],
                condition=Q(author_kind="human", delivered_to_agent_at__isnull=True),
                name="human_messages_undelivered",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=~Q(author_kind="human") | Q(author_user__isnull=False), name="human_message_has_user"
            ),
            models.UniqueConstraint(
                fields=["conversation", "client_message_id"],
                condition=Q(client_message_id__isnull=False),
                name="one_message_per_client_id",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_author_kind_display()}: {self.text[:40]}"


class MessageDelivery(models.Model):
    """One person's message on its way to one Agent of the conversation's user: at least once, until acked.

    Every Agent of the user when the message is written gets its own record (docs/decisions/0013), so
    two Agents each get every message and one Agent's backlog or missing ack never affects another's.
    """

    id = models.BigAutoField(primary_key=True, verbose_name=_("ID"))
    # No index of its own: one_delivery_per_message_and_agent leads with the message.
    message = models.ForeignKey(
        Message, on_delete=models.CASCADE, related_name="deliveries", db_index=False, verbose_name=_("message")
    )
    agent = models.ForeignKey(
        "runtime.Agent", on_delete=models.CASCADE, related_name="message_deliveries", verbose_name=_("Agent")
    )
    attempts = models.PositiveIntegerField(default=0, verbose_name=_("attempts"))
    next_attempt_at = models.DateTimeField(
        help_text=_("Not sent again before this (backoff per delivery)."), verbose_name=_("next attempt at")
    )
    acked_at = models.DateTimeField(null=True, blank=True, verbose_name=_("acked at"))

    class Meta:
        verbose_name = _("message delivery")
        verbose_name_plural = _("message deliveries")
        constraints = [models.UniqueConstraint(fields=["message", "agent"], name="one_delivery_per_message_and_agent")]
        indexes = [
            models.Index(
                fields=["agent", "next_attempt_at"], condition=Q(acked_at__isnull=True), name="message_due_by_agent"
            )
        ]

    def __str__(self) -> str:
        state = _("acked") if self.acked_at else _("pending")
        return str(_("message %(message)s to %(agent)s (%(state)s)")) % {
            "message": self.message_id,
            "agent": self.agent_id,
            "state": state,
        }


class InteractionKind(models.TextChoices):
    NOTICE = "notice", _("notice")
    CHOICE = "choice", _("choice")
    CONFIRM = "confirm", _("confirm")
    INPUT = "input", _("input")


class InteractionStatus(models.TextChoices):
    PENDING = "pending", _("pending")
    ANSWERED = "answered", _("answered")
    DISMISSED = "dismissed", _("dismissed")
    TIMED_OUT = "timed_out", _("timed out")
    FAILED = "failed", _("failed")
    # A newer question of the same topic from the same Agent took its place (interact.services.interactions).
    SUPERSEDED = "superseded", _("superseded")


class Interaction(models.Model):
    """A standard interaction the Agent asked of the person (R-2.1.1, R-4.3.4, R-4.3.5).

    Owned by Interact whatever app is in the foreground. ``app_session`` records what it was
    about; if that sub-session ends first, the interaction stays pending and answerable in the
    main IM and is never appended to the ended block.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False, verbose_name=_("ID"))
    # No index of its own: unique_interaction_id leads with the conversation.
    conversation = models.ForeignKey(
        "runtime.Conversation",
        on_delete=models.CASCADE,
        related_name="interactions",
        db_index=False,
        verbose_name=_("conversation"),
    )
    interaction_id = models.CharField(
        max_length=128, help_text=_("The Agent's id for it (idempotency key)."), verbose_name=_("interaction id")
    )
    agent = models.ForeignKey(
        "runtime.Agent", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("Agent")
    )
    app_session = models.ForeignKey(
        "runtime.AppSession",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="interactions",
        verbose_name=_("app session"),
    )
    kind = models.CharField(max_length=8, choices=InteractionKind.choices, verbose_name=_("kind"))
    prompt = models.TextField(verbose_name=_("prompt"))
    options = models.JSONField(
        default=list, blank=True, help_text=_("choice: [{id, label}]"), verbose_name=_("options")
    )
    status = models.CharField(
        max_length=10, choices=InteractionStatus.choices, default=InteractionStatus.PENDING, verbose_name=_("status")
    )
    value = models.JSONField(null=True, blank=True, verbose_name=_("value"))
    created_at = models.DateTimeField(verbose_name=_("created at"))
    expires_at = models.DateTimeField(null=True, blank=True, verbose_name=_("expires at"))
    resolved_at = models.DateTimeField(null=True, blank=True, verbose_name=_("resolved at"))
    resolution_delivered_at = models.DateTimeField(null=True, blank=True, verbose_name=_("resolution delivered at"))

    class Meta:
        verbose_name = _("interaction")
        verbose_name_plural = _("interactions")
        ordering = ["created_at"]
        indexes = [
            models.Index(fields=["expires_at"], condition=Q(status="pending"), name="pending_interaction_expiry"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["conversation", "interaction_id"], name="unique_interaction_id"),
            models.CheckConstraint(
                condition=Q(status="pending", resolved_at__isnull=True)
                | (~Q(status="pending") & Q(resolved_at__isnull=False)),
                name="interaction_resolved_iff_resolved_at",
            ),
        ]

    def __str__(self) -> str:
        return str(_("%(kind)s %(id)s (%(state)s)")) % {
            "kind": self.get_kind_display(),
            "id": self.interaction_id,
            "state": self.get_status_display(),
        }


class LanguagePreference(models.Model):
    """The language a person chose for LineUp's pages, kept across devices and sessions.

    Without one, Django's ``LocaleMiddleware`` decides from the language cookie or ``Accept-Language``.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="language_preference", verbose_name=_("user")
    )
    language = models.CharField(max_length=16, choices=settings.LANGUAGES, verbose_name=_("language"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("language preference")
        verbose_name_plural = _("language preferences")

    def __str__(self) -> str:
        return f"{self.user}: {self.language}"
