"""``lineup.origins``: what counts as the page's own origin (scheme, host and port) for a request."""

from __future__ import annotations

import pytest

from lineup.origins import is_same_origin, parse_origin


def _request(host: str, scheme: str = "ws", **headers: str) -> tuple[dict, dict[str, str]]:
    return {"type": "websocket", "scheme": scheme}, {"host": host, **headers}


@pytest.mark.spec("R-2.2.3")
@pytest.mark.parametrize(
    ("origin", "host", "scheme", "same"),
    [
        ("http://localhost:8000", "localhost:8000", "ws", True),
        ("http://LOCALHOST:8000", "localhost:8000", "ws", True),
        ("http://localhost", "localhost:80", "ws", True),  # the default port, written or not
        ("https://localhost", "localhost", "wss", True),
        ("http://[::1]:8000", "[::1]:8000", "ws", True),
        ("http://localhost:8001", "localhost:8000", "ws", False),  # another port
        ("https://localhost:8000", "localhost:8000", "ws", False),  # another scheme
        ("http://localhost:8000", "localhost:8000", "wss", False),
        ("http://127.0.0.1:8000", "localhost:8000", "ws", False),  # another spelling of the host
        ("http://evil.example:8000", "evil.example:8000", "ws", False),  # same, but not an allowed host
        ("http://localhost:8000/path", "localhost:8000", "ws", False),
        ("http://user@localhost:8000", "localhost:8000", "ws", False),
        ("null", "localhost:8000", "ws", False),
        ("", "localhost:8000", "ws", False),
        ("http://localhost:99999", "localhost:8000", "ws", False),
    ],
)
def test_only_the_requests_own_origin_is_the_same(origin, host, scheme, same):
    """Scheme, host (case-insensitive) and port (the default one filled in) must all match, and the
    host must be an allowed one; anything that is not a bare origin never matches."""
    assert is_same_origin(origin, *_request(host, scheme)) is same


@pytest.mark.spec("R-2.2.3")
def test_behind_a_tls_proxy_https_is_taken_from_its_header_only_when_configured(settings):
    """X-Forwarded-Proto counts only with SECURE_PROXY_SSL_HEADER set (LINEUP_BEHIND_TLS_PROXY)."""
    scope, headers = _request("localhost:8000", "ws", **{"x-forwarded-proto": "https"})
    assert not is_same_origin("https://localhost:8000", scope, headers)
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert is_same_origin("https://localhost:8000", scope, headers)
    assert not is_same_origin("http://localhost:8000", scope, headers)
    assert parse_origin("https://lineup.example") == ("https", "lineup.example", 443)
