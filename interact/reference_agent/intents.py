# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！（）) on purpose
"""What a person's message asks the reference Agent to do, in English or Chinese (pure, no I/O).

``parse_intent(text)`` returns one of:

* ``StartFocus(duration_seconds, activity, language)`` — "start a 25 minute reading focus",
  "focus 90 seconds on homework", "专注 25 分钟写作业", "开始专注一个半小时";
* ``StopFocus(language)`` — "stop", "stop the focus", "cancel", "停止专注", "结束";
* ``DurationOutOfRange(requested_seconds, language)`` — a start whose duration is not 1 s to 24 h;
* ``Help(language, missing_duration, topic)`` — anything else, answered with what the Agent can
  do: ``topic`` is ``"help"`` for "help" / "what can you do?" / "你能做什么", ``"greeting"`` for
  "hello" / "你好", ``"thanks"`` for "thanks" / "谢谢", and ``"unknown"`` for everything else.

A start needs both a duration and a sign that a focus is meant (a focus word such as "focus",
"pomodoro", "timer", 专注, 番茄, or a leading "start" / 开始); questions ("what is a pomodoro?",
"how long is a 25 minute focus?") and breaks are never starts. The reply language is Chinese
when the message has any CJK character, English otherwise.

Size (~400 lines): the English and the Chinese grammar sit side by side on purpose, each a short
run of regular expressions and a few helpers, so a change to one language is made against the
other in one read; each would be well under 200 lines on its own.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

Language = Literal["en", "zh"]

MIN_FOCUS_SECONDS = 1
# Pomodoro's manifest bound (deadline_operation.max_duration_seconds); checked here too so
# the person gets a plain answer instead of a rejected call.
MAX_FOCUS_SECONDS = 24 * 60 * 60
MAX_ACTIVITY_LENGTH = 256  # pomodoro.start's input_schema: activity maxLength


@dataclass(frozen=True)
class StartFocus:
    duration_seconds: int
    activity: str | None
    language: Language


@dataclass(frozen=True)
class StopFocus:
    language: Language


@dataclass(frozen=True)
class DurationOutOfRange:
    requested_seconds: float
    language: Language


HelpTopic = Literal["help", "greeting", "thanks", "unknown"]


@dataclass(frozen=True)
class Help:
    language: Language
    missing_duration: bool = False  # it looked like a start, but said no duration
    topic: HelpTopic = "unknown"


Intent = StartFocus | StopFocus | DurationOutOfRange | Help

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]")


def detect_language(text: str) -> Language:
    return "zh" if _CJK.search(text) else "en"


def parse_intent(text: str) -> Intent:
    # NFKC folds full-width digits and punctuation ("２５分钟", "！") into their ASCII forms.
    normalized = unicodedata.normalize("NFKC", text).strip()
    language = detect_language(text)
    if language == "zh":
        return _parse_chinese(normalized)
    return _parse_english(normalized)


# --- durations ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Span:
    start: int
    end: int
    seconds: float


def _first_duration(spans: list[_Span], text: str, joiner: re.Pattern[str]) -> _Span | None:
    """The first duration, summed with the ones right after it ("1 hour 30 minutes", "1小时30分钟")."""
    if not spans:
        return None
    first = spans[0]
    total, end = first.seconds, first.end
    for span in spans[1:]:
        if not joiner.fullmatch(text[end : span.start]):
            break
        total, end = total + span.seconds, span.end
    return _Span(first.start, end, total)


def _outcome(seconds: float, activity: str | None, language: Language) -> Intent:
    whole = round(seconds)
    if not MIN_FOCUS_SECONDS <= whole <= MAX_FOCUS_SECONDS:
        return DurationOutOfRange(requested_seconds=seconds, language=language)
    return StartFocus(duration_seconds=whole, activity=activity, language=language)


def _clip(activity: str | None) -> str | None:
    if not activity:
        return None
    return activity[:MAX_ACTIVITY_LENGTH].strip() or None


# --- English -----------------------------------------------------------------------------------

_EN_ONES = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "a": 1,
    "an": 1,
}
_EN_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_EN_UNITS = {
    "s": 1,
    "sec": 1,
    "secs": 1,
    "second": 1,
    "seconds": 1,
    "m": 60,
    "min": 60,
    "mins": 60,
    "minute": 60,
    "minutes": 60,
    "h": 3600,
    "hr": 3600,
    "hrs": 3600,
    "hour": 3600,
    "hours": 3600,
}


def _alternation(words: object) -> str:
    return "|".join(sorted(map(re.escape, words), key=len, reverse=True))  # type: ignore[arg-type]


_EN_WORD_NUMBER = (
    rf"(?:(?:{_alternation(_EN_TENS)})(?:[\s-](?:{_alternation(k for k, v in _EN_ONES.items() if 1 <= v <= 9 and len(k) > 2)}))?"
    rf"|{_alternation(_EN_ONES)})"
)
_EN_DURATION = re.compile(
    r"(?:"
    r"(?P<half>\bhalf(?:[\s-]+an?)?[\s-]+hour\b)"
    # Digits take any unit spelling, glued or not: "25 min", "25min", "25-minute", "1h30m".
    r"|(?<![\d.])(?P<num>\d+(?:\.\d+)?)\s*-?\s*(?P<unit>seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h)(?![a-z])"
    # Words only take full-ish unit words: "an hour", "twenty-five minutes" (never "a m").
    rf"|\b(?P<word>{_EN_WORD_NUMBER})[\s-]+(?P<wunit>seconds?|secs?|minutes?|mins?|hours?|hrs?)\b"
    r")(?P<and_half>\s+and\s+a\s+half\b)?",
    re.IGNORECASE,
)
_EN_JOINER = re.compile(r"\s*(?:,|and)?\s*", re.IGNORECASE)


def _en_word_value(word: str) -> int:
    parts = re.split(r"[\s-]+", word.lower())
    return sum(_EN_TENS.get(p, _EN_ONES.get(p, 0)) for p in parts)


def _en_durations(text: str) -> list[_Span]:
    spans = []
    for match in _EN_DURATION.finditer(text):
        if match.group("half"):
            seconds, unit = 1800.0, 3600
        elif match.group("num"):
            unit = _EN_UNITS[match.group("unit").lower()]
            seconds = float(match.group("num")) * unit
        else:
            unit = _EN_UNITS[match.group("wunit").lower()]
            seconds = float(_en_word_value(match.group("word"))) * unit
        if match.group("and_half"):
            seconds += unit / 2
        spans.append(_Span(match.start(), match.end(), seconds))
    return spans


_EN_LEAD = r"^(?:(?:ok(?:ay)?|hey|please|pls|now|so)[,!.]?\s+|(?:can|could|would|will)\s+you\s+(?:please\s+)?)*"
_EN_STOP = re.compile(
    _EN_LEAD + r"(?:stop|cancel|abort|quit|halt|end|finish|terminate)"
    r"(?:\s+(?:the|my|this|current|that))?"
    r"(?:\s+(?:focus(?:ing)?|focus\s+session|timer|pomodoro|session|round|it))?"
    r"(?:\s+(?:now|please|already))*\s*[.!?]*$",
    re.IGNORECASE,
)
# Anything opening with these is about stopping, even with more words ("stop the 25 minute focus").
_EN_STOP_LEADING = re.compile(_EN_LEAD + r"(?:stop|cancel|abort|halt)\b", re.IGNORECASE)
_EN_QUESTION = re.compile(
    r"^(?:what|what's|whats|why|how|when|who|which|where|is|are|was|were|did|does|do\s+you|should)\b", re.IGNORECASE
)
_EN_NOT_A_FOCUS = re.compile(r"\b(?:don'?t|do\s+not|never|break|rest|nap|yesterday|ago)\b", re.IGNORECASE)
_EN_FOCUS_WORD = re.compile(
    r"\b(?:focus|focusing|pomodoro|pomodoros|timer|concentrate|concentration|deep\s+work)\b", re.IGNORECASE
)
_EN_START_VERB = re.compile(
    _EN_LEAD + r"(?:let'?s\s+|i\s+(?:want|need|would\s+like|'d\s+like)\s+to\s+)?(?:start|begin|run|set|kick\s+off)\b",
    re.IGNORECASE,
)

_MARK = "\u00a7"  # stands in for the duration while looking for the activity
_EN_ACTIVITY_PATTERNS = [
    # "focus 90 seconds on homework", "focus on my essay for 25 minutes", "start focusing for 2 hours on writing"
    re.compile(rf"\b(?:on|doing)\s+(?P<act>[^{_MARK}]+?)(?:\s+for)?\s*(?:{_MARK}|[.!?]*$)", re.IGNORECASE),
    # "start a 25 minute reading focus", "a 3 second reading focus"
    re.compile(
        rf"{_MARK}\s*(?:long\s+)?(?P<act>[^{_MARK}]+?)\s+(?:focus|focusing|session|pomodoro|timer|block|sprint)\b",
        re.IGNORECASE,
    ),
    # "25 minutes of reading", "focus 25 minutes for my essay"
    re.compile(rf"{_MARK}\s+(?:of|for)\s+(?P<act>[^{_MARK}]+?)\s*[.!?]*$", re.IGNORECASE),
]
_EN_ACTIVITY_EDGES = re.compile(
    r"^(?:(?:a|an|the|some|of|on|for|doing)\s+)+|(?:\s+(?:please|now|thanks|thank\s+you|ok|okay))+$|[\s.,!?;:\"']+$|^[\s,;:\"']+",
    re.IGNORECASE,
)
_EN_NOT_AN_ACTIVITY = re.compile(
    r"^(?:a|an|the|me|it|this|that|now|please|focus|focusing|session|timer|pomodoro|round)?$", re.IGNORECASE
)


def _clean_english_activity(raw: str) -> str | None:
    activity = raw
    while True:
        cleaned = _EN_ACTIVITY_EDGES.sub("", activity).strip()
        if cleaned == activity:
            break
        activity = cleaned
    if _EN_NOT_AN_ACTIVITY.fullmatch(activity) or _EN_FOCUS_WORD.fullmatch(activity):
        return None
    return _clip(activity)


def _english_activity(text: str, span: _Span) -> str | None:
    marked = f"{text[: span.start]} {_MARK} {text[span.end :]}"
    for pattern in _EN_ACTIVITY_PATTERNS:
        for match in pattern.finditer(marked):
            activity = _clean_english_activity(match.group("act"))
            if activity:
                return activity
    return None


_EN_HELP = re.compile(
    r"^(?:help|\?+|commands|menu|usage|what\s+can\s+(?:you|i)\s+do|what\s+do\s+you\s+do|how\s+does\s+(?:this|it)\s+work"
    r"|how\s+do\s+i\s+(?:use\s+(?:this|you|it)|start)|what\s+are\s+you)\b",
    re.IGNORECASE,
)
_EN_GREETING = re.compile(
    r"^(?:hi|hello|hey|hiya|yo|good\s+(?:morning|afternoon|evening))\b[\s!.,]*(?:there)?[\s!.,]*$", re.IGNORECASE
)
_EN_THANKS = re.compile(r"^(?:thanks|thank\s+you|thx|ty|cheers)\b", re.IGNORECASE)


def _small_talk(
    text: str, language: Language, help_: re.Pattern[str], greeting: re.Pattern[str], thanks: re.Pattern[str]
) -> Help | None:
    for pattern, topic in ((help_, "help"), (greeting, "greeting"), (thanks, "thanks")):
        if pattern.search(text):
            return Help(language=language, topic=topic)  # type: ignore[arg-type]
    return None


def _parse_english(text: str) -> Intent:
    if _EN_STOP.match(text) or _EN_STOP_LEADING.match(text):
        return StopFocus(language="en")
    talk = _small_talk(text, "en", _EN_HELP, _EN_GREETING, _EN_THANKS)
    if talk is not None:
        return talk
    if _EN_QUESTION.match(text) or _EN_NOT_A_FOCUS.search(text):
        return Help(language="en")
    meant = bool(_EN_FOCUS_WORD.search(text) or _EN_START_VERB.match(text))
    span = _first_duration(_en_durations(text), text, _EN_JOINER)
    if not meant:
        return Help(language="en")
    if span is None:
        return Help(language="en", missing_duration=True)
    return _outcome(span.seconds, _english_activity(text, span), "en")


# --- Chinese -----------------------------------------------------------------------------------

_ZH_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_ZH_MULTIPLIERS = {"十": 10, "百": 100, "千": 1000}
_ZH_UNITS = {"秒钟": 1, "秒": 1, "分钟": 60, "分": 60, "小时": 3600, "钟头": 3600}


def chinese_number(numeral: str) -> int:
    """``二十五`` -> 25, ``十五`` -> 15, ``一百二十`` -> 120, ``一千零五`` -> 1005, ``八万六千四百`` -> 86400."""
    total = section = digit = 0
    for char in numeral:
        if char in _ZH_DIGITS:
            digit = _ZH_DIGITS[char]
        elif char == "万":
            total += (section + digit) * 10000
            section = digit = 0
        else:
            section += (digit or 1) * _ZH_MULTIPLIERS[char]  # a leading 十 is 一十
            digit = 0
    return total + section + digit


_ZH_NUMBER = r"\d+(?:\.\d+)?|[零〇一二两三四五六七八九十百千万]+"
_ZH_DURATION = re.compile(
    r"(?P<half>半\s*个?\s*(?:小时|钟头))"
    rf"|(?P<num>{_ZH_NUMBER})\s*(?P<plus_half>个半)?\s*(?:个\s*)?(?P<unit>秒钟|秒|分钟|分|小时|钟头)(?P<unit_half>半(?!小时|钟头))?"
)
_ZH_JOINER = re.compile(r"\s*(?:零|又|和|,|、)?\s*")
_ZH_STOP = re.compile(
    r"^(?:好的?|那|请|帮我|麻烦|现在|马上|先)*\s*"
    r"(?:停止|停下来?|停掉|结束|取消|终止|中止|暂停|停|不专注了|不要专注了|别专注了)"
    r"\s*(?:一下)?\s*(?:这次|这个|当前|现在的)?\s*(?:专注|计时|番茄钟?|倒计时)?\s*(?:吧|了|啦|吧。)?[.!~。！～…]*$"
)
_ZH_QUESTION = re.compile(r"什么|为什么|怎么|如何|多久|多长|是不是|是否|哪")
_ZH_NOT_A_FOCUS = re.compile(r"昨天|刚才|已经|休息|不要开始|别开始|不想")
_ZH_FOCUS_WORD = re.compile(r"专注|番茄|计时|集中|专心|focus|pomodoro|timer", re.IGNORECASE)
_ZH_START_VERB = re.compile(r"^(?:请|帮我|麻烦|我要|我想|现在)*\s*(?:开始|来|start|begin)", re.IGNORECASE)
_ZH_LEADING_FILLER = re.compile(
    r"^(?:请|帮我|给我|麻烦你?|我要|我想要|我想|我准备|准备|现在|马上|开始|来一个|来个|来一轮|一个|一次|一轮|专注于|专注|番茄钟|番茄|计时|"
    r"的|地|用来|用于|来|去|在|一下|吧|，|,|、|。|！|!|：|:|\s)+"
)
_ZH_TRAILING_FILLER = re.compile(
    r"(?:吧|啊|呀|哦|的|专注|番茄钟|番茄|计时|一下|了|吗|呢|好吗|可以吗|，|,|、|。|！|!|\?|？|…|~|～|\s)+$"
)


def _zh_durations(text: str) -> list[_Span]:
    spans = []
    for match in _ZH_DURATION.finditer(text):
        if match.group("half"):
            seconds = 1800.0
        else:
            raw = match.group("num")
            value = float(raw) if raw[0].isdigit() else float(chinese_number(raw))
            unit = _ZH_UNITS[match.group("unit")]
            seconds = value * unit
            if match.group("plus_half") or match.group("unit_half"):
                seconds += unit / 2
        spans.append(_Span(match.start(), match.end(), seconds))
    return spans


def _strip_zh(segment: str) -> str:
    previous = None
    while previous != segment:
        previous = segment
        segment = _ZH_TRAILING_FILLER.sub("", _ZH_LEADING_FILLER.sub("", segment))
    return segment


# English request words in a Chinese message ("Focus 25 min on 数学", "start 25分钟 for 写作业").
_ZH_ENGLISH_FILLER = re.compile(
    r"^(?:(?:please|pls|start|begin|let'?s|a|an|the|focus(?:ing)?|pomodoro|timer|session|round|on|for|of|doing|about|to|now)\b[\s,:]*)+",
    re.IGNORECASE,
)
_ZH_ENGLISH_TRAILING = re.compile(
    r"(?:[\s,:]*\b(?:please|pls|now|focus(?:ing)?|session|timer|pomodoro|on|for|of))+\s*$", re.IGNORECASE
)


def _strip_mixed(segment: str) -> str:
    previous = None
    while previous != segment:
        previous = segment
        segment = _strip_zh(segment)
        segment = _ZH_ENGLISH_TRAILING.sub("", _ZH_ENGLISH_FILLER.sub("", segment)).strip()
    return segment


def _chinese_activity(text: str, span: _Span) -> str | None:
    # What is left around the duration once the request words are gone is the activity:
    # "专注 25 分钟写作业" -> "写作业", "写作业专注25分钟" -> "写作业", "Focus 25 min on 数学" -> "数学".
    # After wins over before.
    after, before = _strip_mixed(text[span.end :]), _strip_mixed(text[: span.start])
    return _clip(after or before)


_ZH_HELP = re.compile(
    r"^(?:帮助|帮忙|求助|help)$|你能做什么|你可以做什么|能做些?什么|可以做些?什么|怎么用|如何使用|有什么功能|你会什么|使用说明"
)
_ZH_GREETING = re.compile(r"^(?:你好|您好|嗨|哈喽|哈啰|早上好|下午好|晚上好|早|在吗)[呀啊！!。~～\s]*$")
_ZH_THANKS = re.compile(r"^(?:谢谢|多谢|感谢|谢啦|谢了)")


def _parse_chinese(text: str) -> Intent:
    if _ZH_STOP.match(text):
        return StopFocus(language="zh")
    talk = _small_talk(text, "zh", _ZH_HELP, _ZH_GREETING, _ZH_THANKS)
    if talk is not None:
        return talk
    if _ZH_QUESTION.search(text) or _ZH_NOT_A_FOCUS.search(text):
        return Help(language="zh")
    meant = bool(_ZH_FOCUS_WORD.search(text) or _ZH_START_VERB.match(text))
    spans = _zh_durations(text) or _en_durations(text)  # "focus 25 min 写作业" mixes both
    span = _first_duration(spans, text, _ZH_JOINER)
    if not meant:
        return Help(language="zh")
    if span is None:
        return Help(language="zh", missing_duration=True)
    return _outcome(span.seconds, _chinese_activity(text, span), "zh")
