# ruff: noqa: RUF001 -- Chinese text uses full-width punctuation on purpose
"""The LLM Agent tells the truth with a small local model (issue 36 part 5, decision 0051).

The real LLM Agent against a live Daphne (real PostgreSQL, Redis, Tool Router), its model server a
local HTTP server replaying llama.cpp-server answers (``transcripts/``, shaped as
llama-cpp-python's) — a context of 2 048 tokens that overflows, a reply claiming a focus no call
started, a reply in the wrong language, a tool call written as text, a malformed call, a call for
an app that is not installed, and 285 s asked for "25 minutes". Each checks what the person reads
and what exists in the database afterwards: never an action the person did not ask for, never
the server's English in the IM.
"""

from __future__ import annotations

import pytest
from django.utils import timezone

from interact.models import Interaction, InteractionStatus
from interact.services.interactions import answer_interaction
from interact.services.messages import post_human_message
from runtime.models import AppInstance, Operation, ToolCall
from tests.agents.llm.conftest import INSTALLED_EN, INSTALLED_ZH
from tests.agents.llm.fake_openai import recorded, text
from tests.agents.llm.test_end_to_end import agent_message, agent_texts, tool_message
from tests.support.factories import activity_of, planned_seconds

# Nothing was done, and what is installed here (the Inventory's apps, in the person's language).
NOTHING_EN = "Nothing was started or stopped." + INSTALLED_EN
NOTHING_ZH = "没有开始或停止任何内容。" + INSTALLED_ZH


def say(conversation, user, words: str, *, language: str = "en") -> None:
    post_human_message(conversation=conversation, user_id=user.id, text=words, now=timezone.now(), language=language)


def nothing_happened() -> None:
    assert not ToolCall.objects.exists()
    assert not Operation.objects.exists()
    assert not AppInstance.objects.filter(app_id="pomodoro").exists()


@pytest.mark.spec("R-2.1.1")
def test_a_2048_token_context_is_learned_from_the_overflow_and_the_oldest_turns_give_way(
    live, fake_openai, run_llm_agent, user, conversation
):
    """Like llama.cpp with --ctx-size 2048 (Ollama's old default): the third Chinese turn overflows;
    the Agent learns the limit from the server's 400 and sends the request again, fitted (the oldest
    turns and the tools' long descriptions give way, a reply's worth of tokens kept free). The person
    never reads the error; a message too long for the context even alone gets a Chinese "I couldn't
    do that" without a request being sent."""
    fake_openai.context_tokens = 2048
    replies = ["好的，这个计划听起来不错。", "明白，我们一步一步来。", "没问题，有需要随时告诉我。"]
    fake_openai.script(*(text(reply) for reply in replies))
    run_llm_agent()
    plan = "今天的计划是先读两章历史书，再整理笔记，然后做数学练习，最后复习英语单词，" * 3  # 111 characters

    for turn, reply in enumerate(replies):
        say(conversation, user, f"第{turn + 1}件事：{plan}", language="zh-hans")
        live.wait(lambda reply=reply: agent_message(conversation, reply), f"turn {turn + 1} answered")

    assert len(fake_openai.overflows) == 1, "the limit is learned once"
    # The turn that overflowed (the second or the third: the installed apps' lines take their share)
    # is sent again at once, fitted; every later request fits.
    overflowed = fake_openai.overflows[0]
    retried = fake_openai.requests[fake_openai.requests.index(overflowed) + 1]
    assert retried not in fake_openai.overflows
    assert next(m["content"] for m in overflowed.messages if m["role"] == "user").startswith("第1件事")
    sent_users = [m["content"] for m in overflowed.messages if m["role"] == "user"]
    kept_users = [m["content"] for m in retried.messages if m["role"] == "user"]
    assert kept_users[-1] == sent_users[-1] and not kept_users[0].startswith("第1件事")  # oldest first
    assert "番茄钟" in retried.messages[0]["content"]  # the installed apps are still named
    assert retried.body["max_tokens"] == 2048 // 8  # a reply's worth kept free
    assert next(m["role"] for m in retried.messages) == "system"
    assert "Simplified Chinese" in retried.messages[0]["content"]
    assert {t["function"]["name"] for t in retried.body["tools"]} >= {"pomodoro__start", "pomodoro__interrupt"}

    before = len(fake_openai.requests)
    say(conversation, user, "请帮我记住这些内容：" + "很长的一段话" * 600, language="zh-hans")
    too_long = "我没能做到：这条消息对这里的语言模型来说太长了。没有执行任何操作，请再试一次。" + INSTALLED_ZH
    live.wait(lambda: agent_message(conversation, too_long), "the Chinese 'too long'")
    assert len(fake_openai.requests) == before  # known not to fit: not sent
    texts = agent_texts(conversation)
    assert texts == [*replies, too_long]
    assert not [t for t in texts if "token" in t or "context" in t or "reduce" in t.lower()]


@pytest.mark.spec("R-2.1.1")
def test_a_reply_claiming_a_focus_no_tool_started_is_replaced_and_text_is_stored_as_text(
    live, fake_openai, run_llm_agent, user, conversation
):
    """The model answers "I have a 25 minute focus on reading" without calling anything: the person
    reads that nothing was started. Its next reply, "You&#39;re welcome! I&#39;ll…", is stored as the
    text it means (the page escapes where it renders)."""
    fake_openai.script(*recorded("claims-a-focus-without-a-call"))
    run_llm_agent()

    say(conversation, user, "focus 25 minutes on reading")
    live.wait(lambda: agent_message(conversation, NOTHING_EN, in_block=False), "the truthful reply")
    nothing_happened()

    say(conversation, user, "thanks")
    welcome = "You're welcome! I'll be here when you need me."
    live.wait(lambda: agent_message(conversation, welcome), "the unescaped reply")
    assert agent_texts(conversation) == [NOTHING_EN, welcome]
    # The model is reminded of what was actually said, not of its own claim.
    history = [(m["role"], m["content"]) for m in fake_openai.requests[1].messages[1:]]
    assert history == [("user", "focus 25 minutes on reading"), ("assistant", NOTHING_EN), ("user", "thanks")]


@pytest.mark.spec("R-2.1.1", "R-4.1.1")
def test_a_chinese_message_answered_in_english_gets_a_chinese_reply(
    live, fake_openai, run_llm_agent, user, conversation
):
    """The person's language (the page's, carried by user.message) goes into the instructions; the
    model answers in English anyway, and claims a start it never made: the person reads Chinese."""
    fake_openai.script(*recorded("answers-chinese-in-english"))
    run_llm_agent()

    say(conversation, user, "帮我专注25分钟，写作业", language="zh-hans")
    live.wait(lambda: agent_message(conversation, NOTHING_ZH), "the Chinese reply")
    assert (
        fake_openai.requests[0]
        .messages[0]["content"]
        .endswith("The person writes in Simplified Chinese: answer in Simplified Chinese (简体中文).")
    )
    assert agent_texts(conversation) == [NOTHING_ZH]
    nothing_happened()


@pytest.mark.spec("R-2.2.3")
def test_malformed_calls_are_refused_whether_made_or_written_as_text(
    live, fake_openai, run_llm_agent, user, conversation
):
    """A call whose arguments are cut off is refused (the model's "Your 25 minute focus is running now"
    after it is not posted); a call written into the reply's text is refused too, never shown raw."""
    fake_openai.script(*recorded("malformed-call"), *recorded("writes-its-call-as-text"))
    run_llm_agent()

    say(conversation, user, "focus for 25 minutes")
    refused = (
        "I couldn't do that: the language model asked for pomodoro.start in a form I can't use. "
        "Nothing was started or changed."
    )
    live.wait(lambda: agent_message(conversation, NOTHING_EN), "the claim after the refusal replaced")
    assert agent_texts(conversation) == [refused, NOTHING_EN]
    assert tool_message(fake_openai.requests[1])["error"] == "invalid_arguments"

    say(conversation, user, "pomodoro 25")
    written = (
        "I couldn't do that: the language model wrote its request as text instead of making it. "
        "Nothing was started or changed."
    )
    live.wait(lambda: agent_message(conversation, written), "the written call refused")
    assert not [t for t in agent_texts(conversation) if "tool_call" in t or "{" in t]
    nothing_happened()


@pytest.mark.spec("R-2.2.3")
def test_a_call_for_an_app_that_is_not_installed_is_refused(live, fake_openai, run_llm_agent, user, conversation):
    fake_openai.script(*recorded("calls-an-app-that-is-not-installed"))
    run_llm_agent()

    say(conversation, user, "play some focus music")
    not_installed = "I couldn't do that: “spotify” isn't installed here. Nothing was done."
    live.wait(lambda: agent_message(conversation, NOTHING_EN), "the model's claim replaced")
    assert agent_texts(conversation) == [not_installed, NOTHING_EN]
    told = tool_message(fake_openai.requests[1])
    assert (told["tool_call_id"], told["error"]) == ("call__0", "unknown_tool")
    nothing_happened()


@pytest.mark.spec("R-2.1.1", "R-2.2.3")
def test_a_number_the_person_did_not_say_is_asked_about_with_choices(
    live, fake_openai, run_llm_agent, user, conversation
):
    """ "focus 25 minutes on reading" -> the model asks for 285 s: nothing starts; the person gets a
    question with the choices 25 minutes / 4 min 45 s / neither. Choosing 25 minutes starts exactly
    that (and says so in the focus's block); a second such question answered "neither" starts nothing."""
    fake_openai.script(*recorded("asks-for-285-seconds"), *recorded("asks-for-285-seconds"))
    run_llm_agent()

    say(conversation, user, "focus 25 minutes on reading")
    asked = live.wait(
        lambda: Interaction.objects.filter(conversation=conversation, status=InteractionStatus.PENDING).first(),
        "the question",
    )
    assert asked.kind == "choice"
    assert asked.prompt == (
        "Before I call pomodoro.start: you said 25 minutes, but the language model asked for 4 min 45 s. Which one?"
    )
    assert asked.options == [
        {"id": "said-0", "label": "25 minutes"},
        {"id": "model", "label": "4 min 45 s"},
        {"id": "cancel", "label": "Neither: do nothing"},
    ]
    assert fake_openai.request_count() == 1  # the question ends the turn: no claim can follow
    assert not Operation.objects.exists() and not ToolCall.objects.exists()

    answer_interaction(conversation_ids=[conversation.id], interaction_pk=asked.pk, value="said-0", now=timezone.now())
    live.wait(
        lambda: agent_message(
            conversation, "Focus started: 25 minutes of reading. I'll let you know when it's done.", in_block=True
        ),
        "the chosen focus started",
    )
    operation = Operation.objects.get(conversation=conversation)
    assert (planned_seconds(operation), activity_of(operation)) == (1500, "reading")

    say(conversation, user, "focus 25 minutes on reading")
    again = live.wait(
        lambda: Interaction.objects.filter(
            conversation=conversation, status=InteractionStatus.PENDING, kind="choice"
        ).first(),
        "the second question",
    )
    answer_interaction(conversation_ids=[conversation.id], interaction_pk=again.pk, value="cancel", now=timezone.now())
    live.wait(lambda: agent_message(conversation, "OK, nothing was started or changed."), "the decline")
    assert Operation.objects.count() == 1
