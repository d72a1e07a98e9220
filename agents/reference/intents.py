# ruff: noqa: RUF001, RUF002, RUF003 -- Chinese text uses full-width punctuation (，：？！（）) on purpose
"""What a person's message asks the reference Agent to do, in English or Chinese (pure, no I/O).

``parse_intent(text, awaiting_duration=False)`` returns one of:

* ``StartFocus(duration_seconds, activity, language)`` — "start a 25 minute reading focus",
  "read for half an hour", "let's do 20 mins of homework", "专注 25 分钟写作业", "我要看书半小时",
  "冥想十分钟";
* ``StartQuiz(duration_seconds, kind, language)`` — a timed practice quiz: "quiz me on
  multiplication for 5 minutes", "a 10 minute arithmetic drill", "口算练习 5 分钟", "考考我乘法十分钟";
  ``kind`` is ``multiplication``, ``addition``, ``subtraction`` or ``mixed``;
* ``StopFocus(language, target)`` — "stop", "never mind, stop it", "I'm done", "停止专注", "算了不做了", "别计时了";
  ``target`` is what it names, if anything: ``focus``, ``quiz`` or ``all`` ("stop everything");
* ``FocusStatus(language)`` — "how long is left?", "what's running?", "还剩多久？";
* ``DurationOutOfRange(requested_seconds, language)`` — a start whose duration is not 1 s to 24 h;
* ``Help(language, missing_duration, topic, activity)`` — anything else, answered with what the
  Agent can do: ``topic`` is ``"help"`` / ``"greeting"`` / ``"thanks"`` / ``"unknown"``; with
  ``missing_duration`` the Agent asks "how long?" (and remembers ``activity`` for the answer, or
  ``quiz_kind`` for a quiz asked for without a duration: ``as_quiz_answer`` makes the answer that quiz).

Before the grammar, typing is forgiven: two swapped letters in a short keyword ("focsu", "stpo"),
one letter more, less or changed in a long one ("pomodor", "minuts"), contractions without their
apostrophe ("whats", "dont", "im") and a keyword's pinyin homophone ("专住").

The grammar, the same in both languages, in the order it is applied:

1. **Stop** — the message is made of stop clauses ("never mind", "stop it", "算了", "不做了") and
   fillers ("please", "thanks", "吧"), or opens with a stop verb; a stop may name what it stops, by
   kind or by what it is for ("end the focus timer", "stop the math quiz", "stop everything",
   "结束阅读计时", "测验不做了", "全部停掉", "停止quiz"). Checked first, so a stop phrase
   that names a duration ("cancel the 25 minute timer") never starts a focus; a negated stop
   ("don't stop", "别停") is not a stop.
2. **Status** — a question about the time left or what is running, of a focus or a quiz ("is the quiz
   still running", "is the pomodoro over yet", "how long have I got", "我还要专注多久", "测验还在进行吗").
3. **Small talk** — help, greetings, thanks ("thanks" never stops anything).
   **Quiz** — a quiz word ("quiz", "drill", "mental arithmetic", "times tables", "subtraction
   practice", "multiplication problems", 口算, 测验, 考考我, 加法题, 乘法练习) with a duration is a practice
   quiz (the Agent makes the questions); without one, "how long?"; a stop still stops it. So is a start
   whose whole activity is a kind of arithmetic ("multiplication 5 min", "10 min of sums", "乘法5分钟");
   a subject studied stays a focus ("study multiplication", "math", "乘法作业").
4. **Not a request** — other questions, negations ("don't start…", "不要开始", "今天不做乘法题"), breaks,
   naps, reminders, things in the past ("yesterday", "刚才", "做了十分钟"), hypotheticals ("if I started…",
   "would a 50 minute pomodoro be too long", "如果…"), a score or notes asked back and lines for the notes
   get help, never an action — a quiz word in a question ("what's a quiz", "加法题难吗") too, and a stop
   whose object is a person ("can you stop me from…") is no stop. So do "can't" (不了, 没法), "didn't"
   (没做), habits ("usually", 每天, 平时), wishes (希望), someone else's words ("my teacher said…"), a
   time of day or a day ("at 3pm", "on monday", 三点, 周一, 下周), a length judged ("too long", 太长), and
   two durations apart (two requests in one message: "a 10 min quiz and a 25 minute focus").
5. **Start** — a duration and a sign that a focus is meant: a focus word ("focus", "timer", 专注,
   番茄), a start or polite verb ("start", "let's", "can you", 开始, 我要, 帮我), or an activity
   ("of reading", "read for", 写作业, 看书); a focus word with a number and no unit ("pomodoro 25",
   "番茄钟 25") counts minutes, up to three hours. A bare duration is a start only as the answer to the
   Agent's own "how long?" (``awaiting_duration``); without a duration, a start asks "how long?".

The reply language is Chinese when the message has any CJK character, English otherwise (the
Agent may answer in the person's saved language instead: ``agents.reference.agent``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Literal

from agents.reference.durations import (
    EN_JOINER,
    ZH_JOINER,
    Span,
    chinese_durations,
    chinese_number,
    english_durations,
    first_duration,
)

__all__ = [
    "MAX_ACTIVITY_LENGTH",
    "MAX_FOCUS_SECONDS",
    "DurationOutOfRange",
    "FocusStatus",
    "Help",
    "Intent",
    "Language",
    "StartFocus",
    "StartQuiz",
    "StopFocus",
    "as_quiz_answer",
    "chinese_number",
    "detect_language",
    "parse_intent",
]

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


QuizKind = Literal["multiplication", "addition", "subtraction", "mixed"]
# The quiz app's manifest bound (quiz.start's deadline_operation.max_duration_seconds).
MAX_QUIZ_SECONDS = 60 * 60


@dataclass(frozen=True)
class StartQuiz:
    duration_seconds: int
    kind: QuizKind
    language: Language


StopTarget = Literal["focus", "quiz", "all"]


@dataclass(frozen=True)
class StopFocus:
    language: Language
    # What the stop names, when it names one: a focus ("stop the timer", "结束阅读计时"), the quiz ("stop
    # the quiz", "测验不做了") or both ("stop everything", "全部停掉"); None: whatever runs. Not part of
    # equality: the intent is a stop, whatever it names.
    target: StopTarget | None = field(default=None, compare=False)


@dataclass(frozen=True)
class FocusStatus:
    language: Language


@dataclass(frozen=True)
class DurationOutOfRange:
    requested_seconds: float
    language: Language
    quiz: bool = False  # a quiz's duration (its bound is 1 h), not a focus's


HelpTopic = Literal["help", "greeting", "thanks", "unknown"]


@dataclass(frozen=True)
class Help:
    language: Language
    missing_duration: bool = False  # it looked like a start, but said no duration
    topic: HelpTopic = "unknown"
    # What the start without a duration was for ("focus on reading"): kept for the answer to
    # "how long?". Not part of equality: the intent is the question, whatever it is about.
    activity: str | None = field(default=None, compare=False)
    # A quiz asked for without a duration ("give me some multiplication problems"): the answer to
    # "how long?" starts this kind of quiz, never a focus.
    quiz_kind: QuizKind | None = field(default=None, compare=False)


Intent = StartFocus | StartQuiz | StopFocus | FocusStatus | DurationOutOfRange | Help

# A kind of arithmetic (or arithmetic itself) is a quiz when it is practised, drilled or asked as
# problems ("subtraction practice", "multiplication problems", "practice addition").
_EN_ARITHMETIC = r"(?:addition|subtraction|multiplication|arithmetic|maths?|sums|times\s+tables?)"
_EN_QUIZ = re.compile(
    r"\b(?:quizz?(?:\s+me)?|drill|mental\s+(?:arithmetic|math|maths)|times\s+tables?"
    rf"|{_EN_ARITHMETIC}\s+(?:practice|practise|problems?|questions?|exercises?|drills?)"
    # the verb first: "practice multiplication for ten minutes", "let's practise some subtraction"
    rf"|(?:practice|practise|drill|train|test\s+me\s+on)\s+(?:(?:my|some|the|on)\s+)?{_EN_ARITHMETIC})\b",
    re.IGNORECASE,
)
# Chinese: a kind of arithmetic with 题 (problems), 练习 (practice) or 测 (test) is a quiz
# ("加法题", "乘法练习", "混合运算练习", "考考我加法").
_ZH_ARITHMETIC = r"(?:加法|减法|乘法|除法|混合运算|四则运算|算术|运算)"
_ZH_QUIZ = re.compile(
    r"口算|心算|测验|小测|考考我|乘法口诀"
    rf"|{_ZH_ARITHMETIC}\s*(?:题|练习|测验|(?i:practi[cs]e|quizz?|drills?|problems?|questions?|exercises?))"
    # the verb first: "练减法5分钟", "练习加法二十分钟", "考我减法", "做几道乘法"
    # ("做加法作业" stays homework: 作业 is no drill; 数学 is a subject: "做数学题" is homework too)
    rf"|(?:练习?|做|刷|考考?我|测测?我?)(?:一?下|几道|一些|点|一会儿?)?\s*(?:我的)?{_ZH_ARITHMETIC}(?!作业|课)"
    r"|^考我(?!的)|出[^，,。]{0,8}?题"
)
_QUIZ_KINDS: list[tuple[re.Pattern[str], QuizKind]] = [
    # two kinds together are a mixed quiz ("加减法混合练习", "addition and subtraction")
    (re.compile(r"加减|混合|四则|\bmixed\b|addition\s+and\s+subtraction", re.IGNORECASE), "mixed"),
    # (a single character only outside the everyday words it is part of: 加油, 减肥, 乘车)
    (re.compile(r"multiplication|multiply|times|乘法|(?<![搭])乘(?![车坐客])", re.IGNORECASE), "multiplication"),
    (
        re.compile(r"addition|adding|\bplus\b|加法|(?<![增参追更附])加(?![油班入快速强紧热])", re.IGNORECASE),
        "addition",
    ),
    (re.compile(r"subtraction|subtracting|\bminus\b|减法|(?<![缩削])减(?![肥少轻压])", re.IGNORECASE), "subtraction"),
]


# A kind of arithmetic that is all a start is for ("multiplication 5 min", "do subtraction for five
# minutes", "10 min of sums", "乘法5分钟", "5分钟的乘法"): the quiz of that kind, not a focus named after it.
# ("study multiplication", "math", "乘法作业" stay a focus: a subject studied, not drilled.)
_EN_ARITHMETIC_ACTIVITY = re.compile(
    r"(?:(?:do|doing|practi[cs]e|practi[cs]ing|drill|test\s+my)\s+(?:my\s+|some\s+)?)?"
    r"(?:addition|subtraction|multiplication|arithmetic|times\s+tables?|sums|adding|subtracting|multiplying)",
    re.IGNORECASE,
)
_ZH_ARITHMETIC_ACTIVITY = re.compile(
    r"(?:做|练习?|测一下我的|考我)?(?:加减法|加法|减法|乘法|四则运算|混合运算|算术)(?:混合)?(?:练习|运算)?"
)


def _quiz(text: str, spans: list[Span], joiner: str, language: Language) -> Intent:
    """A practice quiz: a quiz word and a duration ("quiz me on multiplication for 5 minutes"); without a
    duration, "how long?" (remembering the kind, so that the answer starts the quiz and not a focus)."""
    span = first_duration(spans, text, joiner)
    kind: QuizKind = next((k for pattern, k in _QUIZ_KINDS if pattern.search(text)), "mixed")
    if _another_duration(spans, span):
        return Help(language=language)
    if span is None:
        return Help(language=language, missing_duration=True, quiz_kind=kind)
    whole = round(span.seconds)
    if not MIN_FOCUS_SECONDS <= whole <= MAX_QUIZ_SECONDS:
        return DurationOutOfRange(requested_seconds=span.seconds, language=language, quiz=True)
    return StartQuiz(duration_seconds=whole, kind=kind, language=language)


def _another_duration(spans: list[Span], span: Span | None) -> bool:
    """A second duration apart from the first: two requests in one message ("a 10 min quiz and a 25
    minute focus", "先做5分钟加法题然后专注25分钟"), or no clear one — help, not a guess at which."""
    return span is not None and any(other.start >= span.end for other in spans)


def as_quiz_answer(intent: Intent, kind: QuizKind) -> Intent:
    """The answer to "how long?" asked about a quiz of ``kind``: a bare duration starts that quiz (within
    the quiz's bound), never a focus; anything else stays what it is."""
    if isinstance(intent, StartFocus) and intent.activity is None:
        if intent.duration_seconds > MAX_QUIZ_SECONDS:
            return DurationOutOfRange(requested_seconds=intent.duration_seconds, language=intent.language, quiz=True)
        return StartQuiz(duration_seconds=intent.duration_seconds, kind=kind, language=intent.language)
    return intent


_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]")


def detect_language(text: str) -> Language:
    return "zh" if _CJK.search(text) else "en"


# Keywords a typo is forgiven in. Short ones only for two swapped neighbours ("focsu", "stpo": a
# substitution would turn "step" into "stop"); long ones for one letter more, less or changed too
# ("pomodor", "minuts"), where no English word is that close.
_SWAP_KEYWORDS = ("focus", "stop", "timer", "hours", "quiz", "minute", "seconds", "mins", "left")
_EDIT_KEYWORDS = (
    "pomodoro",
    "pomodoros",
    "minutes",
    "remaining",
    "focusing",
    "practice",
    "subtraction",
    "multiplication",
)
_KEYWORDS = frozenset(_SWAP_KEYWORDS + _EDIT_KEYWORDS) | {"second", "minuet", "hour", "min"}


def _swapped(word: str, keyword: str) -> bool:
    if len(word) != len(keyword) or word == keyword:
        return False
    diff = [i for i, (a, b) in enumerate(zip(word, keyword, strict=True)) if a != b]
    return (
        len(diff) == 2
        and diff[1] == diff[0] + 1
        and word[diff[0]] == keyword[diff[1]]
        and word[diff[1]] == keyword[diff[0]]
    )


def _one_edit(word: str, keyword: str) -> bool:
    if abs(len(word) - len(keyword)) > 1 or word == keyword:
        return False
    if len(word) == len(keyword):
        return sum(a != b for a, b in zip(word, keyword, strict=True)) == 1 or _swapped(word, keyword)
    short, long_ = sorted((word, keyword), key=len)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


def _keyword_for(match: re.Match[str]) -> str:
    word = match.group(0)
    lower = word.lower()
    if len(lower) < 4 or lower in _KEYWORDS:
        return word
    for keyword in _SWAP_KEYWORDS:
        if _swapped(lower, keyword):
            return keyword
    for keyword in _EDIT_KEYWORDS:
        if _one_edit(lower, keyword):
            return keyword
    return word


# Contractions typed without their apostrophe ("whats left", "im done", "dont start"); "its", "ill"
# and "id" are words of their own and stay. Chat spellings too ("plz", "u", "r u", "gimme", "nah").
_APOSTROPHES = {
    "whats": "what's",
    "thats": "that's",
    "hows": "how's",
    "lets": "let's",
    "dont": "don't",
    "cant": "can't",
    "wont": "won't",
    "didnt": "didn't",
    "doesnt": "doesn't",
    "im": "i'm",
    "plz": "please",
    "u": "you",
    "ur": "your",
    "gimme": "give me",
    "nah": "no",
    "tmrw": "tomorrow",
    "tmr": "tomorrow",
    "tmw": "tomorrow",
    "2moro": "tomorrow",
    "tonite": "tonight",
    "l8r": "later",
    "k": "ok",
    "kk": "ok",
}
_BARE_CONTRACTIONS = re.compile(r"\b(?:" + "|".join(_APOSTROPHES) + r")\b", re.IGNORECASE)


def _contraction(match: re.Match[str]) -> str:
    return _APOSTROPHES[match.group(0).lower()]


# Chinese typed by pinyin: a keyword's homophone ("专住" for 专注).
_ZH_HOMOPHONES = re.compile(r"专[住驻柱著祝铸]")


def _forgive_typos(text: str) -> str:
    text = re.sub(r"[A-Za-z]+", _keyword_for, text)
    text = _BARE_CONTRACTIONS.sub(_contraction, text)
    text = re.sub(r"\br(?=\s+you\b)", "are", text, flags=re.IGNORECASE)  # "r u still timing me"
    return _ZH_HOMOPHONES.sub("专注", text)


def parse_intent(text: str, *, awaiting_duration: bool = False) -> Intent:
    """What ``text`` asks for. ``awaiting_duration``: the Agent's last word here was "how long?",
    so a bare duration ("25 minutes", "半小时", "25") is the answer, a start."""
    # NFKC folds full-width digits and punctuation ("２５分钟", "！") into their ASCII forms.
    normalized = _forgive_typos(unicodedata.normalize("NFKC", text).strip())
    if detect_language(text) == "zh":
        return _parse_chinese(normalized, awaiting_duration)
    return _parse_english(normalized, awaiting_duration)


# A focus word and a number with no unit ("pomodoro 25", "focus 30", "番茄钟 25"): minutes, as a
# Pomodoro is counted; only up to three hours, beyond which the number is no clear duration.
_EN_FOCUS_NUMBER = re.compile(
    r"(?:(?:please|pls|ok(?:ay)?)\s+)?(?:(?:start|begin|set)\s+)?(?:(?:a|an|the|my)\s+)?"
    r"(?:focus|pomodoro|timer)\s+(?:for\s+)?(?P<n>\d{1,3})(?:\s+(?:please|pls|now))?[\s.!]*",
    re.IGNORECASE,
)
_ZH_FOCUS_NUMBER = re.compile(
    r"(?:请|帮我|麻烦)?(?:开始|来个?|开个?)?\s*(?:专注|番茄钟?|计时|focus|pomodoro|timer)\s*(?P<n>\d{1,3})\s*(?:吧|好了)?[。.!！\s]*",
    re.IGNORECASE,
)
MAX_UNITLESS_MINUTES = 180


def _focus_number(pattern: re.Pattern[str], text: str, language: Language) -> Intent | None:
    match = pattern.fullmatch(text)
    if match is None or not 1 <= int(match.group("n")) <= MAX_UNITLESS_MINUTES:
        return None
    return _outcome(int(match.group("n")) * 60, None, language)


def _outcome(seconds: float, activity: str | None, language: Language) -> Intent:
    whole = round(seconds)
    if not MIN_FOCUS_SECONDS <= whole <= MAX_FOCUS_SECONDS:
        return DurationOutOfRange(requested_seconds=seconds, language=language)
    return StartFocus(duration_seconds=whole, activity=activity, language=language)


def _clip(activity: str | None) -> str | None:
    if not activity:
        return None
    return activity[:MAX_ACTIVITY_LENGTH].strip() or None


# What a stop names (in either language: "停止quiz", "stop the 阅读 timer").
_STOP_ALL = re.compile(r"\b(?:everything|all(?!\s+right)|both)\b|全部|全都|都|所有|一切|统统", re.IGNORECASE)
_STOP_QUIZ = re.compile(
    r"\b(?:quiz\w*|drill|practi[cs]e|test|questions?)\b|测验|口算|练习|做题|答题|考|题|quiz", re.IGNORECASE
)
_STOP_FOCUS = re.compile(
    r"\b(?:focus\w*|timer|clock|pomodoro|countdown|timing)\b|专注|计时|番茄|倒计时|focus|timer|pomodoro", re.IGNORECASE
)


def _stop_target(text: str) -> StopTarget | None:
    quiz, focus = bool(_STOP_QUIZ.search(text)), bool(_STOP_FOCUS.search(text))
    if _STOP_ALL.search(text) or (quiz and focus):
        return "all"
    return "quiz" if quiz else "focus" if focus else None


def _clauses(text: str, separators: str) -> list[str]:
    return [part.strip() for part in re.split(separators, text) if part.strip()]


def _all_clauses(text: str, separators: str, stop: re.Pattern[str], filler: re.Pattern[str]) -> bool:
    """Every clause is a stop or a filler, and at least one is a stop ("never mind, stop it, thanks")."""
    clauses = _clauses(text, separators)
    stops = [c for c in clauses if stop.fullmatch(c)]
    return bool(stops) and all(stop.fullmatch(c) or filler.fullmatch(c) for c in clauses)


# --- English -----------------------------------------------------------------------------------

_EN_SEPARATORS = r"[,;:.!?\u2026]+|\s+-\s+|\s+(?:and|so|just)\s+"
_EN_POLITE = (
    r"(?:(?:ok(?:ay)?|hey|please|pls|now|so|well|actually|alright|all\s+right|um+|uh+|oh|yeah|yes|no|right|hmm+|ugh+|argh+|meh)\s+"
    r"|(?:can|could|would|will)\s+you\s+(?:please\s+)?|i(?:\s+want|\s+need|\s+would\s+like|'d\s+like|\s+wanna)\s+(?:you\s+)?to\s+"
    r"|i\s+wanna\s+|let'?s\s+|let\s+us\s+|i\s+think\s+i'?(?:ll|d)\s+|i'?ll\s+|i\s+will\s+|you\s+can\s+|time\s+to\s+)*"
)
_EN_THING = r"(?:focus(?:ing)?|timer|clock|pomodoro|session|round|countdown|timing|quiz|drill|practice|test)"
_EN_STOP_VERB = r"(?:stop|cancel|abort|quit|halt|end|finish|terminate|kill|turn\s+off|switch\s+off|shut\s+off|drop)"
_EN_STOP_CLAUSE = re.compile(
    r"^" + _EN_POLITE + r"(?:" + _EN_STOP_VERB + r"(?:\s+(?:the|my|this|current|that|our))?(?:\s+(?:current|running))?"
    # what is stopped: it, everything, or a thing by name ("the focus timer", "my pomodoro session", "the math quiz")
    r"(?:\s+(?:it|now|everything|all(?:\s+of\s+(?:it|them))?|both(?:\s+of\s+them)?"
    rf"|(?:\w+\s+)?{_EN_THING}(?:\s+{_EN_THING})?))?"
    r"|never\s*mind|nevermind|forget\s+(?:it|about\s+it)|(?:i'?m|i\s+am|we'?re)\s+(?:done|finished|through)(?:\s+now)?"
    r"|done(?:\s+now)?|enough(?:\s+for\s+(?:now|today))?|that'?s\s+enough|(?:that'?s|that\s+is)\s+it(?:\s+for\s+(?:now|today))?"
    r"|no\s+more(?:\s+(?:focus|focusing|timer))?|i\s+give\s+up|give\s+up|call\s+it\s+a\s+day"
    r"|i\s+(?:don'?t|do\s+not)\s+want\s+to\s+(?:focus|continue|keep\s+going|go\s+on|do\s+(?:this|it)(?:\s+now)?)(?:\s+any\s*more)?"
    r"|i'?m\s+not\s+(?:doing|focusing\s+on)\s+(?:this|it)(?:\s+any\s*more)?"
    r")(?:\s+(?:now|please|already|then|anymore|any\s+more|for\s+now|for\s+today|right\s+now|thanks|thank\s+you))*$",
    re.IGNORECASE,
)
_EN_FILLER_CLAUSE = re.compile(
    r"^(?:ok(?:ay)?|please|pls|thanks|thank\s+you|thx|sorry|oh|hmm+|um+|well|then|actually|yeah|yes|no|alright|all\s+right|fine|lol|sure|ugh+|argh+|meh)$",
    re.IGNORECASE,
)
# Anything opening with these is about stopping, even with more words ("stop the 25 minute focus").
_EN_STOP_LEADING = re.compile(
    r"^" + _EN_POLITE + r"(?:stop|cancel|abort|halt)\b(?!\s+(?:me|him|her|them|us|you|myself|people)\b)", re.IGNORECASE
)
_EN_STATUS = re.compile(
    r"\bhow\s+(?:much|long|many)(?:\s+\w+){0,4}\s+(?:left|remaining|remain|longer|to\s+go)\b"
    r"|\b(?:time|minutes|mins|seconds|hours)\s+(?:left|remaining|to\s+go)\b|\bremaining\s+time\b"
    r"|\bhow\s+long\s+(?:till|til|'til|until|before)\s+(?:it|this|the|my|i'?m|i\s+am|i'?ll|i\s+can|we)\b"
    r"|^(?:what'?s\s+the\s+)?status\b|\bwhat(?:'s|\s+is)\s+(?:running|left|remaining|on\s+now|going\s+on)\b"
    # "is my timer still going", "is the quiz still running", "is the reading pomodoro over yet", "is it over yet"
    rf"|\b(?:is|are)\s+(?:a|the|my|any|this|that)\s+(?:\w+\s+)?{_EN_THING}\s+(?:still\s+)?(?:running|on|going|over|done|finished|up)(?:\s+(?:yet|now))?[\s?.!]*$"
    r"|^(?:is|are)\s+(?:it|we)\s+(?:still\s+going|over|done|finished)\s+yet\b|\bhow\s+long\s+have\s+(?:i|we)\s+got\b"
    r"|\b(?:are\s+you|is\s+it)\s+still\s+(?:timing|running|going|counting)\b"
    r"|\bam\s+i\s+(?:still\s+)?focusing\b|\bwhat\s+(?:am|was)\s+i\s+(?:focusing\s+on|working\s+on|doing)\b"
    r"|\bwhen\s+(?:does|will|is)\s+(?:it|this|the\s+focus|my\s+focus|the\s+timer|the\s+pomodoro)\s+(?:end|finish|over|done|up|be\s+(?:done|over))\b"
    rf"|\bhow(?:'s|\s+is)\s+(?:my|the)\s+(?:\w+\s+)?{_EN_THING}\s+going\b",
    re.IGNORECASE,
)
# A stop word anywhere makes a message no start, whatever else it says ("25 minutes, stop").
_EN_STOP_WORD = re.compile(
    r"\b(?:stop|cancel|abort|quit|halt|terminate|never\s*mind|nevermind|forget\s+it|give\s+up|i'?m\s+done)\b",
    re.IGNORECASE,
)
_EN_QUESTION = re.compile(
    r"^(?:what(?!\s+about)|what's|whats|why|how(?!\s+about)|when|who|which|where|is|are|was|were|did|does|do\s+you|should)\b"
    # a modal whose subject is not "you", "we" or "I" asks about something: "can a quiz be an hour long?"
    r"|^(?:can|could|would|will|may|might)\s+(?!(?:you|u|ya|we|i)\b)\w",
    re.IGNORECASE,
)
_EN_NOT_A_FOCUS = re.compile(
    r"\b(?:don'?t|do\s+not|never|no|not|break|rest|nap|sleep|snooze|remind|alarm|wait|yesterday|ago|last|was|were|had|did|tomorrow|tonight|later)\b"
    r"|\bin\s+(?:\d|an?\s|half|one|two|three|four|five|ten|fifteen|twenty|thirty)"  # "in 5 minutes": later, not now
    r"|^i\s+(?!need\b)\w+ed\b"  # "I studied for an hour" (but "I need")
    # hypotheticals ("if I started a timer…", "would a 50 minute pomodoro be too long"), a score or what
    # was written down asked back, a line for the notes ("add to my notes: 25 minutes of reading done")
    r"|\b(?:if|whether|suppose|imagine|would(?!\s+(?:you|u|like|love)\b)|score|hate)\b|\bhow\s+did\s+i\s+do\b|\bget\s+right\b"
    # can't, habits, wishes, someone else's words, a time of day or a day ("I can't focus for 25 minutes",
    # "I usually study for an hour", "my teacher said to…", "at 3pm…", "on monday…"), a length judged
    r"|\b(?:can't|cannot|couldn't|won't|shouldn't|wouldn't|isn't|wasn't|usually|always|often|sometimes|normally|daily"
    r"|every\s+(?:day|morning|evening|night|week|time)|wish|hope|said|says|told|tells)\b"
    r"|\bat\s+\d{1,2}(?::\d{2})?\s*(?:am|pm|o'?clock)?\b|\bnext\s+(?:week|month|time)\b|\btoo\s+(?:long|short|much)\b"
    r"|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\bweekend\b"
    # a statement about a thing, no request: "pomodoro sounds like a pasta", "focus is hard"
    r"|^(?:(?:the|a|my)\s+)?\w+\s+(?:sounds|looks|seems|is|means|tastes)\b"
    r"|\b(?:to|in|into|from)\s+(?:my|the)\s+notes\b|^(?:add\s+(?:a\s+)?)?note\b|\b(?:note|jot)\s+down\b",
    re.IGNORECASE,
)
_EN_FOCUS_WORD = re.compile(
    r"\b(?:focus|focusing|pomodoro|pomodoros|timer|concentrate|concentration|deep\s+work|time\s+me|sprint)\b",
    re.IGNORECASE,
)
_EN_START_VERB = re.compile(
    r"^" + _EN_POLITE + r"(?:start|begin|run|set|kick\s+off|give\s+me|do|spend|go|get)\b|^(?:how|what)\s+about\b",
    re.IGNORECASE,
)

_MARK = "\u00a7"  # stands in for the duration while looking for the activity
_EN_LEAD = re.compile(
    r"^(?:(?:ok(?:ay)?|hey|please|pls|now|so|well|actually|alright|yeah|right|ugh+|how\s+about|what\s+about|time\s+to)[,!.]?\s+"
    r"|(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:let\s+me\s+|help\s+me\s+)?"
    r"|i(?:\s+want|\s+need|\s+would\s+like|'d\s+like|\s+have|\s+got|\s+plan|\s+am\s+going|'m\s+going)\s+to\s+|i\s+wanna\s+|i'?m\s+gonna\s+"
    r"|let'?s\s+|let\s+(?:me|us)\s+|i'?ll\s+|i\s+will\s+|i\s+should\s+|gonna\s+|going\s+to\s+|help\s+me\s+"
    r"|(?:start|begin)(?:\s+(?:a|an|the|my))?\s+(?=\w+ing\b)|time\s+me\s+(?:while\s+i(?:'m|\s+am)?\s+)?)+",
    re.IGNORECASE,
)
_EN_ACTIVITY_PATTERNS = [
    # "start a 10 minute timer for stretching", "a 25 minute pomodoro for reading"
    re.compile(
        rf"{_MARK}\s+(?:focus|timer|session|pomodoro|sprint|block)\s+(?:on|for|of)\s+(?P<act>[^{_MARK}]+?)\s*[.!?]*$",
        re.IGNORECASE,
    ),
    # "focus 90 seconds on homework", "focus on my essay for 25 minutes", "start focusing for 2 hours on writing"
    re.compile(rf"\b(?:on|doing|with)\s+(?P<act>[^{_MARK}]+?)(?:\s+for)?\s*(?:{_MARK}|[.!?]*$)", re.IGNORECASE),
    # "start a 25 minute reading focus", "a 3 second reading focus"
    re.compile(
        rf"{_MARK}\s*(?:long\s+)?(?P<act>[^{_MARK}]+?)\s+(?:focus|focusing|session|pomodoro|timer|block|sprint)\b",
        re.IGNORECASE,
    ),
    # "25 minutes of reading", "focus 25 minutes for my essay", "spend 30 minutes reading"
    re.compile(rf"{_MARK}\s+(?:(?:of|for|on)\s+)?(?P<act>[^{_MARK}]+?)\s*[.!?]*$", re.IGNORECASE),
    # "read for half an hour", "I want to study Spanish for 40 minutes", "meditate 10 minutes"
    re.compile(rf"^(?P<act>[^{_MARK}]+?)\s+(?:for\s+)?(?:(?:about|around|like)\s+)?{_MARK}", re.IGNORECASE),
]
_EN_ACTIVITY_EDGES = re.compile(
    r"^(?:(?:a|an|the|some|of|on|for|doing|about|around|like|to|me|us|another|more|just)\s+)+"
    r"|(?:\s+(?:please|pls|now|thanks|thank\s+you|ok|okay|then|today|tonight|straight|in\s+a\s+row|of|for|on|with))+$"
    r"|^(?:(?:one|a|an)\s+)?(?:focus|pomodoro|timer|session|sprint|block)(?:\s+(?:of|for|on))?(?:\s+|$)"
    r"|\s+(?:focus|pomodoro|timer|session|sprint|block)$"
    r"|[\s.,!?;:\"']+$|^[\s,;:\"']+",
    re.IGNORECASE,
)
# Words that are a request, not what it is for: never an activity on their own.
_EN_NOT_AN_ACTIVITY = re.compile(
    r"^(?:a|an|the|me|it|this|that|now|please|focus|focusing|session|timer|pomodoro|round|start|begin|run|set|go|do|get|"
    r"spend|give|give\s+me|set\s+a|set\s+up|start\s+a|time|time\s+me|concentrate|sprint|block|more|another|just|ok|okay|"
    r"of|for|on|with|to|one)?$",
    re.IGNORECASE,
)
_EN_REQUEST_VERB = re.compile(
    r"^(?:(?:start|begin|run|set|kick\s+off|give\s+me|do|spend|go|get)\s+(?:(?:a|an|the|my)\s+)?)+"
    r"(?:(?:focus(?:ing)?|timer|pomodoro|session)\s+(?:on|for)\s+)?",
    re.IGNORECASE,
)


def _clean_english_activity(raw: str) -> str | None:
    activity = _EN_LEAD.sub("", raw.strip())
    while True:
        cleaned = _EN_ACTIVITY_EDGES.sub("", _EN_REQUEST_VERB.sub("", activity)).strip()
        if cleaned == activity:
            break
        activity = cleaned
    if _EN_NOT_AN_ACTIVITY.fullmatch(activity) or _MARK in activity:
        return None
    return _clip(activity)


def _english_activity(text: str, span: Span | None) -> str | None:
    if span is None:  # "focus on reading": the activity of a start without a duration
        match = re.search(r"\b(?:on|doing)\s+(?P<act>.+?)[.!?]*$", text, re.IGNORECASE)
        return _clean_english_activity(match.group("act")) if match else None
    marked = f"{text[: span.start]} {_MARK} {text[span.end :]}".strip()
    for pattern in _EN_ACTIVITY_PATTERNS:
        for match in pattern.finditer(marked):
            activity = _clean_english_activity(match.group("act"))
            if activity:
                return activity
    return None


def _english_bare(text: str, span: Span) -> bool:
    """Nothing but the duration and fillers: "25 minutes", "half an hour please", "ok, 25 min"."""
    rest = f"{text[: span.start]} {text[span.end :]}"
    return not re.sub(
        r"\b(?:ok(?:ay)?|please|pls|then|thanks|thank\s+you|just|maybe|about|around|let'?s\s+(?:do|say)|make\s+it|say|for|yes|yeah|sure|um+|uh+)\b|[\s,.!?~]+",
        "",
        rest,
        flags=re.IGNORECASE,
    )


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


def _parse_english(text: str, awaiting_duration: bool) -> Intent:
    if _all_clauses(text, _EN_SEPARATORS, _EN_STOP_CLAUSE, _EN_FILLER_CLAUSE) or _EN_STOP_LEADING.match(text):
        return StopFocus(language="en", target=_stop_target(text))
    if _EN_STATUS.search(text):
        return FocusStatus(language="en")
    talk = _small_talk(text, "en", _EN_HELP, _EN_GREETING, _EN_THANKS)
    if talk is not None:
        return talk
    if _EN_QUIZ.search(text) and not (_EN_NOT_A_FOCUS.search(text) or _EN_QUESTION.match(text)):
        return _quiz(text, english_durations(text), EN_JOINER, "en")
    spans = english_durations(text)
    span = first_duration(spans, text, EN_JOINER)
    if _another_duration(spans, span):
        return Help(language="en")
    if span is None and awaiting_duration:
        bare = re.fullmatch(
            r"(?:about\s+|maybe\s+|just\s+)?(\d{1,4})(?:\s*(?:please|pls))?[\s.!]*", text, re.IGNORECASE
        )
        if bare:  # "25" after "how long?" means minutes
            return _outcome(int(bare.group(1)) * 60, None, "en")
    if span is None and (unitless := _focus_number(_EN_FOCUS_NUMBER, text, "en")) is not None:
        return unitless
    if _EN_QUESTION.match(text) or _EN_NOT_A_FOCUS.search(text) or _EN_STOP_WORD.search(text):
        return Help(language="en")
    if span is not None and _english_bare(text, span):
        return _outcome(span.seconds, None, "en") if awaiting_duration else Help(language="en")
    activity = _english_activity(text, span)
    if span is not None and activity and _EN_ARITHMETIC_ACTIVITY.fullmatch(activity):
        return _quiz(text, spans, EN_JOINER, "en")
    meant = bool(_EN_FOCUS_WORD.search(text) or _EN_START_VERB.match(text) or activity)
    if not meant:
        return Help(language="en")
    if span is None:
        return Help(language="en", missing_duration=True, activity=activity)
    return _outcome(span.seconds, activity, "en")


# --- Chinese -----------------------------------------------------------------------------------

_ZH_SEPARATORS = r"[,，。.!！?？;；、~～…\s]+"
_ZH_STOP_LEAD = (
    r"(?:好的?|好吧|嗯|哎|唉|那|那就|那我|请|帮我|麻烦你?|现在|马上|先|我|我要|我想|我们|还是|可以|你|给我|就|今天"
    r"|全部|全都|都|所有的?|统统|一起)*"
)
# What a stop names: a running thing, maybe with what it is for ("阅读计时", "乘法测验", "quiz"; never a
# time: "取消明天的计时" is no stop of this one).
_ZH_THING = r"(?:(?:(?!明天|后天|昨天|下午|上午|晚上|早上|中午|刚才)[\u4e00-\u9fff]){0,4}?(?:专注|计时器?|番茄钟?|倒计时|测验|口算|练习|做题|答题|(?i:quiz|timer|focus|pomodoro)))"
_ZH_ACTIVITY_VERBS = r"(?:做|学|看|读|写|练|背|考|测|专注|计时|继续|弄|干|搞|学习|复习|阅读|冥想|工作|练习|写作业|做作业|看书|读书|玩|坚持)"
_ZH_STOP_CORE = (
    r"(?:(?i:stop|cancel|quit|end)|停止|停下来?|停掉|停了|结束|取消|终止|中止|暂停|停|算了|罢了|放弃|够了|不要了|不用了|到此为止|就到这(?:里|儿)?|收工|关掉?|撤销"
    rf"|不(?:想|要|用)?再?{_ZH_ACTIVITY_VERBS}(?:下去|[题书琴课字]|作业|功课)?了|别再?{_ZH_ACTIVITY_VERBS}(?:下去)?了?|不(?:想|要)继续(?:下去)?)"
)
_ZH_STOP_CLAUSE = re.compile(
    # the thing may come first ("测验不做了", "把番茄钟关了") or after ("结束阅读计时", "停止quiz")
    rf"^{_ZH_STOP_LEAD}(?:把|这个|那个)?\s*{_ZH_THING}?\s*(?:也|都|就)?\s*"
    rf"(?:{_ZH_STOP_CORE}\s*(?:一下)?\s*(?:这次|这个|那个|那次|当前|现在的|掉)?\s*(?:的)?\s*(?:{_ZH_THING}|所有的?|全部|一切)?"
    r"\s*(?:吧|了|啦|呢|啊|呀|哦|好了|好吗)*)+$"
)
_ZH_FILLER_CLAUSE = re.compile(
    r"^(?:好|好的|好吧|嗯|哎|唉|哎呀|谢谢|谢啦|那|那个|抱歉|对不起|哈|啊|呀|吧|了|行|行吧|ok|OK|烦|烦死了|累了|累死了|晕|天哪)+$"
)
_ZH_STATUS = re.compile(
    r"还(?:剩|有|要)(?:专注|计时|做|练|考|等|学)?(?:多久|多少|几|多长)|剩(?:下|余)?(?:多少|多久|几|的时间)|剩余时间|(?:多久|什么时候|几点)(?:才)?(?:结束|完成|好|到)"
    r"|(?:专注|计时|番茄钟?)?(?:结束|完成|好)了(?:吗|没有?)|(?:专注|计时|进行)了?(?:多久|多长时间)了|进行到哪|在专注(?:什么|吗)|专注(?:还在|进行)(?:吗|中吗)|(?:现在|当前)(?:的)?(?:状态|进度)|正在(?:进行|专注)什么"
    r"|(?:还|现在|正)在(?:专注|计时|倒计时)(?:吗|中吗|没有?)|(?:专注|计时器?|番茄钟?|倒计时|测验|口算|练习)(?:还|现在)?在(?:跑|进行|走|运行)?(?:吗|中吗)"
)
_ZH_STOP_WORD = re.compile(r"停|结束|取消|终止|中止|算了|放弃|不做了")
_ZH_QUESTION = re.compile(r"什么|为什么|怎么|怎样|如何|多久|多长|多少|是不是|是否|哪|啥")
# A question ending in 吗 that is no polite request ("加法题难吗", but not "可以考考我乘法五分钟吗").
_ZH_YES_NO = re.compile(
    r"^(?![你您]?(?:可以|可不可以|能不能|能|请|帮我|麻烦|给我|来)).*(?<!好|以|行|能)吗[?？。!！\s]*$"
)  # "25分钟够吗", "专注一个小时会累吗" ask; "专注25分钟好吗", "…可以吗" are polite requests
_ZH_NOT_A_FOCUS = re.compile(
    # hypotheticals (如果…), a score asked back, "不做乘法题" (not + a verb), "做了十分钟" (a verb + 了 + a duration: past)
    r"如果|假如|假设|要是|的话|成绩|得分|分数|答对|讨厌|不(?:做|学|看|读|写|练|背|专注|计时|考)"
    # can't (不了, 没法), didn't (没做), habits (每天, 平时), wishes, someone else's words, a time of day or
    # a day (三点, 周一, 下周), a length judged (太长)
    r"|不了|(?<!能)不能|没法|没办法|做不到|没有?(?:做|学|看|读|写|练|背|专注|计时|考)|每天|每次|每周|每晚|平时|通常|经常|总是|往往|一般"
    r"|希望|但愿|(?:老师|妈妈|爸爸|他|她|他们|别人|朋友|同学)(?:说|让我|叫我)|说(?:要|让)"
    r"|\d{1,2}\s*点|[两三四五六七八九十]点|十[一二]点|周[一二三四五六日天末]|星期|礼拜|下周|下个?月|太(?:长|短|久|多|少)"
    r"|(?:做|学|看|读|写|练|背|专注|计时|考|弹)了\s*(?:\d|[零〇一二两俩三四五六七八九十半])|"
    r"昨天|前天|刚才|刚刚|已经|休息|睡觉|午睡|打盹|不要开始|别开始|不想|不要|别|提醒|闹钟|(?:秒|分钟?|小时|钟头)(?:以|之)?后|以后|之后|过会|待会|等会|等下|等一下|一会|回头|晚点|稍后|改天|下次|下回|明早|明晚|后天|失败|明天|今晚|晚上|下午|上午|早上|中午"
)
_ZH_FOCUS_WORD = re.compile(r"专注|番茄|计时|集中|专心|focus|pomodoro|timer", re.IGNORECASE)
_ZH_START_VERB = re.compile(
    r"^(?:(?:好的?|好吧|行|嗯+|那就?|ok)[，,\s]+)*(?:请|帮我|麻烦你?|我要|我想|我准备|我打算|现在|让我|咱们|我们)*\s*(?:开始|来|start|begin)"
    r"|[，,。\s](?:开始|start)(?:吧|啦)?[。!！\s]*$",  # "那就30分钟吧，开始"
    re.IGNORECASE,
)
_ZH_LEADING_FILLER = re.compile(
    r"^(?:请|帮我|帮忙|给我|麻烦你?|你|我要|我想要|我想|我准备|我打算|我来|我得|我先|让我|咱们|我们|打算|准备|计划|现在|马上|开始|"
    r"来一个|来个|来一轮|来|开一个|设一个|定一个|一个|一次|一轮|专注于|专注|番茄钟|番茄|计时器|计时|设个|设置|定个|开个|可以|能不能|能|"
    r"就|那就|先|嗯|好|好的|行(?=[，,\s])|行吧|大概|差不多|要|想|的|地|用来|用于|去|在|一下|吧|，|,|、|。|！|!|：|:|\s)+"
)
_ZH_TRAILING_FILLER = re.compile(
    r"(?:吧|啊|呀|哦|的|专注|番茄钟|番茄|计时|一下|了|吗|呢|好吗|可以吗|行吗|好不好|谢谢|左右|上下|，|,|、|。|！|!|\?|？|…|~|～|\s)+$"
)
# A one-character verb before the duration and its object after it read as one activity:
# "做20分钟作业" -> "做作业", "看半小时书" -> "看书".
_ZH_SPLIT_VERB = re.compile(r"^[做写看读学练背听画弹跑拉唱]$")


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


def _chinese_activity(text: str, span: Span | None) -> str | None:
    # What is left around the duration once the request words are gone is the activity:
    # "专注 25 分钟写作业" -> "写作业", "写作业专注25分钟" -> "写作业", "Focus 25 min on 数学" -> "数学".
    # After wins over before, except a verb split by the duration ("做20分钟作业").
    if span is None:
        return _clip(_strip_mixed(text))
    after, before = _strip_mixed(text[span.end :]), _strip_mixed(text[: span.start])
    if after and _ZH_SPLIT_VERB.match(before):
        return _clip(before + after)
    return _clip(after or before)


_ZH_HELP = re.compile(
    r"^(?:帮助|帮忙|求助|help)$|你能做什么|你可以做什么|能做些?什么|可以做些?什么|怎么用|如何使用|有什么功能|你会什么|使用说明"
)
_ZH_GREETING = re.compile(r"^(?:你好|您好|嗨|哈喽|哈啰|早上好|下午好|晚上好|早|在吗)[呀啊！!。~～\s]*$")
_ZH_THANKS = re.compile(r"^(?:谢谢|多谢|感谢|谢啦|谢了)")


def _parse_chinese(text: str, awaiting_duration: bool) -> Intent:
    if _all_clauses(text, _ZH_SEPARATORS, _ZH_STOP_CLAUSE, _ZH_FILLER_CLAUSE):
        return StopFocus(language="zh", target=_stop_target(text))
    if _ZH_STATUS.search(text):
        return FocusStatus(language="zh")
    talk = _small_talk(text, "zh", _ZH_HELP, _ZH_GREETING, _ZH_THANKS)
    if talk is not None:
        return talk
    if (_ZH_QUIZ.search(text) or _EN_QUIZ.search(text)) and not (
        _ZH_NOT_A_FOCUS.search(text) or _ZH_QUESTION.search(text) or _ZH_YES_NO.match(text)
    ):
        return _quiz(text, chinese_durations(text) or english_durations(text), ZH_JOINER, "zh")
    spans = chinese_durations(text) or english_durations(text)  # "focus 25 min 写作业" mixes both
    span = first_duration(spans, text, ZH_JOINER)
    if _another_duration(spans, span):
        return Help(language="zh")
    if span is None and awaiting_duration:
        bare = re.fullmatch(r"(?:就|那就|大概)?\s*(\d{1,4})\s*(?:吧|好了)?[\s.!。！]*", text)
        if bare:  # "25" after "要专注多久？" means minutes
            return _outcome(int(bare.group(1)) * 60, None, "zh")
    if span is None and (unitless := _focus_number(_ZH_FOCUS_NUMBER, text, "zh")) is not None:
        return unitless
    if (
        _ZH_QUESTION.search(text)
        or _ZH_YES_NO.match(text)
        or _ZH_NOT_A_FOCUS.search(text)
        or _ZH_STOP_WORD.search(text)
        or _EN_STOP_WORD.search(text)
    ):
        return Help(language="zh")
    activity = _chinese_activity(text, span)
    if span is not None and activity and _ZH_ARITHMETIC_ACTIVITY.fullmatch(activity):
        return _quiz(text, spans, ZH_JOINER, "zh")
    if span is not None and activity is None and not _ZH_FOCUS_WORD.search(text) and not _ZH_START_VERB.search(text):
        # Nothing but a duration ("25分钟", "就半小时吧"): an answer to "how long?", or unclear.
        return _outcome(span.seconds, None, "zh") if awaiting_duration else Help(language="zh")
    meant = bool(_ZH_FOCUS_WORD.search(text) or _ZH_START_VERB.search(text) or (span is not None and activity))
    if not meant:
        return Help(language="zh")
    if span is None:
        return Help(language="zh", missing_duration=True, activity=activity)
    return _outcome(span.seconds, activity, "zh")
