# ruff: noqa: RUF001 -- Chinese text uses full-width punctuation on purpose
"""agents.llm.grounding and agents.llm.context: what a reply may claim, whose numbers a call uses,
and how much of a server's context a request takes (pure)."""

from __future__ import annotations

import pytest

from agents.llm import grounding
from agents.llm.apps import installed_apps
from agents.llm.context import ContextWindow, Overflow, estimate_text, overflow_of
from agents.llm.history import History
from agents.reference.declared import apps_from_inventory


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("I have a 25 minute focus on reading. Let's get started!", {"start"}),
        ("Sure! I've started a 25-minute focus for your homework.", {"start"}),
        ("Your 25 minute focus is running now.", {"start"}),
        ("I stopped your focus.", {"stop"}),
        ("The timer has been cancelled.", {"stop"}),
        ("Great job, you scored 8 out of 10!", {"result"}),
        ("I've added that to your notes.", {"result"}),
        ("好的，已为你开始25分钟的专注。", {"start"}),
        ("专注已经停止了。", {"stop"}),
        ("已记下。", {"result"}),
        # Not claims: offers, questions, negations, small talk.
        ("I haven't started anything yet. How long should it be?", set()),
        ("I can start a focus for you — how many minutes?", set()),
        ("You're welcome! I'll be here when you need me.", set()),
        ("No focus is running right now.", set()),
        ("Nothing was started; the timer isn't running.", set()),
        ("No quiz, but your focus is running.", {"start"}),
        ("还没开始。要专注多久？", set()),
        ("我没有停止任何内容。", set()),
        ("不客气，有需要随时告诉我。", set()),
    ],
)
def test_claims_of_starts_stops_and_results(text, kinds):
    assert grounding.claims(text) == kinds


@pytest.mark.parametrize(
    ("arguments", "words", "unsaid"),
    [
        ({"duration_seconds": 285, "activity": "reading"}, "focus 25 minutes on reading", {"duration_seconds": 285}),
        ({"duration_seconds": 1500, "activity": "reading"}, "focus 25 minutes on reading", {}),
        ({"duration_seconds": 1500}, "pomodoro 25", {}),  # a bare number: minutes
        ({"duration_seconds": 1500}, "twenty-five minutes please", {}),
        ({"duration_seconds": 1500}, "专注二十五分钟", {}),
        ({"duration_seconds": 1500}, "专注２５分钟", {}),  # full-width digits
        ({"duration_seconds": 5400}, "1 hour 30 minutes", {}),
        ({"duration_seconds": 1800}, "半小时", {}),
        ({"duration_seconds": 1500}, "start a focus", {"duration_seconds": 1500}),  # the model's guess
        ({"duration_seconds": 15000}, "focus 25 minutes", {"duration_seconds": 15000}),
        ({"count": 3, "flag": True, "text": "x"}, "three questions", {}),
        ({"count": 4}, "three questions", {"count": 4}),
    ],
)
def test_a_calls_numbers_must_be_the_persons(arguments, words, unsaid):
    assert grounding.ungrounded_numbers(arguments, words) == unsaid


def test_wrong_script_written_calls_and_plain_text():
    assert grounding.wrong_script("Sure! I've started it.", "zh")
    assert not grounding.wrong_script("好的，Pomodoro 已经准备好了。", "zh")
    assert grounding.wrong_script("好的，我们开始吧", "en")
    assert not grounding.wrong_script("Focus on 写作业 started.", "en")
    # Recorded from SmolLM2-135M-Instruct (transcripts/smollm2-135m-real-2048.json): Chinese with English sentences.
    assert grounding.wrong_script("不做了，你可以说,如果专注25分钟或10-minute, you can say 任何种称.", "zh")
    assert not grounding.wrong_script("好的，LineUp 的 Pomodoro 已经准备好了。", "zh")
    recited = "you are the assistant in lineup, a workspace where the person talks to you in a chat. You can start"
    assert grounding.echoes(
        recited, "You are the assistant in LineUp, a workspace where the person talks to you in a chat."
    )
    assert not grounding.echoes(
        "You're welcome!", "You are the assistant in LineUp, a workspace where the person talks"
    )
    assert grounding.written_tool_call('<tool_call>\n{"name": "pomodoro__start", "arguments": {}}\n</tool_call>')
    assert grounding.written_tool_call('Calling {"name": "pomodoro__start", "arguments": {"duration_seconds": 1500}}')
    assert not grounding.written_tool_call("Use {curly braces} freely")
    assert grounding.written_tool_call("functions.pomodoro__start:")  # recorded from SmolLM2 via llama-cpp-python
    assert grounding.plain("I&#39;ll start &amp; you&amp;#39;ll see <b>") == "I'll start & you'll see <b>"


@pytest.mark.parametrize(
    ("status", "body", "expected"),
    [
        # llama-cpp-python's server (llama_cpp/server/errors.py)
        (
            400,
            {
                "error": {
                    "message": "This model's maximum context length is 2048 tokens. However, you requested 2200 tokens "
                    "(2200 in the messages, None in the completion). Please reduce the length of the messages or "
                    "completion.",
                    "type": "invalid_request_error",
                    "param": "messages",
                    "code": "context_length_exceeded",
                }
            },
            Overflow(limit=2048, prompt_tokens=2200),
        ),
        # OpenAI
        (
            400,
            {
                "error": {
                    "message": "This model's maximum context length is 8192 tokens. However, your messages resulted in "
                    "9013 tokens. Please reduce the length of the messages.",
                    "type": "invalid_request_error",
                    "param": "messages",
                    "code": "context_length_exceeded",
                }
            },
            Overflow(limit=8192, prompt_tokens=9013),
        ),
        # llama.cpp's own server
        (
            400,
            {
                "error": {
                    "code": 400,
                    "message": "the request exceeds the available context size, try increasing it",
                    "type": "exceed_context_size_error",
                    "n_prompt_tokens": 2200,
                    "n_ctx": 2048,
                }
            },
            Overflow(limit=2048, prompt_tokens=2200),
        ),
        # llama-cpp-python's unwrapped ValueError, as a 500
        (
            500,
            {"error": {"message": "Requested tokens (2200) exceed context window of 2048", "type": "server_error"}},
            Overflow(limit=2048, prompt_tokens=2200),
        ),
        (400, {"error": {"message": "the request exceeds the available context size"}}, Overflow(None, None)),
        (500, {"error": {"message": "model crashed", "type": "server_error"}}, None),
        (429, {"error": {"message": "Rate limit reached", "code": "rate_limit_exceeded"}}, None),
    ],
)
def test_overflow_errors_in_the_shapes_servers_word_them(status, body, expected):
    assert overflow_of(status, body, "") == expected


def test_the_window_learns_the_limit_and_the_scale_and_never_grows():
    window = ContextWindow()
    assert window.prompt_budget is None
    assert window.learn(Overflow(limit=2048, prompt_tokens=2200), estimated=2000)
    assert window.limit == 2048 and window.reply_tokens == 256 and window.prompt_budget == 1792
    assert window.scale == pytest.approx(2200 / 2000 * 1.1)
    assert not window.learn(Overflow(limit=4096, prompt_tokens=None), estimated=100)  # a context does not grow
    assert window.limit == 2048
    unknown = ContextWindow()
    assert unknown.learn(Overflow(None, None), estimated=3000)  # no numbers: smaller than what was sent
    assert unknown.limit is not None and unknown.limit < 3000 + unknown.reply_tokens_wanted
    configured = ContextWindow(8192)
    assert configured.prompt_budget == 8192 - 512
    assert estimate_text("abc" * 10) == 10 and estimate_text("专注") == 4


def test_history_gives_way_oldest_turn_first_and_says_when_the_current_turn_alone_is_too_big():
    history = History()
    for n in range(3):
        turn = history.begin_turn(f"message {n} " + "x" * 300)
        turn.append({"role": "assistant", "content": f"reply {n}"})
    window = ContextWindow(10_000)
    measure = lambda messages: window.estimate(messages, [])  # noqa: E731
    whole = history.fitted("system", measure, budget=None)
    assert [m["content"][:9] for m in whole if m["role"] == "user"] == ["message 0", "message 1", "message 2"]
    two = history.fitted("system", measure, budget=measure(whole) - 50)
    assert [m["content"][:9] for m in two if m["role"] == "user"] == ["message 1", "message 2"]
    assert history.fitted("system", measure, budget=20) is None
    assert [m["content"][:9] for m in history.newest("system") if m["role"] == "user"] == ["message 2"]


def _stretch_apps():
    """Stretch, an app the Agent's code never heard of (as ``startminiapp`` makes one), from its declaration only."""
    frame = {
        "tools": [{"name": "stretch.start", "app_id": "stretch"}, {"name": "stretch.stop", "app_id": "stretch"}],
        "apps": [
            {
                "app_id": "stretch",
                "name": "Stretch",
                "phrasings": {
                    "version": 2,
                    "tools": {"start": "stretch.start", "stop": "stretch.stop"},
                    "languages": {
                        "en": {"name": "Stretch", "nouns": ["stretch break", "limber"]},
                        "zh-hans": {"name": "拉伸", "nouns": ["拉伸", "伸展操", "考"]},
                    },
                },
            }
        ],
    }
    return (*installed_apps(frame), *apps_from_inventory(frame))


@pytest.mark.spec("R-2.2.3", "R-3.11")
@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("Your Stretch is running now.", {"start"}),
        ("Enjoy your stretch break!", {"start"}),
        ("Your limber is underway.", {"start"}),
        ("Here's your 5 minute stretch break.", {"start"}),
        ("The Stretch has been cancelled.", {"stop"}),
        ("正在拉伸，放松一下。", {"start"}),
        ("伸展操开始！", {"start"}),
        ("拉伸中，请保持姿势。", {"start"}),
        ("No stretch break is running.", set()),
    ],
)
def test_a_false_claim_naming_an_app_known_only_from_its_declaration_is_caught(text, kinds):
    apps = _stretch_apps()
    assert grounding.claims(text, apps=apps) == kinds
    assert not grounding.claims(text)  # the code alone does not know Stretch
    assert grounding.claims(text, "zh" if grounding._CJK.search(text) else "en", apps=apps) == kinds


@pytest.mark.spec("R-2.2.3")
@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("Your 25 minute focus is running now.", {"start"}),
        ("The timer has been cancelled.", {"stop"}),
        ("Great job, you scored 8 out of 10!", {"result"}),
        ("专注已经停止了。", {"stop"}),
        ("正在计时。", {"start"}),
        ("You're welcome! I'll be here when you need me.", set()),
        ("Your yoga is running.", set()),  # names no installed app and no generic noun
        ("我在参考中文资料。", set()),  # a one-character noun (Stretch's "考") is not claimed with
    ],
)
def test_a_claim_naming_no_installed_app_is_judged_as_before(text, kinds):
    assert grounding.claims(text, apps=_stretch_apps()) == kinds
    assert grounding.claims(text) == kinds


def _installed_here():
    from runtime.inventory import inventory_for_scope

    frame = inventory_for_scope("personal").published()
    return (*installed_apps(frame), *apps_from_inventory(frame))


@pytest.mark.spec("R-2.2.3")
@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        # A question claims nothing, whatever words it uses.
        ("Want a test on fractions?", set()),
        ("Shall I set a focus on reading for 25 minutes?", set()),
        ("要开始专注吗？", set()),
        ("Is your focus running? I've started a quiz.", {"start"}),
        # "<app noun> on" is a topic, not a claim, unless a verb makes it one.
        ("Here is a test on fractions, if you like", set()),
        ("A focus on reading sounds good.", set()),
        ("Your focus is on.", {"start"}),
        ("Your focus is running.", {"start"}),
        # Negation right before a claim denies it.
        ("没有正在进行的内容。", set()),
        ("现在没有正在进行的专注。", set()),
        ("我还没有已经开始的专注。", set()),
        ("I didn't start a focus; I haven't started anything.", set()),
        ("The focus is not running.", set()),
        ("正在专注，25分钟后结束。", {"start"}),
    ],
)
def test_questions_topics_and_negations_claim_nothing(text, kinds):
    assert grounding.claims(text, apps=_installed_here()) == kinds


def _fallback_replies() -> list[str]:
    from agents.llm import replies

    texts = []
    for language in ("en", "zh"):
        texts += [
            replies.too_many_steps(4, language),
            replies.nothing_done(language),
            replies.nothing_done(language, installed=" Pomodoro, Quiz."),
            replies.malformed_arguments("pomodoro.start", language),
            replies.malformed_call(language),
            replies.written_tool_call(language),
            replies.invalid_arguments("pomodoro.start", language),
            replies.unknown_function("weather__start", language),
            replies.unknown_function("pomodoro__pause", language, installed_apps=frozenset({"pomodoro"})),
            replies.nothing_was_running(language),
            replies.number_question("pomodoro.start", "25 min", "285 s", language),
            replies.number_question("pomodoro.start", None, "25 min", language),
            replies.cancel_option(language),
            replies.question_declined(language),
            replies.tools_unavailable(language),
            replies.empty_reply(language),
            replies.internal_error(language),
        ]
        texts += [
            replies.model_failed(reason, language, acted=acted)
            for reason in ("timeout", "unreachable", "refused", "context", "bad_response")
            for acted in (False, True)
        ]
    return texts


@pytest.mark.spec("R-2.2.3")
@pytest.mark.parametrize("text", _fallback_replies())
def test_the_agents_own_fallback_replies_claim_nothing(text):
    """What the Agent says when the model could not be used is read by the same grounding as the
    model's text (a bench and the tests count claims in what the person read): "…我停下了" after too
    many tool rounds read as a stop nobody confirmed; "没有正在进行的内容" as a start."""
    assert grounding.claims(text, apps=_installed_here()) == set()


@pytest.mark.spec("R-2.2.3")
@pytest.mark.parametrize(
    ("arguments", "words", "unsaid"),
    [
        ({"duration_seconds": 25}, "帮我专注25分钟，写作业", {"duration_seconds": 25}),
        ({"duration_seconds": 25}, "focus 25 minutes on reading", {"duration_seconds": 25}),
        ({"duration_seconds": 25}, "twenty-five minutes please", {"duration_seconds": 25}),
        ({"duration_seconds": 1500}, "帮我专注25分钟，写作业", {}),
        ({"duration_seconds": 25}, "pomodoro 25", {}),  # a bare number: 25 s or 25 min
        ({"duration_seconds": 1500}, "pomodoro 25", {}),
        ({"duration_seconds": 600}, "10 minutes, then 10 more", {}),  # the bare 10 may be minutes
        ({"count": 25}, "25分钟的测验", {}),  # any other number: said is said
    ],
)
def test_a_number_said_with_its_unit_grounds_only_that_duration(arguments, words, unsaid):
    """ "25分钟" was read as a bare 25 too, so a 25 s start went through: only a number said without a
    unit is ambiguous."""
    assert grounding.ungrounded_numbers(arguments, words) == unsaid
