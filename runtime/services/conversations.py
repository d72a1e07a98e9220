"""Conversations: every user has a default one, with its workspace (Interact in front) ready."""

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from runtime.models import Conversation
from runtime.services.workspace_locks import lock_workspace


def conversation_get_or_create_default(*, user: AbstractBaseUser) -> Conversation:
    """Every user has a default conversation; create it on first need (safe under races).

    Its workspace is created with it, so a page shows Interact in front from the first moment.
    """
    existing = Conversation.objects.filter(owner=user, is_default=True).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            conversation = Conversation.objects.create(owner=user, is_default=True, title="Main")
            lock_workspace(conversation.id, now=timezone.now())
            return conversation
    except IntegrityError:  # a concurrent request created it first
        return Conversation.objects.get(owner=user, is_default=True)
