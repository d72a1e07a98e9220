# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！（）) on purpose
"""What the reference Agent says, in English or Chinese (pure, no I/O).

Durations read the way people say them: "25 minutes", "2 hours", "3 min 12 s" / "25分钟",
"3分钟12秒". Interruption reasons are the Runtime's codes (``runtime.transitions.InterruptionReason``)
turned into words; an unknown one is shown as its code rather than hidden. What an app's requests and
results are answered with is the app's own declared words (``agents.reference.declared.reply``); these
are the Agent's words about itself and about no app in particular.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

Language = Literal["en", "zh"]

_EN_NAMES = {"h": ("hour", "hours"), "min": ("minute", "minutes"), "s": ("second", "seconds")}
_ZH_NAMES = {"h": "小时", "min": "分钟", "s": "秒"}

_REASONS = {
    "agent_interrupt": ("you asked me to stop it", "按你的要求停止"),
    "returned_to_interact": ("you returned to Interact", "你回到了对话"),
    "switched_app": ("you switched to another app", "你切换到了其他应用"),
    "app_closed": ("you closed {name}", "你关闭了{name}"),
    "host_interruption": ("the device interrupted it", "被设备中断"),
    "operator": ("the service's operator stopped it", "被服务的运维人员停止"),
}


def _parts(seconds: int) -> list[tuple[int, str]]:
    hours, rest = divmod(max(0, seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return [(n, unit) for n, unit in ((hours, "h"), (minutes, "min"), (secs, "s")) if n]


def duration_text(seconds: int, language: Language) -> str:
    """1500 -> "25 minutes" / "25分钟"; 192 -> "3 min 12 s" / "3分钟12秒"; 0 -> "0 seconds" / "0秒"."""
    parts = _parts(seconds) or [(0, "s")]
    if language == "zh":
        return "".join(f"{n}{_ZH_NAMES[unit]}" for n, unit in parts)
    if len(parts) == 1:
        n, unit = parts[0]
        singular, plural = _EN_NAMES[unit]
        return f"{n} {singular if n == 1 else plural}"
    return " ".join(f"{n} {unit}" for n, unit in parts)


def round_adjective(seconds: int) -> str:
    """1500 -> "25-minute", 3600 -> "1-hour", 5400 -> "1 h 30 min"."""
    parts = _parts(seconds)
    if len(parts) == 1:
        n, unit = parts[0]
        return f"{n}-{_EN_NAMES[unit][0]}"
    return duration_text(seconds, "en")


def reason_text(reason: str | None, language: Language, name: str = "") -> str:
    """Why an operation was interrupted; ``name``: the app's, for a reason that names it."""
    if reason is None:
        return "stopped" if language == "en" else "已停止"
    english, chinese = _REASONS.get(reason, (reason, reason))
    return (chinese if language == "zh" else english).replace(
        "{name}", name or ("the app" if language == "en" else "应用")
    )


def nothing_running(language: Language) -> str:
    return "现在没有进行中的操作。" if language == "zh" else "Nothing is running."


def refused(code: str, detail: str, language: Language) -> str:
    if language == "zh":
        return f"没能做到：{detail}（{code}）。"
    return f"I couldn't do that: {detail} ({code})."


def not_available(language: Language) -> str:
    return "这个对话里不能使用它。" if language == "zh" else "That isn't available in this conversation."


def out_of_range(language: Language) -> str:
    return "时间超出了范围。" if language == "zh" else "That is longer than it can run."


def _installed(apps: list[tuple[str, str]], language: Language) -> str:
    """ "help": one line per installed app, as the app itself says what it does (its declared ``help``)."""
    head = "我可以帮你：" if language == "zh" else "Here is what I can do:"
    lines = [f"• {name}：{can}" if language == "zh" else f"• {name}: {can}" for name, can in apps if can]
    return "\n".join([head, *lines])


_GENERIC = {
    "en": {
        "greeting": 'Hello! Say "help" to see what I can do.',
        "thanks": "You're welcome!",
        "unknown": 'Sorry, I didn\'t understand that. Say "help" to see what I can do.',
        "capabilities": "Here is what I can do: nothing is installed here yet.",
        "ask_duration": 'How long? For example "25 minutes".',
        "did_you_mean": "Did you mean one of these?",
        "how_long": "How long?",
        "which_app": "{duration} of what?",
        "what_can_you_do": "What can you do?",
    },
    "zh": {
        "greeting": "你好！说“帮助”看看我能做什么。",
        "thanks": "不客气！",
        "unknown": "抱歉，我没听懂。说“帮助”看看我能做什么。",
        "capabilities": "我可以帮你：这里还没有安装应用。",
        "ask_duration": "要多久？比如“25分钟”。",
        "did_you_mean": "你是想做下面哪一个？",
        "how_long": "要多久？",
        "which_app": "{duration}做什么？",
        "what_can_you_do": "你能做什么？",
    },
}


def help_text(
    language: Language,
    *,
    missing_duration: bool = False,
    topic: str = "unknown",
    apps: list[tuple[str, str]] | None = None,
    own: Callable[[str], str] | None = None,
) -> str:
    """The answer to anything that is not a start or a stop, by what the person seemed to want.

    ``apps``: the installed apps as ``(name, what it can do)`` in ``language``, from their declarations
    (docs/decisions/0050); "help" lists them, and "I didn't understand" names them. ``own(key)``: the
    default app's words for a greeting, thanks, not understanding (``greeting``, ``thanks``, ``unknown``,
    ``capabilities``), when there is one.
    """

    def words(key: str) -> str:
        return own(key) if own is not None else _GENERIC[language][key]

    if topic == "help" and apps and any(can for _, can in apps):
        return _installed(apps, language)
    if missing_duration:
        return _GENERIC[language]["ask_duration"]
    if topic == "unknown" and apps:
        names = ("、" if language == "zh" else ", ").join(name for name, _ in apps)
        suffix = f"已安装：{names}。" if language == "zh" else f" Installed: {names}."
        return words("unknown") + suffix
    if topic == "help":
        return words("capabilities")
    if topic in ("greeting", "thanks"):
        return words(topic)
    return words("unknown")


def generic(key: str, language: Language) -> str:
    """One of the Agent's own words (no app's): the prompt of a choice, the "what can you do?" option."""
    return _GENERIC[language][key]


def result_failed(language: Language) -> str:
    """An operation ended with the error result (its app could not shape one): say it ended."""
    if language == "zh":
        return "它已经结束了，但这个应用没能给出结果。"
    return "It has ended, but the app could not give its result."
