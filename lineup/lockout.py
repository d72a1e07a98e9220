"""The page a locked-out sign-in gets (django-axes' ``AXES_LOCKOUT_CALLABLE``), on both sign-in pages.

Axes decides the lockout (``AXES_*`` in ``lineup.settings``, decision 0018); this only says so in the
person's language: how many failed attempts, how long the pause lasts, and that an admin can lift it.
"""

from __future__ import annotations

import math
from typing import Any

from axes.helpers import get_cool_off, get_failure_limit
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def locked_out(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: dict[str, Any] | None = None
) -> HttpResponse:
    cool_off = get_cool_off(request)
    context = {
        "failure_limit": get_failure_limit(request, credentials),
        "minutes": max(1, math.ceil(cool_off.total_seconds() / 60)) if cool_off else None,
    }
    return render(request, "registration/locked_out.html", context, status=settings.AXES_HTTP_RESPONSE_CODE)
