"""``/ws/workspace/`` under the doors' limits, through the real ASGI application in-process.

One person holds at most ``LINEUP_WORKSPACE_CONNECTIONS_PER_USER`` pages per server process (the next
is told ``too_many_connections`` and closed 4429, another person is not affected), and a page that
floods gets ``rate_limited`` with its ``request_id``, then is closed 4429; nothing it sent after the
burst was handled.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from django.conf import settings as django_settings
from django.test import Client

from interact.models import Message
from runtime.services.conversations import conversation_get_or_create_default
from tests.support.auth import password_login
from tests.support.hostile import Closed, InProcessPage, InProcessSocket, LoopThread, in_process, page_headers

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def runner(settings) -> Iterator[LoopThread]:
    with in_process(settings) as loop:
        yield loop


def session_cookie(username: str, password: str) -> str:
    client = Client()
    assert password_login(client, username, password)
    return client.cookies[django_settings.SESSION_COOKIE_NAME].value


@pytest.mark.spec("R-2.2.3")
def test_a_person_holds_at_most_the_capped_number_of_pages(runner, settings, user, other_user):
    settings.LINEUP_WORKSPACE_CONNECTIONS_PER_USER = 2
    ada = session_cookie("ada", "pw-ada-123")
    InProcessPage(runner, ada)
    second = InProcessPage(runner, ada)
    header = f"{django_settings.SESSION_COOKIE_NAME}={ada}".encode()
    third = InProcessSocket(runner, "/ws/workspace/", page_headers(header))
    runner.sockets.append(third)
    assert third.connect()[0]
    refused = third.receive()
    assert (refused["type"], refused["code"]) == ("error", "too_many_connections"), refused
    with pytest.raises(Closed) as closed:
        third.receive()
    assert closed.value.code == 4429
    InProcessPage(runner, session_cookie(other_user.username, "pw-bob-123")).still_usable()  # another person
    second.sock.close()
    InProcessPage(runner, ada).still_usable()  # the closed page's place is free again


@pytest.mark.spec("R-2.2.3")
def test_a_flooding_page_is_refused_rate_limited_then_closed(runner, settings, user):
    settings.LINEUP_WORKSPACE_FRAMES_PER_SECOND = 1
    settings.LINEUP_WORKSPACE_FRAMES_BURST = 5
    conversation_id = str(conversation_get_or_create_default(user=user).id)
    page = InProcessPage(runner, session_cookie("ada", "pw-ada-123"))
    for n in range(40):
        page.sock.send(
            text=json.dumps(
                {"type": "message.send", "conversation_id": conversation_id, "text": f"m{n}", "request_id": f"r{n}"}
            )
        )
    answers = []
    with pytest.raises(Closed) as closed:
        while True:
            answers.append(page.sock.receive())
    assert closed.value.code == 4429
    limited = [a for a in answers if a.get("code") == "rate_limited"]
    assert limited and all(a["request_id"].startswith("r") for a in limited)
    assert Message.objects.filter(conversation_id=conversation_id, author_kind="human").count() <= 6
