"""The practice quiz's tools on the Runtime's generic deadline operation (runtime.api only).

``quiz.start {duration_seconds, title?, questions: [{prompt, answer}]}`` starts one exclusive
operation (refused ``active_quiz`` while one runs; leaving the app does not end it; at most 1 h).
The answer key stays in the operation's ``details``; the instance's first state holds only the
prompts and empty answers, so the Surface never sees the key. The person's answers are saved as
instance state through the SDK; when the operation ends (deadline or ``quiz.stop``) the last
snapshot is scored into the result. ``quiz.stop {}`` answers ``interrupted``,
``operation_already_final`` or ``no_active_quiz``.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from runtime.api import (
    Accepted,
    OperationView,
    Receipt,
    ToolRequest,
    interrupt_operation,
    standard_result,
    start_operation,
)

APP_ID = "quiz"
START_TOOL = "quiz.start"
STOP_TOOL = "quiz.stop"
NO_ACTIVE = "no_active_quiz"
ANSWER_KEY = "answer_key"  # the details key no screen shows
QUESTION_ANSWER = "answer"  # a question's answer in quiz.start's arguments


def start(request: ToolRequest) -> Accepted:
    questions = request.arguments["questions"]
    title = request.arguments.get("title")
    details: dict[str, Any] = {ANSWER_KEY: [q[QUESTION_ANSWER] for q in questions]}
    state: dict[str, Any] = {"prompts": [q["prompt"] for q in questions], "answers": [""] * len(questions)}
    if title is not None:
        details["title"] = title
        state["title"] = title
    return start_operation(
        request, duration_seconds=request.arguments["duration_seconds"], details=details, initial_state=state
    )


def stop(request: ToolRequest) -> Receipt:
    return interrupt_operation(request, no_active_status=NO_ACTIVE)


def normalized(answer: str) -> str:
    """An answer as compared: NFKC (full-width digits and signs become ASCII), no spaces, case-folded."""
    return "".join(unicodedata.normalize("NFKC", answer).split()).casefold()


def score(answer_key: list[str], answers: list[Any]) -> dict[str, int]:
    """How many of ``answers`` (the person's, by position) match ``answer_key``; blanks are unanswered."""
    given = [a if isinstance(a, str) else "" for a in answers[: len(answer_key)]]
    given += [""] * (len(answer_key) - len(given))
    answered = sum(1 for a in given if normalized(a))
    correct = sum(
        1 for a, key in zip(given, answer_key, strict=True) if normalized(a) and normalized(a) == normalized(key)
    )
    return {"correct": correct, "answered": answered, "total": len(answer_key)}


def result(view: OperationView) -> dict[str, Any]:
    """``quiz.start``'s final result: how and when it ended, and the score of the last saved answers."""
    details = view.details
    state = view.instance_state or {}
    outcome = standard_result(view)
    if details.get("title"):
        outcome["title"] = details["title"]
    outcome["score"] = score(list(details.get(ANSWER_KEY, [])), list(state.get("answers", [])))
    return outcome


def projection(view: OperationView) -> dict[str, Any]:
    """What the Surface is told beyond the times: the title only (never the answer key)."""
    return {"title": view.details.get("title")}
