"""After a restart the built-in Agents read a result's activity back from the operation's details."""

from __future__ import annotations

import uuid

import pytest

from interact.reference_agent.recall import _activity
from runtime.tool_calls import Accepted
from tests.support.factories import at

pytestmark = pytest.mark.django_db


@pytest.mark.spec("R-3.10")
def test_the_activity_of_a_result_is_read_from_its_operation_and_only_in_its_conversation(agent, conversation):
    with_activity = agent.start(60, "reading", now=at(0))
    assert isinstance(with_activity, Accepted)
    assert _activity(str(conversation.id), str(with_activity.operation_id)) == "reading"
    assert _activity(str(uuid.uuid4()), str(with_activity.operation_id)) is None
    assert _activity(str(conversation.id), "not-an-id") is None

    agent.interrupt(now=at(1))
    without = agent.start(60, now=at(2))
    assert isinstance(without, Accepted)
    assert _activity(str(conversation.id), str(without.operation_id)) is None
