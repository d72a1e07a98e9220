"""Interact's data: conversations (the scope every Runtime decision is bound to)."""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q


class ConversationScope(models.TextChoices):
    # The Inventory publishes a tool to a conversation only if the tool's manifest lists the
    # conversation's scope (SPEC ).
    PERSONAL = "personal", "Personal"


class Conversation(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="conversations")
    title = models.CharField(max_length=200, default="Conversation")
    scope = models.CharField(max_length=32, choices=ConversationScope.choices, default=ConversationScope.PERSONAL)
    is_default = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["owner"], condition=Q(is_default=True), name="one_default_conversation_per_user"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.title} ({self.owner})"
