"""A signed-in person's saved language beats the cookie and ``Accept-Language`` on every device.

Runs after ``AuthenticationMiddleware`` (it needs ``request.user``) and so after
``LocaleMiddleware``, which has already activated the cookie's or the browser's language.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation

from interact.services.preferences import language_preference_get


class UserLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = language_preference_get(request.user)
        if language and language != getattr(request, "LANGUAGE_CODE", None):
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)
