"""Interact's write services."""

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from interact.models import Conversation


def conversation_get_or_create_default(*, user: AbstractBaseUser) -> Conversation:
    """Every user has a default conversation; create it on first need (safe under races)."""
    existing = Conversation.objects.filter(owner=user, is_default=True).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            return Conversation.objects.create(owner=user, is_default=True, title="Main")
    except IntegrityError:  # a concurrent request created it first
        return Conversation.objects.get(owner=user, is_default=True)
