# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：（）) on purpose
"""What the LLM Agent itself says, in English or Chinese (pure, no I/O).

The model words its own replies; these are the messages it can not be trusted (or reached) to
write: its tool call was unusable, the model server failed, a turn ran too long. Each says plainly
whether anything was started. Result reports reuse ``agents.reference.replies``.
"""

from __future__ import annotations

from agents.reference.intents import Language

# The server's own words (often English, e.g. "Requested 2200 tokens … Please reduce the length of the
# messages") go to the logs only: the person reads why in their language, never the raw error.
_MODEL_FAILED = {
    "timeout": ("I couldn't do that: the language model didn't answer in time.", "我没能做到：语言模型没有及时回应。"),
    "unreachable": (
        "I couldn't do that: I can't reach the language model right now.",
        "我没能做到：现在连不上语言模型。",
    ),
    "refused": ("I couldn't do that: the language model server had a problem.", "我没能做到：语言模型服务器出了问题。"),
    "context": (
        "I couldn't do that: your message is too long for the language model here.",
        "我没能做到：这条消息对这里的语言模型来说太长了。",
    ),
    "bad_response": (
        "I couldn't do that: the language model sent an answer I can't use.",
        "我没能做到：语言模型的回应无法使用。",
    ),
}
_NOTHING_DONE = (" Nothing was done; please try again.", "没有执行任何操作，请再试一次。")
_TOOLS_DONE = (
    " What I did before it stands; its results follow here.",
    "之前已经执行的操作仍然有效，结果会在这里告诉你。",
)


def _pick(language: Language, english: str, chinese: str) -> str:
    return chinese if language == "zh" else english


def malformed_arguments(tool: str, language: Language) -> str:
    """The model's call was not one usable JSON object (why is the model's to know, not the person's)."""
    return _pick(
        language,
        f"I couldn't do that: the language model asked for {tool} in a form I can't use. Nothing was started or changed.",
        f"我没能做到：语言模型对 {tool} 的请求格式有误。没有开始或更改任何内容。",
    )


def malformed_call(language: Language) -> str:
    """A tool call without a usable function name."""
    return _pick(
        language,
        "I couldn't do that: the language model's request was malformed. Nothing was started or changed.",
        "我没能做到：语言模型的请求格式有误。没有开始或更改任何内容。",
    )


def written_tool_call(language: Language) -> str:
    """The model wrote a tool call as text instead of making it."""
    return _pick(
        language,
        "I couldn't do that: the language model wrote its request as text instead of making it. "
        "Nothing was started or changed.",
        "我没能做到：语言模型把操作写成了文字，而没有真正执行。没有开始或更改任何内容。",
    )


def invalid_arguments(tool: str, language: Language) -> str:
    """The Tool Router refused the arguments (its detail, in English, goes to the model)."""
    return _pick(
        language,
        f"I couldn't do that: LineUp refused what the language model asked of {tool}. Nothing was started or changed.",
        f"我没能做到：LineUp 拒绝了语言模型对 {tool} 的请求参数。没有开始或更改任何内容。",
    )


def unknown_function(name: str, language: Language, *, installed_apps: frozenset[str] = frozenset()) -> str:
    """A function that is no tool of this conversation: an app that is not installed, a tool an
    installed app does not have, or an invented name."""
    app, _, action = name.partition("__")
    if action and app in installed_apps:
        return _pick(
            language,
            f"I couldn't do that: {app} can't “{action}” here. Nothing was done.",
            f"我没能做到：{app} 在这里不能“{action}”。没有执行任何操作。",
        )
    return _pick(
        language,
        f"I couldn't do that: “{app}” isn't installed here. Nothing was done.",
        f"我没能做到：这里没有安装“{app}”。没有执行任何操作。",
    )


def model_failed(reason: str, language: Language, *, acted: bool = False) -> str:
    """``acted``: tool calls of this turn were already made before the model failed."""
    english, chinese = _MODEL_FAILED.get(reason, _MODEL_FAILED["bad_response"])
    tail_en, tail_zh = _TOOLS_DONE if acted else _NOTHING_DONE
    return _pick(language, english + tail_en, chinese + tail_zh)


def too_many_steps(steps: int, language: Language) -> str:
    return _pick(
        language,
        # Claims nothing (grounding.claims reads none of it): an Agent's own words are checked as the model's are.
        f"The language model gave no final answer after {steps} rounds of tool calls; I'm leaving it there.",
        f"经过 {steps} 轮工具调用后语言模型仍未给出答复，这次就到这里。",
    )


def nothing_done(language: Language, *, installed: str = "") -> str:
    """Instead of a reply that claims what no tool answer confirms, or is in the other language, when nothing was done.

    ``installed``: the installed apps named (``apps.names_line``); else a pointer to "help" (no app's words).
    """
    if installed:
        return _pick(language, "Nothing was started or stopped.", "没有开始或停止任何内容。") + installed
    return _pick(
        language,
        "Nothing was started or stopped. Say “help” to see what I can do.",
        "没有开始或停止任何内容。说“帮助”看看我能做什么。",
    )


def started(tool: str, language: Language) -> str:
    return _pick(language, f"Started: {tool}.", f"已开始：{tool}。")


def stopped(language: Language) -> str:
    return _pick(language, "Stopped.", "已停止。")


def done(tool: str, language: Language) -> str:
    return _pick(language, f"Done: {tool}.", f"已完成：{tool}。")


def nothing_was_running(language: Language) -> str:
    return _pick(language, "Nothing was running.", "没有正在进行的内容。")


def number_question(tool: str, said: str | None, asked: str, language: Language) -> str:
    """The model's number is not one the person said: which one did they mean?"""
    if said is None:
        return _pick(
            language,
            f"Before I call {tool}: you didn't say a number, and the language model chose {asked}. Is that right?",
            f"调用 {tool} 之前想确认一下：你没有说具体数字，语言模型选了 {asked}。这样可以吗？",
        )
    return _pick(
        language,
        f"Before I call {tool}: you said {said}, but the language model asked for {asked}. Which one?",
        f"调用 {tool} 之前想确认一下：你说的是 {said}，但语言模型要的是 {asked}。要哪一个？",
    )


def cancel_option(language: Language) -> str:
    return _pick(language, "Neither: do nothing", "都不要，什么也不做")


def number_option(key: str, value: str, language: Language) -> str:
    return _pick(language, f"{key} = {value}", f"{key} = {value}")


def question_declined(language: Language) -> str:
    return _pick(language, "OK, nothing was started or changed.", "好的，没有开始或更改任何内容。")


def tools_unavailable(language: Language) -> str:
    return _pick(
        language,
        "I couldn't load this conversation's tools from LineUp. Nothing was done; please try again.",
        "无法从 LineUp 获取这个对话的工具。没有执行任何操作，请再试一次。",
    )


def empty_reply(language: Language) -> str:
    return _pick(language, "(The language model sent an empty reply.)", "（语言模型的回复是空的。）")


def internal_error(language: Language) -> str:
    return _pick(language, "Something went wrong on my side; please try again.", "我这边出了问题，请再试一次。")
