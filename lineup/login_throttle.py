"""django-axes with a second limit: failures from one address across every username.

Axes locks the pair (username, address) after ``LINEUP_LOGIN_FAILURE_LIMIT`` failures (decision
0018). That left one address free to try one password against every username. This handler also
refuses an address once it has ``LINEUP_LOGIN_ADDRESS_FAILURE_LIMIT`` failures within the cool-off,
whatever the usernames: higher than the pair's limit, because in the embedded default (and behind a
proxy without ``LINEUP_TRUSTED_PROXY_HOPS``) everyone shares one address.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.utils import timezone

from lineup.client_address import client_ip


def address_failures(address: str) -> int:
    since = timezone.now() - timedelta(hours=settings.AXES_COOLOFF_TIME)
    found = AccessAttempt.objects.filter(ip_address=address, attempt_time__gte=since).aggregate(
        total=Sum("failures_since_start")
    )
    return found["total"] or 0


class AddressAwareHandler(AxesDatabaseHandler):
    def get_failures(self, request: Any, credentials: dict | None = None) -> int:
        """The pair's failures, or the pair's limit once the address is over its own: axes compares
        this count with the limit both before a sign-in (is_locked) and after a failure (the lockout)."""
        failures = super().get_failures(request, credentials)
        address = getattr(request, "axes_ip_address", None) or client_ip(request)
        if address and address_failures(address) >= settings.LINEUP_LOGIN_ADDRESS_FAILURE_LIMIT:
            return max(failures, get_failure_limit(request, credentials))
        return failures
