# ruff: noqa: RUF001 -- Chinese text uses full-width punctuation on purpose
"""A MiniApp made by ``manage.py startminiapp`` is known to the LLM Agent with no Agent code edited.

In a fresh copy of the project (tests/support/project_copy.py), ``startminiapp stretch`` makes the app;
the copy's embedded server runs the LLM Agent (``LINEUP_LLM_BASE_URL`` / ``LINEUP_LLM_MODEL`` point at
this test's ``FakeOpenAI``). The person writes from the page's ``/ws/workspace/`` in English and in
Chinese: the requests the model receives name Stretch, with what it can do, in the person's language
(from the Inventory's ``apps``); "help" lists it without a request; the model's ``stretch__start``
call is made on the Runtime and its reply, which the Runtime's answer confirms, is posted as written.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.agents.llm.fake_openai import FakeOpenAI, call, text, tool_calls
from tests.support.project_copy import EmbeddedServer, WorkspacePage, copy_with_new_miniapp

pytestmark = pytest.mark.spec("R-3.11", "R-2.1.1", "R-2.2.8")


@pytest.fixture
def copy_with_stretch(tmp_path: Path, fake_openai: FakeOpenAI) -> Iterator[EmbeddedServer]:
    project, env = copy_with_new_miniapp(tmp_path, "stretch")
    env.update(
        LINEUP_LLM_BASE_URL=fake_openai.base_url,
        LINEUP_LLM_MODEL="fake-model",
        LINEUP_LLM_API_KEY="sk-fake-test-key",
        LINEUP_LLM_TIMEOUT_SECONDS="10",
        LINEUP_LLM_MAX_RETRIES="0",
    )
    server = EmbeddedServer(project, env, tmp_path / "server.log").start()
    try:
        yield server
    finally:
        server.stop()


def test_a_new_miniapp_is_in_the_models_instructions_and_its_start_tool_is_called_and_grounded(
    copy_with_stretch: EmbeddedServer, fake_openai: FakeOpenAI
):
    server = copy_with_stretch
    fake_openai.script(
        text("Hello! I can time things for you."),
        tool_calls(call("stretch__start", '{"duration_seconds": 600}', "call_stretch")),
        text("好的，Stretch 已经开始，10 分钟。"),
    )
    with WorkspacePage(server) as page:

        def say(words: str, language: str, expected: str) -> tuple[str, str | None]:
            return page.say(words, language, lambda t: t.startswith(expected))

        say("hi", "en", "Hello! I can time things for you.")
        help_en, _ = say("help", "en", "Here is what I can do:")
        help_zh, _ = say("帮助", "zh-hans", "我可以帮你：")
        reply, in_block = say("开始stretch 十分钟", "zh-hans", "好的，Stretch 已经开始，10 分钟。")

    # "help" is the Inventory's list, in the person's language, with no request to the model.
    assert "\n• Stretch: times something for you: " in help_en and "\n• Pomodoro: " in help_en
    assert "\n• Stretch：为你计时：" in help_zh and "\n• 番茄钟：" in help_zh
    english, chinese, answered = fake_openai.requests
    # The model is told of the new app, in the person's language, like the bundled ones.
    english_prompt, chinese_prompt = english.messages[0]["content"], chinese.messages[0]["content"]
    assert '\n- Stretch: times something for you: "start stretch for 5 minutes"' in english_prompt
    assert "\n- Stretch：为你计时：“开始stretch 5 分钟”" in chinese_prompt
    assert "为你计时" not in english_prompt and "times something for you" not in chinese_prompt
    assert "\n- 番茄钟：" in chinese_prompt and "\n- Pomodoro: " in english_prompt
    assert {"stretch__start", "stretch__stop"} <= {tool["function"]["name"] for tool in chinese.body["tools"]}

    # The call is made on the Runtime, and the model is told what the Runtime answered.
    calls = page.rows("SELECT tool, source_tool_call_id, arguments FROM runtime_toolcall")
    assert [(tool, json.loads(arguments)) for tool, _, arguments in calls] == [
        ("stretch.start", {"duration_seconds": 600})
    ]
    assert calls[0][1].startswith("llm.zh.")
    told = json.loads(answered.messages[-1]["content"])
    assert answered.messages[-1]["tool_call_id"] == "call_stretch"
    assert told["status"] == "started" and told["replayed"] is False
    operations = page.rows("SELECT id, app_id, state, app_session_id FROM runtime_operation")
    assert [(str(op_id).replace("-", ""), app_id, state) for op_id, app_id, state, _ in operations] == [
        (told["operation_id"].replace("-", ""), "stretch", "running")
    ]
    # Grounded: the Runtime confirmed the start, so the model's words are posted as written, in the block.
    assert reply == "好的，Stretch 已经开始，10 分钟。"
    assert in_block is not None and str(in_block).replace("-", "") == str(operations[0][3]).replace("-", "")
