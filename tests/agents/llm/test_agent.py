# ruff: noqa: RUF001 -- Chinese text uses full-width punctuation on purpose
"""agents.llm.agent with a fake transport and the fake model server: a turn across a reconnect.

The server side is hand-written frames shaped as lineup.gateways.agent_socket sends them (the Inventory
is the real one); the model side is ``FakeOpenAI`` over loopback HTTP.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from agents.common.client import PROTOCOL
from agents.llm import grounding
from agents.llm.agent import LLMAgent
from agents.llm.config import LLMConfig
from runtime.inventory import inventory_for_scope
from tests.agents.llm.conftest import INSTALLED_ZH
from tests.agents.llm.fake_openai import FakeOpenAI, Reply, call, error, recorded, text, tool_calls

CONV = "5b0b8c1e-2d4f-4c55-9a57-3f1e0f7d2a10"
SESSION = "9f5e2c41-7a0b-4d0e-8c3a-1b2c3d4e5f60"


class Wire:
    """The fake transport: collects what the Agent sends."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, frame: dict[str, Any]) -> None:
        self.sent.append(frame)

    async def next_of(self, kind: str, after: int = 0, timeout: float = 10.0) -> tuple[int, dict[str, Any]]:
        """The first frame of ``kind`` sent at index ``after`` or later, polled with a deadline."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            for index in range(after, len(self.sent)):
                if self.sent[index]["type"] == kind:
                    return index, self.sent[index]
            if asyncio.get_running_loop().time() > deadline:
                pytest.fail(f"no {kind} frame was sent; sent: {self.sent}")
            await asyncio.sleep(0.01)


def welcome() -> dict[str, Any]:
    return {"type": "welcome", "agent_id": "agent-1", "protocol": PROTOCOL, "conversations": [CONV], "limits": {}}


@pytest.fixture
def fake_openai():
    server = FakeOpenAI().start()
    yield server
    server.stop()


@pytest.mark.spec("R-2.2.6")
def test_a_call_in_flight_when_the_connection_drops_is_resent_with_the_same_id(fake_openai):
    """The model's call is sent, the connection drops before its answer: after the next welcome the
    same tool.call (same source_tool_call_id) goes again, its answer reaches the waiting turn, and
    the model's reply is posted into the started focus's block."""
    fake_openai.script(
        tool_calls(call("pomodoro__start", '{"duration_seconds": 1500}', "c1")),
        text("Focus on!"),
    )

    async def scenario() -> None:
        wire = Wire()
        agent = LLMAgent(wire.send, config=LLMConfig(base_url=fake_openai.base_url, model="m", max_retries=0))
        try:
            await agent.handle(welcome())
            await agent.handle(
                {"type": "user.message", "conversation_id": CONV, "message_id": "m-1", "text": "focus 25 min"}
            )
            await wire.next_of("inventory.get")
            published = inventory_for_scope("personal").published()
            await agent.handle({"type": "inventory", "conversation_id": CONV, **published})
            first_index, first = await wire.next_of("tool.call")
            assert (first["tool"], first["arguments"]) == ("pomodoro.start", {"duration_seconds": 1500})

            agent.disconnected()  # lost before the answer came
            await agent.handle(welcome())
            _, again = await wire.next_of("tool.call", after=first_index + 1)
            assert again == first

            await agent.handle(
                {
                    "type": "tool.accepted",
                    "conversation_id": CONV,
                    "source_tool_call_id": first["source_tool_call_id"],
                    "operation_id": "op-1",
                    "instance_id": "inst-1",
                    "app_session_id": SESSION,
                    "replayed": True,
                }
            )
            _, reply = await wire.next_of("message.send")
            assert reply == {
                "type": "message.send",
                "conversation_id": CONV,
                "text": "Focus on!",
                "app_session_id": SESSION,
            }
            told = json.loads(fake_openai.requests[1].messages[-1]["content"])
            assert told == {"status": "started", "operation_id": "op-1", "replayed": True}
            assert [f["type"] for f in wire.sent].count("tool.call") == 2
        finally:
            await agent.close()

    asyncio.run(scenario())


@pytest.mark.spec("R-2.2.3")
def test_an_unknown_function_is_told_plainly_and_nothing_is_called(fake_openai):
    fake_openai.script(tool_calls(call("pomodoro__pause", "{}", "c1")), text("I can only start or stop."))

    async def scenario() -> None:
        wire = Wire()
        agent = LLMAgent(wire.send, config=LLMConfig(base_url=fake_openai.base_url, model="m", max_retries=0))
        try:
            await agent.handle(welcome())
            published = inventory_for_scope("personal").published()
            await agent.handle({"type": "inventory", "conversation_id": CONV, **published})
            await agent.handle({"type": "user.message", "conversation_id": CONV, "message_id": "m-1", "text": "pause"})
            index, first = await wire.next_of("message.send")
            _, second = await wire.next_of("message.send", after=index + 1)
            assert first["text"] == ("I couldn't do that: pomodoro can't “pause” here. Nothing was done.")
            assert second["text"] == "I can only start or stop."
            assert "tool.call" not in [f["type"] for f in wire.sent]
            told = json.loads(fake_openai.requests[1].messages[-1]["content"])
            assert told["error"] == "unknown_tool"
        finally:
            await agent.close()

    asyncio.run(scenario())


@pytest.mark.spec("R-2.1.1")
def test_the_model_can_ask_how_long_is_left(fake_openai):
    """The model is offered the status function; its call is answered by the Agent itself (no tool.call
    to LineUp) from what runs (conversation.state.get): the focus and its seconds left."""
    from datetime import UTC, datetime, timedelta

    fake_openai.script(tool_calls(call("lineup_status", "{}", "s1")), text("About 10 minutes left."))
    ends = (datetime.now(UTC) + timedelta(minutes=10)).isoformat()
    focus = {
        "operation_id": "op-1",
        "tool": "pomodoro.start",
        "activity": "reading",
        "started_at": ends,
        "ends_at": ends,
    }

    def state(*operations: dict[str, Any]) -> dict[str, Any]:
        return {
            "type": "conversation.state",
            "conversation_id": CONV,
            "instances": [],
            "operations": list(operations),
            "truncated": False,
        }

    async def scenario() -> None:
        wire = Wire()
        agent = LLMAgent(wire.send, config=LLMConfig(base_url=fake_openai.base_url, model="m", max_retries=0))
        try:
            await agent.handle(welcome())
            first, _ = await wire.next_of("conversation.state.get")  # a fresh start reads what runs
            await agent.handle(state())
            await agent.handle(
                {"type": "user.message", "conversation_id": CONV, "message_id": "m-1", "text": "how long is left?"}
            )
            await wire.next_of("inventory.get")
            published = inventory_for_scope("personal").published()
            await agent.handle({"type": "inventory", "conversation_id": CONV, **published})
            await wire.next_of("conversation.state.get", after=first + 1)
            await agent.handle(state(focus))
            _, reply = await wire.next_of("message.send")
            assert reply["text"] == "About 10 minutes left."
            assert "tool.call" not in [f["type"] for f in wire.sent]
            offered = [t["function"]["name"] for t in fake_openai.requests[0].body["tools"]]
            assert "lineup_status" in offered
            told = json.loads(fake_openai.requests[1].messages[-1]["content"])
            assert told["running"] is True
            [running] = told["operations"]
            assert (running["app"], running["tool"], running["activity"]) == ("Pomodoro", "pomodoro.start", "reading")
            assert 595 <= running["seconds_left"] <= 600
        finally:
            await agent.close()

    asyncio.run(scenario())


@pytest.mark.spec("R-2.1.1", "R-4.1.1")
@pytest.mark.parametrize(
    ("reply", "said"),
    [
        (
            Reply("<html>502 Bad Gateway</html>"),
            "我没能做到：语言模型的回应无法使用。没有执行任何操作，请再试一次。" + INSTALLED_ZH,
        ),
        (
            Reply('{"choices": [{"message": {"content": "cut off'),
            "我没能做到：语言模型的回应无法使用。没有执行任何操作，请再试一次。" + INSTALLED_ZH,
        ),
        (
            Reply({"error": {"message": "Requested 2200 tokens"}}),
            "我没能做到：语言模型的回应无法使用。没有执行任何操作，请再试一次。" + INSTALLED_ZH,
        ),
        (
            error(500, "CUDA error: out of memory"),
            "我没能做到：语言模型服务器出了问题。没有执行任何操作，请再试一次。" + INSTALLED_ZH,
        ),
    ],
)
def test_a_broken_answer_from_the_model_server_is_told_in_the_persons_language(fake_openai, reply, said):
    """Malformed JSON, a 200 without choices, an HTTP error: a Chinese person reads Chinese, never the server's words."""
    fake_openai.script(reply)

    async def scenario() -> None:
        wire = Wire()
        agent = LLMAgent(wire.send, config=LLMConfig(base_url=fake_openai.base_url, model="m", max_retries=0))
        try:
            await agent.handle(welcome())
            published = inventory_for_scope("personal").published()
            await agent.handle({"type": "inventory", "conversation_id": CONV, **published})
            await agent.handle(
                {
                    "type": "user.message",
                    "conversation_id": CONV,
                    "message_id": "m-1",
                    "text": "你好",
                    "language": "zh-hans",
                }
            )
            _, sent = await wire.next_of("message.send")
            assert sent["text"] == said
        finally:
            await agent.close()

    asyncio.run(scenario())


@pytest.mark.spec("R-2.2.3")
def test_a_tool_call_without_a_function_name_is_refused(fake_openai):
    fake_openai.script(tool_calls(call("", '{"duration_seconds": 1500}', "c1")), text("Hmm."))

    async def scenario() -> None:
        wire = Wire()
        agent = LLMAgent(wire.send, config=LLMConfig(base_url=fake_openai.base_url, model="m", max_retries=0))
        try:
            await agent.handle(welcome())
            published = inventory_for_scope("personal").published()
            await agent.handle({"type": "inventory", "conversation_id": CONV, **published})
            await agent.handle(
                {"type": "user.message", "conversation_id": CONV, "message_id": "m-1", "text": "focus 25 minutes"}
            )
            index, first = await wire.next_of("message.send")
            _, second = await wire.next_of("message.send", after=index + 1)
            assert first["text"] == (
                "I couldn't do that: the language model's request was malformed. Nothing was started or changed."
            )
            assert second["text"] == "Hmm."
            assert "tool.call" not in [f["type"] for f in wire.sent]
        finally:
            await agent.close()

    asyncio.run(scenario())


REAL_RUN = [
    ("en", "focus 25 minutes on reading"),
    ("en", "how long is left?"),
    ("en", "stop"),
    ("en", "pomodoro 25"),
    ("en", "thanks"),
    ("zh", "帮我专注25分钟，写作业"),
    ("zh", "还剩多久？"),
    ("zh", "不做了，停下"),
    ("zh", "专注半小时读书"),
] * 2


@pytest.mark.spec("R-2.1.1", "R-4.1.1")
def test_a_real_small_model_run_replayed_tells_no_lie_and_learns_the_context(fake_openai):
    """SmolLM2-135M-Instruct behind llama-cpp-python with a 2 048-token context, captured by
    bench/llm_truth.py: it never calls a tool, recites its instructions, answers Chinese with English,
    and the 10th request overflows. Replayed: the overflow is learned and the request sent again
    fitted (fewer messages, a smaller reply budget), nothing is called, no posted reply claims a
    start, stop or result, every Chinese turn reads Chinese, and the server's words are never shown."""
    fake_openai.script(*recorded("smollm2-135m-real-2048"))

    async def scenario() -> None:
        wire = Wire()
        agent = LLMAgent(wire.send, config=LLMConfig(base_url=fake_openai.base_url, model="m", max_retries=0))
        posted: list[tuple[str, str]] = []
        try:
            await agent.handle(welcome())
            published = inventory_for_scope("personal").published()
            await agent.handle({"type": "inventory", "conversation_id": CONV, **published})
            after = 0
            for index, (language, words) in enumerate(REAL_RUN):
                frame = {"type": "user.message", "conversation_id": CONV, "message_id": f"m-{index}", "text": words}
                await agent.handle({**frame, "language": language})
                after, sent = await wire.next_of("message.send", after=after)
                after += 1
                posted.append((language, sent["text"]))
        finally:
            await agent.close()
        assert fake_openai.request_count() == len(REAL_RUN) + 1  # one overflow, sent again once
        overflowed, retried = fake_openai.requests[9], fake_openai.requests[10]
        assert len(retried.messages) < len(overflowed.messages)
        assert (overflowed.body["max_tokens"], retried.body["max_tokens"]) == (512, 256)
        assert agent.window.limit == 2048
        assert "tool.call" not in [f["type"] for f in wire.sent]
        for language, reply in posted:
            assert not grounding.claims(reply), reply
            assert not grounding.wrong_script(reply, language), reply
            assert "maximum context length" not in reply and "reduce the length" not in reply, reply

    asyncio.run(scenario())


@pytest.mark.spec("R-2.1.1", "R-2.2.3")
def test_a_real_small_model_that_calls_with_numbers_nobody_said_starts_nothing(fake_openai):
    """The same model offered the tools (tool_choice "auto"): it calls pomodoro__start for nearly every
    message — "stop", "thanks", "how long is left?" — with 0, 1, 10, 12 or 25 s. Replayed: not one
    tool.call reaches LineUp; each plausible call is a question with choices, the unusable ones are
    refused, and its "functions.pomodoro__start:" text is never shown."""
    fake_openai.script(*recorded("smollm2-135m-real-2048-tools"))

    async def scenario() -> None:
        wire = Wire()
        agent = LLMAgent(wire.send, config=LLMConfig(base_url=fake_openai.base_url, model="m", max_retries=0))
        try:
            await agent.handle(welcome())
            published = inventory_for_scope("personal").published()
            await agent.handle({"type": "inventory", "conversation_id": CONV, **published})
            for index, (language, words) in enumerate(REAL_RUN):
                frame = {"type": "user.message", "conversation_id": CONV, "message_id": f"m-{index}", "text": words}
                before = len(wire.sent)
                await agent.handle({**frame, "language": language})
                deadline = asyncio.get_running_loop().time() + 10
                while agent._turns and asyncio.get_running_loop().time() < deadline:
                    await asyncio.sleep(0.01)
                assert not agent._turns, f"turn {index} did not end"
                assert any(f["type"] in ("message.send", "interaction.request") for f in wire.sent[before:])
        finally:
            await agent.close()
        assert fake_openai.request_count() == len(fake_openai.requests) == 22  # the whole transcript, in step
        assert "tool.call" not in [f["type"] for f in wire.sent]
        questions = [f for f in wire.sent if f["type"] == "interaction.request"]
        assert len(questions) == 15 and all(q["kind"] == "choice" for q in questions)
        assert questions[0]["options"] == [
            {"id": "said-0", "label": "25 minutes"},
            {"id": "cancel", "label": "Neither: do nothing"},
        ]  # the model's 0 seconds is not offered
        said = [f["text"] for f in wire.sent if f["type"] == "message.send"]
        assert not [t for t in said if "functions." in t or grounding.claims(t)]

    asyncio.run(scenario())
