"""The practice quiz over MCP: ``quiz.start`` as a task with the questions, the person's answers saved
as instance state, the scored result at the deadline; ``quiz.stop`` with its stable receipts.

``main`` settles deadlines (embedded scheduler). The answers are saved through the snapshot service
(what the workspace SDK's ``saveState`` reaches); the result comes back as the task's result.
"""

from __future__ import annotations

import pytest
from django.utils import timezone

from runtime.models import InstanceSnapshot, Operation
from runtime.services.operation_views import operation_result
from runtime.services.snapshots import save_snapshot

QUESTIONS = [{"prompt": f"{a} + {a} =", "answer": str(a + a)} for a in range(2, 7)]
SECONDS = 3  # long enough that the answers are saved before the deadline on a loaded machine


@pytest.mark.spec("R-3.5", "R-2.2.4", "R-2.2.5", "R-2.2.8")
def test_a_quiz_started_over_mcp_is_scored_from_the_saved_answers_at_its_deadline(live, mcp, conversation):
    created = mcp.call_as_task(
        "quiz.start", {"duration_seconds": SECONDS, "title": "Doubles", "questions": QUESTIONS}, key="quiz-1"
    )
    task = created.task
    operation = Operation.objects.get(pk=task.task_id)
    assert (operation.app_id, operation.details["answer_key"]) == ("quiz", ["4", "6", "8", "10", "12"])
    snapshot = InstanceSnapshot.objects.get(instance_id=operation.instance_id)
    assert snapshot.state == {"title": "Doubles", "prompts": [q["prompt"] for q in QUESTIONS], "answers": [""] * 5}

    save_snapshot(
        conversation_id=conversation.id,
        instance_id=operation.instance_id,
        state={**snapshot.state, "answers": ["4", "6", "9", "", ""]},
        expected_revision=snapshot.revision,
        now=timezone.now(),
    )
    result = mcp.task_result(task.task_id, timeout=SECONDS + 10)
    assert not result.is_error
    operation.refresh_from_db()
    assert result.structured_content == operation_result(operation)
    assert result.structured_content["state"] == "completed"
    assert result.structured_content["score"] == {"correct": 2, "answered": 3, "total": 5}
    assert result.structured_content["title"] == "Doubles"


@pytest.mark.spec("R-3.6", "R-3.7")
def test_quiz_stop_over_mcp_interrupts_the_running_quiz_with_stable_receipts(live, mcp, conversation):
    assert mcp.call("quiz.stop", key="stop-0").structured_content == {"status": "no_active_quiz"}
    started = mcp.call("quiz.start", {"duration_seconds": 600, "questions": QUESTIONS}, key="quiz-2")
    operation_id = started.structured_content["operation_id"]
    busy = mcp.call("quiz.start", {"duration_seconds": 60, "questions": QUESTIONS}, key="quiz-3")
    assert busy.is_error and busy.structured_content["code"] == "active_quiz"

    receipt = mcp.call("quiz.stop", key="stop-1")
    assert receipt.structured_content == {"status": "interrupted", "operation_id": operation_id}
    late = mcp.call("quiz.stop", key="stop-2")
    assert late.structured_content == {"status": "operation_already_final", "operation_id": operation_id}
    assert mcp.call("quiz.stop", key="stop-1").structured_content == receipt.structured_content  # a retry

    operation = Operation.objects.get(pk=operation_id)
    assert (operation.state, operation.interruption_reason) == ("interrupted", "agent_interrupt")
    assert operation_result(operation)["score"] == {"correct": 0, "answered": 0, "total": 5}
