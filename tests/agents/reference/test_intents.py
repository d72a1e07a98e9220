# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！（）) on purpose
"""agents.reference.intents: English and Chinese focus requests, stops, and non-requests."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.reference import intents
from agents.reference.intents import DurationOutOfRange, Help, chinese_number, detect_language, is_help_request
from tests.agents.reference.bundled import FocusStatus, StartFocus, StopFocus, apps, max_seconds, parse_intent

pytestmark = pytest.mark.spec("R-2.1.1")


@pytest.mark.parametrize(
    ("text", "seconds", "activity"),
    [
        ("start a 25 minute reading focus", 1500, "reading"),
        ("focus 90 seconds on homework", 90, "homework"),
        ("start a 3 second reading focus", 3, "reading"),
        ("focus for 1 hour", 3600, None),
        ("25 min focus", 1500, None),
        ("start focusing for 2 hours on writing", 7200, "writing"),
        ("Start a 25-minute focus session on reading please", 1500, "reading"),
        ("can you start a 25 minute focus?", 1500, None),
        ("focus on my essay for 25 minutes", 1500, "my essay"),
        ("start a timer for 1h30m", 5400, None),
        ("focus for 1 hour and 30 minutes", 5400, None),
        ("focus for an hour and a half on Spanish", 5400, "Spanish"),
        ("focus for half an hour", 1800, None),
        ("focus twenty-five minutes on code review", 1500, "code review"),
        ("run a 45 min pomodoro", 2700, None),
        ("focus for a minute", 60, None),
        ("focus 1.5 hours", 5400, None),
        ("专注 25 分钟写作业", 1500, "写作业"),
        ("开始专注25分钟", 1500, None),
        ("专注1小时阅读", 3600, "阅读"),
        ("专注90秒", 90, None),
        ("专注二十五分钟", 1500, None),
        ("专注十五分钟", 900, None),
        ("专注一百二十秒", 120, None),
        ("专注半小时", 1800, None),
        ("专注一个半小时", 5400, None),
        ("专注两个小时", 7200, None),
        ("专注3个钟头", 10800, None),
        ("专注 2 秒 写作业", 2, "写作业"),
        ("专注 1 分钟 写作业", 60, "写作业"),
        ("写作业专注25分钟", 1500, "写作业"),
        ("帮我开始一个25分钟的阅读专注", 1500, "阅读"),
        ("专注25分钟，用来写论文", 1500, "写论文"),
        ("我要专注25分钟写作业吧", 1500, "写作业"),
        ("专注１小时３０分钟", 5400, None),  # full-width digits
        ("专注90秒钟", 90, None),
    ],
)
def test_start_phrases(text, seconds, activity):
    """Each of these asks for a focus of that many seconds, with that activity (or none)."""
    intent = parse_intent(text)
    assert isinstance(intent, StartFocus), intent
    assert (intent.duration_seconds, intent.activity) == (seconds, activity)
    assert intent.language == detect_language(text)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("stop", "en"),
        ("Stop.", "en"),
        ("stop the focus", "en"),
        ("stop focusing", "en"),
        ("cancel", "en"),
        ("please stop the timer now", "en"),
        ("end the focus", "en"),
        ("stop the 25 minute focus", "en"),
        ("停止专注", "zh"),
        ("停止", "zh"),
        ("结束专注", "zh"),
        ("取消", "zh"),
        ("请停止专注！", "zh"),
        ("停下来吧", "zh"),
    ],
)
def test_stop_phrases(text, language):
    """These stop the running focus (a stop mentioning a duration is still a stop)."""
    assert parse_intent(text) == StopFocus(language=language)


@pytest.mark.parametrize(
    "text",
    [
        "what is a pomodoro?",
        "how long is a 25 minute focus?",
        "hello",
        "thanks!",
        "I focused for 2 hours yesterday",
        "take a 10 minute nap",
        "start a 5 minute break",
        "remind me in 5 minutes",
        "don't start a 25 minute focus",
        "25 minutes",
        "番茄钟是什么？",
        "专注是什么意思",
        "你好",
        "我昨天专注了2小时",
        "休息5分钟",
        "25分钟",
    ],
)
def test_things_that_are_not_a_start(text):
    """Questions, chatter, breaks and bare durations never start a focus; they get help."""
    intent = parse_intent(text)
    assert isinstance(intent, Help), intent
    assert not intent.missing_duration


@pytest.mark.parametrize(
    ("text", "activity"),
    [
        ("Focus 25 min on 数学", "数学"),
        ("focus 25 minutes on 数学 please", "数学"),
        ("start 25分钟 for 写作业", "写作业"),
        ("focus 25 min 写作业", "写作业"),
        ("25 min focus on 数学 now", "数学"),
    ],
)
def test_a_mixed_language_request_takes_the_activity_without_the_english_words(text, activity):
    """English request words around a Chinese activity ("on", "for", "please") are not part of it."""
    intent = parse_intent(text)
    assert intent == StartFocus(duration_seconds=1500, activity=activity, language="zh")


@pytest.mark.parametrize(
    ("text", "topic"),
    [
        ("help", "help"),
        ("what can you do?", "help"),
        ("你能做什么", "help"),
        ("hello", "greeting"),
        ("你好", "greeting"),
        ("thanks", "thanks"),
        ("zzzz", "unknown"),
    ],
)
def test_what_a_non_start_was_about(text, topic):
    assert parse_intent(text).topic == topic


@pytest.mark.parametrize(
    ("text", "language"), [("start a focus", "en"), ("focus on reading", "en"), ("开始专注", "zh")]
)
def test_a_start_without_a_duration_asks_how_long(text, language):
    """A start with no duration is answered with a question about the duration, not a guess."""
    assert parse_intent(text) == Help(language=language, missing_duration=True)


@pytest.mark.parametrize(
    ("text", "requested"),
    [
        ("focus for 0 minutes", 0),
        ("focus for 25 hours", 90000),
        ("start a 0.2 second focus", 0.2),
        ("专注 25 个小时", 90000),
        ("专注0秒", 0),
    ],
)
def test_durations_outside_one_second_to_24_hours(text, requested):
    """Out of range durations are recognised as such (to be explained), not turned into a call."""
    intent = parse_intent(text)
    assert isinstance(intent, DurationOutOfRange), intent
    assert intent.requested_seconds == pytest.approx(requested)


@pytest.mark.parametrize(
    ("numeral", "value"),
    [
        ("一", 1),
        ("十", 10),
        ("十五", 15),
        ("二十五", 25),
        ("一百二十", 120),
        ("一百零五", 105),
        ("两千", 2000),
        ("八万六千四百", 86400),
    ],
)
def test_chinese_numerals(numeral, value):
    """Simple Chinese numerals read as numbers."""
    assert chinese_number(numeral) == value


def test_language_follows_cjk_characters():
    """Any CJK character means a Chinese reply; anything else English."""
    assert detect_language("专注 25 min") == "zh"
    assert detect_language("focus 25 min, café") == "en"


# --- properties --------------------------------------------------------------------------------

EN_UNITS = [
    ("s", 1),
    ("sec", 1),
    ("secs", 1),
    ("second", 1),
    ("seconds", 1),
    ("m", 60),
    ("min", 60),
    ("mins", 60),
    ("minute", 60),
    ("minutes", 60),
    ("h", 3600),
    ("hr", 3600),
    ("hrs", 3600),
    ("hour", 3600),
    ("hours", 3600),
]
EN_TEMPLATES = [
    "start a {d} focus",
    "focus for {d}",
    "{d} focus",
    "Start focusing for {d}",
    "please start a {d} pomodoro",
    "focus {d} on {a}",
    "start a {d} {a} focus",
    "start focusing for {d} on {a}",
    "focus on {a} for {d}",
]
EN_ACTIVITIES = ["reading", "homework", "writing code", "my essay", "Spanish vocabulary"]


def _expected(seconds: int) -> type:
    return StartFocus if 1 <= seconds <= max_seconds("pomodoro") else DurationOutOfRange


@settings(max_examples=300, deadline=None)
@given(
    n=st.integers(min_value=1, max_value=2000),
    unit=st.sampled_from(EN_UNITS),
    glue=st.sampled_from([" ", "", "-"]),
    template=st.sampled_from(EN_TEMPLATES),
    activity=st.sampled_from(EN_ACTIVITIES),
)
def test_english_number_and_unit_forms(n, unit, glue, template, activity):
    """Any count with any English unit spelling, glued or spaced, is that many seconds."""
    name, factor = unit
    text = template.format(d=f"{n}{glue}{name}", a=activity)
    intent = parse_intent(text)
    seconds = n * factor
    assert isinstance(intent, _expected(seconds)), (text, intent)
    if isinstance(intent, StartFocus):
        assert intent.duration_seconds == seconds, text
        assert intent.activity == (activity if "{a}" in template else None), text
        assert intent.language == "en"


_ZH_DIGITS = "零一二三四五六七八九"


def to_chinese(n: int) -> str:
    """The standard Chinese numeral for 1..9999 (an independent writer, for the property below)."""
    if n < 10:
        return _ZH_DIGITS[n]
    if n < 20:
        return "十" + (_ZH_DIGITS[n % 10] if n % 10 else "")
    out, zero = "", False
    for value, name in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        digit = n // value % 10
        if digit:
            if zero and out:
                out += "零"
            out += _ZH_DIGITS[digit] + name
            zero = False
        else:
            zero = bool(out)
    return out


ZH_UNITS = [("秒", 1), ("秒钟", 1), ("分", 60), ("分钟", 60), ("小时", 3600), ("个小时", 3600), ("钟头", 3600)]
ZH_TEMPLATES = ["专注{d}", "开始专注{d}", "专注 {d} {a}", "专注{d}{a}", "{a}专注{d}", "帮我开始专注{d}，用来{a}"]
ZH_ACTIVITIES = ["写作业", "阅读", "背单词", "写论文", "练习钢琴"]


@settings(max_examples=300, deadline=None)
@given(
    n=st.integers(min_value=1, max_value=9999),
    numerals=st.sampled_from(["arabic", "chinese"]),
    unit=st.sampled_from(ZH_UNITS),
    space=st.sampled_from(["", " "]),
    template=st.sampled_from(ZH_TEMPLATES),
    activity=st.sampled_from(ZH_ACTIVITIES),
)
def test_chinese_number_and_unit_forms(n, numerals, unit, space, template, activity):
    """Any count, in Arabic or Chinese numerals, with any Chinese unit, is that many seconds."""
    name, factor = unit
    number = str(n) if numerals == "arabic" else to_chinese(n)
    text = template.format(d=f"{number}{space}{name}", a=activity)
    intent = parse_intent(text)
    seconds = n * factor
    assert isinstance(intent, _expected(seconds)), (text, intent)
    if isinstance(intent, StartFocus):
        assert intent.duration_seconds == seconds, text
        assert intent.activity == (activity if "{a}" in template else None), text
        assert intent.language == "zh"


def test_the_chinese_numeral_writer_agrees_with_known_values():
    """The property's own numeral writer is right on the tricky cases (zeros, tens)."""
    assert [to_chinese(n) for n in (10, 15, 25, 105, 120, 1005, 1020, 9999)] == [
        "十",
        "十五",
        "二十五",
        "一百零五",
        "一百二十",
        "一千零五",
        "一千零二十",
        "九千九百九十九",
    ]


# --- answers to "how long?", stops that never start, thanks that never stop ------------------


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("25 minutes", 1500),
        ("25", 1500),
        ("half an hour please", 1800),
        ("ok, 45 min", 2700),
        ("an hour and a half", 5400),
        ("25分钟", 1500),
        ("半小时", 1800),
        ("就25分钟吧", 1500),
        ("一个半小时", 5400),
        ("25", 1500),
    ],
)
def test_a_bare_duration_answers_the_agents_how_long(text, seconds):
    """After the Agent asked "how long?", a duration alone (or a bare number of minutes) is a start."""
    intent = parse_intent(text, awaiting_duration=True)
    assert intent == StartFocus(duration_seconds=seconds, activity=None, language=detect_language(text))
    if not text.isdigit():
        assert isinstance(parse_intent(text), Help)  # the same words out of the blue are unclear


def test_a_start_without_a_duration_keeps_its_activity_for_the_answer():
    """ "focus on reading" asks how long, and keeps "reading" for when the answer comes."""
    assert parse_intent("focus on reading").activity == "reading"
    assert parse_intent("开始专注看书").activity == "看书"


STOPS = ["stop", "cancel", "never mind, stop it", "I'm done", "停止", "算了不做了", "别计时了", "取消"]
DURATIONS = ["25 minutes", "an hour", "half an hour", "25分钟", "半小时", "一个半小时"]


@settings(max_examples=100, deadline=None)
@given(stop=st.sampled_from(STOPS), duration=st.sampled_from(DURATIONS), order=st.booleans())
def test_a_stop_phrase_never_starts_a_focus(stop, duration, order):
    """A message made of a stop phrase and a duration ("stop, 25 minutes") never starts a focus."""
    text = f"{stop} {duration}" if order else f"{duration} {stop}"
    assert not isinstance(parse_intent(text), StartFocus | DurationOutOfRange), text
    assert not isinstance(parse_intent(text, awaiting_duration=True), StartFocus | DurationOutOfRange), text


@pytest.mark.parametrize("text", ["thanks", "thank you!", "thanks, that's all", "thx", "谢谢", "谢谢你", "多谢！"])
def test_thanks_never_stops(text):
    """Thanking the Agent is small talk, never a stop."""
    assert parse_intent(text) == Help(language=detect_language(text), topic="thanks")


@pytest.mark.parametrize("text", ["how long is left?", "还剩多久？", "what's running?", "还有几分钟"])
def test_status_questions(text):
    """Questions about the time left are a status intent, not help and not a start."""
    assert parse_intent(text) == FocusStatus(language=detect_language(text))


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("stop the quiz but keep the timer", "quiz"),
        ("stop everything except the focus", "quiz"),
        ("cancel the timer, keep the quiz going", "pomodoro"),
        ("除了专注都停了", "quiz"),
        ("停止测验但是保留计时", "quiz"),
        ("除了测验，其他都停掉", "pomodoro"),
    ],
)
def test_a_stop_that_names_what_it_keeps_stops_only_the_other(text, target):
    """Decision 0064: "stop … but keep <one>" never stops everything; it stops the other (by its nouns,
    or the one other app that can be stopped)."""
    intent = parse_intent(text)
    assert isinstance(intent, StopFocus), (text, intent)
    assert intent.target == target, text


@pytest.mark.parametrize("text", ["stop everything but keep going", "全部停掉，保留一下"])
def test_a_stop_keeping_something_unnamed_asks_instead_of_stopping_everything(text):
    """What is kept names no running thing: which one to stop is unclear — help, never a stop of all."""
    assert isinstance(parse_intent(text), Help), text


@pytest.mark.parametrize(
    "text",
    [
        "division quiz 5 min",
        "quiz me on division for 3 minutes",
        "5 min division practice",
        "乘除法练习5分钟",
        "考考我除法三分钟",
        "加减乘除口算10分钟",
    ],
)
def test_a_kind_no_app_does_starts_nothing(text):
    """Decision 0064: the quiz declares what it cannot do (its ``declines``); a message naming it is help,
    never a start of another kind ("乘除法练习" once started multiplication) nor a focus named after it."""
    intent = parse_intent(text)
    assert isinstance(intent, Help) and not intent.missing_duration, (text, intent)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("let's do 15 minutes of maths", 900),
        ("math for 30 minutes", 1800),
        ("做十五分钟数学", 900),
        ("来半小时数学", 1800),
    ],
)
def test_work_an_app_calls_unclear_asks_which_app(text, seconds):
    """Decision 0069: the quiz declares "maths" / 数学 ``unclear`` between it and the focus (careful people
    read "15 minutes of maths" both ways), so said alone it asks which app, for the length said."""
    intent = parse_intent(text)
    assert isinstance(intent, Help) and intent.topic == "which_app", (text, intent)
    assert intent.duration_seconds == seconds


@pytest.mark.parametrize(
    ("text", "activity"),
    [("focus 30 min on math", "math"), ("专注30分钟做数学", "做数学"), ("30 min of math homework", "math homework")],
)
def test_unclear_work_with_the_default_app_named_or_more_said_is_a_focus(text, activity):
    """The default app named, or more said than the unclear work alone, is a focus as before."""
    intent = parse_intent(text)
    assert isinstance(intent, StartFocus) and intent.activity == activity, (text, intent)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("focus for 1h30", 5400),
        ("focus 1 hour 30", 5400),
        ("focus 1h 45", 6300),
        ("focus for one hour and a quarter", 4500),
        ("focus 1/2 hour", 1800),
        ("focus 3/4 of an hour", 2700),
        ("专注1小时30", 5400),
        ("专注一小时十五", 4500),
        ("专注一小时十五分", 4500),  # not an hour, 十 and 五分 (it read 5100 s)
        ("专注一小时二十五分钟", 5100),
        ("专注两小时三十分", 9000),
        ("专注一个钟", 3600),
        ("专注两个钟", 7200),
        ("专注半个钟", 1800),
        ("专注一个一个半小时", 5400),
    ],
)
def test_durations_as_people_write_them(text, seconds):
    """Decision 0064: the minutes after an hour without their unit, 个钟 as an hour, a quarter after an
    hour, a fraction of a unit; a stutter keeps the longest ("一个一个半小时")."""
    intent = parse_intent(text)
    assert isinstance(intent, StartFocus), (text, intent)
    assert intent.duration_seconds == seconds, text


@pytest.mark.parametrize("text", ["focus a few minutes", "a few minutes of reading", "专注几分钟", "看几分钟书"])
def test_a_length_not_said_asks_how_long(text):
    """ "a few minutes" is no length: the Agent asks how long instead of guessing three."""
    intent = parse_intent(text)
    assert isinstance(intent, Help) and intent.missing_duration, (text, intent)


@pytest.mark.parametrize("text", ["focus 1:30", "focus 25 for 10 minutes", "专注25，10分钟", "1:30"])
def test_a_time_or_a_bare_number_beside_a_duration_is_no_start(text):
    """ "1:30" alone and a bare number beside a duration are unclear: a question, never a guess."""
    intent = parse_intent(text)
    assert isinstance(intent, Help), (text, intent)


@pytest.mark.parametrize("text", ["help", "what apps do you have?", "please help", "有什么功能", "你能做什么？"])
def test_one_help_request_for_both_agents(text):
    """``is_help_request`` is the one definition of a message asking what can be done: the reference
    grammar answers it with help, and the LLM Agent imports the same function (no copy of its own)."""
    assert is_help_request(text)
    intent = parse_intent(text)
    assert isinstance(intent, Help) and intent.topic == "help", (text, intent)


@pytest.mark.parametrize("text", ["add quiz 5 min to my notes", "把口算5分钟记到笔记里", "笔记：口算练习5分钟"])
def test_an_app_that_says_where_a_line_goes_is_checked_first_whatever_the_order_of_the_apps(text):
    """Decision 0064: a message naming Notes by its declared words ("to my notes", 笔记里) is about Notes,
    never a start of another app whose words the line holds — in whichever order the Inventory lists them."""
    for order in (apps(), tuple(reversed(apps()))):
        intent = intents.parse_intent(text, order)
        assert isinstance(intent, Help) and not intent.missing_duration, (text, intent)
