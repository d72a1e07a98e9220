"""Conversations and their workspaces: the scope of every Runtime decision.

A conversation is what a Runtime decision is bound to: its workspace row is the lock every
deciding transaction takes first, its scope decides the Inventory, and tool calls are routed
within it. Interact's messages and interactions point down at it.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class ConversationScope(models.TextChoices):
    # The Inventory publishes a tool to a conversation only if the tool's manifest lists the
    # conversation's scope (SPEC ).
    PERSONAL = "personal", _("personal")


# The titles LineUp gives a conversation (not a person's): shown in the reader's language. The
# stored value stays as it is (a title is data; a person may rename it).
GIVEN_TITLES = {
    "Main": pgettext_lazy("conversation title", "Main"),
    "Conversation": pgettext_lazy("conversation title", "Conversation"),
}


class Conversation(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False, verbose_name=_("ID"))
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="conversations", verbose_name=_("owner")
    )
    title = models.CharField(max_length=200, default="Conversation", verbose_name=_("title"))
    scope = models.CharField(
        max_length=32, choices=ConversationScope.choices, default=ConversationScope.PERSONAL, verbose_name=_("scope")
    )
    is_default = models.BooleanField(default=False, verbose_name=_("default"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("conversation")
        verbose_name_plural = _("conversations")
        ordering = ["created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["owner"], condition=Q(is_default=True), name="one_default_conversation_per_user"
            ),
        ]

    def __str__(self) -> str:
        return str(_("%(title)s (%(owner)s)")) % {"title": self.display_title, "owner": self.owner}

    @property
    def display_title(self) -> str:
        """The title as a reader sees it: one LineUp gave in the reader's language, a person's as written."""
        return str(GIVEN_TITLES.get(self.title, self.title))


class Workspace(models.Model):
    """A conversation's workspace: the row every deciding transaction locks first.

    Locking this row (``select_for_update``) serialises all decisions about one conversation —
    start vs. interrupt vs. deadline vs. close — in a fixed order (workspace, then operation),
    so they can not deadlock. ``focus_seq`` numbers foreground changes, which makes the focus
    stack derivable: the previous valid foreground app is the open instance with the highest
    ``focus_seq`` (R-4.2.8).
    """

    conversation = models.OneToOneField(
        Conversation,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="workspace",
        verbose_name=_("conversation"),
    )
    focus_seq = models.PositiveBigIntegerField(default=0, verbose_name=_("focus sequence"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("workspace")
        verbose_name_plural = _("workspaces")

    def __str__(self) -> str:
        return str(_("workspace of %(conversation)s")) % {"conversation": self.conversation_id}
