"""A WebSocket close reaches the client with its code and reason through a real Daphne (issue 38).

Autobahn's ``sendClose``, which Daphne calls, accepts only 1000 and 3000-4999: the door's 1011
("server error", a consumer that crashed) came out as a bare 1011 with an empty reason, and Daphne
logged "invalid close code". lineup.internals.daphne now sends the close frame itself; the frame's
bytes are checked in tests/lineup/internals/test_daphne_4_2_3_twisted_26_10_0_autobahn_26_11_1.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.support.processes import ManagedProcess, lineup_env, start_daphne, supervised_processes


@pytest.fixture(scope="module")
def daphne(request, tmp_path_factory, django_db_setup) -> Iterator[tuple[int, ManagedProcess]]:
    """One Daphne for the module (its sockets touch no table; the test database only has to exist)."""
    with supervised_processes(request, tmp_path_factory.mktemp("daphne")) as processes:
        env = lineup_env(LINEUP_SCHEDULER="none", LINEUP_REFERENCE_AGENT_URL="")
        yield start_daphne(processes, "daphne", env=env, asgi="tests.support.socket_close_app:application")


def closed_with(daphne: tuple[int, ManagedProcess], path: str) -> tuple[int, str]:
    """The close code and reason a client of ``path`` receives; Daphne logged no refused close meanwhile."""
    port, process = daphne
    logged_before = len(process.log_text())
    code_and_reason = asyncio.run(_closed_with(port, path))
    assert "invalid close code" not in process.log_text()[logged_before:]
    return code_and_reason


async def _closed_with(port: int, path: str) -> tuple[int, str]:
    async with connect(f"ws://127.0.0.1:{port}{path}", open_timeout=15, close_timeout=5) as ws:
        try:
            await asyncio.wait_for(ws.recv(), 15)
        except ConnectionClosed as closed:
            assert closed.rcvd is not None, "no close frame came"
            return closed.rcvd.code, closed.rcvd.reason
    raise AssertionError("the socket sent a message instead of closing")


@pytest.mark.spec("R-2.2.3")
def test_a_crashed_consumer_closes_with_1011_and_its_reason(daphne):
    assert closed_with(daphne, "/ws/test/crash/") == (1011, "server error")  # before: (1011, "")


@pytest.mark.spec("R-2.2.3")
@pytest.mark.parametrize("code", [1000, 1001, 1008, 4429])
def test_every_application_close_code_reaches_the_client_with_its_reason(daphne, code):
    assert closed_with(daphne, f"/ws/test/close/{code}/") == (code, f"closing {code}")
