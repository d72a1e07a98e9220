"""Same-origin checks for requests that bypass Django's own: the workspace socket and ``/mcp/``.

A page's origin is scheme, host and port (RFC 6454). A request's own origin is the one its ``Host``
header names, with the scheme it arrived by: ``https``/``wss`` directly, or ``https`` announced by a
TLS proxy through ``SECURE_PROXY_SSL_HEADER`` (set by ``LINEUP_BEHIND_TLS_PROXY``). The host must also
be one of ``ALLOWED_HOSTS``, or a DNS-rebinding page (``http://evil.example:8000`` resolving to this
server) would be "same-origin" with itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}

Origin = tuple[str, str, int]


def header_map(scope: Mapping[str, Any]) -> dict[str, str]:
    """The request's headers by lower-case name (the last one wins, as nothing here repeats)."""
    return {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope.get("headers", [])}


def _is_secure(scope: Mapping[str, Any], headers: Mapping[str, str]) -> bool:
    if scope.get("scheme") in ("https", "wss"):
        return True
    proxy_header = settings.SECURE_PROXY_SSL_HEADER
    if not proxy_header:
        return False
    name, secure_value = proxy_header
    value = headers.get(name.removeprefix("HTTP_").replace("_", "-").lower(), "")
    return value.split(",", 1)[0].strip() == secure_value


def allowed_host(headers: Mapping[str, str]) -> str | None:
    """The ``Host`` header when its host is in ``ALLOWED_HOSTS``, else None."""
    host_header = headers.get("host", "")
    domain, _port = split_domain_port(host_header)
    return host_header if domain and validate_host(domain, settings.ALLOWED_HOSTS) else None


def own_origin(scope: Mapping[str, Any], headers: Mapping[str, str]) -> Origin | None:
    """The origin the request was addressed to, or None without an allowed ``Host``."""
    host_header = allowed_host(headers)
    if host_header is None:
        return None
    scheme = "https" if _is_secure(scope, headers) else "http"
    return parse_origin(f"{scheme}://{host_header}")


def parse_origin(text: str) -> Origin | None:
    """``scheme://host[:port]`` as (scheme, host, port), the default port filled in; None if it is not one."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/") or parts.query:
        return None
    if parts.username is not None or parts.password is not None or parts.fragment:
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def is_same_origin(origin: str, scope: Mapping[str, Any], headers: Mapping[str, str]) -> bool:
    """Whether the ``Origin`` header names exactly the origin the request was addressed to."""
    expected = own_origin(scope, headers)
    return expected is not None and parse_origin(origin) == expected


class SameOriginWebSocket:
    """ASGI middleware: a WebSocket is let through only from a page of the server's own origin.

    Browsers send ``Origin`` with every WebSocket handshake; one without it, or from any other
    origin (another port of the same host included), is refused before the app sees it (HTTP 403).
    """

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        headers = header_map(scope)
        if scope["type"] == "websocket" and not is_same_origin(headers.get("origin", ""), scope, headers):
            denier = WebsocketDenier()
            return await denier(scope, receive, send)
        return await self.application(scope, receive, send)
