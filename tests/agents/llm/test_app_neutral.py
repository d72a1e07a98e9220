"""The LLM Agent names no app (issue 36): its prompt, its status function and its reading of receipts
hold for an app it has never heard of, from the Inventory's declarations and the Runtime's words."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from agents.llm.agent import SYSTEM_PROMPT, LLMAgent, TurnState, _operation_for_model, _round_of, system_prompt
from agents.llm.apps import installed_apps
from agents.llm.config import LLMConfig
from agents.reference.declared import apps_from_inventory

pytestmark = pytest.mark.spec("R-2.1.1", "R-3.11")

CONV = "5b0b8c1e-2d4f-4c55-9a57-3f1e0f7d2a10"
# An app no Agent code knows: its stop answers "none here" in its own code, naming no operation.
TIMER2 = {
    "app_id": "timer2",
    "name": "Timer Two",
    "phrasings": {
        "phrasings_version": 1,
        "tools": {"start": "timer2.begin", "stop": "timer2.halt"},
        "arguments": {"duration": "length_seconds", "activity": "label"},
        "languages": {"en": {"name": "Timer Two", "help": "a timer"}, "zh-Hans": {"name": "计时二", "help": "计时"}},
    },
}
INVENTORY = {
    "type": "inventory",
    "conversation_id": CONV,
    "revision": "r1",
    "tools": [{"name": "timer2.begin"}, {"name": "timer2.halt"}, {"name": "jot.write"}, {"name": "jot.stop"}],
    "apps": [TIMER2, {"app_id": "jot", "name": "Jot"}],
}


def test_the_agents_own_instructions_name_no_app() -> None:
    for word in ("focus", "pomodoro", "quiz", "note", "番茄", "专注"):
        assert word not in SYSTEM_PROMPT.lower()
    prompt = system_prompt("en", installed_apps(INVENTORY))
    assert "- Timer Two: a timer" in prompt and "- Jot" in prompt


def test_a_start_is_read_by_the_apps_declared_start_tool_and_arguments() -> None:
    [timer2] = apps_from_inventory(INVENTORY)
    round_ = _round_of(timer2, "timer2.begin", {"length_seconds": 90, "label": "tea"}, "en")
    assert round_ is not None and (round_.duration_seconds, round_.activity) == (90, "tea")
    assert _round_of(timer2, "timer2.halt", {"length_seconds": 90}, "en") is None
    assert _round_of(None, "pomodoro.start", {"duration_seconds": 90}, "en") is None  # no declaration, no round


def test_what_runs_is_told_for_any_app_with_its_own_fields() -> None:
    ends = (datetime.now(UTC) + timedelta(seconds=120)).isoformat()
    told = _operation_for_model(
        {
            "operation_id": "op",
            "app_id": "timer2",
            "tool": "timer2.begin",
            "state": "ticking",
            "ends_at": ends,
            "label": "tea",
        },
        {"timer2": "Timer Two"},
    )
    assert {k: told[k] for k in ("app", "tool", "state", "label")} == {
        "app": "Timer Two",
        "tool": "timer2.begin",
        "state": "ticking",
        "label": "tea",
    }
    assert 115 <= told["seconds_left"] <= 120 and "operation_id" not in told


@pytest.mark.parametrize(
    ("tool", "receipt", "said", "confirmed"),
    [
        ("timer2.halt", {"status": "interrupted", "operation_id": "op"}, "Stopped.", {"stop", "result"}),
        ("timer2.halt", {"status": "no_timer_here"}, "Nothing was running.", set()),  # the app's own code
        ("timer2.halt", {"status": "operation_already_final", "operation_id": "op"}, "Nothing was running.", set()),
        ("jot.stop", {"status": "none_to_stop"}, "Nothing was running.", set()),  # undeclared: named a stop
        ("jot.write", {"status": "written"}, "Done: jot.write.", {"result"}),
    ],
)
def test_a_receipt_is_read_with_the_runtimes_words_never_an_apps_code(
    tool: str, receipt: dict[str, Any], said: str, confirmed: set[str]
) -> None:
    async def scenario() -> TurnState:
        async def send(frame: dict[str, Any]) -> None:
            pass

        agent = LLMAgent(send, config=LLMConfig(base_url="http://127.0.0.1:9/v1", model="m", max_retries=0))
        try:
            await agent.handle(INVENTORY)
            turn = TurnState(CONV, "m-1", "en")
            frame = {"type": "tool.receipt", "source_tool_call_id": "llm.en.x", "receipt": receipt}
            assert await agent._outcome(turn, tool, {}, frame) == receipt
            return turn
        finally:
            await agent.close()

    turn = asyncio.run(scenario())
    assert turn.events == [said]
    assert turn.confirmed == confirmed
