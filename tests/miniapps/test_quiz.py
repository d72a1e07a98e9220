"""The practice quiz MiniApp (miniapps/quiz): schemas, scoring, and its tools on the generic operation."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from miniapps.quiz.tools import normalized, score
from runtime.inventory import inventory_for_scope
from runtime.models import AppInstance, InstanceSnapshot, Operation, OutboxEntry
from runtime.services.lifecycle import return_to_interact
from runtime.services.settlements import settle_operation
from runtime.services.snapshots import save_snapshot
from runtime.tool_calls import Accepted, Rejected
from runtime.transitions import LifecycleState, OperationState, Trigger
from tests.support.factories import at

QUESTIONS = [
    {"prompt": "7 \u00d7 8 =", "answer": "56"},
    {"prompt": "6 \u00d7 9 =", "answer": "54"},
    {"prompt": "12 \u00d7 3 =", "answer": "36"},
]


def _state(instance_id) -> tuple[dict, int]:
    snapshot = InstanceSnapshot.objects.get(instance_id=instance_id)
    return snapshot.state, snapshot.revision


def test_answers_are_compared_after_nfkc_without_spaces_and_case():
    assert normalized(" \uff15\uff16 ") == "56"
    assert normalized("1 2") == "12"
    assert normalized("X") == "x"
    assert score(["56", "54", "36"], ["56", "", "35"]) == {"correct": 1, "answered": 2, "total": 3}
    # Fewer answers than questions, or odd values in the state, count as unanswered.
    assert score(["1", "2"], ["\uff11"]) == {"correct": 1, "answered": 1, "total": 2}
    assert score(["1", "2"], [None, "2", "extra"]) == {"correct": 1, "answered": 1, "total": 2}
    assert score(["1", "2"], [1, 2]) == {"correct": 0, "answered": 0, "total": 2}


@pytest.mark.django_db
@pytest.mark.spec("R-3.11")
def test_the_published_start_schema_takes_questions_and_the_result_schema_requires_a_score():
    published = {tool["name"]: tool for tool in inventory_for_scope("personal").published()["tools"]}
    start, stop = published["quiz.start"], published["quiz.stop"]
    assert start["input_schema"]["required"] == ["duration_seconds", "questions"]
    item = start["input_schema"]["properties"]["questions"]["items"]
    assert item["required"] == ["prompt", "answer"]
    assert "score" in start["result_schema"]["required"]
    assert stop["result_schema"]["properties"]["status"]["enum"] == [
        "interrupted",
        "no_active_quiz",
        "operation_already_final",
    ]
    # The policy is the Runtime's business, not published.
    assert "deadline_operation" not in start


@pytest.mark.django_db
@pytest.mark.spec("R-2.2.4", "R-2.2.5", "R-3.11")
def test_a_quiz_keeps_its_key_from_the_surface_and_scores_the_last_snapshot_at_the_deadline(agent, conversation):
    started = agent.call(
        "quiz.start", {"duration_seconds": 300, "title": "乘法口算", "questions": QUESTIONS}, now=at(0)
    )
    assert isinstance(started, Accepted)
    operation = Operation.objects.get(pk=started.operation_id)
    assert operation.details == {"answer_key": ["56", "54", "36"], "title": "乘法口算"}
    state, revision = _state(started.instance_id)
    assert state == {
        "title": "乘法口算",
        "prompts": ["7 \u00d7 8 =", "6 \u00d7 9 =", "12 \u00d7 3 ="],
        "answers": ["", "", ""],
    }
    # Nothing the Surface can read (its snapshot) holds an answer.
    assert "54" not in json.dumps(state) and "36" not in json.dumps(state)

    busy = agent.call("quiz.start", {"duration_seconds": 60, "questions": QUESTIONS}, now=at(1))
    assert isinstance(busy, Rejected) and busy.code == "active_quiz"

    # Leaving the app does not end it (ends_when_left: false).
    return_to_interact(conversation_id=conversation.id, now=at(2))
    assert Operation.objects.get(pk=started.operation_id).state == OperationState.RUNNING

    # The person answers in the Surface: each answer is a state save (the SDK's saveState).
    saved = save_snapshot(
        conversation_id=conversation.id,
        instance_id=started.instance_id,
        state={**state, "answers": ["56", "", ""]},
        expected_revision=revision,
        now=at(10),
    )
    save_snapshot(
        conversation_id=conversation.id,
        instance_id=started.instance_id,
        state={**state, "answers": ["56", "\uff15\uff14", "35"]},
        expected_revision=saved.revision,
        now=at(20),
    )
    settle_operation(operation_id=started.operation_id, trigger=Trigger.DEADLINE, now=at(300))
    entry = OutboxEntry.objects.get(operation_id=started.operation_id)
    assert entry.payload["tool"] == "quiz.start"
    result = entry.payload["result"]
    assert result["state"] == "completed"
    assert result["title"] == "乘法口算"
    assert result["score"] == {"correct": 2, "answered": 3, "total": 3}
    assert AppInstance.objects.get(pk=started.instance_id).lifecycle_state == LifecycleState.CLOSED


@pytest.mark.django_db
@pytest.mark.spec("R-3.7")
def test_quiz_stop_interrupts_with_stable_receipts_and_scores_what_was_answered(agent, conversation):
    assert agent.call("quiz.stop", {}, now=at(0)).receipt == {"status": "no_active_quiz"}
    started = agent.call("quiz.start", {"duration_seconds": 60, "questions": QUESTIONS}, now=at(0))
    state, revision = _state(started.instance_id)
    save_snapshot(
        conversation_id=conversation.id,
        instance_id=started.instance_id,
        state={**state, "answers": ["56"]},
        expected_revision=revision,
        now=at(5),
    )
    stopped = agent.call("quiz.stop", {}, now=at(10))
    assert stopped.receipt == {"status": "interrupted", "operation_id": str(started.operation_id)}
    again = agent.call("quiz.stop", {}, now=at(11))
    assert again.receipt == {"status": "operation_already_final", "operation_id": str(started.operation_id)}
    result = OutboxEntry.objects.get(operation_id=started.operation_id).payload["result"]
    assert result["state"] == "interrupted"
    assert result["score"] == {"correct": 1, "answered": 1, "total": 3}
    assert "title" not in result


@pytest.mark.django_db
@pytest.mark.spec("R-3.11")
def test_quiz_arguments_are_bounded_by_the_manifest(agent):
    too_long = agent.call("quiz.start", {"duration_seconds": 3601, "questions": QUESTIONS}, now=at(0))
    assert isinstance(too_long, Rejected) and too_long.code == "invalid_arguments"
    no_questions = agent.call("quiz.start", {"duration_seconds": 60, "questions": []}, now=at(0))
    assert isinstance(no_questions, Rejected) and no_questions.code == "invalid_arguments"
    too_many = [{"prompt": f"{i} + 1 =", "answer": str(i + 1)} for i in range(31)]
    rejected = agent.call("quiz.start", {"duration_seconds": 60, "questions": too_many}, now=at(0))
    assert isinstance(rejected, Rejected) and rejected.code == "invalid_arguments"
    # The biggest start the schema allows still fits the instance's quota.
    widest = [{"prompt": "\u0001" * 60, "answer": "\u0001" * 32} for _ in range(30)]
    assert isinstance(
        agent.call("quiz.start", {"duration_seconds": 60, "title": "\u0001" * 80, "questions": widest}, now=at(0)),
        Accepted,
    )


@pytest.mark.django_db
@pytest.mark.spec("R-3.3")
def test_the_admin_operations_list_masks_the_answer_key(agent, admin_client):
    started = agent.call("quiz.start", {"duration_seconds": 60, "title": "Doubles", "questions": QUESTIONS}, now=at(0))
    page = admin_client.get(reverse("admin:runtime_operation_changelist")).content.decode()
    assert str(started.operation_id)[:8] in page or "Doubles" in page
    # Each key by the name the quiz gave it (decision 0054), the answer key masked.
    assert "answer key: \u2022\u2022\u2022; title: Doubles" in page
    assert "&#x27;56&#x27;" not in page and "'56'" not in page
