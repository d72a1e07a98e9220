"""Strangers at ``/ws/agent/``: a hello with a token that is no Agent's is looked up once, then refused
from memory; every such refusal is answered late (lineup.doors.strangers)."""

from __future__ import annotations

import secrets
import time

import pytest

from lineup.doors.strangers import RETRY_AFTER_SECONDS
from lineup.gateways.agent_socket.frames import PROTOCOL


@pytest.mark.spec("R-2.2.3")
def test_a_made_up_token_is_looked_up_once_and_refused_late(live, connect, conversation):
    """The first hello with a made-up token reaches the database (its one ``agent.unauthorized``
    line); the same token again is refused without it. Both wait a second before 4401."""
    stranger = "lu_" + secrets.token_urlsafe(32)
    before = len(live.main.log_events("agent.unauthorized"))
    for _ in range(2):
        sock = connect()
        asked = time.monotonic()
        answer = sock.request({"type": "hello", "token": stranger, "protocol": PROTOCOL})
        assert answer["type"] == "error" and answer["code"] == "unauthorized", answer
        assert time.monotonic() - asked >= RETRY_AFTER_SECONDS
        assert sock.close_code() == 4401
    assert len(live.main.log_events("agent.unauthorized")) - before == 1
