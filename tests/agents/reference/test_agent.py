# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！（）) on purpose
"""agents.reference.agent with a fake transport: which frames it sends for which frames it gets.

The server side is played by hand-written frames shaped exactly as lineup.gateways.agent_socket sends
them; the Inventory is the real one this process publishes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

import pytest

from agents.common.client import PROTOCOL
from agents.reference.agent import (
    CONFIRM_TIMEOUT_SECONDS,
    ReferenceAgent,
    call_id,
    confirm_id,
)
from agents.reference.intents import detect_language
from runtime.inventory import inventory_for_scope

# The bundled Pomodoro's frozen tools (the Agent knows them only from its declaration, decision 0057).
START_TOOL = "pomodoro.start"
INTERRUPT_TOOL = "pomodoro.interrupt"

CONV = "5b0b8c1e-2d4f-4c55-9a57-3f1e0f7d2a10"
SESSION = "9f5e2c41-7a0b-4d0e-8c3a-1b2c3d4e5f60"
OUTBOX = "c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f"
T_START = "2026-01-05T09:00:00.000Z"


ACK_TYPES = ("message.ack", "interaction.ack")


class Wire:
    """The fake transport: collects what the Agent sends (its acks of messages and resolutions apart)."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.acks: list[dict[str, Any]] = []
        self.reads: list[dict[str, Any]] = []  # conversation.state.get: a fresh Agent's first welcome sends one

    async def send(self, frame: dict[str, Any]) -> None:
        if frame["type"] == "conversation.state.get":
            self.reads.append(frame)
        else:
            (self.acks if frame["type"] in ACK_TYPES else self.sent).append(frame)

    def take_reads(self) -> list[dict[str, Any]]:
        reads, self.reads = self.reads, []
        return reads

    def take(self) -> list[dict[str, Any]]:
        sent, self.sent = self.sent, []
        return sent


def run(coro):
    return asyncio.run(coro)


def state_frame(operations: Iterable[dict[str, Any]] = (), ended: Iterable[dict[str, Any]] = ()) -> dict[str, Any]:
    """The server's ``conversation.state`` answer: what runs, and what ended last."""
    return {
        "type": "conversation.state",
        "conversation_id": CONV,
        "instances": [],
        "operations": list(operations),
        "recently_ended": list(ended),
        "truncated": False,
    }


def welcome() -> dict[str, Any]:
    return {"type": "welcome", "agent_id": "agent-1", "protocol": PROTOCOL, "conversations": [CONV], "limits": {}}


def inventory(revision: str | None = None) -> dict[str, Any]:
    published = inventory_for_scope("personal").published()
    if revision is not None:
        published["revision"] = revision
    return {"type": "inventory", "conversation_id": CONV, **published}


def user_message(text: str, message_id: str = "m-1") -> dict[str, Any]:
    return {
        "type": "user.message",
        "conversation_id": CONV,
        "message_id": message_id,
        "text": text,
        "created_at": T_START,
    }


def accepted(source_id: str, **extra: Any) -> dict[str, Any]:
    return {
        "type": "tool.accepted",
        "conversation_id": CONV,
        "source_tool_call_id": source_id,
        "operation_id": "op-1",
        "instance_id": "inst-1",
        "app_session_id": SESSION,
        "replayed": False,
        **extra,
    }


def result_frame(
    source_id: str,
    *,
    state: str = "completed",
    seconds: int = 1500,
    elapsed: int | None = None,
    reason: str | None = None,
    outbox_id: str = OUTBOX,
) -> dict[str, Any]:
    ends = f"2026-01-05T09:{seconds // 60:02d}:{seconds % 60:02d}.000Z"
    ended_after = seconds if elapsed is None else elapsed
    ended = f"2026-01-05T09:{ended_after // 60:02d}:{ended_after % 60:02d}.000Z"
    result = {"state": state, "operation_id": "op-1", "started_at": T_START, "ends_at": ends, "ended_at": ended}
    if reason:
        result["interruption_reason"] = reason
    return {
        "type": "tool.result",
        "outbox_id": outbox_id,
        "conversation_id": CONV,
        "source_tool_call_id": source_id,
        "tool": START_TOOL,
        "result": result,
    }


def resolved(interaction_id: str, status: str = "answered", value: Any = True) -> dict[str, Any]:
    return {
        "type": "interaction.resolved",
        "conversation_id": CONV,
        "interaction_id": interaction_id,
        "status": status,
        "value": value,
    }


async def connected_agent() -> tuple[ReferenceAgent, Wire]:
    wire = Wire()
    agent = ReferenceAgent(wire.send)
    await agent.handle(welcome())
    return agent, wire


async def started(text: str) -> tuple[ReferenceAgent, Wire, dict[str, Any]]:
    """An Agent that was asked ``text``, fetched the Inventory and sent the start; returns that call."""
    agent, wire = await connected_agent()
    await agent.handle(user_message(text))
    assert wire.take() == [{"type": "inventory.get", "conversation_id": CONV}]
    await agent.handle(inventory())
    [call] = wire.take()
    return agent, wire, call


async def told(agent: ReferenceAgent, wire: Wire, text: str, message_id: str = "m-1") -> list[dict[str, Any]]:
    """What the Agent sends for ``text`` once it has the Inventory (what the installed apps teach it), which
    a message waits for."""
    await agent.handle(user_message(text, message_id))
    assert wire.take() == [{"type": "inventory.get", "conversation_id": CONV}]
    await agent.handle(inventory())
    return wire.take()


def texts(frames: list[dict[str, Any]]) -> list[str]:
    return [f["text"] for f in frames if f["type"] == "message.send"]


@pytest.mark.spec("R-2.1.1", "R-4.3.3")
def test_english_start_calls_the_tool_then_writes_into_the_sub_session_block():
    """A start fetches the Inventory, calls pomodoro.start with its revision, and announces into the block."""

    async def scenario():
        agent, wire, call = await started("start a 25 minute reading focus")
        assert call == {
            "type": "tool.call",
            "conversation_id": CONV,
            "source_tool_call_id": call["source_tool_call_id"],
            "tool": START_TOOL,
            "arguments": {"duration_seconds": 1500, "activity": "reading"},
            "inventory_revision": inventory_for_scope("personal").revision,
        }
        assert call["source_tool_call_id"].startswith("ref.en.")
        await agent.handle(accepted(call["source_tool_call_id"]))
        assert wire.take() == [
            {
                "type": "message.send",
                "conversation_id": CONV,
                "text": "Focus started: 25 minutes of reading. I'll let you know when it's done.",
                "app_session_id": SESSION,
            }
        ]

    run(scenario())


@pytest.mark.spec("R-2.1.1", "R-4.3.3")
def test_chinese_start_is_answered_in_chinese_in_the_block():
    """专注 25 分钟写作业 starts 1500 s of 写作业 and the block message is Chinese."""

    async def scenario():
        agent, wire, call = await started("专注 25 分钟写作业")
        assert call["arguments"] == {"duration_seconds": 1500, "activity": "写作业"}
        assert call["source_tool_call_id"].startswith("ref.zh.")
        await agent.handle(accepted(call["source_tool_call_id"]))
        [message] = wire.take()
        assert message["app_session_id"] == SESSION
        assert message["text"] == "专注开始：写作业，25分钟。结束时我会告诉你。"

    run(scenario())


@pytest.mark.spec("R-3.10", "R-4.3.5", "R-4.2.7")
def test_a_result_is_reported_in_the_main_im_with_a_confirm_and_acked():
    """tool.result -> the report (main IM, the block is read-only), a confirm for another round, then the ack."""

    async def scenario():
        agent, wire, call = await started("start a 25 minute reading focus")
        await agent.handle(accepted(call["source_tool_call_id"]))
        wire.take()
        await agent.handle(result_frame(call["source_tool_call_id"]))
        report, confirm, ack = wire.take()
        assert report == {
            "type": "message.send",
            "conversation_id": CONV,
            "text": "Focus complete: 25 minutes of reading.",
        }
        assert confirm == {
            "type": "interaction.request",
            "conversation_id": CONV,
            "interaction_id": confirm_id("en", 1500, OUTBOX),
            "kind": "confirm",
            "prompt": "Start another 25-minute round?",
            "timeout_seconds": CONFIRM_TIMEOUT_SECONDS,
        }
        assert ack == {"type": "outbox.ack", "outbox_id": OUTBOX}

    run(scenario())


@pytest.mark.spec("R-3.5", "R-4.2.7")
def test_a_redelivered_result_is_acked_again_but_reported_once():
    """The same outbox_id twice (at-least-once delivery): one report, two acks."""

    async def scenario():
        agent, wire, call = await started("focus 90 seconds on homework")
        await agent.handle(result_frame(call["source_tool_call_id"], seconds=90))
        first = wire.take()
        assert texts(first) == ["Focus complete: 1 min 30 s of homework."]
        await agent.handle(result_frame(call["source_tool_call_id"], seconds=90))
        assert wire.take() == [{"type": "outbox.ack", "outbox_id": OUTBOX}]
        agent.disconnected()
        await agent.handle(welcome())
        await agent.handle(result_frame(call["source_tool_call_id"], seconds=90))  # after a reconnect
        assert wire.take() == [{"type": "outbox.ack", "outbox_id": OUTBOX}]

    run(scenario())


@pytest.mark.spec("R-3.8")
@pytest.mark.parametrize(
    ("reason", "english", "chinese"),
    [
        ("agent_interrupt", "you asked me to stop it", "按你的要求停止"),
        ("returned_to_interact", "you returned to Interact", "你回到了对话"),
        ("switched_app", "you switched to another app", "你切换到了其他应用"),
        ("app_closed", "you closed Pomodoro", "你关闭了番茄钟"),
        ("operator", "the service's operator stopped it", "被服务的运维人员停止"),  # the admin's incident action
    ],
)
def test_an_interrupted_result_says_how_long_it_ran_and_why(reason, english, chinese):
    """The elapsed time comes from started_at/ended_at; the reason is put in words, per language."""

    async def scenario(text, expected):
        agent, wire, call = await started(text)
        await agent.handle(result_frame(call["source_tool_call_id"], state="interrupted", elapsed=192, reason=reason))
        assert texts(wire.take()) == [expected]

    run(scenario("start a 25 minute reading focus", f"Focus stopped after 3 min 12 s of reading ({english})."))
    run(scenario("专注25分钟写作业", f"专注已停止：写作业，进行了3分钟12秒（{chinese}）。"))


@pytest.mark.spec("R-3.12")
def test_a_start_while_one_runs_is_explained():
    """active_focusing_operation -> a main-IM message saying a focus runs and how to stop it."""

    async def scenario():
        agent, wire, call = await started("start a 25 minute focus")
        await agent.handle(
            {
                "type": "tool.rejected",
                "conversation_id": CONV,
                "source_tool_call_id": call["source_tool_call_id"],
                "code": "active_focusing_operation",
                "detail": "this conversation already has a focusing operation",
            }
        )
        [message] = wire.take()
        assert "app_session_id" not in message
        assert message["text"] == 'A focus is already running here. Say "stop" to end it, or wait for it to finish.'

    run(scenario())


def test_other_rejections_are_reported_with_their_detail():
    """Any other rejection gives a message naming the code and the server's detail."""

    async def scenario():
        agent, wire, call = await started("专注25分钟")
        await agent.handle(
            {
                "type": "tool.rejected",
                "conversation_id": CONV,
                "source_tool_call_id": call["source_tool_call_id"],
                "code": "invalid_arguments",
                "detail": "duration_seconds: too long",
            }
        )
        assert texts(wire.take()) == ["没能开始专注：duration_seconds: too long（invalid_arguments）。"]

    run(scenario())


def test_a_stale_inventory_is_fetched_again_and_the_same_call_retried_once():
    """stale_inventory -> inventory.get, then the same source_tool_call_id with the new revision; twice -> told."""

    async def scenario():
        agent, wire = await connected_agent()
        await agent.handle(inventory(revision="inv-old"))
        await agent.handle(user_message("focus for 1 hour"))
        [call] = wire.take()
        assert call["inventory_revision"] == "inv-old"
        stale = {
            "type": "tool.rejected",
            "conversation_id": CONV,
            "source_tool_call_id": call["source_tool_call_id"],
            "code": "stale_inventory",
            "detail": "fetch it again",
        }
        await agent.handle(stale)
        assert wire.take() == [{"type": "inventory.get", "conversation_id": CONV}]
        await agent.handle(inventory())
        [retry] = wire.take()
        assert retry["source_tool_call_id"] == call["source_tool_call_id"]
        assert retry["inventory_revision"] == inventory_for_scope("personal").revision
        await agent.handle(stale)
        assert texts(wire.take()) == ["I couldn't start the focus: fetch it again (stale_inventory)."]

    run(scenario())


@pytest.mark.spec("R-3.6", "R-3.7")
def test_stop_calls_interrupt_and_answers_the_receipts():
    """stop -> pomodoro.interrupt {}; 'interrupted' waits for the result; nothing running is said plainly."""

    async def scenario():
        agent, wire = await connected_agent()
        await agent.handle(inventory())
        await agent.handle(user_message("stop", message_id="m-stop"))
        [call] = wire.take()
        assert (call["tool"], call["arguments"]) == (INTERRUPT_TOOL, {})
        receipt = {"type": "tool.receipt", "conversation_id": CONV, "source_tool_call_id": call["source_tool_call_id"]}
        await agent.handle({**receipt, "receipt": {"status": "interrupted", "operation_id": "op-1"}, "replayed": False})
        assert wire.take() == []  # the start's tool.result is the report
        for status in ("no_active_focusing_operation", "operation_already_final"):
            await agent.handle(user_message("停止专注", message_id=f"m-{status}"))
            [again] = wire.take()
            await agent.handle(
                {**receipt, "source_tool_call_id": again["source_tool_call_id"], "receipt": {"status": status}}
            )
            assert texts(wire.take()) == ["现在没有进行中的专注。"]

    run(scenario())


@pytest.mark.spec("R-3.7")
def test_stopping_a_quiz_that_already_ended_says_no_quiz_is_running():
    """A "stop" while the Agent's quiz runs calls quiz.stop; if the quiz ended meanwhile, the reply
    names the quiz (not a focus), in the person's language."""

    async def scenario():
        agent, wire = await connected_agent()
        await agent.handle(inventory())
        for language, text, stop, expected in (
            ("en", "quiz me on multiplication for 4 seconds", "stop", "There is no quiz running."),
            ("zh", "给我出乘法测验，4秒", "停止", "现在没有进行中的测验。"),
        ):
            await agent.handle(user_message(text, message_id=f"m-quiz-{language}"))
            [start] = wire.take()
            assert start["tool"] == "quiz.start", start
            await agent.handle(accepted(start["source_tool_call_id"]))
            wire.take()  # the announcement
            await agent.handle(user_message(stop, message_id=f"m-stop-{language}"))
            [call] = wire.take()
            assert call["tool"] == "quiz.stop"
            await agent.handle(
                {
                    "type": "tool.receipt",
                    "conversation_id": CONV,
                    "source_tool_call_id": call["source_tool_call_id"],
                    "receipt": {"status": "no_active_quiz"},
                }
            )
            assert texts(wire.take()) == [expected]

    run(scenario())


@pytest.mark.spec("R-3.7")
def test_a_stop_that_names_the_focus_or_the_quiz_stops_that_one_while_both_run():
    """A quiz and a focus run in one conversation: a stop naming the timer interrupts the focus and leaves
    the quiz, one naming the quiz stops the quiz, "stop everything" stops both, "stop everything except the
    focus" only the quiz; a bare "stop" stops the quiz (what the Agent started last), as before (issue 36)."""

    async def scenario():
        agent, wire = await connected_agent()
        await agent.handle(inventory())
        await agent.handle(user_message("quiz me on addition for 5 minutes", message_id="m-quiz"))
        [start] = wire.take()
        await agent.handle(accepted(start["source_tool_call_id"]))
        wire.take()  # the announcement
        for n, (text, tools) in enumerate(
            (
                ("end the focus timer", [INTERRUPT_TOOL]),
                ("结束阅读计时", [INTERRUPT_TOOL]),
                ("stop the quiz pls", ["quiz.stop"]),
                ("测验不做了", ["quiz.stop"]),
                ("stop everything", ["quiz.stop", INTERRUPT_TOOL]),
                ("全部停掉", ["quiz.stop", INTERRUPT_TOOL]),
                # a stop that names what it keeps stops only the other (decision 0064)
                ("stop the quiz but keep the timer", ["quiz.stop"]),
                ("stop everything except the focus", ["quiz.stop"]),
                ("除了测验，其他都停掉", [INTERRUPT_TOOL]),
                ("stop", ["quiz.stop"]),
            )
        ):
            await agent.handle(user_message(text, message_id=f"m-stop-{n}"))
            calls = [f for f in wire.take() if f["type"] == "tool.call"]
            assert [c["tool"] for c in calls] == tools, text
            assert all(c["arguments"] == {} for c in calls)
            assert len({c["source_tool_call_id"] for c in calls}) == len(calls)

    run(scenario())


@pytest.mark.spec("R-2.1.1", "R-3.10")
def test_yes_to_another_round_starts_the_same_round_again():
    """Confirm answered true -> pomodoro.start with the same duration and activity and a new call id."""

    async def scenario():
        agent, wire, call = await started("start a 25 minute reading focus")
        await agent.handle(accepted(call["source_tool_call_id"]))
        await agent.handle(result_frame(call["source_tool_call_id"]))
        confirm = next(f for f in wire.take() if f["type"] == "interaction.request")
        await agent.handle(resolved(confirm["interaction_id"], value=True))
        [again] = wire.take()
        assert again["tool"] == START_TOOL
        assert again["arguments"] == {"duration_seconds": 1500, "activity": "reading"}
        assert again["source_tool_call_id"] != call["source_tool_call_id"]
        await agent.handle(resolved(confirm["interaction_id"], value=True))  # delivered twice
        assert wire.take() == []

    run(scenario())


@pytest.mark.parametrize(
    ("status", "value", "expected"),
    [
        ("answered", False, ['OK, no new round. Say "start a 25 minute focus" whenever you\'re ready.']),
        ("dismissed", None, []),
        ("timed_out", None, []),
        ("failed", None, []),
    ],
)
def test_no_to_another_round_starts_nothing(status, value, expected):
    """No / dismissed / timed out / failed: no tool call; only a 'no' gets a short acknowledgement."""

    async def scenario():
        agent, wire, call = await started("start a 25 minute focus")
        await agent.handle(result_frame(call["source_tool_call_id"]))
        confirm = next(f for f in wire.take() if f["type"] == "interaction.request")
        await agent.handle(resolved(confirm["interaction_id"], status=status, value=value))
        sent = wire.take()
        assert [f for f in sent if f["type"] == "tool.call"] == []
        assert texts(sent) == expected

    run(scenario())


def test_a_call_unanswered_at_a_disconnect_is_resent_with_the_same_id():
    """After a reconnect the same source_tool_call_id goes again (the server replays it if it ran)."""

    async def scenario():
        agent, wire, call = await started("start a 25 minute reading focus")
        agent.disconnected()
        await agent.handle(welcome())
        [resent] = wire.take()
        assert resent == call
        await agent.handle(accepted(call["source_tool_call_id"], replayed=True))
        assert texts(wire.take()) == ["Focus started: 25 minutes of reading. I'll let you know when it's done."]
        await agent.handle(accepted(call["source_tool_call_id"], replayed=True))  # announced once only
        assert wire.take() == []

    run(scenario())


@pytest.mark.spec("R-4.4.1", "R-4.2.7")
def test_after_a_restart_a_result_and_a_confirm_still_work_from_their_own_fields():
    """A fresh Agent (nothing remembered) reports an earlier call's result in its language, and a 'yes'
    to an earlier confirm starts its duration."""

    async def scenario():
        agent, wire = await connected_agent()
        source_id = call_id("zh")
        await agent.handle(result_frame(source_id, seconds=60))
        # Whose result it is comes with the Inventory (the Agent knows apps only from their declarations).
        assert wire.take() == [{"type": "inventory.get", "conversation_id": CONV}]
        await agent.handle(inventory())
        assert wire.take() == []  # what ended last is read first: the result does not name its activity
        await agent.handle(state_frame())
        report, confirm, ack = wire.take()
        assert report["text"] == "专注完成：1分钟。"
        assert confirm["prompt"] == "再来一轮1分钟的专注吗？"
        assert ack["type"] == "outbox.ack"

        restarted, wire2 = await connected_agent()
        await restarted.handle(inventory())
        await restarted.handle(resolved(confirm["interaction_id"], value=True))
        [again] = wire2.take()
        assert again["arguments"] == {"duration_seconds": 60}
        assert again["source_tool_call_id"].startswith("ref.zh.")

    run(scenario())


def test_a_person_message_delivered_twice_starts_one_focus():
    """The same message_id again (or after a restart) maps to the same call id: never two starts."""

    async def scenario():
        agent, wire, call = await started("start a 25 minute focus")
        await agent.handle(user_message("start a 25 minute focus"))
        assert wire.take() == []
        restarted, wire2 = await connected_agent()
        await restarted.handle(inventory())
        await restarted.handle(user_message("start a 25 minute focus"))
        [again] = wire2.take()
        assert again["source_tool_call_id"] == call["source_tool_call_id"]

    run(scenario())


def test_results_of_another_agents_calls_are_left_alone():
    """A result for a call this Agent did not make is neither reported nor acked (it is that Agent's)."""

    async def scenario():
        agent, wire = await connected_agent()
        await agent.handle(result_frame("claude-call-7"))
        assert wire.take() == []

    run(scenario())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "what is a pomodoro?",
            "Sorry, I didn't understand that. I run focus timers: try "
            '"start a 25 minute reading focus", "focus 90 seconds on homework" or "stop"; "help" lists everything.'
            " Installed: Scratch notes, Pomodoro, Practice quiz.",
        ),
        (
            "番茄钟是什么？",
            "抱歉，我没听懂。我能为你计时专注：试试“专注 25 分钟写作业”或“停止专注”，说“帮助”查看全部。"
            "已安装：笔记、番茄钟、口算练习。",
        ),
        (
            "start a focus",
            'How long should the focus be? For example "start a 25 minute focus" or "focus for 1 hour on reading".',
        ),
        ("focus for 25 hours", 'I can do 1 second to 24 hours. Try "start a 25 minute focus".'),
        ("专注0秒", "我可以安排 1 秒到 24 小时的专注，比如“专注 25 分钟”。"),
    ],
)
def test_what_it_can_not_do_is_explained_without_a_tool_call(text, expected):
    """Unknown input and impossible durations get an explanation with examples, in the person's language."""

    async def scenario():
        agent, wire = await connected_agent()
        frames = await told(agent, wire, text)
        assert texts(frames) == [expected]
        assert [f["type"] for f in frames if f["type"] != "message.send"] in ([], ["interaction.request"])

    run(scenario())


@pytest.mark.spec("R-2.1.1")
@pytest.mark.parametrize(
    "text",
    [
        "my brother is doing a 25 min focus",
        "I got 8/10 on the quiz",
        "if I did a 30 min focus would that help",
        'he said "start a 25 minute focus"',
        "extend the focus by 5 minutes",
        "focus 20 min on quiz review",
        "quiz me on division for 3 minutes",
        "乘除法练习5分钟",
        "我弟弟在专注25分钟",
        "计时延长五分钟",
        "专注20分钟做乘法和写作文",
        "专注25，10分钟",
    ],
)
def test_what_is_no_request_of_this_person_is_answered_without_a_tool_call(text):
    """Decision 0064: someone else's doing, a score, a hypothetical, a quoted request, another verb on what
    runs, another app's work in a focus, a kind no app does and a number beside a duration start nothing:
    the Agent answers in words (help), never with a tool call nor "how long?"."""

    async def scenario():
        agent, wire = await connected_agent()
        frames = await told(agent, wire, text)
        assert [f["type"] for f in frames if f["type"] != "interaction.request"] == ["message.send"], (text, frames)
        # At most the "did you mean …?" choice of decision 0065: never "how long?".
        assert all(f["interaction_id"].startswith("choose.") for f in choices(frames)), (text, frames)

    run(scenario())


@pytest.mark.spec("R-2.1.1")
@pytest.mark.parametrize(
    ("text", "starts", "contains"),
    [
        ("help", "Here is what I can do:", ['"stop"', "Focus 25 min on 数学", "another round"]),
        ("What can you do?", "Here is what I can do:", ["1 second to 24 hours"]),
        ("你能做什么？", "我可以帮你：", ["停止专注", "再来一轮"]),
        ("帮助", "我可以帮你：", ["专注 25 分钟写作业"]),
        ("hello", "Hello! I run focus timers.", ['"help"']),
        ("你好", "你好！我可以为你计时专注。", ["帮助"]),
        ("thanks!", "You're welcome!", []),
        ("qwertyuiop", "Sorry, I didn't understand that.", ['"help"']),
        ("啊啊啊", "抱歉，我没听懂。", ["帮助"]),
    ],
)
def test_help_greetings_and_garbage_get_different_answers_in_the_persons_language(text, starts, contains):
    """ "help" lists what the Agent can do with examples; a greeting and gibberish are answered as such."""

    async def scenario():
        agent, wire = await connected_agent()
        [said] = texts(await told(agent, wire, text))
        assert said.startswith(starts), said
        for words in contains:
            assert words in said

    run(scenario())


def test_a_tool_missing_from_the_inventory_is_not_called():
    """If the conversation's Inventory lacks pomodoro.start (its declaration still there) the person is
    told; nothing is called."""

    async def scenario():
        agent, wire = await connected_agent()
        await agent.handle(user_message("focus for 1 hour"))
        wire.take()
        apps = inventory()["apps"]
        await agent.handle(
            {"type": "inventory", "conversation_id": CONV, "revision": "inv-x", "tools": [], "apps": apps}
        )
        assert wire.take() == [
            {"type": "message.send", "conversation_id": CONV, "text": "Pomodoro isn't available in this conversation."}
        ]

    run(scenario())


@pytest.mark.spec("R-2.2.8")
def test_person_messages_and_resolutions_are_acked_after_handling_duplicates_too():
    """The server resends a user.message / interaction.resolved until acked: the Agent acks each once
    it handled it, and acks a redelivered one again (without acting twice)."""
    wire = Wire()
    agent = ReferenceAgent(wire.send)

    async def scenario() -> None:
        await agent.handle(welcome())
        await agent.handle(user_message("hello", "m-7"))
        await agent.handle(inventory())
        await agent.handle(user_message("hello", "m-7"))  # redelivered
        await agent.handle(resolved("i-unknown", status="dismissed", value=None))

    run(scenario())
    assert wire.acks == [
        {"type": "message.ack", "message_id": "m-7"},
        {"type": "message.ack", "message_id": "m-7"},
        {"type": "interaction.ack", "conversation_id": CONV, "interaction_id": "i-unknown"},
    ]
    assert len([f for f in wire.sent if f["type"] == "message.send"]) == 1  # answered once


@pytest.mark.spec("R-4.4.1", "R-2.2.8")
def test_a_result_of_a_call_made_before_a_restart_still_names_its_activity():
    """A fresh Agent (nothing remembered) reads what runs on its first welcome (conversation.state.get)
    and names the activity of a focus it saw running there; one it never saw is reported without."""

    async def report(*operations: dict[str, Any], ended: tuple[dict[str, Any], ...] = ()) -> tuple[list, str]:
        wire = Wire()
        agent = ReferenceAgent(wire.send)
        await agent.handle(welcome())
        asked = wire.take_reads()
        await agent.handle(state_frame(operations))
        await agent.handle(result_frame("ref.zh.0123456789abcdef0123456789abcdef"))
        assert wire.take() == [{"type": "inventory.get", "conversation_id": CONV}]  # whose result: its declaration
        await agent.handle(inventory())
        if not wire.sent:  # not seen running: what ended last is read once, then the report goes
            asked += wire.take_reads()
            await agent.handle(state_frame(ended=ended))
        return asked, next(f["text"] for f in wire.take() if f["type"] == "message.send")

    running = {
        "operation_id": "op-1",
        "tool": START_TOOL,
        "activity": "数学",
        "started_at": T_START,
        "ends_at": T_START,
    }
    read = {"type": "conversation.state.get", "conversation_id": CONV}
    asked, text = run(report(running))
    assert asked == [read]
    assert text == "专注完成：数学，25分钟。"
    # Ended while the Agent was down: named by what ended last, read once when the result comes.
    asked, text = run(report(ended=({**running, "state": "completed"},)))
    assert (asked, text) == ([read, read], "专注完成：数学，25分钟。")
    assert run(report())[1] == "专注完成：25分钟。"
    assert run(report({**running, "operation_id": "op-other"}))[1] == "专注完成：25分钟。"


# --- the moment: "how long?" answers, long requests, status, withdrawn questions, one language ----------


async def ready_agent(**options: Any) -> tuple[ReferenceAgent, Wire]:
    """A connected Agent that already has the Inventory (so a start goes out at once)."""
    wire = Wire()
    agent = ReferenceAgent(wire.send, **options)
    await agent.handle(welcome())
    await agent.handle(inventory())
    wire.take()
    return agent, wire


def starts(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [f["arguments"] for f in frames if f["type"] == "tool.call" and f["tool"] == START_TOOL]


@pytest.mark.spec("R-2.1.1")
def test_a_bare_duration_answers_the_agents_own_how_long_question():
    """ "focus on reading" -> "How long…?"; the next message "25 minutes" starts 25 minutes of reading.
    Out of that moment, "25 minutes" alone is not a start."""

    async def scenario():
        agent, wire = await ready_agent()
        await agent.handle(user_message("focus on reading", "m-1"))
        assert texts(wire.take()) == ['How long should the focus on reading be? For example "25 minutes" or "1 hour".']
        await agent.handle(user_message("25 minutes", "m-2"))
        assert starts(wire.take()) == [{"duration_seconds": 1500, "activity": "reading"}]
        await agent.handle(user_message("25 minutes", "m-3"))  # the question was answered already
        assert starts(wire.take()) == []

        await agent.handle(user_message("开始专注", "m-4"))
        assert texts(wire.take()) == ["要专注多久？比如“专注 25 分钟”或“开始专注 1 小时阅读”。"]
        await agent.handle(user_message("半小时", "m-5"))
        assert starts(wire.take()) == [{"duration_seconds": 1800}]

    run(scenario())


@pytest.mark.spec("R-2.1.1")
def test_a_request_over_four_hours_is_confirmed_before_it_starts():
    """ "focus 600 minutes" asks first (no tool call); yes starts it, no says nothing started."""

    async def scenario():
        agent, wire = await ready_agent()
        await agent.handle(user_message("focus 600 minutes on the thesis", "m-1"))
        [question] = wire.take()
        assert question["type"] == "interaction.request" and question["kind"] == "confirm"
        assert question["interaction_id"].startswith("long.en.36000.")
        assert question["prompt"] == "Start a long focus: 10 hours of thesis?"
        await agent.handle(resolved(question["interaction_id"], value=True))
        assert starts(wire.take()) == [{"duration_seconds": 36000, "activity": "thesis"}]

        await agent.handle(user_message("专注5小时", "m-2"))
        [question] = wire.take()
        assert question["prompt"] == "要开始一段很长的专注吗？5小时。"
        await agent.handle(resolved(question["interaction_id"], value=False))
        assert texts(wire.take()) == ["好的，没有开始。告诉我想专注多久，比如“专注 25 分钟”。"]

        await agent.handle(user_message("focus 4 hours", "m-3"))  # four hours is not "over four hours"
        assert starts(wire.take()) == [{"duration_seconds": 14400}]

    run(scenario())


@pytest.mark.spec("R-2.1.1")
def test_how_long_is_left_is_answered_from_the_running_focus():
    """The status intent asks what runs (conversation.state.get) and answers from the answer: the
    running focus's remaining time and activity, or that none runs."""
    from datetime import UTC, datetime, timedelta

    def state(*operations: dict[str, Any]) -> dict[str, Any]:
        return {
            "type": "conversation.state",
            "conversation_id": CONV,
            "instances": [],
            "operations": list(operations),
            "truncated": False,
        }

    async def scenario():
        agent, wire = await ready_agent()
        await agent.handle(state())  # the answer to the first welcome's read
        wire.take_reads()
        await agent.handle(user_message("how long is left?", "m-1"))
        assert wire.take_reads() == [{"type": "conversation.state.get", "conversation_id": CONV}]
        await agent.handle(state())
        assert texts(wire.take()) == ["There is no focus running."]
        ends = datetime.now(UTC) + timedelta(minutes=12, seconds=30)
        await agent.handle(user_message("还剩多久？", "m-2"))
        await agent.handle(user_message("还剩多久", "m-3"))  # asked twice before the answer: one read
        assert wire.take_reads() == [{"type": "conversation.state.get", "conversation_id": CONV}]
        quiz = {"operation_id": "op-q", "tool": "quiz.start", "title": "x", "started_at": T_START, "ends_at": T_START}
        focus = {
            "operation_id": "op-1",
            "tool": START_TOOL,
            "activity": "数学",
            "started_at": T_START,
            "ends_at": ends.isoformat(),
        }
        await agent.handle(state(quiz, focus))
        answers = texts(wire.take())
        assert len(answers) == 2
        for text in answers:
            assert text in ("专注进行中（数学），还剩12分钟30秒。", "专注进行中（数学），还剩12分钟29秒。"), text

    run(scenario())


@pytest.mark.spec("R-2.1.1", "R-4.3.5")
def test_another_round_is_withdrawn_when_the_person_moves_on_and_never_asked_after_a_stop():
    """A completed focus -> "another round?"; a new start (or a stop) withdraws it before anything else;
    an interrupted focus gets its report and no question."""

    async def scenario():
        agent, wire = await ready_agent()
        await agent.handle(user_message("focus 25 minutes", "m-1"))
        [call] = wire.take()
        await agent.handle(result_frame(call["source_tool_call_id"]))
        question = next(f for f in wire.take() if f["type"] == "interaction.request")
        await agent.handle(user_message("read for 10 minutes", "m-2"))
        withdraw, start = wire.take()
        assert withdraw == {
            "type": "interaction.withdraw",
            "conversation_id": CONV,
            "interaction_id": question["interaction_id"],
        }
        assert start["tool"] == START_TOOL
        await agent.handle(
            result_frame(
                start["source_tool_call_id"], state="interrupted", elapsed=60, reason="app_closed", outbox_id="o-2"
            )
        )
        after_stop = wire.take()
        assert [f["type"] for f in after_stop] == ["message.send", "outbox.ack"]  # no question
        await agent.handle(user_message("stop", "m-3"))
        assert [f["type"] for f in wire.take()] == ["tool.call"]  # nothing left to withdraw

    run(scenario())


@pytest.mark.spec("R-2.1.1")
def test_the_agent_answers_in_the_persons_language_whatever_the_message_script():
    """With the person's language known (the page's), a Chinese activity in an English message is
    answered in English, and a Chinese UI's person gets Chinese replies and questions to English words."""

    async def scenario():
        agent, wire = await ready_agent()
        await agent.handle({**user_message("Focus 25 min on 数学", "m-1"), "language": "en"})
        [call] = wire.take()
        assert call["source_tool_call_id"].startswith("ref.en.")
        assert call["arguments"] == {"duration_seconds": 1500, "activity": "数学"}
        await agent.handle(accepted(call["source_tool_call_id"]))
        assert texts(wire.take()) == ["Focus started: 25 minutes of 数学. I'll let you know when it's done."]
        await agent.handle(result_frame(call["source_tool_call_id"]))
        frames = wire.take()
        assert texts(frames) == ["Focus complete: 25 minutes of 数学."]
        assert (
            next(f for f in frames if f["type"] == "interaction.request")["prompt"] == "Start another 25-minute round?"
        )

        await agent.handle({**user_message("stop", "m-2"), "language": "zh-hans"})
        [withdraw, stop] = wire.take()
        assert withdraw["type"] == "interaction.withdraw"
        await agent.handle(
            {
                "type": "tool.receipt",
                "conversation_id": CONV,
                "source_tool_call_id": stop["source_tool_call_id"],
                "receipt": {"status": "no_active_focusing_operation"},
                "replayed": False,
            }
        )
        assert texts(wire.take()) == ["现在没有进行中的专注。"]

    run(scenario())


@pytest.mark.spec("R-3.10")
def test_an_error_result_is_reported_as_ended_without_a_result_and_acked():
    """A tool.result whose app could not shape a valid one (``isError``, ``result_invalid``): the
    person is told it ended, in their language, and the result is acked, for a quiz and a focus."""

    async def scenario():
        agent, wire = await connected_agent()
        await agent.handle(inventory())
        for language, text, expected in (
            ("en", "quiz me on multiplication for 4 seconds", "It has ended, but the app could not give its result."),
            ("zh", "给我出乘法测验，4秒", "它已经结束了，但这个应用没能给出结果。"),
        ):
            await agent.handle(user_message(text, message_id=f"m-bad-{language}"))
            [start] = wire.take()
            await agent.handle(accepted(start["source_tool_call_id"]))
            wire.take()  # the announcement
            frame = result_frame(start["source_tool_call_id"], outbox_id=f"o-bad-{language}")
            frame["tool"] = start["tool"]
            frame["result"] = {
                "isError": True,
                "error": {"code": "result_invalid", "detail": "the app could not shape this operation's result"},
                **frame["result"],
            }
            await agent.handle(frame)
            sent = wire.take()
            assert texts(sent) == [expected]
            assert {"type": "outbox.ack", "outbox_id": f"o-bad-{language}"} in sent

    run(scenario())


# --- what installed apps teach it (their phrasings in the Inventory, decision 0050) ------------------------


def receipt(source_id: str, body: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "tool.receipt",
        "conversation_id": CONV,
        "source_tool_call_id": source_id,
        "receipt": body,
        "replayed": False,
    }


@pytest.mark.spec("R-2.1.1")
def test_scratch_notes_are_added_to_and_read_back_from_what_notes_declares():
    """Scratch notes' phrasings.json alone teaches the Agent: "note: …" calls notes.append with the text and
    "read my notes" / "看看我的笔记" calls notes.read, each answered in the app's declared words."""

    async def scenario():
        agent, wire = await connected_agent()
        [append] = await told(agent, wire, "note: Buy milk")
        assert (append["tool"], append["arguments"]) == ("notes.append", {"text": "Buy milk"})
        await agent.handle(receipt(append["source_tool_call_id"], {"status": "appended"}))
        assert texts(wire.take()) == ["Noted: Buy milk"]

        await agent.handle(user_message("看看我的笔记", "m-2"))
        [read] = wire.take()
        assert (read["tool"], read["arguments"]) == ("notes.read", {})
        await agent.handle(receipt(read["source_tool_call_id"], {"status": "read", "text": "Buy milk"}))
        assert texts(wire.take()) == ["你的笔记：\nBuy milk"]

        await agent.handle(user_message("read my notes", "m-3"))
        [read] = wire.take()
        await agent.handle(receipt(read["source_tool_call_id"], {"status": "no_notes", "text": ""}))
        assert texts(wire.take()) == ['Your notes are empty. Say "note: …" to add a line.']

    run(scenario())


def timer9_inventory() -> dict[str, Any]:
    """The real Inventory plus ``timer9`` as ``startminiapp`` declares an app (a start with a duration, a stop)."""
    frame = inventory()
    frame["tools"] = [*frame["tools"], {"name": "timer9.start"}, {"name": "timer9.stop"}]
    frame["apps"] = [
        *frame["apps"],
        {
            "app_id": "timer9",
            "name": "Timer9",
            "phrasings": {
                "phrasings_version": 1,
                "tools": {"start": "timer9.start", "stop": "timer9.stop"},
                "arguments": {"duration": "duration_seconds"},
                "languages": {
                    "en": {"name": "Timer9", "help": "times things", "start": ["start timer9 for {duration}"]},
                    "zh-hans": {"name": "Timer9", "help": "计时", "start": ["开始timer9{duration}"]},
                },
            },
        },
    ]
    return frame


@pytest.mark.spec("R-2.1.1")
@pytest.mark.parametrize("text", ["please start a timer9 round of 5 minutes", "let's do 5 minutes of timer9 stuff"])
def test_a_start_that_names_another_installed_app_in_undeclared_words_is_never_a_focus(text):
    """Said otherwise than timer9 declares, a start that names timer9 gets help naming the installed apps —
    never a focus with the activity "timer9" — and a declared one starts timer9, whose "stop" it then stops."""

    async def scenario():
        agent, wire = await connected_agent()
        await agent.handle(user_message(text))
        wire.take()
        await agent.handle(timer9_inventory())
        [answer] = texts(wire.take())
        assert answer.startswith("Sorry, I didn't understand that.")
        assert "Timer9" in answer

        await agent.handle(user_message("start timer9 for 5 minutes", "m-2"))
        [start] = [f for f in wire.take() if f["type"] == "tool.call"]  # the "did you mean" choice is withdrawn
        assert (start["tool"], start["arguments"]) == ("timer9.start", {"duration_seconds": 300})
        await agent.handle(accepted(start["source_tool_call_id"]))
        assert texts(wire.take()) == ["Timer9 started: 5 minutes. I'll tell you when it's done."]
        await agent.handle(user_message("stop", "m-3"))
        [stop] = wire.take()
        assert stop["tool"] == "timer9.stop"
        await agent.handle(receipt(stop["source_tool_call_id"], {"status": "interrupted", "operation_id": "op-1"}))
        assert texts(wire.take()) == []  # the start's result reports it
        result = result_frame(start["source_tool_call_id"], state="interrupted", seconds=300, elapsed=61)
        await agent.handle({**result, "tool": "timer9.start"})
        assert texts(wire.take()) == ["Timer9 stopped after 1 min 1 s."]

        # A timer9 this Agent did not start (another Agent's, over MCP): its stop is said.
        await agent.handle(user_message("stop timer9", "m-4"))
        [stop] = wire.take()
        await agent.handle(receipt(stop["source_tool_call_id"], {"status": "interrupted", "operation_id": "op-2"}))
        assert texts(wire.take()) == ["Stopping Timer9."]

    run(scenario())


def test_a_message_waiting_for_the_inventory_is_understood_after_a_reconnect():
    """A message that came before its conversation's Inventory waits for it; if the connection drops
    first, the next welcome asks for the Inventory again and the message is answered once."""

    async def scenario():
        agent, wire = await connected_agent()
        await agent.handle(user_message("start a 25 minute reading focus"))
        assert wire.take() == [{"type": "inventory.get", "conversation_id": CONV}]
        agent.disconnected()
        await agent.handle(welcome())
        assert wire.take() == [{"type": "inventory.get", "conversation_id": CONV}]
        await agent.handle(inventory())
        [call] = wire.take()
        assert (call["tool"], call["arguments"]) == (
            "pomodoro.start",
            {"duration_seconds": 1500, "activity": "reading"},
        )

    run(scenario())


@pytest.mark.spec("R-2.1.1")
def test_a_quiz_asked_for_without_a_duration_is_started_by_the_answer_never_a_focus():
    """ "give me some multiplication problems" -> "How long should the quiz be?"; the answer "5 minutes"
    starts a 5 minute multiplication quiz, not a focus named after the quiz (issue 36); over the quiz's
    one hour bound, the quiz's own out-of-range answer."""

    def calls(frames: list[dict[str, Any]]) -> list[tuple[str, int | None]]:
        return [
            (f["tool"], f["arguments"].get("duration_seconds"))
            for f in frames
            if f["type"] == "tool.call" and f["tool"] in (START_TOOL, "quiz.start")
        ]

    async def scenario():
        agent, wire = await ready_agent()
        await agent.handle(user_message("give me some multiplication problems", "m-1"))
        assert texts(wire.take()) == ['How long should the quiz be? For example "5 minutes".']
        await agent.handle(user_message("5 minutes", "m-2"))
        frames = wire.take()
        assert calls(frames) == [("quiz.start", 300)]
        assert next(f for f in frames if f["type"] == "tool.call")["arguments"]["title"]

        await agent.handle(user_message("给我出几道乘法题", "m-3"))
        assert texts(wire.take()) == ["要做多久的练习？比如“5分钟”。"]
        await agent.handle(user_message("两个小时", "m-4"))
        frames = wire.take()
        assert calls(frames) == []
        assert texts(frames) == ["口算练习可以安排 1 秒到 1 小时，比如“口算练习 5 分钟”。"]

    run(scenario())


def choices(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [f for f in frames if f["type"] == "interaction.request" and f["kind"] == "choice"]


@pytest.mark.spec("R-2.1.1")
@pytest.mark.parametrize(
    ("text", "tap", "prompt", "tool"),
    [
        ("what is a pomodoro?", "Start a 25 minute focus", "Did you mean one of these?", START_TOOL),
        ("番茄钟是什么？", "口算练习 5 分钟", "你是想做下面哪一个？", "quiz.start"),
    ],
)
def test_not_understood_offers_the_installed_apps_requests_and_a_tap_is_handled_as_typed(text, tap, prompt, tool):
    """ "I didn't understand" comes with a choice of what the installed apps declare as suggestions (the
    default app's first) and "what can you do?"; tapping one is understood as if the person had typed it."""

    async def scenario():
        agent, wire = await ready_agent()
        frames = await told_ready(agent, wire, text)
        [choice] = choices(frames)
        labels = [o["label"] for o in choice["options"]]
        assert choice["prompt"] == prompt
        assert tap in labels and 2 <= len(labels) <= 5
        assert labels[-1] in ("What can you do?", "你能做什么？")
        assert all(o["id"] == o["label"] for o in choice["options"])
        await agent.handle(resolved(choice["interaction_id"], value=tap))
        [call] = [f for f in wire.take() if f["type"] == "tool.call"]
        assert call["tool"] == tool
        await agent.handle(resolved(choice["interaction_id"], value=tap))  # delivered twice: one call
        assert [f for f in wire.take() if f["type"] == "tool.call"] == []

    run(scenario())


@pytest.mark.spec("R-2.1.1")
def test_how_long_offers_the_apps_durations_and_a_tap_starts_what_was_asked_for():
    """ "focus on reading" -> "How long…?" and a choice of Pomodoro's suggested durations; a tap starts
    that long a focus on reading. A typed answer withdraws the choice instead."""

    async def scenario():
        agent, wire = await ready_agent()
        await agent.handle(user_message("focus on reading", "m-1"))
        [choice] = choices(wire.take())
        assert [o["label"] for o in choice["options"]] == ["15 minutes", "25 minutes", "50 minutes"]
        await agent.handle(resolved(choice["interaction_id"], value="25 minutes"))
        assert starts(wire.take()) == [{"duration_seconds": 1500, "activity": "reading"}]

        await agent.handle(user_message("开始专注", "m-2"))
        [choice] = choices(wire.take())
        assert [o["label"] for o in choice["options"]] == ["15分钟", "25分钟", "50分钟"]
        await agent.handle(user_message("半小时", "m-3"))
        frames = wire.take()
        assert starts(frames) == [{"duration_seconds": 1800}]
        assert {
            "type": "interaction.withdraw",
            "conversation_id": CONV,
            "interaction_id": choice["interaction_id"],
        } in frames

    run(scenario())


@pytest.mark.spec("R-2.1.1")
def test_a_duration_tapped_after_a_restart_still_starts_the_app_it_was_offered_for():
    """The app is in the choice's id: a restarted Agent (no memory of the question) starts it on the tap,
    once the Inventory has told it what the app is."""

    async def scenario():
        agent, wire = await ready_agent()
        await agent.handle(user_message("quiz me on multiplication", "m-1"))
        [choice] = choices(wire.take())
        assert choice["interaction_id"].startswith("howlong.quiz.")
        restarted, wire = await connected_agent()
        await restarted.handle(resolved(choice["interaction_id"], value=choice["options"][0]["label"]))
        assert wire.take() == [{"type": "inventory.get", "conversation_id": CONV}]
        await restarted.handle(inventory())
        [call] = [f for f in wire.take() if f["type"] == "tool.call"]
        assert call["tool"] == "quiz.start" and call["arguments"]["duration_seconds"] == 120

    run(scenario())


@pytest.mark.spec("R-2.1.1")
@pytest.mark.parametrize(
    ("text", "prompt", "tap", "tool", "seconds"),
    [
        ("let's do 30 minutes", "30 minutes of what?", "quiz", "quiz.start", 1800),
        ("来十分钟", "10分钟做什么？", "pomodoro", START_TOOL, 600),
    ],
)
def test_a_length_said_alone_asks_which_app_and_a_tap_starts_that_one(text, prompt, tap, tool, seconds):
    """A length with no app and no work said is not a guess at the default app: "30 minutes of what?"
    with each installed app that takes it (the default first); a tap starts that app for that long, once."""

    async def scenario():
        agent, wire = await ready_agent()
        frames = await told_ready(agent, wire, text)
        assert [f for f in frames if f["type"] == "tool.call"] == []
        [choice] = choices(frames)
        assert choice["prompt"] == prompt
        assert [o["id"] for o in choice["options"]] == ["pomodoro", "quiz"]
        assert choice["interaction_id"].startswith(f"whichapp.{detect_language(text)}.{seconds}.")
        await agent.handle(resolved(choice["interaction_id"], value=tap))
        [call] = [f for f in wire.take() if f["type"] == "tool.call"]
        assert (call["tool"], call["arguments"]["duration_seconds"]) == (tool, seconds)
        await agent.handle(resolved(choice["interaction_id"], value=tap))  # delivered twice: one call
        assert [f for f in wire.take() if f["type"] == "tool.call"] == []

    run(scenario())


@pytest.mark.spec("R-2.1.1")
def test_which_app_offers_only_the_apps_that_take_that_long_and_survives_a_restart():
    """Two hours is past the quiz's bound: only the focus is offered. The length is in the question's id,
    so a restarted Agent starts the tapped app for that long once it knows the apps; a tap naming an app
    that is not installed starts nothing."""

    async def scenario():
        agent, wire = await ready_agent()
        [choice] = choices(await told_ready(agent, wire, "do 2 hours"))
        assert [o["id"] for o in choice["options"]] == ["pomodoro"]
        restarted, fresh_wire = await connected_agent()
        await restarted.handle(resolved(choice["interaction_id"], value="pomodoro"))
        assert fresh_wire.take() == [{"type": "inventory.get", "conversation_id": CONV}]
        await restarted.handle(inventory())
        assert starts(fresh_wire.take()) == [{"duration_seconds": 7200}]

        [other] = choices(await told_ready(agent, wire, "ok do 20 min", "m-2"))
        await agent.handle(resolved(other["interaction_id"], value="no-such-app"))
        assert [f for f in wire.take() if f["type"] == "tool.call"] == []

    run(scenario())


@pytest.mark.spec("R-2.1.1")
def test_every_installed_apps_suggestions_are_understood_as_one_of_its_actions():
    """A suggestion is only offered if tapping it does what it says: each bundled app's, in both languages,
    calls one of that app's tools."""

    async def scenario():
        published = inventory()
        apps = [a for a in published["apps"] if (a.get("phrasings") or {}).get("languages")]
        checked = 0
        for app in apps:
            tools = set((app["phrasings"].get("tools") or {}).values())
            for words in app["phrasings"]["languages"].values():
                for n, text in enumerate(words.get("suggestions") or []):
                    agent, wire = await ready_agent()
                    await agent.handle(user_message(text, f"m-{n}"))
                    calls = [f["tool"] for f in wire.take() if f["type"] == "tool.call"]
                    assert calls and set(calls) <= tools, (app["app_id"], text, calls)
                    checked += 1
        assert checked >= 10

    run(scenario())


async def told_ready(agent: ReferenceAgent, wire: Wire, text: str, message_id: str = "m-1") -> list[dict[str, Any]]:
    await agent.handle(user_message(text, message_id))
    return wire.take()
