"""The client's address for sign-in throttling: the socket's peer, or a trusted proxy's word for it.

``X-Forwarded-For`` is written by whoever sends the request, so only the entries appended by
proxies we run can be believed: with ``LINEUP_TRUSTED_PROXY_HOPS = N`` (N proxies in front, each
appending the address it received from), the client is the N-th entry from the right; anything
further left was sent by the client and is ignored. With 0 (the default) the header is ignored and
the address is ``REMOTE_ADDR``. Run Daphne *without* ``--proxy-headers``: that option believes the
leftmost entry, which a client can choose (a locked-out user signed in again by sending one).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings


def client_ip(request: Any) -> str:
    """``AXES_CLIENT_IP_CALLABLE``: the address sign-in attempts are counted against."""
    return _believed(request.META.get("REMOTE_ADDR", "") or "", request.META.get("HTTP_X_FORWARDED_FOR", ""))


def scope_client_ip(scope: Any) -> str:
    """The same for an ASGI scope (``/mcp/``, ``/ws/agent/``): the address their budgets count against."""
    client = scope.get("client")
    peer = str(client[0]) if client else ""
    forwarded = ",".join(
        value.decode("latin-1") for name, value in scope.get("headers", ()) if name.lower() == b"x-forwarded-for"
    )
    return _believed(peer, forwarded)


def _believed(peer: str, forwarded_header: str) -> str:
    hops = settings.LINEUP_TRUSTED_PROXY_HOPS
    if hops <= 0:
        return peer
    forwarded = [part.strip() for part in forwarded_header.split(",") if part.strip()]
    # Fewer entries than proxies: the request did not come through all of them; trust none.
    return forwarded[-hops] if len(forwarded) >= hops else peer
