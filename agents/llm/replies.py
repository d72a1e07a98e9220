# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：（）) on purpose
"""What the LLM Agent itself says, in English or Chinese (pure, no I/O).

The model words its own replies; these are the messages it can not be trusted (or reached) to
write: its tool call was unusable, the model server failed, a turn ran too long. Each says plainly
whether anything was started. Result reports reuse ``agents.reference.replies``.
"""

from __future__ import annotations

from agents.reference.intents import Language

_MODEL_FAILED = {
    "timeout": (
        "The language model server didn't answer in time ({detail}).",
        "语言模型服务器没有及时回应（{detail}）。",
    ),
    "unreachable": ("I can't reach the language model server ({detail}).", "无法连接语言模型服务器（{detail}）。"),
    "refused": ("The language model server refused the request ({detail}).", "语言模型服务器拒绝了请求（{detail}）。"),
    "bad_response": (
        "The language model server sent an answer I can't use ({detail}).",
        "语言模型服务器的回应无法使用（{detail}）。",
    ),
}
_NOTHING_DONE = (" Nothing was done; please try again.", "没有执行任何操作，请再试一次。")
_TOOLS_DONE = (
    " The tool calls before it were made; their results follow here.",
    "之前的工具调用已经执行，结果会在这里告诉你。",
)


def _pick(language: Language, english: str, chinese: str) -> str:
    return chinese if language == "zh" else english


def malformed_arguments(tool: str, detail: str, language: Language) -> str:
    return _pick(
        language,
        f"I couldn't call {tool}: the language model sent malformed arguments ({detail}). Nothing was started or changed.",
        f"无法调用 {tool}：语言模型给出的参数格式错误（{detail}）。没有开始或更改任何内容。",
    )


def invalid_arguments(tool: str, detail: str, language: Language) -> str:
    return _pick(
        language,
        f"I couldn't call {tool}: LineUp refused the language model's arguments: {detail} (invalid_arguments). "
        "Nothing was started or changed.",
        f"无法调用 {tool}：LineUp 拒绝了语言模型给出的参数：{detail}（invalid_arguments）。没有开始或更改任何内容。",
    )


def unknown_function(name: str, language: Language) -> str:
    return _pick(
        language,
        f"The language model asked for a tool that isn't available here ({name}). Nothing was done.",
        f"语言模型请求了这里没有的工具（{name}）。没有执行任何操作。",
    )


def model_failed(reason: str, detail: str, language: Language, *, acted: bool = False) -> str:
    """``acted``: tool calls of this turn were already made before the model failed."""
    english, chinese = _MODEL_FAILED.get(reason, _MODEL_FAILED["bad_response"])
    tail_en, tail_zh = _TOOLS_DONE if acted else _NOTHING_DONE
    return _pick(language, english + tail_en, chinese + tail_zh).format(detail=detail)


def too_many_steps(steps: int, language: Language) -> str:
    return _pick(
        language,
        f"I stopped after {steps} rounds of tool calls without a final answer from the language model.",
        f"经过 {steps} 轮工具调用后语言模型仍未给出答复，我停下了。",
    )


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
