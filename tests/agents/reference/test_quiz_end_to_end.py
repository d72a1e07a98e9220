# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！（）) on purpose
"""The practice quiz through the reference Agent, over /ws/agent/ on a live Daphne (real PostgreSQL,
Redis and the embedded deadline scheduler).

The person asks for a quiz in the IM; the Agent makes the questions and calls ``quiz.start``; the
person answers in the Surface, i.e. saves the instance state (``save_snapshot``, what the SDK's
``saveState`` reaches); at the deadline the Runtime scores the last snapshot and the Agent reports
the score in the IM. "停止" stops a running quiz with ``quiz.stop``.
"""

from __future__ import annotations

import pytest
from django.utils import timezone

from interact.models import AuthorKind, Message
from runtime.models import InstanceSnapshot, Operation, OutboxEntry
from runtime.services.snapshots import save_snapshot
from runtime.transitions import OperationState
from tests.agents.reference.test_end_to_end import say, server  # noqa: F401 -- the live Daphne fixture
from tests.support.processes import manage_py_argv


def _agent_text(conversation, start: str) -> Message | None:
    return (
        Message.objects.filter(conversation=conversation, author_kind=AuthorKind.AGENT, text__startswith=start)
        .order_by("created_at")
        .first()
    )


@pytest.mark.spec("R-2.1.1", "R-2.2.4", "R-2.2.5", "R-3.7")
def test_the_reference_agent_sets_a_quiz_reports_its_score_and_stops_one(server, user, conversation):  # noqa: F811
    server.processes.start(
        "reference-agent",
        manage_py_argv("run_reference_agent", "--url", server.url, "--user", user.username),
        env=server.env,
        ready=r"reference_agent\.connected",
    )

    say(conversation, user, "quiz me on multiplication for 4 seconds")
    operation = server.wait(lambda: Operation.objects.filter(conversation=conversation, app_id="quiz").first(), "quiz")
    assert operation.tool_call.tool == "quiz.start"
    key = operation.details["answer_key"]
    assert len(key) == 20 and operation.details["title"] == "Multiplication drill"
    snapshot = InstanceSnapshot.objects.get(instance_id=operation.instance_id)
    assert len(snapshot.state["prompts"]) == 20 and "answer_key" not in snapshot.state
    assert all("\u00d7" in prompt for prompt in snapshot.state["prompts"])
    server.wait(lambda: _agent_text(conversation, "Your quiz has started: 20 questions, 4 seconds."), "announced")

    # The person answers three questions in the Surface (two right, one wrong): one state save.
    answers = [key[0], key[1], "0"] + [""] * 17
    save_snapshot(
        conversation_id=conversation.id,
        instance_id=operation.instance_id,
        state={**snapshot.state, "answers": answers},
        expected_revision=snapshot.revision,
        now=timezone.now(),
    )
    report = server.wait(lambda: _agent_text(conversation, "Time's up!"), "the score in the IM")
    assert report.text == "Time's up! You got 2 of 20 right (3 answered)." and report.app_session_id is None
    entry = OutboxEntry.objects.get(operation=operation)
    assert entry.payload["tool"] == "quiz.start"
    assert entry.payload["result"]["score"] == {"correct": 2, "answered": 3, "total": 20}
    server.wait(lambda: OutboxEntry.objects.get(pk=entry.pk).acked_at is not None, "the result acked")

    # In Chinese: a quiz that "停止" stops.
    say(conversation, user, "口算练习 5 分钟")
    second = server.wait(
        lambda: Operation.objects.filter(conversation=conversation, app_id="quiz").exclude(pk=operation.pk).first(),
        "the second quiz",
    )
    assert second.details["title"] == "口算"
    server.wait(lambda: _agent_text(conversation, "开始5分钟的口算练习：共 20 道题"), "announced in Chinese")
    say(conversation, user, "停止")
    stopped = server.wait(lambda: _agent_text(conversation, "测验已停止。"), "the Chinese stop report")
    assert stopped.text == "测验已停止。你答对了 0 / 20 道题（作答 0 道）。"
    second.refresh_from_db()
    assert (second.state, second.interruption_reason) == (OperationState.INTERRUPTED, "agent_interrupt")
    assert second.tool_call.tool == "quiz.start"
    server.wait(
        lambda: not OutboxEntry.objects.filter(conversation=conversation, acked_at__isnull=True).exists(), "acks"
    )
