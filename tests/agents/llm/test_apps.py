# ruff: noqa: RUF001 -- Chinese text uses full-width punctuation on purpose
"""agents.llm.apps: the Inventory's ``apps`` as the LLM Agent's instructions, its "help" and its fallbacks.

The Inventory is the real one (the bundled apps' phrasings.json); the Agent-level tests run an
``LLMAgent`` on a fake transport against the fake model server and read the requests it made.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from agents.llm.agent import LLMAgent, system_prompt
from agents.llm.apps import help_reply, installed_apps, instructions, names_line
from agents.llm.config import LLMConfig
from agents.llm.context import estimate_text
from agents.reference.intents import is_help_request
from runtime.inventory import inventory_for_scope
from tests.agents.llm.fake_openai import call, text, tool_calls
from tests.agents.llm.test_agent import CONV, Wire, welcome

BUNDLED_EN = ("Scratch notes", "Pomodoro", "Practice quiz")
BUNDLED_ZH = ("笔记", "番茄钟", "口算练习")


def personal_inventory() -> dict[str, Any]:
    return {"type": "inventory", "conversation_id": CONV, **inventory_for_scope("personal").published()}


@pytest.mark.spec("R-3.11")
def test_each_installed_app_is_one_line_of_the_instructions_in_the_persons_language():
    apps = installed_apps(personal_inventory())
    assert [app.app_id for app in apps] == ["notes", "pomodoro", "quiz"]

    english = instructions(apps, "en").splitlines()
    assert english[1:] == [
        f"- {app.names['en']}: {app.help['en']}" for app in apps
    ]  # one line each, what it can do as it says it
    assert english[2].startswith("- Pomodoro: a focus of 1 second to 24 hours")
    chinese = instructions(apps, "zh").splitlines()
    assert chinese[2].startswith("- 番茄钟：1 秒到 24 小时的专注")
    assert instructions(apps, "en", brief=True).endswith(": Scratch notes, Pomodoro, Practice quiz.")
    assert instructions(apps, "zh", brief=True).endswith(": 笔记、番茄钟、口算练习.")
    assert instructions((), "en") == ""

    prompt = system_prompt("zh", apps)
    assert all(name in prompt for name in BUNDLED_ZH) and "Scratch notes" not in prompt
    assert prompt.endswith("answer in Simplified Chinese (简体中文).")  # the language line stays last


@pytest.mark.spec("R-3.11")
def test_what_the_bundled_apps_lines_cost_in_estimated_tokens():
    """The measure (agents.llm.context's estimate) of what the three bundled apps add to every request:
    ~200 tokens in English, ~380 in Chinese; ~40 when only their names fit."""
    apps = installed_apps(personal_inventory())
    full = {language: estimate_text(instructions(apps, language)) for language in ("en", "zh")}
    brief = {language: estimate_text(instructions(apps, language, brief=True)) for language in ("en", "zh")}
    assert 150 <= full["en"] <= 260 and 300 <= full["zh"] <= 450, full
    assert max(brief.values()) <= 50, brief


@pytest.mark.spec("R-3.11")
def test_an_app_without_phrasings_is_named_and_an_app_is_listed_only_as_the_inventory_lists_it():
    frame = {
        "tools": [{"name": "timer3.start"}],
        "apps": [
            {"app_id": "timer3", "name": "Timer 3"},
            {"app_id": "toolless", "name": "No tools"},
            {"app_id": ""},
        ],
    }
    (app,) = installed_apps(frame)
    assert (app.app_id, app.name("en"), app.name("zh"), app.help) == (
        "timer3",
        "Timer 3",
        "Timer 3",
        {"en": "", "zh": ""},
    )
    assert instructions((app,), "en").splitlines()[1:] == ["- Timer 3"]
    assert help_reply((app,), "en") is None  # nothing to list: the model answers
    assert installed_apps({"tools": []}) == ()


@pytest.mark.spec("R-2.1.1")
def test_help_requests_are_the_whole_message_asking_what_can_be_done():
    for words in ("help", "Help!", "what can you do?", "please help", "帮助", "你能做什么？", "有什么功能", "使用说明"):
        assert is_help_request(words), words
    for words in (
        "help me write an essay",
        "help me focus 25 minutes",
        "帮我专注25分钟",
        "what can you do about noise?",
    ):
        assert not is_help_request(words), words


@pytest.mark.spec("R-2.1.1")
def test_help_and_the_fallbacks_list_the_installed_apps_in_the_persons_language():
    apps = installed_apps(personal_inventory())
    english = help_reply(apps, "en")
    assert english is not None and english.splitlines()[0] == "Here is what I can do:"
    assert [line.split(":")[0] for line in english.splitlines()[1:]] == [f"• {name}" for name in BUNDLED_EN]
    chinese = help_reply(apps, "zh")
    assert chinese is not None and chinese.splitlines()[0] == "我可以帮你："
    assert [line.split("：")[0] for line in chinese.splitlines()[1:]] == [f"• {name}" for name in BUNDLED_ZH]
    assert (
        names_line(apps, "en")
        == " Installed here: Scratch notes, Pomodoro, Practice quiz. Say “help” to see what they do."
    )
    assert names_line(apps, "zh") == "这里安装了：笔记、番茄钟、口算练习。说“帮助”看看它们能做什么。"
    assert names_line((), "en") == ""


def run(scenario) -> None:
    asyncio.run(scenario())


@pytest.fixture
def agent_on_wire(fake_openai):
    """An LLMAgent on a fake transport, welcomed and given the personal Inventory."""

    def make(**config: Any) -> tuple[LLMAgent, Wire]:
        wire = Wire()
        options = {"max_retries": 0, **config}
        return LLMAgent(wire.send, config=LLMConfig(base_url=fake_openai.base_url, model="m", **options)), wire

    return make


async def _ready(agent: LLMAgent, inventory: dict[str, Any]) -> None:
    await agent.handle(welcome())
    await agent.handle(inventory)


def _message(message_id: str, words: str, language: str = "en") -> dict[str, Any]:
    return {
        "type": "user.message",
        "conversation_id": CONV,
        "message_id": message_id,
        "text": words,
        "language": language,
    }


@pytest.mark.spec("R-2.1.1", "R-3.11")
def test_the_model_is_told_the_installed_apps_and_help_is_answered_from_them_without_it(fake_openai, agent_on_wire):
    """The request names every installed app with what it can do, in the person's language; "help" and
    "帮助" are answered by the Agent from the Inventory (no request), and join the history."""
    fake_openai.script(text("Hello!"), text("你好！"))

    async def scenario() -> None:
        agent, wire = agent_on_wire()
        try:
            await _ready(agent, personal_inventory())
            await agent.handle(_message("m-1", "hi"))
            await wire.next_of("message.send")
            before = len(wire.sent)
            await agent.handle(_message("m-2", "help"))
            index, listing = await wire.next_of("message.send", after=before)
            assert listing["text"].startswith("Here is what I can do:\n• Scratch notes: keeps a few lines")
            await agent.handle(_message("m-3", "帮助", "zh-hans"))
            index, listing_zh = await wire.next_of("message.send", after=index + 1)
            assert listing_zh["text"].startswith("我可以帮你：\n• 笔记：帮你记几行字")
            await agent.handle(_message("m-4", "你好", "zh-hans"))
            await wire.next_of("message.send", after=index + 1)
            assert fake_openai.request_count() == 2  # help needed no model

            english, chinese = (request.messages[0]["content"] for request in fake_openai.requests)
            for name, (en_help, zh_help) in {
                "pomodoro": ("a focus of 1 second to 24 hours", "1 秒到 24 小时的专注"),
                "quiz": ("a timed mental-arithmetic quiz", "限时口算练习"),
                "notes": ("keeps a few lines for you", "帮你记几行字"),
            }.items():
                assert en_help in english and en_help not in chinese, name
                assert zh_help in chinese and zh_help not in english, name
            history = [(m["role"], m["content"][:6]) for m in fake_openai.requests[1].messages[1:]]
            assert history == [
                ("user", "hi"),
                ("assistant", "Hello!"),
                ("user", "help"),
                ("assistant", "Here i"),
                ("user", "帮助"),
                ("assistant", "我可以帮你："),
                ("user", "你好"),
            ]
        finally:
            await agent.close()

    run(scenario)


@pytest.mark.spec("R-2.1.1", "R-3.11")
def test_in_a_small_context_what_the_apps_can_do_gives_way_to_their_names(fake_openai, agent_on_wire):
    """A context too small for the tools' and the apps' full words (1 300 tokens: ~990 for the full tools,
    ~430 for the English instructions with the apps' lines, ~810 and ~265 short): the request is sent
    with the short tools and the apps by name; with room enough, the full lines."""
    fake_openai.script(text("OK."), text("OK."))

    async def scenario() -> None:
        agent, wire = agent_on_wire(context_tokens=1300)
        roomy, roomy_wire = agent_on_wire()
        try:
            await _ready(agent, personal_inventory())
            await agent.handle(_message("m-1", "what is a pomodoro?"))
            await wire.next_of("message.send")
            await _ready(roomy, personal_inventory())
            await roomy.handle(_message("m-1", "what is a pomodoro?"))
            await roomy_wire.next_of("message.send")
        finally:
            await agent.close()
            await roomy.close()
        small, large = fake_openai.requests
        assert (
            "The apps installed here (use them only through the tools): Scratch notes, Pomodoro"
            in (small.messages[0]["content"])
        )
        assert "a focus of 1 second" not in small.messages[0]["content"]
        assert "- Pomodoro: a focus of 1 second to 24 hours" in large.messages[0]["content"]
        assert len(json.dumps(small.body["tools"])) < len(json.dumps(large.body["tools"]))

    run(scenario)


@pytest.mark.spec("R-2.2.3", "R-3.11")
def test_an_app_the_inventory_names_without_its_tool_is_never_called(fake_openai, agent_on_wire):
    """Grounding stays the Inventory's tools: an ``apps`` entry whose tool is not published here (and a
    name the model makes up) is refused — no tool.call — and the reply is the truthful fallback."""
    inventory = personal_inventory()
    phrasings = {
        "phrasings_version": 1,
        "tools": {"start": "ghost.start"},
        "languages": {"en": {"name": "Ghost", "help": "haunts."}, "zh-hans": {"name": "幽灵", "help": "闹鬼。"}},
    }
    inventory["apps"] = [*inventory["apps"], {"app_id": "ghost", "name": "Ghost", "phrasings": phrasings}]
    fake_openai.script(
        tool_calls(call("ghost__start", '{"duration_seconds": 60}', "c1")),
        text("I started Ghost for 1 minute."),
    )

    async def scenario() -> None:
        agent, wire = agent_on_wire()
        try:
            await _ready(agent, inventory)
            await agent.handle(_message("m-1", "start ghost for 1 minute"))
            _, refused = await wire.next_of("message.send")
            assert refused["text"] == "I couldn't do that: “ghost” isn't installed here. Nothing was done."
            _, reply = await wire.next_of("message.send", after=wire.sent.index(refused) + 1)
            assert reply["text"].startswith("Nothing was started or stopped. Installed here: Scratch notes")
            assert "tool.call" not in [frame["type"] for frame in wire.sent]
            assert "Ghost" not in reply["text"] and "Ghost" not in fake_openai.requests[0].messages[0]["content"]
            told = json.loads(fake_openai.requests[1].messages[-1]["content"])
            assert told["error"] == "unknown_tool"
        finally:
            await agent.close()

    run(scenario)
