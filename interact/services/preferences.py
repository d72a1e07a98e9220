"""The person's language choice (``interact.models.LanguagePreference``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from interact.models import LanguagePreference


def language_preference_set(*, user: Any, language: str) -> LanguagePreference | None:
    """Remember ``language`` for ``user``; an unknown language code changes nothing."""
    if language not in dict(settings.LANGUAGES):
        return None
    preference, _ = LanguagePreference.objects.update_or_create(user=user, defaults={"language": language})
    return preference


def language_preference_get(user: Any) -> str | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return LanguagePreference.objects.filter(user=user).values_list("language", flat=True).first()
