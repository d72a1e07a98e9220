# ruff: noqa: RUF001 -- Chinese text uses full-width punctuation on purpose
"""How long a person says, in English or Chinese words and numerals (pure, no I/O).

``english_durations(text)`` / ``chinese_durations(text)`` find every duration in a message as a
``Span`` (where it is, how many seconds); ``first_duration`` sums the first one with those right
after it ("1 hour 30 minutes", "1h30m", "1小时30分钟"). Numbers may be digits or words: "25",
"twenty-five", "an", "half an hour", "an hour and a half", "a quarter of an hour"; "二十五", "十",
"两", "半小时", "一个半小时", "三分半", "一刻钟".

No library: the number words people use for a focus are few (up to "ninety-nine", Chinese numerals
up to 万), and a table here is shorter than any dependency's configuration.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    seconds: float


def first_duration(spans: list[Span], text: str, joiner: re.Pattern[str]) -> Span | None:
    """The first duration, summed with the ones right after it ("1 hour 30 minutes", "1小时30分钟")."""
    if not spans:
        return None
    first = spans[0]
    total, end = first.seconds, first.end
    for span in spans[1:]:
        if not joiner.fullmatch(text[end : span.start]):
            break
        total, end = total + span.seconds, span.end
    return Span(first.start, end, total)


def _alternation(words: object) -> str:
    return "|".join(sorted(map(re.escape, words), key=len, reverse=True))  # type: ignore[arg-type]


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
    "a couple of": 2,
    "a couple": 2,
    "a few": 3,
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
EN_UNITS = {
    "s": 1,
    "sec": 1,
    "secs": 1,
    "second": 1,
    "seconds": 1,
    "m": 60,
    "'": 60,  # "45'": minutes, as a European writes them
    "\u2032": 60,
    "min": 60,
    "mins": 60,
    "minute": 60,
    "minutes": 60,
    "h": 3600,
    "hr": 3600,
    "hrs": 3600,
    "hour": 3600,
    "hours": 3600,
    "ours": 3600,  # "two ours": a voice typing "hours"
    "day": 86400,
    "days": 86400,
}
_EN_DIGIT_ONES = _alternation(k for k, v in _EN_ONES.items() if 1 <= v <= 9 and " " not in k and len(k) > 2)
EN_WORD_NUMBER = rf"(?:(?:{_alternation(_EN_TENS)})(?:[\s-](?:{_EN_DIGIT_ONES}))?|{_alternation(_EN_ONES)})"
_EN_DURATION = re.compile(
    r"(?:"
    r"(?P<half>\bhalf(?:[\s-]+an?)?[\s-]+hour\b)"
    r"|(?P<quarter>\b(?:(?P<quarters>a|one|two|three)\s+)?quarters?(?:[\s-]+of)?(?:[\s-]+an?)?[\s-]+hour\b)"
    # Digits take any unit spelling, glued or not: "25 min", "25min", "25-minute", "1h30m".
    r"|(?<![\d.])(?P<num>\d+(?:\.\d+)?)(?P<num_half>\s+and\s+a\s+half)?\s*-?\s*(?P<unit>seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|ours|days?|(?<=\d)['\u2032](?!\w))(?![a-z])"
    # Words only take full-ish unit words: "an hour", "twenty-five minutes" (never "a m").
    rf"|\b(?P<word>{EN_WORD_NUMBER})(?P<word_half>\s+and\s+a\s+half)?[\s-]+(?P<wunit>seconds?|secs?|minutes?|mins?|hours?|hrs?|ours|days?)\b"
    # A fraction of a unit: "1/2 hour", "3/4 of an hour".
    r"|(?<![\d/])(?:(?P<fw>\d{1,2})\s+)?(?P<fn>[1-9])\s*/\s*(?P<fd>[1-9])\s*(?:of\s+)?(?:an?\s+)?(?P<funit>hours?|hrs?|h|minutes?|mins?)\b"
    r")(?P<and_half>\s+and\s+(?:a\s+)?half\b)?(?P<and_quarter>\s+and\s+a\s+quarter\b)?",
    re.IGNORECASE,
)
EN_JOINER = re.compile(r"\s*(?:,|and)?\s*", re.IGNORECASE)


def _en_word_value(word: str) -> int:
    lowered = re.sub(r"\s+", " ", word.lower())
    if lowered in _EN_ONES:
        return _EN_ONES[lowered]
    return sum(_EN_TENS.get(p, _EN_ONES.get(p, 0)) for p in re.split(r"[\s-]+", lowered))


def english_durations(text: str) -> list[Span]:
    spans = []
    for match in _EN_DURATION.finditer(text):
        if match.group("half"):
            seconds, unit = 1800.0, 3600
        elif match.group("quarter"):
            count = _EN_ONES.get((match.group("quarters") or "a").lower(), 1)
            seconds, unit = 900.0 * count, 3600
        elif match.group("num"):
            unit = EN_UNITS[match.group("unit").lower()]
            seconds = float(match.group("num")) * unit
            if match.group("num_half"):  # "2 and a half hours"
                seconds += unit / 2
        elif match.group("fn"):
            unit = EN_UNITS[match.group("funit").lower()]
            seconds = unit * (int(match.group("fw") or 0) + int(match.group("fn")) / int(match.group("fd")))  # "1 1/2"
        else:
            unit = EN_UNITS[match.group("wunit").lower()]
            if unit == 86400 and match.group("word").lower() in ("a", "an"):
                continue  # "what a day", "an hour a day": no length of days said
            seconds = float(_en_word_value(match.group("word"))) * unit
            if match.group("word_half"):  # "one and a half hours"
                seconds += unit / 2
        if match.group("and_half"):  # "an hour and a half"
            seconds += unit / 2
        if match.group("and_quarter"):  # "one hour and a quarter"
            seconds += unit / 4
        end = match.end()
        minutes = _EN_HOUR_MINUTES.match(text, end) if unit == 3600 else None
        if minutes is not None:  # "1h30", "1 hour 30": the minutes of that hour
            seconds += int(minutes.group(1)) * 60
            end = minutes.end()
        spans.append(Span(match.start(), end, seconds))
    return spans


# The bare minutes after an hour ("1h30", "1 hour 30 of reading"): a number under 60 that is not the
# start of a duration of its own ("1 hour 30 minutes" is two spans summed) nor of a time or fraction.
_EN_HOUR_MINUTES = re.compile(
    r"\s*(?:and\s+)?([1-5]?\d)(?![\d:/.])(?!\s*-?\s*(?:seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h)\b)",
    re.IGNORECASE,
)


# --- Chinese -----------------------------------------------------------------------------------

_ZH_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "俩": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_ZH_MULTIPLIERS = {"十": 10, "百": 100, "千": 1000}
_ZH_UNITS = {"秒钟": 1, "秒": 1, "分钟": 60, "分": 60, "小时": 3600, "钟头": 3600, "刻钟": 900, "天": 86400}


_ZH_TENS_ALONE = {"廿": 20, "卅": 30}


def chinese_number(numeral: str) -> int:
    """``二十五`` -> 25, ``十五`` -> 15, ``一百二十`` -> 120, ``一千零五`` -> 1005, ``八万六千四百`` -> 86400."""
    total = section = digit = 0
    for char in numeral:
        if char in _ZH_DIGITS:
            digit = _ZH_DIGITS[char]
        elif char in _ZH_TENS_ALONE:  # 廿五 is 二十五, 卅 is 三十
            section += _ZH_TENS_ALONE[char]
            digit = 0
        elif char == "万":
            total += (section + digit) * 10000
            section = digit = 0
        else:
            section += (digit or 1) * _ZH_MULTIPLIERS[char]  # a leading 十 is 一十
            digit = 0
    return total + section + digit


ZH_NUMBER = r"\d+(?:\.\d+)?|[零〇一二两俩三四五六七八九十百千万廿卅]+"
_ZH_DURATION = re.compile(
    # "个钟" is an hour in speech ("一个钟", "半个钟"), never a clock's "钟点" or a "钟表"
    r"(?P<half>半\s*个?\s*(?:小时|钟头|分钟|钟(?![头点表])))"
    # a number of days is a length ("专注两天"); "第三天", "这两天", "前两天", "过两天" say which days (see below)
    rf"|(?<![零〇一二两俩三四五六七八九十百千万廿卅])(?P<num>{ZH_NUMBER})\s*(?P<plus_half>个半)?\s*(?:个\s*)?(?P<unit>秒钟|秒|分钟|分|小时|钟头|刻钟|天|(?<=个|半)钟(?![头点表]))"
    r"(?P<unit_half>半(?!小时|钟头|分钟|个))?"
)
# The bare minutes after an hour ("1小时30", "一个钟十五"): not the start of a duration of its own.
_ZH_HOUR_MINUTES = re.compile(
    # never a numeral's first part: "一小时十五分" is an hour and 十五分, not an hour, 十 and 五分
    r"\s*零?(\d{1,2}|[一二三四五六七八九十]{1,3})(?![\d.:/零一二两三四五六七八九十]|\s*(?:个|秒|分|小时|钟|刻|点|半))"
)
ZH_JOINER = re.compile(r"\s*(?:零|又|和|,|、)?\s*")


_WHICH_DAYS = tuple("第这那前过每隔")  # "第三天", "这两天", "过两天": which days, not how long


def chinese_durations(text: str) -> list[Span]:
    spans = []
    for match in _ZH_DURATION.finditer(text):
        if match.group("half"):
            seconds = 30.0 if match.group("half").endswith("分钟") else 1800.0
        else:
            raw = match.group("num")
            if match.group("unit") == "天" and text[max(match.start() - 1, 0) : match.start()] in _WHICH_DAYS:
                continue
            value = float(raw) if raw[0].isdigit() else float(chinese_number(raw))
            unit = _ZH_UNITS.get(match.group("unit"), 3600)  # "个钟": an hour
            seconds = value * unit
            if match.group("plus_half") or match.group("unit_half"):
                seconds += unit / 2
            minutes = (
                _ZH_HOUR_MINUTES.match(text, match.end()) if unit == 3600 and not match.group("unit_half") else None
            )
            if minutes is not None:
                raw_minutes = minutes.group(1)
                value = int(raw_minutes) if raw_minutes.isdigit() else chinese_number(raw_minutes)
                if value < 60:
                    spans.append(Span(match.start(), minutes.end(), seconds + value * 60))
                    continue
        spans.append(Span(match.start(), match.end(), seconds))
    return spans
