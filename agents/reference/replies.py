# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！（）) on purpose
"""What the reference Agent says, in English or Chinese (pure, no I/O).

Durations read the way people say them: "25 minutes", "2 hours", "3 min 12 s" / "25分钟",
"3分钟12秒". Interruption reasons are the Runtime's codes (``runtime.transitions.InterruptionReason``)
turned into words; an unknown one is shown as its code rather than hidden.
"""

from __future__ import annotations

from agents.reference.intents import Language

_EN_NAMES = {"h": ("hour", "hours"), "min": ("minute", "minutes"), "s": ("second", "seconds")}
_ZH_NAMES = {"h": "小时", "min": "分钟", "s": "秒"}

_REASONS = {
    "agent_interrupt": ("you asked me to stop it", "按你的要求停止"),
    "returned_to_interact": ("you returned to Interact", "你回到了对话"),
    "switched_app": ("you switched to another app", "你切换到了其他应用"),
    "app_closed": ("you closed Pomodoro", "你关闭了番茄钟"),
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


def _round_adjective(seconds: int) -> str:
    """1500 -> "25-minute", 3600 -> "1-hour", 5400 -> "1 h 30 min"."""
    parts = _parts(seconds)
    if len(parts) == 1:
        n, unit = parts[0]
        return f"{n}-{_EN_NAMES[unit][0]}"
    return duration_text(seconds, "en")


def reason_text(reason: str | None, language: Language) -> str:
    if reason is None:
        return "stopped" if language == "en" else "已停止"
    english, chinese = _REASONS.get(reason, (reason, reason))
    return chinese if language == "zh" else english


def focus_started(seconds: int, activity: str | None, language: Language) -> str:
    duration = duration_text(seconds, language)
    if language == "zh":
        what = f"{activity}，{duration}" if activity else duration
        return f"专注开始：{what}。结束时我会告诉你。"
    what = f"{duration} of {activity}" if activity else duration
    return f"Focus started: {what}. I'll let you know when it's done."


def focus_completed(seconds: int, activity: str | None, language: Language) -> str:
    duration = duration_text(seconds, language)
    if language == "zh":
        what = f"{activity}，{duration}" if activity else duration
        return f"专注完成：{what}。"
    what = f"{duration} of {activity}" if activity else duration
    return f"Focus complete: {what}."


def focus_interrupted(elapsed_seconds: int, reason: str | None, activity: str | None, language: Language) -> str:
    elapsed = duration_text(elapsed_seconds, language)
    why = reason_text(reason, language)
    if language == "zh":
        what = f"{activity}，进行了{elapsed}" if activity else f"进行了{elapsed}"
        return f"专注已停止：{what}（{why}）。"
    what = f"{elapsed} of {activity}" if activity else elapsed
    return f"Focus stopped after {what} ({why})."


def another_round(seconds: int, language: Language) -> str:
    if language == "zh":
        return f"再来一轮{duration_text(seconds, 'zh')}的专注吗？"
    return f"Start another {_round_adjective(seconds)} round?"


def status_running(remaining_seconds: int, activity: str | None, language: Language) -> str:
    """The answer to "how long is left?" while a focus runs."""
    left = duration_text(remaining_seconds, language)
    if language == "zh":
        what = f"（{activity}）" if activity else ""
        return f"专注进行中{what}，还剩{left}。"
    what = f" on {activity}" if activity else ""
    return f"Your focus{what} is running: {left} left."


def long_focus_question(seconds: int, activity: str | None, language: Language) -> str:
    """Asked before a request over four hours starts: it may be a typo ("600 minutes")."""
    duration = duration_text(seconds, language)
    if language == "zh":
        what = f"{activity}，" if activity else ""
        return f"要开始一段很长的专注吗？{what}{duration}。"
    what = f" of {activity}" if activity else ""
    return f"Start a long focus: {duration}{what}?"


def long_focus_declined(language: Language) -> str:
    if language == "zh":
        return "好的，没有开始。告诉我想专注多久，比如“专注 25 分钟”。"
    return 'OK, nothing started. Tell me how long you want, e.g. "start a 25 minute focus".'


def another_round_declined(language: Language) -> str:
    if language == "zh":
        return "好的，先不开始新一轮。需要时说“专注 25 分钟”就行。"
    return 'OK, no new round. Say "start a 25 minute focus" whenever you\'re ready.'


def already_focusing(language: Language) -> str:
    if language == "zh":
        return "已经有一个专注在进行中。说“停止专注”可以结束它，或者等它完成。"
    return 'A focus is already running here. Say "stop" to end it, or wait for it to finish.'


def nothing_to_stop(language: Language, *, quiz: bool = False) -> str:
    if quiz:
        return "现在没有进行中的测验。" if language == "zh" else "There is no quiz running."
    return "现在没有进行中的专注。" if language == "zh" else "There is no focus running."


def start_rejected(code: str, detail: str, language: Language) -> str:
    if language == "zh":
        return f"没能开始专注：{detail}（{code}）。"
    return f"I couldn't start the focus: {detail} ({code})."


def stop_rejected(code: str, detail: str, language: Language) -> str:
    if language == "zh":
        return f"没能停止专注：{detail}（{code}）。"
    return f"I couldn't stop the focus: {detail} ({code})."


def not_available(language: Language) -> str:
    return "这个对话里不能使用番茄钟。" if language == "zh" else "Pomodoro isn't available in this conversation."


def out_of_range(language: Language) -> str:
    if language == "zh":
        return "我可以安排 1 秒到 24 小时的专注，比如“专注 25 分钟”。"
    return 'I can do 1 second to 24 hours. Try "start a 25 minute focus".'


_EN_CAPABILITIES = (
    "Here is what I can do:\n"
    '• Start a focus of 1 second to 24 hours: "start a 25 minute reading focus", "read for half an hour", '
    '"Focus 25 min on 数学".\n'
    '• Stop the running focus: "stop", "never mind"; ask "how long is left?".\n'
    "• Tell you how it went when it ends, and offer another round.\n"
    "Leaving the focus screen (back to Interact, another app, closing it) ends the focus too."
)
_ZH_CAPABILITIES = (
    "我可以帮你：\n"
    "• 开始一段 1 秒到 24 小时的专注：“专注 25 分钟写作业”、“开始专注 1 小时阅读”、“focus 25 min on 数学”。\n"
    "• 停止正在进行的专注：“停止专注”、“算了”；问“还剩多久？”。\n"
    "• 专注结束时告诉你结果，并问你要不要再来一轮。\n"
    "离开专注画面（返回对话、切换或关闭应用）也会结束专注。"
)


def _installed(apps: list[tuple[str, str]], language: Language) -> str:
    """ "help": one line per installed app, as the app itself says what it does (its declared ``help``)."""
    head = "我可以帮你：" if language == "zh" else "Here is what I can do:"
    lines = [f"• {name}：{can}" if language == "zh" else f"• {name}: {can}" for name, can in apps if can]
    return "\n".join([head, *lines])


def help_text(
    language: Language,
    *,
    missing_duration: bool = False,
    topic: str = "unknown",
    activity: str | None = None,
    apps: list[tuple[str, str]] | None = None,
    quiz: bool = False,
) -> str:
    """The answer to anything that is not a start or a stop, by what the person seemed to want.

    ``apps``: the installed apps as ``(name, what it can do)`` in ``language``, from their declared
    phrasings (docs/decisions/0050); "help" lists them, and "I didn't understand" names them.
    """
    if topic == "help" and apps and any(can for _, can in apps):
        return _installed(apps, language)
    if topic == "unknown" and not missing_duration and apps:
        names = ("、" if language == "zh" else ", ").join(name for name, _ in apps)
        suffix = f"已安装：{names}。" if language == "zh" else f" Installed: {names}."
        return _unknown(language) + suffix
    if missing_duration and quiz:
        return (
            "要做多久的练习？比如“5分钟”。"
            if language == "zh"
            else 'How long should the quiz be? For example "5 minutes".'
        )
    if language == "zh":
        if missing_duration and activity:
            return f"{activity}要专注多久？比如“25分钟”或“1小时”。"
        if missing_duration:
            return "要专注多久？比如“专注 25 分钟”或“开始专注 1 小时阅读”。"
        if topic == "help":
            return _ZH_CAPABILITIES
        if topic == "greeting":
            return "你好！我可以为你计时专注。说“专注 25 分钟写作业”就开始，说“帮助”看看我还能做什么。"
        if topic == "thanks":
            return "不客气！需要时说“专注 25 分钟”就行。"
        return _unknown(language)
    if missing_duration and activity:
        return f'How long should the focus on {activity} be? For example "25 minutes" or "1 hour".'
    if missing_duration:
        return 'How long should the focus be? For example "start a 25 minute focus" or "focus for 1 hour on reading".'
    if topic == "help":
        return _EN_CAPABILITIES
    if topic == "greeting":
        return 'Hello! I run focus timers. Say "start a 25 minute reading focus" to begin, or "help" to see what else I can do.'
    if topic == "thanks":
        return "You're welcome! Say \"start a 25 minute focus\" whenever you're ready."
    return _unknown(language)


def _unknown(language: Language) -> str:
    if language == "zh":
        return "抱歉，我没听懂。我能为你计时专注：试试“专注 25 分钟写作业”或“停止专注”，说“帮助”查看全部。"
    return (
        "Sorry, I didn't understand that. I run focus timers: try "
        '"start a 25 minute reading focus", "focus 90 seconds on homework" or "stop"; "help" lists everything.'
    )


# --- the practice quiz ------------------------------------------------------------------------------

_QUIZ_KINDS = {
    "multiplication": ("multiplication", "乘法"),
    "addition": ("addition", "加法"),
    "subtraction": ("subtraction", "减法"),
    "mixed": ("mental arithmetic", "口算"),
}


def quiz_title(kind: str, language: Language) -> str:
    """The quiz's title, shown on its Surface: "Multiplication drill" / "乘法口算"."""
    en, zh = _QUIZ_KINDS.get(kind, _QUIZ_KINDS["mixed"])
    if language == "zh":
        return zh if zh == "口算" else f"{zh}口算"
    return f"{en[0].upper()}{en[1:]} drill"


def quiz_started(seconds: int, count: int, language: Language) -> str:
    if language == "zh":
        return (
            f"开始{duration_text(seconds, language)}的口算练习：共 {count} 道题，在测验里填写答案，时间到我告诉你得分。"
        )
    return (
        f"Your quiz has started: {count} questions, {duration_text(seconds, language)}. "
        "Type your answers in the quiz; I'll tell you your score when time is up."
    )


def quiz_result(state: str, correct: int, answered: int, total: int, language: Language) -> str:
    """The score of a quiz that ended (at its deadline or stopped)."""
    if language == "zh":
        head = "时间到！" if state == "completed" else "测验已停止。"
        return f"{head}你答对了 {correct} / {total} 道题（作答 {answered} 道）。"
    head = "Time's up!" if state == "completed" else "The quiz was stopped."
    return f"{head} You got {correct} of {total} right ({answered} answered)."


def result_failed(language: Language) -> str:
    """An operation ended with the error result (its app could not shape one): say it ended."""
    if language == "zh":
        return "它已经结束了，但这个应用没能给出结果。"
    return "It has ended, but the app could not give its result."


def quiz_running(language: Language) -> str:
    if language == "zh":
        return "已经有一个测验在进行中。说“停止”可以结束它，或者等时间到。"
    return 'A quiz is already running here. Say "stop" to end it, or wait for time to be up.'


def quiz_out_of_range(language: Language) -> str:
    if language == "zh":
        return "口算练习可以安排 1 秒到 1 小时，比如“口算练习 5 分钟”。"
    return 'A quiz can last 1 second to 1 hour. Try "quiz me on multiplication for 5 minutes".'
