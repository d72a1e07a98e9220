"""HTTP limits kept by a real Daphne serving ``lineup.asgi`` (lineup.internals.daphne and lineup.doors.http).

A body declared over ``LINEUP_HTTP_MAX_BODY_BYTES`` is answered 413 as soon as the headers are in,
without the body ever being sent (before: Daphne waited for all of it, buffered it and queued it);
a chunked body is cut off the moment it passes the limit; half-sent headers lose the connection
after ``LINEUP_HTTP_HEADER_TIMEOUT_SECONDS``; ``/mcp/`` is under the same limit.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest

from tests.support.processes import lineup_env, start_daphne, supervised_processes

pytestmark = pytest.mark.django_db(transaction=True)

LIMIT = 100_000
HEADER_TIMEOUT = 1.0


@pytest.fixture
def port(request, tmp_path) -> Iterator[int]:
    with supervised_processes(request, tmp_path) as processes:
        env = lineup_env(
            LINEUP_HTTP_MAX_BODY_BYTES=str(LIMIT),
            LINEUP_HTTP_HEADER_TIMEOUT_SECONDS=str(HEADER_TIMEOUT),
            LINEUP_SCHEDULER="none",
            LINEUP_REFERENCE_AGENT_URL="",
        )
        yield start_daphne(processes, "daphne", env=env)[0]


def connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.settimeout(10)
    return sock


def read_all(sock: socket.socket) -> bytes:
    chunks = []
    while chunk := sock.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


def post_head(path: str, extra: str) -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n{extra}\r\n"
    ).encode()


@pytest.mark.spec("R-2.2.3")
@pytest.mark.parametrize("path", ["/accounts/login/", "/mcp/00000000-0000-0000-0000-000000000000/"])
def test_a_declared_body_over_the_limit_is_refused_before_it_is_sent(port, path):
    """300 MB declared, not one byte of it sent: the 413 comes at once and the connection closes."""
    with connect(port) as sock:
        sock.sendall(post_head(path, f"Content-Length: {300 * 1024 * 1024}\r\n"))
        answer = read_all(sock)
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
    assert b"payload_too_large" in answer


@pytest.mark.spec("R-2.2.3")
def test_a_chunked_body_is_cut_off_when_it_passes_the_limit(port):
    with connect(port) as sock:
        sock.sendall(post_head("/accounts/login/", "Transfer-Encoding: chunked\r\n"))
        chunk = b"x" * 10_000
        sent, answer = 0, b""
        try:
            while sent < 50 * LIMIT:  # far more than the limit, if nobody stopped it
                sock.sendall(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
                sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
        try:
            answer = read_all(sock)
        except ConnectionResetError:
            pass
    assert sent < 50 * LIMIT
    assert answer == b"" or answer.startswith(b"HTTP/1.1 413 "), answer[:200]


@pytest.mark.spec("R-2.2.3")
def test_half_sent_headers_lose_the_connection_after_the_header_timeout(port):
    with connect(port) as sock:
        started = time.monotonic()
        sock.sendall(b"GET /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        try:
            assert read_all(sock) == b""
        except ConnectionResetError:
            pass
        elapsed = time.monotonic() - started
    assert HEADER_TIMEOUT * 0.9 <= elapsed < HEADER_TIMEOUT + 5, elapsed
    # A whole request is still answered.
    with connect(port) as sock:
        sock.sendall(b"GET /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        assert read_all(sock).startswith(b"HTTP/1.1 200 ")


@pytest.mark.spec("R-2.2.3")
@pytest.mark.parametrize("path", ["/static/../lineup/settings.py", "/static/..%2f..%2fREADME.md", "/static/%2e%2e/x"])
def test_a_path_leaving_static_is_not_found(port, path):
    """Not a 500 with a traceback in the log: simply not found."""
    with connect(port) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        answer = read_all(sock)
    assert answer.startswith(b"HTTP/1.1 404 "), answer[:200]
