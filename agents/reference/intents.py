# ruff: noqa: RUF001, RUF002, RUF003 -- Chinese text uses full-width punctuation (，：？！（）) on purpose
"""What a person's message asks the reference Agent to do, in English or Chinese (pure, no I/O).

The grammar knows no app: what it knows of the installed apps comes from their declarations
(``phrasings.json`` version 2, docs/decisions/0057), published in the Inventory's ``apps`` and read by
``agents.reference.declared``. ``parse_intent(text, apps, awaiting_duration=False)`` returns one of:

* ``Start(app_id, duration_seconds, activity, language, choice)`` — a start of a declared app: one
  whose words or patterns the message uses, with a duration ("<its word> for 5 minutes"; its declared
  ``choice`` slot filled from the words of a value); or the *default* app's (``grammar.default``), with
  an activity cut from the message when it declares ``grammar.activity`` ("25 minutes of reading",
  "read for half an hour", "专注 25 分钟写作业", "我要看书半小时");
* ``Stop(language, target)`` — "stop", "never mind, stop it", "I'm done", "算了不做了"; ``target`` is
  what it names by an app's nouns: that app's id, ``"all"`` ("stop everything", two apps), or None;
* ``Status(language)`` — "how long is left?", "what's running?", "还剩多久？";
* ``DurationOutOfRange(requested_seconds, language, app_id)`` — a start beyond the app's bound (the
  Inventory's ``max_duration_seconds``, else 24 h);
* ``Help(language, missing_duration, topic, activity, app_id, choice)`` — anything else, answered with
  what the Agent can do: ``topic`` is ``"help"`` / ``"greeting"`` / ``"thanks"`` / ``"unknown"``; with
  ``missing_duration`` the Agent asks "how long?" and remembers what for (``as_answer`` makes the
  answer a start of that app).

Before the grammar, typing is forgiven: two swapped letters in a short keyword ("stpo"), one letter
more, less or changed in a long one ("minuts"), contractions without their apostrophe ("whats",
"dont", "im"), and what the apps declare (their ``keywords``, their ``typos`` such as a pinyin
homophone).

The grammar, the same in both languages, in the order it is applied:

1. **Stop** — the message is made of stop clauses ("never mind", "stop it", "算了", "不做了") and
   fillers ("please", "thanks", "吧"), or opens with a stop verb; a stop may name what it stops by an
   app's nouns, or everything ("stop everything", "全部停掉"). Checked first, so a stop phrase that
   names a duration ("cancel the 25 minute timer") never starts anything; a negated stop ("don't
   stop", "别停") is not a stop.
2. **Status** — a question about the time left or what is running.
3. **Small talk** — help, greetings, thanks ("thanks" never stops anything).
   **A named app** — a word or pattern of an app that is not the default, with a duration, is a start
   of it; without one, "how long?"; a question or a negation is help. An app that can not be started
   (no start tool) named so makes the message help. So is a start of the default app whose whole
   activity is one another app declares as its own (its ``activities``: "multiplication 5 min").
4. **Not a request** — other questions, negations ("don't start…", "不要开始"), breaks, naps,
   reminders, things in the past ("yesterday", "刚才"), hypotheticals ("if…", "如果"), "can't" (不了,
   没法), "didn't" (没做), habits ("usually", 每天), wishes (希望), someone else's words ("my teacher
   said…"), a time of day or a day ("at 3pm", "on monday", 三点, 周一), a length judged ("too long",
   太长) and two durations apart (two requests in one message) get help. So do (decision 0064)
   someone else's doing ("my brother is doing…", 我弟弟在…), what is done already ("finished a…",
   做完), a score reported ("8/10", 得了), another verb on what runs (pause, reset, extend, 延长), a
   quoted request, a bare number beside a duration ("<word> 25 for 10 minutes") and a kind of work
   an app declares it does not do (its ``declines``: "division"). A stop that names what it keeps
   ("stop the <noun> but keep the <noun>", "除了<noun>都停了") stops only the other, or asks. Another
   app's work inside the default app's words is that app's start when its words read all of the
   activity, else help. A length not said ("a few minutes", 几分钟) asks how long.
5. **Start** of the default app — a duration and a sign that a start is meant: one of its words, a
   start or polite verb ("start", "let's", "can you", 开始, 我要, 帮我), or an activity ("of reading",
   "read for", 写作业, 看书); one of its nouns with a number and no unit counts minutes up to its
   ``grammar.unitless_minutes``. A bare duration is a start only as the answer to the Agent's own "how
   long?" (``awaiting_duration``); without a duration, a start asks "how long?".

6. **The request among context** (decision 0068, ``agents.reference.clauses``) — a message of several
   clauses whose one timed clause asks for a start, the others being only a greeting, why, what it is
   for or whom it is for ("i have a test tomorrow, pls start focus 30 min", "准备面试，专注一个小时"), is
   that clause's start, with the activity the others name; any other clause keeps the whole reading.

Traditional Chinese is read as Simplified (``agents.reference.traditional``); an activity is given back
in the person's own characters.

The reply language is Chinese when the message has any CJK character, English otherwise (the
Agent may answer in the person's saved language instead: ``agents.reference.agent``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from agents.reference import clauses, traditional
from agents.reference.activities import MARK as _MARK
from agents.reference.activities import (
    MAX_ACTIVITY_LENGTH,
    chinese_activity,
    clean_english_activity,
    english_activity,
    english_bare,
)
from agents.reference.activities import Template as _Template
from agents.reference.activities import clip as _clip
from agents.reference.declared import DeclaredApp
from agents.reference.durations import (
    EN_JOINER,
    EN_WORD_NUMBER,
    ZH_JOINER,
    Span,
    chinese_durations,
    chinese_number,
    english_durations,
    first_duration,
)

__all__ = [
    "MAX_ACTIVITY_LENGTH",
    "MAX_DURATION_SECONDS",
    "DurationOutOfRange",
    "Help",
    "Intent",
    "Language",
    "Start",
    "Status",
    "Stop",
    "as_answer",
    "chinese_number",
    "detect_language",
    "is_help_request",
    "parse_intent",
]

Language = Literal["en", "zh"]

MIN_SECONDS = 1
# The Runtime's bound on an operation an app declares none for (runtime.manifests.OperationPolicy);
# an app's own comes with the Inventory (its ``max_duration_seconds``), checked here too so that the
# person gets a plain answer instead of a rejected call.
MAX_DURATION_SECONDS = 24 * 60 * 60


@dataclass(frozen=True)
class Start:
    app_id: str
    duration_seconds: int
    activity: str | None
    language: Language
    choice: str | None = None  # the value of the app's declared choice slot


@dataclass(frozen=True)
class Stop:
    language: Language
    # What the stop names, when it names one: an app's id (by its nouns: "stop the timer", "结束阅读计时"),
    # or "all" ("stop everything", "全部停掉", two apps named); None: whatever runs. Not part of equality:
    # the intent is a stop, whatever it names.
    target: str | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Status:
    language: Language


@dataclass(frozen=True)
class DurationOutOfRange:
    requested_seconds: float
    language: Language
    app_id: str | None = None  # whose bound it is beyond


# "which_app": a length said with no app and no work ("let's do 30 minutes"): which app is meant is asked.
HelpTopic = Literal["help", "greeting", "thanks", "unknown", "which_app"]


@dataclass(frozen=True)
class Help:
    language: Language
    missing_duration: bool = False  # it looked like a start, but said no duration
    topic: HelpTopic = "unknown"
    # What the start without a duration was for ("focus on reading"): kept for the answer to
    # "how long?". Not part of equality: the intent is the question, whatever it is about.
    activity: str | None = field(default=None, compare=False)
    # The app a start without a duration was for, and its choice: the answer to "how long?" starts it.
    app_id: str | None = field(default=None, compare=False)
    choice: str | None = field(default=None, compare=False)
    # The length a "which app?" question is about (topic "which_app").
    duration_seconds: int | None = field(default=None, compare=False)


Intent = Start | Stop | Status | DurationOutOfRange | Help


def _alternation(words: Sequence[str]) -> str:
    """Literal words as one regex alternation, longest first; a space stands for any spacing."""
    unique = sorted({w.strip() for w in words if w.strip()}, key=lambda w: (-len(w), w))
    if not unique:
        return "(?!)"
    return "(?:" + "|".join(r"\s+".join(re.escape(part) for part in w.split()) for w in unique) + ")"


_LATIN = re.compile(r"^[A-Za-z][A-Za-z\s'-]*$")


def _found(words: Sequence[str], *, whole_words: bool, anywhere: bool = False) -> re.Pattern[str]:
    """A search for any of ``words``: Latin ones as whole words (``anywhere``: even inside a Chinese
    sentence, "帮我focus半小时"), Chinese ones anywhere."""
    latin = [w for w in words if _LATIN.match(w)]
    other = [w for w in words if not _LATIN.match(w)]
    parts = []
    if latin:
        parts.append(("" if anywhere else r"\b") + _alternation(latin) + (r"\b" if whole_words else ""))
    if other:
        parts.append(_alternation(other))
    return re.compile("|".join(parts) or "(?!)", re.IGNORECASE)


class _Grammar:
    """The grammar for one set of installed apps: their words spliced into the generic patterns."""

    def __init__(self, apps: Sequence[DeclaredApp]) -> None:
        self.apps = list(apps)
        self.default = next((a for a in self.apps if a.default), None)
        # An app that starts nothing first: its words say where a line goes ("to my notes", 笔记里), so a
        # message naming it is about it, whatever other app's words the line holds.
        self.named = sorted(
            (
                a
                for a in self.apps
                if a is not self.default and (a.words["en"] or a.words["zh"] or a.patterns["en"] or a.patterns["zh"])
            ),
            key=lambda a: "start" in a.tools,
        )
        self.unitless = [a for a in self.apps if a.unitless_minutes and "start" in a.tools]
        self._compiled: dict[tuple[int, str], re.Pattern[str]] = {}
        self._read_tokens()
        self._read_words()
        self._read_work()
        keywords = {k.lower() for a in self.apps for k in a.keywords}
        self.swap_keywords = _SWAP_KEYWORDS + tuple(sorted(k for k in keywords if len(k) < 8))
        self.edit_keywords = _EDIT_KEYWORDS + tuple(sorted(k for k in keywords if len(k) >= 8))
        self.keywords = frozenset(self.swap_keywords + self.edit_keywords) | _KEYWORDS
        self.typos = {typo: word for a in self.apps for typo, word in a.typos.items()}
        self.typo_pattern = re.compile(_alternation(list(self.typos))) if self.typos else None

    def _read_tokens(self) -> None:
        """The ``@NAME@`` tokens the generic patterns are spliced with."""
        default = [self.default] if self.default else []
        en_nouns = [n for a in self.apps for n in a.nouns["en"]]
        zh_nouns = [n for a in self.apps for n in a.nouns["zh"]]
        self.tokens = {
            "EN_NOUNS": _alternation(en_nouns),
            "ZH_NOUNS": "(?i:" + _alternation(zh_nouns) + ")",
            # what never is an activity on its own: the default app's nouns and one-word words
            "EN_DEFAULT": _alternation([w for a in default for w in (*a.words["en"], *a.nouns["en"]) if " " not in w]),
            "EN_DEFAULT_NOUNS": _alternation([w for a in default for w in a.nouns["en"]]),
            # the first word of the default app's phrases ("lock" of "lock in"): left alone, no activity
            "EN_DEFAULT_HEADS": _alternation([w.split()[0] for a in default for w in a.words["en"] if " " in w]),
            "ZH_DEFAULT_NOUNS": "(?i:" + _alternation([w for a in default for w in a.nouns["zh"]]) + ")",
            # the default app's Chinese words ("专心读书" is 读书): a request word, no part of what it is for
            "ZH_DEFAULT_WORDS": _alternation([w for a in default for w in a.words["zh"] if not _LATIN.match(w)]),
        }

    def _read_words(self) -> None:
        """Each app's words, activities, nouns and choices, and the default app's words."""
        default = [self.default] if self.default else []
        self.default_words = {
            language: _found(
                [w for a in default for w in a.words[language]], whole_words=language == "en", anywhere=language == "zh"
            )
            for language in ("en", "zh")
        }
        self.app_words = {
            a.app_id: {language: _words_or_patterns(a, language) for language in ("en", "zh")} for a in self.apps
        }
        # A Chinese message's nouns anywhere, Latin ones too ("停止quiz"); an English one's as whole words.
        self.activities = {
            a.app_id: {
                language: re.compile("|".join(f"(?:{p})" for p in a.activities[language]) or "(?!)", re.IGNORECASE)
                for language in ("en", "zh")
            }
            for a in self.apps
        }
        self.nouns = {
            a.app_id: re.compile(
                f"{_found(a.nouns['en'], whole_words=True).pattern}|{_alternation(a.nouns['zh'])}", re.IGNORECASE
            )
            for a in self.apps
        }
        self.choices = {a.app_id: [(value, _choice_pattern(a, value)) for value in a.choices] for a in self.apps}

    def _read_work(self) -> None:
        """What each app does, declines and leaves unclear: what tells one app's request from another's."""
        # What an app does not do of its kind ("division"): a message naming it starts nothing.
        self.declines = re.compile(
            "|".join(f"(?:{p})" for a in self.apps for lang in ("en", "zh") for p in a.declines.get(lang, ()))
            or "(?!)",
            re.IGNORECASE,
        )
        # What chooses another app's work inside an activity: its words, patterns, activities and choices.
        self.work = {
            a.app_id: re.compile(
                "|".join(
                    part
                    for part in (
                        *(self.app_words[a.app_id][lang].pattern for lang in ("en", "zh")),
                        *(self.activities[a.app_id][lang].pattern for lang in ("en", "zh")),
                        *(pattern.pattern for _value, pattern in self.choices[a.app_id]),
                    )
                    if part and part != "(?!)"
                )
                or "(?!)",
                re.IGNORECASE,
            )
            for a in self.named
        }
        # Any installed app's work (the default app's words too): a clause naming it is no mere context.
        self.guard = re.compile(
            "|".join(
                p
                for p in (
                    *(self.work[a.app_id].pattern for a in self.named),
                    *(self.default_words[lang].pattern for lang in ("en", "zh")),
                )
                if p != "(?!)"
            )
            or "(?!)",
            re.IGNORECASE,
        )
        # Work that may be either app's ("maths"): as the whole of what a length is for, which app is asked.
        self.unclear = {
            language: re.compile(
                "|".join(f"(?:{p})" for a in self.apps for p in a.unclear.get(language, ())) or "(?!)", re.IGNORECASE
            )
            for language in ("en", "zh")
        }

    def __call__(self, template: _Template, app: DeclaredApp | None = None) -> re.Pattern[str]:
        """``template`` with the apps' words; with ``app``, its own nouns as ``@EN_APP@`` / ``@ZH_APP@``."""
        key = (id(template), app.app_id if app is not None else "")
        compiled = self._compiled.get(key)
        if compiled is None:
            tokens = dict(self.tokens)
            if app is not None:
                tokens["EN_APP"] = _alternation(app.nouns["en"])
                tokens["ZH_APP"] = "(?i:" + _alternation(app.nouns["zh"]) + ")"
            source = template.source
            for name, value in tokens.items():
                source = source.replace(f"@{name}@", value)
            compiled = self._compiled[key] = re.compile(source, template.flags)
        return compiled


def _choice_pattern(app: DeclaredApp, value: str) -> re.Pattern[str]:
    """The words (and patterns) of either language that choose ``value``."""
    words = _found([*app.choice_words["en"].get(value, ()), *app.choice_words["zh"].get(value, ())], whole_words=False)
    patterns = [p for lang in ("en", "zh") for p in app.choice_patterns[lang].get(value, ())]
    parts = [part for part in (words.pattern, *(f"(?:{p})" for p in patterns)) if part != "(?!)"]
    return re.compile("|".join(parts) or "(?!)", re.IGNORECASE)


def _words_or_patterns(app: DeclaredApp, language: Language) -> re.Pattern[str]:
    words = _found(app.words[language], whole_words=True).pattern
    patterns = "|".join(f"(?:{p})" for p in app.patterns[language])
    return re.compile("|".join(p for p in (words, patterns) if p and p != "(?!)") or "(?!)", re.IGNORECASE)


_GRAMMARS: dict[tuple[int, ...], _Grammar] = {}


def _grammar(apps: Sequence[DeclaredApp]) -> _Grammar:
    key = tuple(id(a) for a in apps)
    grammar = _GRAMMARS.get(key)
    if grammar is None:
        if len(_GRAMMARS) > 64:
            _GRAMMARS.clear()
        grammar = _GRAMMARS[key] = _Grammar(apps)
    return grammar


def _bound(app: DeclaredApp | None) -> int:
    return (app.max_duration_seconds if app is not None else None) or MAX_DURATION_SECONDS


def _another_duration(spans: list[Span], span: Span | None) -> bool:
    """A second duration apart from the first: two requests in one message ("a 10 min <one> and a 25
    minute <other>", "先做5分钟…然后…25分钟"), or no clear one — help, not a guess at which."""
    return span is not None and any(other.start >= span.end for other in spans)


def _named_start(
    g: _Grammar, app: DeclaredApp, text: str, spans: list[Span], joiner: str, language: Language
) -> Intent:
    """A start of a named app: its words and a duration ("<word> for 5 minutes"); without a duration,
    "how long?" (remembering the app and its choice, so that the answer starts it)."""
    span = first_duration(spans, text, joiner)
    named = {value for value, pattern in g.choices[app.app_id] if pattern.search(text)}
    # several values named ("plus and minus"): the app's default choice, never one of them
    choice = next(iter(named)) if len(named) == 1 else app.choice_default
    if _another_duration(spans, span):
        return Help(language=language)
    if span is None:
        return Help(language=language, missing_duration=True, app_id=app.app_id, choice=choice)
    whole = round(span.seconds)
    if not MIN_SECONDS <= whole <= _bound(app):
        return DurationOutOfRange(requested_seconds=span.seconds, language=language, app_id=app.app_id)
    return Start(app.app_id, whole, None, language, choice)


def as_answer(intent: Intent, app: DeclaredApp, choice: str | None) -> Intent:
    """The answer to "how long?" asked about ``app``: a bare duration starts it (within its bound), never
    the default app; anything else stays what it is."""
    if isinstance(intent, Start) and intent.activity is None and intent.app_id != app.app_id:
        if intent.duration_seconds > _bound(app):
            return DurationOutOfRange(
                requested_seconds=intent.duration_seconds, language=intent.language, app_id=app.app_id
            )
        return Start(app.app_id, intent.duration_seconds, None, intent.language, choice)
    return intent


_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]")


def detect_language(text: str) -> Language:
    return "zh" if _CJK.search(text) else "en"


# Keywords a typo is forgiven in. Short ones only for two swapped neighbours ("focsu", "stpo": a
# substitution would turn "step" into "stop"); long ones for one letter more, less or changed too
# ("pomodor", "minuts"), where no English word is that close.
# The apps add their own (their declared ``keywords``: under 8 letters swapped, from 8 edited too).
_SWAP_KEYWORDS = ("stop", "start", "hours", "minute", "seconds", "mins", "left")
_EDIT_KEYWORDS = ("minutes", "remaining", "session")
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


def _keyword_for(g: _Grammar, match: re.Match[str]) -> str:
    word = match.group(0)
    lower = word.lower()
    if len(lower) < 4 or lower in g.keywords:
        return word
    for keyword in g.swap_keywords:
        if _swapped(lower, keyword):
            return keyword
    for keyword in g.edit_keywords:
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


# Words spelt as they sound, too far from the keyword for an edit ("haf an our", "twenty minits", "stp").
_HEARD = tuple(
    (re.compile(pattern, re.IGNORECASE), meant)
    for pattern, meant in (
        (r"\bhaf\s+an\s+(?:h?our)\b", "half an hour"),
        (r"\bminits?\b|\bminuts?\b", "minutes"),
        (r"\bplees\b|\bpleez\b", "please"),
        (r"\bstp\b", "stop"),
        (r"\bhw(?=\s+(?:long|much|many|far)\b)", "how"),  # "hw long til break" ("chem hw" is homework)
        (r"\bstat(?=\s+(?:a|an|the|my)\b)", "start"),
        (r"\bfourty\b", "forty"),
        (r"\bwots?\b", "what's"),
        (r"\bninty\b", "ninety"),
    )
)


def _forgive_typos(g: _Grammar, text: str) -> str:
    text = re.sub(r"[A-Za-z]+", lambda match: _keyword_for(g, match), text)
    text = _BARE_CONTRACTIONS.sub(_contraction, text)
    text = re.sub(r"\br(?=\s+you\b)", "are", text, flags=re.IGNORECASE)  # "r u still timing me"
    text = re.sub(r"\bstil\b", "still", text, flags=re.IGNORECASE)  # not a keyword: "till" is one edit away
    for heard, meant in _HEARD:
        text = heard.sub(meant, text)
    text = re.sub(r"(?<=[\d零〇一二两三四五六七八九十半])\s*分中", "分钟", text)  # a homophone typed for 分钟
    # What the apps declare as typed by mistake (a pinyin homophone: "专住" for "专注").
    return g.typo_pattern.sub(_typo_fixed(g), text) if g.typo_pattern else text


def _typo_fixed(g: _Grammar) -> Callable[[re.Match[str]], str]:
    """The word meant for a typo; a symbol ("🍅") stands apart from what it touches ("🍅25min")."""
    return lambda match: g.typos[match.group(0)] if match.group(0).isalnum() else f" {g.typos[match.group(0)]} "


def parse_intent(text: str, apps: Sequence[DeclaredApp] = (), *, awaiting_duration: bool = False) -> Intent:
    """What ``text`` asks of the installed ``apps`` (their declarations, from the Inventory).
    ``awaiting_duration``: the Agent's last word here was "how long?", so a bare duration ("25
    minutes", "半小时", "25") is the answer, a start."""
    g = _grammar(apps)
    language = detect_language(text)
    # NFKC folds full-width digits and punctuation ("２５分钟", "！") into their ASCII forms.
    written = _tidy(unicodedata.normalize("NFKC", text).strip(), keep=g.typos)
    read = traditional.simplified(written)  # "專注25分鐘" is "专注25分钟"
    normalized = _forgive_typos(g, read)
    # "topic is X, 20 minutes": the label's value stands where it was (a Chinese label is cut with the activity)
    intent = _parse_message(
        g, clauses.unlabel(normalized, language) if language == "en" else normalized, language, awaiting_duration
    )
    if isinstance(intent, Start | Help) and intent.activity and read != written:
        intent = replace(intent, activity=traditional.in_their_characters(intent.activity, read, written))
    return intent


# A length said again to correct it ("focus 25 min, i mean 45", 专注二十分钟，还是四十五分钟吧): the last one.
_EN_CORRECTION = re.compile(
    r"(?:\b(?:um+|uh+|er+)\s*,?\s*)?\b(?:i\s+mean|actually|make\s+(?:it|that)|no\s+wait|wait\s+no|scratch\s+that|correction"
    r"|(?<=[,\s])(?:no|sorry|wait)(?:\s*,\s*(?:make\s+it|i\s+mean))?)[\s,:]*$",
    re.IGNORECASE,
)
_ZH_CORRECTION = re.compile(r"(?:还是|改成|改为|换成|不对|我是说|啊不|不不|不[，,]\s*(?:就)?(?:定为|改成)?)[\s,，]*$")
# A polite condition is no hypothetical ("if it's not too much trouble, …", 方便的话…).
_EN_POLITE_IF = re.compile(
    r"\bwould\s+it\s+be\s+(?:at\s+all\s+)?possible\s+(?:for\s+you\s+)?to\b"
    r"|\bif\s+(?:(?:it'?s|it\s+is|it\s+isn'?t)\s+(?:not\s+)?too\s+much\s+(?:of\s+an?\s+)?(?:trouble|bother|imposition)|you\s+(?:don'?t|do\s+not)\s+mind"
    r"|(?:at\s+all\s+)?possible|you\s+can|you\s+could|you\s+would|you\s+will|you\s+please|that'?s\s+(?:ok(?:ay)?|alright|fine))\b",
    re.IGNORECASE,
)
# Singlish: "can start a 30 min focus or not?", "… lah": a polite request, no negation.
_EN_SINGLISH = re.compile(
    r"[\s,]+(?:can\s+)?or\s+not\s*\??\s*$|[\s,]+(?:lah|leh|lor|hor)\b|[\s,]+can\s*\?+\s*$|^eh[\s,]+", re.IGNORECASE
)
_EN_GRATEFUL = re.compile(
    r"\bi(?:\s+would|'d)\s+(?:be\s+(?:very\s+|most\s+)?grateful|appreciate\s+it|appreciate(?=\s+(?:a|an|the)\b))",
    re.IGNORECASE,
)
_ZH_POLITE_IF = re.compile(r"(?:如果|要是)?(?:可以|方便|不麻烦)的话")


# No label wanted ("half an hour focus, no label", 不用写内容): nothing to cut an activity from, no negation.
_EN_NO_LABEL = re.compile(
    r"\b(?:no|without\s+(?:a|any))\s+(?:label|name|activity|topic|description|title)\b|\bdon'?t\s+(?:need\s+to\s+)?label\s+it\b",
    re.IGNORECASE,
)
_ZH_NO_LABEL = re.compile(r"(?:不用|不要|无需|不需要|没有|不)(?:写|加|填|设)?(?:内容|标签|名字|名称|备注|主题)")


# An apology around a request, and "don't disturb me" (what a focus is for): no negation, no request.
_EN_COURTESY = re.compile(
    r"^(?:(?:so\s+)?sorry(?:\s+to\s+bother(?:\s+you)?)?[\s,.!]*)+|[\s,.!?]*(?:so\s+)?sorry(?:\s+to\s+bother(?:\s+you)?)?[\s.!]*$"
    r"|\b(?:please\s+)?(?:don'?t|do\s+not)\s+disturb(?:\s+me)?\b",
    re.IGNORECASE,
)
_ZH_COURTESY = re.compile(
    r"^(?:(?:不好意思|抱歉|对不起|打扰了|打扰一下)[，,。!！\s]*)+"
    r"|(?:[，,。!！?？\s]*(?:抱歉|不好意思|对不起|打扰了|麻烦了|麻烦你了|谢谢(?:你|啦)?|多谢))+[。!！\s]*$"
    r"|(?:别|不要|请勿|勿)打扰(?:我)?"
)


# What the Agent can do, asked before a request in the same message ("what can you do? ok never mind, just
# start a 20 minute focus for email"): the request is what is asked.
_EN_ASKED_FIRST = re.compile(
    r"^(?:what\s+can\s+you\s+do|what\s+do\s+you\s+do|how\s+does\s+(?:this|it)\s+work)\s*\?+\s*"
    r"(?:(?:ok(?:ay)?|oh|cool|never\s*mind|nvm|anyway)[\s,.!]*)*(?=\S)",
    re.IGNORECASE,
)
_ZH_ASKED_FIRST = re.compile(
    r"^(?:你(?:都)?能(?:做|干)(?:什么|啥|些什么)|有(?:啥|什么)功能)[？?]\s*(?:(?:算了|哦|那|好)[，,]?)*(?=\S)"
)


def _as_meant(text: str, language: Language) -> str:
    """``text`` with a polite condition, an apology, a question about the Agent asked first and a label
    declined left out, and a corrected length replaced by its correction."""
    text = (_ZH_ASKED_FIRST if language == "zh" else _EN_ASKED_FIRST).sub("", text)
    text = (_ZH_COURTESY if language == "zh" else _EN_COURTESY).sub(" ", text).strip() or text  # "谢谢" alone stays
    text = (_ZH_POLITE_IF if language == "zh" else _EN_POLITE_IF).sub(" ", text)
    if language == "en":
        text = _EN_SINGLISH.sub(" ", _EN_GRATEFUL.sub(" ", text)).strip()
    text = (_ZH_NO_LABEL if language == "zh" else _EN_NO_LABEL).sub(" ", text)
    spans = (chinese_durations(text) or english_durations(text)) if language == "zh" else english_durations(text)
    if len(spans) < 2 or re.search(r"[?？吗呢]", text):
        return text  # "专注25分钟好还是50分钟好？" asks which, corrects nothing
    first, last = spans[0], spans[-1]
    marker = (_ZH_CORRECTION if language == "zh" else _EN_CORRECTION).search(text, first.end, last.start)
    if marker is None or marker.end() != last.start:
        return text
    return text[: first.start] + text[last.start : last.end] + text[first.end : marker.start()] + text[last.end :]


def _parse_message(g: _Grammar, normalized: str, language: Language, awaiting_duration: bool) -> Intent:
    parse = _parse_chinese if language == "zh" else _parse_english
    normalized = _as_meant(normalized, language)
    if _quoted_request(normalized):
        return Help(language=language)  # he said "<a request>": someone's words, not this person's request
    intent = _with_context(g, normalized, language, parse(g, normalized, awaiting_duration))
    vague = (_ZH_VAGUE if language == "zh" else _EN_VAGUE).search(normalized)
    if vague is not None and not isinstance(intent, Stop | Status):
        # "a few minutes of reading": a start whose length is not said — read as one to ask "how long?".
        placeholder = " 25分钟 " if language == "zh" else " 25 minutes "
        intent = parse(g, normalized[: vague.start()] + placeholder + normalized[vague.end() :], False)
        if isinstance(intent, Start):
            default = g.default is not None and intent.app_id == g.default.app_id
            return Help(
                language=language,
                missing_duration=True,
                activity=intent.activity,
                app_id=None if default else intent.app_id,
                choice=None if default else intent.choice,
            )
        return intent if isinstance(intent, Stop | Status) else Help(language=language)
    if isinstance(intent, Start | DurationOutOfRange) or (isinstance(intent, Help) and intent.missing_duration):
        if g.declines.search(normalized):
            return Help(language=language)  # work no installed app does ("division"): never another kind
    return intent


def _seconds(text: str, language: Language) -> float | None:
    spans = (chinese_durations(text) or english_durations(text)) if language == "zh" else english_durations(text)
    span = first_duration(spans, text, ZH_JOINER if language == "zh" else EN_JOINER)
    return span.seconds if span is not None else None


def _with_context(g: _Grammar, text: str, language: Language, intent: Intent) -> Intent:
    """A start asked in one clause among others that are only context (why, a greeting, what it is for,
    whom it is for: ``clauses.reduce``): that clause's start of the default app, with the activity the
    others name when it names none. Another app's start, a stop or a status stays what it is."""
    default = g.default
    if (
        default is None
        or isinstance(intent, Stop | Status)
        or (isinstance(intent, Start) and intent.app_id != default.app_id)
    ):
        return intent
    if (_ZH_SEQUENCE if language == "zh" else _EN_SEQUENCE).search(text):
        return intent  # one thing after another: never read as one of them
    # the request clause may ask by any app's words ("…, quiz him on times tables for 10 minutes")
    reduced = clauses.reduce(text, language, g.guard, g.guard, lambda c: _seconds(c, language))
    if reduced is None:
        return intent
    parse = _parse_chinese if language == "zh" else _parse_english
    # A bare length in the request clause ("25 minutes. reading. go.") starts the default app only when the
    # other clauses say what it is for: alone it could be either app's (two blind held-out sets: ask).
    alt = parse(g, reduced.core, reduced.activity is not None)
    if isinstance(alt, Start) and alt.app_id != default.app_id and not isinstance(intent, Start):
        return alt  # another app's start, asked among context: no activity to fill
    if not isinstance(alt, Start) or alt.app_id != default.app_id:
        return intent
    if isinstance(intent, Start) and intent.duration_seconds != alt.duration_seconds:
        return intent
    # what the whole message's reading named, when it is one of the other clauses as it stands ("专注 1秒 阅读")
    kept = (
        intent.activity
        if language == "zh" and isinstance(intent, Start) and intent.activity in reduced.context
        else None
    )
    # the request's own activity, unless it is only the default app's words and another clause says what
    # for ("deep work block 90 mins, code review": a 50 minute "deep work session" alone is deep work)
    own = alt.activity if not (alt.activity and g.default_words[language].fullmatch(alt.activity)) else None
    if own and reduced.activity and _before_its_length(own, reduced.core, language):
        own = None  # "烦请开启两小时专注，用于审阅招标文件": request words before the length, the work said apart
    activity = own or reduced.activity or alt.activity or kept
    return Start(alt.app_id, alt.duration_seconds, _clip(activity) if default.activity else None, language)


def _before_its_length(activity: str, core: str, language: Language) -> bool:
    spans = (chinese_durations(core) or english_durations(core)) if language == "zh" else english_durations(core)
    position = core.find(activity)
    return bool(spans) and 0 <= position < spans[0].start


# Emoji and other symbols, and a list's or a checklist's marker, are no part of a request ("- [ ] reading").
_LIST_MARKER = re.compile(r"^(?:[-*•·>]+\s*)?(?:\[\s*[xX✓ ]?\s*\]\s*)?")


def _tidy(text: str, keep: Collection[str] = ()) -> str:
    """``text`` without emoji and list markers, but for the symbols an app declares as its words ("🍅")."""
    kept = "".join(" " if unicodedata.category(c) in ("So", "Cs", "Co") and c not in keep else c for c in text)
    kept = kept.replace("\ufe0f", "").replace("\u200d", "")
    return re.sub(r"\s{2,}", " ", _LIST_MARKER.sub("", kept.strip())).strip()


_QUOTED = re.compile(r"[\"“「『]([^\"”」』]+)[\"”」』]")


def _quoted_request(text: str) -> bool:
    """A duration inside quotes ("he said 'focus 25 minutes'"): a request quoted, nobody's to act on."""
    return any(
        chinese_durations(quoted.group(1)) or english_durations(quoted.group(1)) for quoted in _QUOTED.finditer(text)
    )


# A length not said: "a few minutes", "some time", "几分钟".
# A range is one too ("20-30 min", "one or two hours", 二三十分钟, 一两个小时): which end is meant is a guess.
_EN_RANGE_NUMBER = rf"(?:\d+|{EN_WORD_NUMBER})"
_EN_VAGUE = re.compile(
    r"\b(?:a\s+few|few|some|several|a\s+bit\s+of|a\s+little)\s+(?:more\s+)?(?:minutes?|mins?|hours?|seconds?|secs?)\b"
    rf"|(?:(?<![\d/])\d+\s*(?:-|\u2013|\u2014|~)\s*\d+|\b{_EN_RANGE_NUMBER}\s*,?\s+(?:to|or|maybe|or\s+maybe)\s+{_EN_RANGE_NUMBER})"
    r"\s*-?\s*(?:minutes?|mins?|m|hours?|hrs?|h|seconds?|secs?|s)\b",
    re.IGNORECASE,
)
_ZH_VAGUE = re.compile(
    r"几\s*(?:个\s*)?(?:分钟|小时|钟头|秒钟?)|若干(?:分钟|小时)"
    r"|\d+\s*[-~～到至或]\s*\d+\s*(?:个\s*)?(?:分钟|分|小时|钟头|秒)"
    r"|(?:一两|两三|三四|三五|四五|五六|六七|七八|八九)(?:个\s*)?(?:分钟|小时|钟头|秒)"
    r"|(?:一二|二三|两三|三四|四五|五六)十(?:来)?(?:个\s*)?(?:分钟|小时|秒)"
    # two lengths offered, undecided ("四十分钟或者五十分钟吧")
    r"|(?:分钟|小时)\s*(?:或者|或是)\s*[\d零一二两三四五六七八九十]+\s*(?:个\s*)?(?:分钟|小时)"
)


# A noun of an app that counts unitless numbers ("<noun> 25"): minutes, up to its
# ``grammar.unitless_minutes``, beyond which the number is no clear duration.
_EN_UNITLESS = _Template(
    r"(?:(?:please|pls|ok(?:ay)?)\s+)?(?:(?:start|begin|set)\s+)?(?:(?:a|an|the|my)\s+)?"
    r"@EN_APP@\s*,?\s+(?:for\s+)?(?P<n>\d{1,3})(?:\s+(?:please|pls|now))?"
    # what it is for after the number ("pomodoro 25 refactoring the auth module"), never a count of rounds
    r"(?:[\s,:]+(?:on\s+|for\s+)?(?!(?:times?|x|rounds?|sessions?|in\s+a\s+row|more|again|breaks?|then|and)\b)(?P<act>[a-z][^\d]*?))?[\s.!]*",
    re.IGNORECASE,
)
_ZH_UNITLESS = _Template(
    r"(?:请|帮我|麻烦)?(?:开始|来个?|开个?)?\s*@ZH_APP@\s*(?P<n>\d{1,3})\s*(?:吧|好了)?"
    r"(?:[\s，,：:]*(?![个次轮遍回分秒小钟然再和])(?P<act>[\u4e00-\u9fff][^\d]*?))?[。.!！\s]*",
    re.IGNORECASE,
)


def _unitless(g: _Grammar, pattern: _Template, text: str, language: Language) -> Intent | None:
    for app in g.unitless:
        match = g(pattern, app).fullmatch(text)
        if match is not None and 1 <= int(match.group("n")) <= (app.unitless_minutes or 0):
            said = match.group("act")
            if said and (g(_ZH_NOT_A_FOCUS) if language == "zh" else _EN_NOT_A_FOCUS).search(text):
                return None  # "<noun> 25 tomorrow": not now
            activity = None
            if said and app.activity:
                activity = chinese_activity(g, said, None) if language == "zh" else clean_english_activity(g, said)
            return _start(app, int(match.group("n")) * 60, activity, language)
    return None


def _outcome(g: _Grammar, seconds: float, activity: str | None, language: Language) -> Intent:
    """A start of the default app (there is none to start: help)."""
    if g.default is None:
        return Help(language=language)
    return _start(g.default, seconds, activity if g.default.activity else None, language)


def _which_app(g: _Grammar, seconds: float, language: Language) -> Intent:
    """A length with no app and no work said: which app is asked (each installed app that takes it),
    never a guess at the default one; with none that takes it, help."""
    whole = round(seconds)
    if not any(_takes(app, whole) for app in g.apps):
        return Help(language=language)
    return Help(language=language, topic="which_app", duration_seconds=whole)


def _takes(app: DeclaredApp, seconds: int) -> bool:
    """Whether ``app`` starts with a length of ``seconds``."""
    return "start" in app.tools and "duration" in app.arguments and MIN_SECONDS <= seconds <= _bound(app)


def apps_taking(apps: Sequence[DeclaredApp], seconds: int) -> list[DeclaredApp]:
    """The installed apps a "which app?" question offers for ``seconds``, the default one first."""
    taking = [app for app in apps if _takes(app, seconds)]
    return sorted(taking, key=lambda app: not app.default)


def _start(app: DeclaredApp, seconds: float, activity: str | None, language: Language) -> Intent:
    whole = round(seconds)
    if not MIN_SECONDS <= whole <= _bound(app):
        return DurationOutOfRange(requested_seconds=seconds, language=language, app_id=app.app_id)
    return Start(app.app_id, whole, activity, language)


# What a stop names: everything ("停止quiz" and "stop the 阅读 timer" name an app by its nouns).
_STOP_ALL = re.compile(r"\b(?:everything|all(?!\s+right)|both)\b|全部|全都|都|所有|一切|统统", re.IGNORECASE)


def _stop_target(g: _Grammar, text: str, said: str | None = None) -> str | None:
    """What a stop names; ``said``: the clause that stops, among others that say why ("both are running —
    just stop the focus one", "两个都在跑，只停测验"): what it names, not what the why mentions."""
    if said is not None and (target := _stop_target(g, said)) is not None:
        return target
    named = [app.app_id for app in g.apps if g.nouns[app.app_id].search(text)]
    if _STOP_ALL.search(text) or len(named) > 1:
        return "all"
    return named[0] if named else None


# A stop that names what it keeps ("stop the <one> but keep the <other>", "除了<noun>都停了").
_EN_KEEP = re.compile(
    r"(?:\s*,\s*|\s+)(?:(?:but|and)\s+)?(?:keep(?:ing)?|leave|let|except(?:\s+for)?|apart\s+from|other\s+than|besides"
    r"|not\s+(?:the|my))\b(?P<kept>.*)$",
    re.IGNORECASE,
)
_EN_KEEP_LAST = re.compile(
    r"[,;]\s*(?:(?:but|and)\s+)?(?P<kept>(?:(?:the|my)\s+)?(?:\w+\s+)?\w+)\s+(?:stays(?:\s+on)?|keeps\s+(?:going|running)|can\s+(?:stay|keep\s+(?:going|running)|continue|go\s+on)"
    r"|continues|goes\s+on)[\s.!]*$",
    re.IGNORECASE,
)
_ZH_KEEP_FIRST = re.compile(
    r"^(?:除了|除开)(?P<kept>.+?)(?:以外|之外)?[,，\s]*(?=(?:其他|其它|别的|剩下的)?的?(?:都|全|也|统统))"
)
_ZH_KEEP_AFTER = re.compile(
    r"[,，\s]*(?:但是?|可是|不过|只)?\s*(?:保留|留着|留下|别停|不要停|不停|继续|别动)(?P<kept>.+)$"
    # the kept thing first, then the keep word ("停一下<noun>，<other noun>继续")
    r"|[,，\s]+(?:但是?|可是|不过)?(?P<kept_first>[^,，\s]{1,8}?)(?:继续|接着|留着|保留|别停|不要停|不停|别动|不动|留下|还要)(?:来|做|进行|着|吧|跑|运行|走)*[。.!！\s]*$"
)


def _stop_keeping(g: _Grammar, stop: str, kept: str, language: Language) -> Intent:
    """A stop of what is not kept: the one app it names (other than the kept), else the one other app
    that can be stopped; unclear (several, or nothing kept by name): help, never a stop of everything."""
    keeping = {app.app_id for app in g.apps if g.nouns[app.app_id].search(kept)}
    named = [app.app_id for app in g.apps if g.nouns[app.app_id].search(stop) and app.app_id not in keeping]
    if len(named) == 1:
        return Stop(language=language, target=named[0])
    others = [app.app_id for app in g.apps if "stop" in app.tools and app.app_id not in keeping]
    if keeping and not named and len(others) == 1:
        return Stop(language=language, target=others[0])
    return Help(language=language)


def _clauses(text: str, separators: str) -> list[str]:
    return [part.strip() for part in re.split(separators, text) if part.strip()]


def _all_clauses(text: str, separators: str, stop: re.Pattern[str], filler: re.Pattern[str]) -> bool:
    """Every clause is a stop or a filler, and at least one is a stop ("never mind, stop it, thanks"; what is
    stopped may stand apart: "quiz 不做了，stop")."""
    clauses = _clauses(text, separators)
    stops = [c for c in clauses if stop.fullmatch(c)]
    return bool(stops) and all(stop.fullmatch(c) or filler.fullmatch(c) for c in clauses)


# --- English -----------------------------------------------------------------------------------

_EN_SEPARATORS = r"[,;:.!?\u2026]+|\s+-\s+|\s*[\u2013\u2014]\s*|\s+(?:and|so|just)\s+"
_EN_POLITE = (
    r"(?:(?:ok(?:ay)?|hey|eh|gg|please|pls|kindly|now|so|well|actually|i\s+want(?=\s+stop)|can(?=\s+(?:stop|cancel|end))|alright|all\s+right|um+|uh+|oh|yeah|yes|no|right|hmm+|ugh+|argh+|meh|just)\s+"
    r"|(?:can|could|would|will)\s+you\s+(?:please\s+|kindly\s+)?|i(?:\s+want|\s+need|\s+would\s+like|'d\s+like|\s+wanna|\s+wish)\s+(?:you\s+)?to\s+"
    r"|i\s+wanna\s+|let'?s\s+|let\s+us\s+|lemme\s+|i\s+think\s+i'?(?:ll|d)\s+|i'?ll\s+|i\s+will\s+|you\s+can\s+|time\s+to\s+)*"
)
_EN_THING = r"(?:session|round|@EN_NOUNS@)"  # what runs: the apps' nouns
_EN_STOP_VERB = r"(?:stand\s+down|stop|stahp|cancel|abort|quit|halt|end|finish|terminate|interrupt|kill|turn\s+off|switch\s+off|shut\s+off|drop)"
_EN_STOP_PHRASE = (
    _EN_POLITE + r"(?:" + _EN_STOP_VERB + r"(?:\s+(?:the|my|this|current|that|our))?(?:\s+(?:current|running))?"
    # what is stopped: it, everything, or a thing by name ("the <noun>", "my <noun> session", "the math <noun>")
    r"(?:\s+(?:it|now|everything|all(?:\s+of\s+(?:it|them))?|both(?:\s+of\s+them)?"
    rf"|(?:\w+\s+)?{_EN_THING}(?:\s+{_EN_THING})?(?:\s+(?:one|thing|period|block|sprint|mode))?))?"
    rf"|(?:(?:the|my)\s+)?(?:\w+\s+)?{_EN_THING}\s+(?:(?:can|could|should|may)\s+(?:be\s+)?)?(?:stop|off|end|cancel|stopped|ended|finish|finished|over)"
    rf"|(?:turn|switch|shut)\s+(?:it|that|everything|(?:the|my|this)\s+(?:\w+\s+)?{_EN_THING})\s+off"
    rf"|cut\s+(?:it|(?:the|my|this)\s+(?:\w+\s+)?{_EN_THING})\s+short"
    r"|never\s*mind|nevermind|nvm|forget\s+(?:it|about\s+it)|(?:i'?m|i\s+am|we'?re)\s+(?:done|finished|through)(?:\s+now)?"
    r"|done(?:\s+now)?|enough(?:\s+for\s+(?:now|today))?|that'?s\s+enough|(?:that'?s|that\s+is)\s+it(?:\s+for\s+(?:now|today))?"
    r"|no\s+more(?:\s+@EN_NOUNS@)?|(?:i\s+)?give\s+up(?:\s+on\s+(?:the|this|my|that)\s+(?:\w+\s+)?@EN_NOUNS@)?|call\s+it\s+a\s+day"
    r"|i\s+(?:don'?t|do\s+not)\s+want\s+to\s+(?:@EN_NOUNS@|continue|keep\s+going|go\s+on|do\s+(?:this|it)(?:\s+now)?)(?:\s+any\s*more)?"
    r"|i'?m\s+not\s+(?:doing|@EN_NOUNS@\s+on)\s+(?:this|it)(?:\s+any\s*more)?"
    r")(?:\s+(?:now|please|pls|already|then|anymore|any\s+more|for\s+now|for\s+today|right\s+now|thanks|thank\s+you|early|too|as\s+well))*"
)
# A stop said once or more in one breath ("ok im done stop stop stop", "i give up stop the quiz").
_EN_STOP_CLAUSE = _Template(r"^" + _EN_STOP_PHRASE + r"(?:\s+" + _EN_STOP_PHRASE + r")*$", re.IGNORECASE)
_EN_FILLER_CLAUSE = re.compile(
    r"^(?:(?:ok(?:ay)?|please|pls|thanks|thank\s+you|thx|sorry|oh|hmm+|um+|well|then|actually|yeah|yes|no|alright|all\s+right|fine|lol|sure"
    r"|ugh+|argh+|meh|gg|brb)\s*)+$",
    re.IGNORECASE,
)
# Anything opening with these is about stopping, even with more words ("stop the 25 minute one").
_EN_STOP_LEADING = re.compile(
    r"^"
    + _EN_POLITE
    + r"(?:stop|stahp|cancel|abort|halt|interrupt)\b(?!\s+(?:me|him|her|them|us|you|myself|people)\b)",
    re.IGNORECASE,
)
_EN_STATUS = _Template(
    r"\bhow\s+(?:much|long|many)(?:\s+\w+){0,4}\s+(?:left|remaining|remain|longer|to\s+go)\b"
    r"|\b(?:time|minutes|mins|seconds|hours)\s+(?:left|remaining|to\s+go)\b|\bremaining\s+time\b"
    r"|\bhow\s+long\s+(?:till|til|'til|until|before)\s+(?:it|this|the|my|i'?m|i\s+am|i'?ll|i\s+can|we)\b"
    r"|^(?:what'?s\s+the\s+)?status\b|^(?:quick\s+)?time\s+check\b|\bhow\s+far\s+(?:along\s+)?(?:am\s+i|are\s+we|is\s+it)\b|^(?:(?:the|my)\s+)?(?:\w+\s+)?@EN_NOUNS@\s+status\b|\bstatus\s+(?:of|on)\s+(?:the|my)\b|\bwhat(?:'s|\s+is)\s+(?:running|left|remaining|on\s+now|going\s+on)\b"
    # "is my <noun> still going", "is the reading <noun> over yet", "is it over yet"
    rf"|\b(?:is|are)\s+(?:a|the|my|any|this|that)\s+(?:\w+\s+)?{_EN_THING}\s+(?:still\s+)?(?:running|on|going|over|done|finished|up)(?:\s+(?:yet|now))?(?:\s+or\s+(?:not|did\s+it\s+(?:end|stop|finish)|is\s+it\s+(?:over|done)))?(?:[\s.!]*$|\s*\?)"
    rf"|\bhow\s+far\s+(?:into|along\s+in(?:to)?|in(?:to)?)\s+(?:the|my|this)\s+(?:\w+\s+)?{_EN_THING}\b"
    r"|^(?:is|are)\s+(?:it|we)\s+(?:still\s+going|over|done|finished)\s+yet\b|\bhow\s+long\s+have\s+(?:i|we)\s+got\b"
    r"|\b(?:are\s+you|is\s+it)\s+still\s+(?:timing|running|going|counting)\b"
    r"|^(?:is\s+it\s+|are\s+we\s+)?still\s+(?:going|running|on)\b|\bis\s+it\s+(?:still\s+)?(?:running|going|on)\b"
    r"|\bhow\s+much\s+(?:more\s+time|time\s+more)\b|\bwhat(?:'s|\s+is)\s+(?:currently\s+)?(?:active|running)\b"
    r"|^(?:time\s+)?(?:left|remaining)(?:\s+on\s+(?:the\s+|my\s+)?\w+)?\s*\?+$|\bwhat\s+\w+\s+do\s+i\s+have\s+(?:going|running|on)\b|^(?:are\s+(?:you|we)\s+|am\s+i\s+)?still\s+@EN_NOUNS@\b|\bhow\s+much\s+time\s+(?:remains|is\s+left)\b"
    rf"|\bwhat'?s\s+the\s+(?:\w+\s+)?{_EN_THING}\s+at\b|\bis\s+there\s+(?:a|an|any)\s+(?:\w+\s+)?{_EN_THING}\s+(?:going|running|on)\b|\bhow\s+long\s+(?:have\s+)?i(?:'ve|\s+am|'m)?\s+(?:been\s+)?@EN_NOUNS@\b|\bwhat(?:'s|\s+is)\s+on\b"
    r"|\bam\s+i\s+(?:still\s+)?(?:in\s+(?:a\s+|the\s+)?)?@EN_NOUNS@\b|\bhow\s+am\s+i\s+doing\s+(?:on|for)\s+time\b|\bwhat\s+(?:am|was)\s+i\s+(?:@EN_NOUNS@\s+on|working\s+on|doing)\b"
    rf"|\bwhen(?:'s|\s+does|\s+will|\s+is)\s+(?:it|this|(?:the|my)\s+{_EN_THING})\s+(?:end|finish|over|done|up|be\s+(?:done|over))\b"
    r"|\bwhere\s+(?:are\s+we|am\s+i|is\s+it)\s+at\s+(?:with|on)\s+(?:the|my)\s+(?:\w+\s+)?@EN_NOUNS@\b"
    r"|\bhow\s+long\s+(?:has\s+it\s+been|have\s+(?:i|we)\s+been\s+(?:going|at\s+it|@EN_NOUNS@))\b"
    r"|\bhow\s+(?:many|much|long)\s+(?:\w+\s+)?(?:till|until|til|'til|before)\s+(?:the\s+|my\s+)?(?:end|break)\b"
    rf"|\bhow\s+(?:many|much|long)\s+(?:\w+\s+)?(?:till|until|before)\s+(?:the\s+|my\s+)?(?:\w+\s+)?{_EN_THING}\s+(?:ends?|finishes|is\s+(?:over|done|up))\b"
    r"|^(?:(?:is|are)\s+)?(?:anything|something|any\s+\w+|both(?:\s+of\s+them)?|they)\s+(?:still\s+)?(?:running|on|going)\b"
    rf"|\bwhich\s+(?:one\s+)?(?:is|'s)\s+(?:running|on|going)\b|\bwhich\s+one'?s\s+(?:running|on|going)\b|\bhow\s+far\s+along\s+is\s+(?:the|my)\s+(?:\w+\s+)?{_EN_THING}\b"
    rf"|\bhow\s+much\s+time\s+(?:is\s+)?(?:left\s+)?on\s+(?:the|my)\s+(?:\w+\s+)?{_EN_THING}\b|\bhow\s+much\s+of\s+.+\s+(?:remains?|is\s+left)\b"
    rf"|^(?:(?:the|my)\s+)?(?:\w+\s+)?{_EN_THING}\s+still\s+(?:running|going|on)[\s?.!]*$"
    rf"|\bhow(?:'s|\s+is)\s+(?:my|the)\s+(?:\w+\s+)?{_EN_THING}\s+(?:going|getting\s+on|doing)\b",
    re.IGNORECASE,
)
# A stop word anywhere makes a message no start, whatever else it says ("25 minutes, stop").
_EN_STOP_WORD = re.compile(
    r"\b(?:stop|stahp|cancel|abort|quit|halt|terminate|interrupt|never\s*mind|nevermind|forget\s+it|give\s+up|i'?m\s+done)\b",
    re.IGNORECASE,
)
_EN_QUESTION = re.compile(
    r"^(?:(?:lol|lmao|haha+|omg|wait|hmm+|um+|uh+)[\s,!.]+)?(?:what(?!\s+about)|what's|whats|why|how(?!\s+about)|when|who|which|where|is|are|was|were|did|does|do\s+you|should)\b"
    # a modal whose subject is not "you", "we" or "I" asks about something: "can it be an hour long?"
    r"|^(?:can|could|would|will|may|might)\s+(?!(?:you|u|ya|we|i|start|begin|set|stop|do|help\s+me|give\s+me)\b)"
    # (but "can my son do a 3 minute quiz" asks for one, for him)
    r"(?!(?:my|our)\s+(?:\w+\s+)?(?:son|daughter|kids?|child|boy|girl)\s+(?:do|have|try|take|get)\s+(?:a|an|the|some)\b)\w",
    re.IGNORECASE,
)
# Someone else opening a message: their doing, not this person's request (unless one follows: _EN_OWN_REQUEST).
_EN_SOMEONE = (
    r"^(?:(?:my|our|his|her|their)\s+(?:\w+\s+)?(?:brother|sister|friends?|mom|mum|mother|dad|father|teacher|kids?|son|daughter|classmates?"
    r"|roommates?|flatmates?|housemates?|neighbou?rs?|cousins?|aunt|uncle|grandma|grandpa|niece|nephew|wife|husband|partner|boss"
    r"|coworkers?|colleagues?)|he|she|they|someone|somebody|everyone|everybody"
    # anyone reported on ("my runners are doing a tempo run", "my labmate started a 1 hour focus")
    r"|(?:my|our|his|her|their)\s+(?:\w+\s+)?\w+\s+(?:(?:is|are|was|were)\s+(?:doing|having|taking|running|working|studying|playing|on|in)"
    r"|started|finished|did|set)\b"
    # a group reported on ("my students are doing a quiz"), not one the request is for ("my class wants a quiz")
    r"|(?:my|our)\s+(?:students?|pupils?|class|team|players?|patients?|clients?|staff|trainees?)"
    r"\s+(?:is|are|was|were|did|does|has|have|just)\b)"
)
# The person's own request after someone else's need ("my daughter needs 10 min of <app's work>, start it").
_EN_OWN_REQUEST = re.compile(
    r"[,.;!]\s*(?:(?:ok(?:ay)?|so)\s+)?(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?(?:start|begin|set\s+up|run|kick\s+off)"
    r"\s+(?:it|that|this|one)(?:\s+(?:for\s+(?:her|him|them)|please|pls|now|up))*[\s?.!]*$|[,.;!]\s*go[\s.!]*$",
    re.IGNORECASE,
)
_EN_NOT_A_FOCUS = re.compile(
    r"\b(?:don'?t|do\s+not|never|no|not|rest|nap|sleep|snooze|remind|alarm|yesterday|ago|last|was|were|had|did|tomorrow(?!'s)|tonight|later)\b"
    # a break taken (not "lunch break brain warmup: …"), a wait (not "while I wait for orders")
    r"|\bbreak\b(?<!lunch\sbreak)(?<!coffee\sbreak)(?<!on\sbreak)(?!\s+room)|\bwait\b(?!\s+for\b)"
    # someone named doing it ("Mrs Li is doing her crossword"), a should said with no will ("I should … but meh")
    r"|^(?:(?:mr|mrs|ms|miss|dr)\.?\s+)?\w+\s+is\s+(?:doing|working|studying|reading|playing|having|taking)\b"
    r"|\bis\s+(?:that|it|this)\s+(?:better|worse|good|ok(?:ay)?|enough|normal|healthy|too\s+\w+)\b|\bshould\s+probably\b|\bprobably\s+should\b|\bbut\s+(?:meh|nah|eh)\b"
    r"|\bin\s+(?:\d|an?\s|half|one|two|three|four|five|ten|fifteen|twenty|thirty)"  # "in 5 minutes": later, not now
    r"|\bfrom\s+now\b|\bsoon\b"
    r"|^i\s+(?!need\b)\w+ed\b"  # "I studied for an hour" (but "I need")
    # hypotheticals ("if I started a timer…", "would a 50 minute one be too long"), a score asked back
    r"|\b(?:if|whether|suppose|imagine|would(?!\s+(?:you|u|like|love)\b)|score|hate)\b|\bhow\s+did\s+i\s+do\b|\bget\s+right\b"
    # can't, habits, wishes, someone else's words, a time of day or a day ("I can't focus for 25 minutes",
    # "I usually study for an hour", "my teacher said to…", "at 3pm…", "on monday…"), a length judged
    r"|\b(?:can't|cannot|couldn't|won't|shouldn't|wouldn't|isn't|wasn't|usually|always|often|sometimes|normally|daily"
    r"|every\s+(?:day|morning|evening|night|week|time)|wish(?!\s+to\b)|hope|said|says|told|tells)\b"
    # music played, not a start ("play some lo-fi for 30 min")
    r"|\bplay\s+(?:me\s+)?(?:some|a\s+bit\s+of)\b|\b(?:lo-?fi|white\s+noise|rain\s+sounds|playlist|spotify)\b"
    # a joke asked for, not a start ("tell me a joke about pomodoros")
    r"|\btell\s+me\s+(?:a\s+)?(?:joke|story|fact)\b|\bjoke\b"
    # a call back when something is done ("ping me when the 10 minute spin is done"): a reminder
    r"|\b(?:ping|call|buzz|text)\s+me\b|\b(?:let\s+me\s+know|tell\s+me)\s+when\b"
    # what no app does, asked beside one ("can you play lo-fi music while I focus", "make the timer ring louder")
    r"|\b(?:louder|quieter|volume|ringtone|vibrat\w*|ring)\b"
    r"|\bplay\s+(?:some\s+|me\s+|the\s+)?(?:[\w-]+\s+){0,2}(?:music|songs?|playlists?|noise|sounds|tunes)\b"
    r"|\bat\s+\d{1,2}(?::\d{2})?\s*(?:am|pm|o'?clock)?\b(?!\s*(?:min|mins|minutes?|hours?|hrs?|h|m)\b)|\bnext\s+(?:week|month|time)\b|\btoo\s+(?:long|short|much|hard|easy|difficult|boring)\b"
    r"|(?<!\bfor\s)\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b(?!'s)|\bweekend\b"
    # after something else ("after lunch start a 30 min focus"): later, not now
    r"|\bafter\s+(?!that\b)(?:lunch|dinner|breakfast|school|class|work|practice|the\s+\w+|my\s+\w+|i\b|we\b)"
    # a statement about a thing, no request: "<noun> sounds like a pasta", "<noun> is hard"
    r"|^(?:(?:lol|haha+|lmao|omg|ok|so|wow)\s+)?(?:(?:the|a|my)\s+)?(?:\w+\s+)?\w+\s+(?:sounds|looks|seems|is|means|tastes)\b"
    # someone else's doing ("my brother is doing…", "she wants…"), done already, a score reported
    r"|" + _EN_SOMEONE + r"\b"
    r"|^(?:just\s+|already\s+)?(?!need\b|speed\b)(?!mixed\b)[a-z]+ed\s+(?:a|an|the|my|for|\d)\b|\b(?:already|finished|completed)\b"
    r"|\bgot\s+(?:a\s+)?\d+(?!\s*(?:minutes?|mins?|hours?|hrs?|seconds?|secs?|m|h|s)\b)|\bscored\b"
    r"|\d\s*/\s*\d+(?!\s*(?:of\s+)?(?:an?\s+)?(?:hours?|hrs?|h|minutes?|mins?)\b)|\b\d+\s+out\s+of\s+\d+|\b\d+\s+(?:right|wrong|correct)\b"
    r"|^say\s+(?:i|we)\b|\bwhat\s+if\b|\bthen\s+what\b"
    # another verb on what runs: it is no start (pause, reset, extend, "add 5 more minutes")
    r"|\b(?<!my\s)(?<!the\s)(?<!your\s)(?<!a\s)(?:pause[sd]?|pausing|resume|reset|restart|extend|lengthen|shorten|prolong)\b|\b(?:add|give\s+me)\s+(?:\S+\s+)?more\b|\bby\s+\d"
    # rounds over again ("2 x 25 min", "x2", "twice"): one start would be a part of it, a guess
    r"|\b\d+\s*x\b|\bx\s*\d+\b|\b(?:twice|thrice|\d+\s+(?:rounds|sessions)|every|each|per)\b"
    # a liking said, no request ("I love focusing")
    r"|^i\s+(?:really\s+)?(?:love|like|enjoy|hate)\b",
    re.IGNORECASE,
)
# Small talk opening a message with no duration ("hi! love the app"): help, not "how long?".
_EN_GREETING_LEAD = re.compile(r"^(?:hi|hello|hey|hiya|yo|thanks|thank\s+you|thx)\b[\s!,.]", re.IGNORECASE)
# A request frame after what it is for ("25 minutes of reading, can you time that"): no part of the activity.
_EN_FRAME = _Template(
    r"[\s,;.]+(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?(?:time|track|clock|start|set|begin|run)\s+"
    r"(?:that|it|this|(?:the|a|my)\s+(?:@EN_DEFAULT_NOUNS@\s+)?(?:@EN_DEFAULT_NOUNS@|session))"
    r"(?:\s+(?:please|pls|for\s+me|now))*[\s?.!]*$",
    re.IGNORECASE,
)
# A bare number beside a duration, right after the default app's word or alone ("<word> 25 for 10 minutes",
# "10 minutes, 25"): which one is meant is unclear ("chapter 3 for 20 minutes" is what it is for).
_EN_NUMBER_BESIDE = _Template(
    r"^(?:(?:start|begin|set|a|an|the|my)\s+)*(?:@EN_DEFAULT@\s+)?\d+\s*(?:,|for|or)?\s*\u00a7|\u00a7\s*(?:,|or)\s*\d+\b",
    re.IGNORECASE,
)
_EN_START_VERB = re.compile(
    r"^" + _EN_POLITE + r"(?:start|begin|run|set|kick\s+off|give\s+me|do|spend|go|get)\b|^(?:how|what)\s+about\b",
    re.IGNORECASE,
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


# A message that only asks what the Agent can do, the whole message: one definition for both built-in
# Agents (the LLM Agent answers it with the apps' own words instead of asking its model).
_HELP_ONLY = re.compile(
    r"^(?:help|help\s+me|commands|menu|usage|what\s+can\s+(?:you|i)\s+do(?:\s+here)?|what\s+do\s+you\s+do"
    r"|what\s+are\s+you|how\s+does\s+(?:this|it)\s+work|what\s+apps\s+(?:are\s+there|do\s+you\s+have)"
    r"|帮助|帮忙|求助|你能做什么|你可以做什么|你能做些什么|你可以做些什么|能做什么|可以做什么|你会什么|有什么功能|怎么用|如何使用|使用说明)"
    r"$",
    re.IGNORECASE,
)
_HELP_AROUND = re.compile(
    r"^(?:please|pls|请|那)\s*|\s*(?:please|pls|呢|啊|呀|吗)?[\s?？!！.。~～,，]*$", re.IGNORECASE
)


def is_help_request(text: str) -> bool:
    """The whole message asks for help ("help", "what can you do?", "帮助", "你能做什么？")."""
    text = unicodedata.normalize("NFKC", text).strip()
    return bool(_HELP_ONLY.match(_HELP_AROUND.sub("", _HELP_AROUND.sub("", text)).strip()))


def _small_talk(
    text: str, language: Language, help_: re.Pattern[str], greeting: re.Pattern[str], thanks: re.Pattern[str]
) -> Help | None:
    if is_help_request(text):
        return Help(language=language, topic="help")
    for pattern, topic in ((help_, "help"), (greeting, "greeting"), (thanks, "thanks")):
        if pattern.search(text):
            return Help(language=language, topic=topic)  # type: ignore[arg-type]
    return None


def _named(g: _Grammar, text: str, languages: tuple[Language, ...]) -> DeclaredApp | None:
    """The first app other than the default whose words or patterns ``text`` uses."""
    return next((app for app in g.named if any(g.app_words[app.app_id][lang].search(text) for lang in languages)), None)


def _activity_of_another(g: _Grammar, activity: str | None, language: Language) -> DeclaredApp | None:
    """The app other than the default whose declared ``activities`` the whole activity is ("multiplication
    5 min", "乘法5分钟": that app's start, not the default app's named after it)."""
    if not activity:
        return None
    return next((app for app in g.named if _only_its_work(g, app, activity, language)), None)


_ARTICLE = re.compile(r"\b(?:a|an|the)\b", re.IGNORECASE)


def _only_its_work(g: _Grammar, app: DeclaredApp, activity: str, language: Language) -> bool:
    """The activity is ``app``'s work, maybe with its noun ("addition", "an addition test", "减法测验"); a
    possessive or a study word beside it is studying for one ("my addition test"): not only its work."""
    work = g.activities[app.app_id][language]
    if work.fullmatch(activity):
        return True
    if "start" not in app.tools or not work.search(activity):
        return False
    rest = g.nouns[app.app_id].sub(" ", work.sub(" ", activity))
    return not (_ZH_WORK_LEFT.sub("", rest) if language == "zh" else _ARTICLE.sub(" ", rest).strip(" ,"))


# Two things joined ("times tables and spelling", 背单词和做加法): an app's start only when its words read both.
_JOINED = re.compile(r"\b(?:and|with)\b|&|和|跟|与|还有|以及|加上", re.IGNORECASE)
# What is left of an activity once another app's work is taken out: request words and joiners only.
_EN_WORK_LEFT = re.compile(
    r"\b(?:and|on|my|some|the|a|an|of|for|with|doing|do|me|to|practi[cs]e|practi[cs]ing|session|round|please|pls"
    r"|like|just|only|about|quick)\b|[\s,.!?;:'\"-]+",
    re.IGNORECASE,
)
_ZH_WORK_LEFT = re.compile(r"[和跟与做练习刷考测学一下会儿些点几道题个的呗吧啊呀嘛哦我\s,，。.!！?？、:：]+")


# The same in Chinese: "考我英语单词", "测测他历史" — the subject follows the person tested.
_ZH_TOPIC = re.compile(r"(?:考|测|问)(?:考|测|一下)?(?:我|他|她|我们|孩子|儿子|女儿|小朋友|学生|宝宝|大家)(?![的们])")
# A placeholder for the work ("something", "whatever"): no work said.
_EN_PLACEHOLDER = re.compile(r"\b(?:something|anything|stuff|whatever|smth|sth)\b", re.IGNORECASE)
# A subject named for the person ("quiz me on french verbs", "test him about capitals"): the app's start only
# when its words read all of the subject; another subject is work it does not do — help, never its default.
# Someone tested on a subject, where no app's words named it: a subject none of them quizzes.
_EN_TESTED_ON = re.compile(
    r"\b(?:test|quiz|drill|examine)\s+(?:me|him|her|us|them|the\s+\w+)\s+(?:on|about)\b", re.IGNORECASE
)
_EN_TOPIC = re.compile(r"\b(?:me|him|her|us|them)\s+(?:on|about)\s+\w", re.IGNORECASE)


def _start_of_named(
    g: _Grammar,
    app: DeclaredApp,
    text: str,
    spans: list[Span],
    activity: str | None,
    topic: re.Pattern[str],
    language: Language,
) -> Intent:
    """A start of the app ``text`` names, unless more is asked beside its work: the default app's words, a
    joined activity or a subject named for the person that its work does not read whole; or two apps."""
    beside = g.default_words[language].search(text) or _JOINED.search(activity or "") or topic.search(text)
    if (beside and _more_than_its_work(g, app, activity, language)) or _two_apps_joined(g, app, text, language):
        return Help(language=language)
    return _named_start(g, app, text, spans, EN_JOINER if language == "en" else ZH_JOINER, language)


def _more_than_its_work(g: _Grammar, app: DeclaredApp, activity: str | None, language: Language) -> bool:
    """A start of ``app`` asked inside the default app's words ("<default word> 10 min on <app's work>"):
    that app's start when its words read all of the activity; more besides ("…and my essay") is unclear."""
    if not activity:
        return False
    rest = g.work[app.app_id].sub(" ", activity)
    return bool((_ZH_WORK_LEFT if language == "zh" else _EN_WORK_LEFT).sub("", rest))


# Studying a subject ("study multiplication", 背乘法表, 乘法作业, "math homework"): the default app's work, as
# the corpus has it, even where another app's words name the subject. Without such a word, another app's
# work inside an activity is that app's start (its words read all of it) or unclear, never a focus.
_STUDY = re.compile(
    r"\b(?:stud(?:y|ying|ied)|learn(?:ing)?|revis(?:e|ing|ion)|review(?:ing)?|homework|notes?|exam|lesson|class|chapter)\b"
    # a test of one's own ("my multiplication test"), not one asked for ("an arithmetic test of 30 minutes")
    r"|\b(?:my|our|his|her|their|for|tomorrow'?s|friday'?s)\s+(?:\w+\s+){0,2}tests?\b"
    r"|作业|功课|复习|预习|背|学习|(?:我的|明天的?|下周的?|准备|为了)[^，,。]{0,6}考试|考试(?:复习|准备)|课|笔记|讲义|试卷",
    re.IGNORECASE,
)


def _another_apps_work(g: _Grammar, activity: str | None) -> bool:
    """An activity of the default app that chooses another app's work in part ("addition and my essay",
    "做乘法和写作文"): which one is meant is unclear — help, never a start named after the other's work."""
    if not activity:
        return False
    started = [app for app in g.named if "start" in app.tools]
    return any(g.work[app.app_id].search(activity) for app in started)


def _work_beside(g: _Grammar, text: str, activity: str | None, language: Language) -> bool:
    """Another app's work said outside what the default app's start would be for ("20 min of sums with my
    twins" -> "my twins"), with no word of the default app: which one is meant is unclear."""
    if g.default_words[language].search(text):
        return False
    for app in g.named:
        work = g.activities[app.app_id][language]
        if "start" not in app.tools or work.pattern == "(?!)":
            continue
        said = re.search(rf"\b(?:{work.pattern})\b" if language == "en" else work.pattern, text, re.IGNORECASE)
        if said is not None and not (activity and work.search(activity)):
            return True
    return False


def _only_another_apps_noun(g: _Grammar, activity: str | None) -> bool:
    """The activity is only what another app runs ("test 10 min", "quiz 5 min" said without its words)."""
    return bool(activity) and any(
        g.nouns[app.app_id].fullmatch(activity or "") for app in g.named if "start" in app.tools
    )


# One thing after another ("20 min reading then times tables", "先测验5分钟，再看书"): two requests, or a
# plan — which to start is a guess. A "then" that ends the message is a filler ("20 min of coding then").
_EN_SEQUENCE = re.compile(r"\bthen\s+\w|\b(?:after\s+that|afterwards|followed\s+by|and\s+later)\b", re.IGNORECASE)
_ZH_SEQUENCE = re.compile(r"然后|接着|之后再|完了再|再去|先[^，,。]+[，,。\s]+再")


def _sequence(g: _Grammar, text: str, sequence: re.Pattern[str]) -> bool:
    """One app's start after another, or after a length ("25 min reading then times tables"): two requests.
    What follows that names no app nor length is what the person does next ("focus 20min then I pick up
    the kids"): no second request."""
    then = sequence.search(text)
    if then is None:
        return False
    after = text[then.start() :]
    return bool(g.guard.search(after) or chinese_durations(after) or english_durations(after))


def _two_apps_joined(g: _Grammar, app: DeclaredApp, text: str, language: Language) -> bool:
    """The default app's words and another app's joined ("quiz 5 min and focus"): two requests, not one;
    a joiner inside the other app's own words ("addition and subtraction") is no second request."""
    return bool(g.default_words[language].search(text)) and bool(_JOINED.search(g.work[app.app_id].sub(" ", text)))


def _own_request(text: str, someone: str, request: re.Pattern[str]) -> str:
    """Someone else's need followed by the person's own request for an app's work ("my daughter needs 10 min
    of addition practice, start it", "孩子要练乘法，开个10分钟的<noun>"): the request is this person's, so
    the opening no longer makes it someone else's doing. Without a request after it, ``text`` as it is."""
    if request.search(text) is None:
        return text
    return re.sub(someone, "", text, count=1, flags=re.IGNORECASE)


# Words that only say "let's go" ("ok lets do this.", "no distractions", "phone away"): a start, no activity.
_EN_GO = re.compile(
    r"(?:^|(?<=[,.!;]))\s*(?:(?:ok(?:ay)?|alright|all\s+right|right)[,\s]+)?let'?s\s+(?:do\s+(?:this|it)|go)(?=\s*(?:[,.!;]|$))",
    re.IGNORECASE,
)
_EN_NO_DISTRACTIONS = re.compile(
    r"[,.;!]\s*(?:(?:no|zero)\s+(?:distractions?|breaks?|interruptions?)|phones?\s+(?:away|off|down)|let'?s\s+go)(?:\s+(?:please|pls))?(?=\s*(?:[,.!;]|$))",
    re.IGNORECASE,
)
# "20 more minutes of studying": a length, said as more of it (not "add 5 more minutes": another verb).
_EN_MORE = re.compile(r"(?<=\d)\s+more(?=\s+(?:minutes?|mins?|hours?|hrs?|seconds?|secs?)\b)", re.IGNORECASE)
# "grind chem for 45": a bare number where a length goes — minutes? hours? — ask how long, never a guess.
_EN_FOR_NUMBER = re.compile(r"(?P<act>.+?)\s+for\s+\d{1,3}[\s.!?]*", re.IGNORECASE)


# "stop procrastinating", "quit scrolling": a habit stopped, not what runs (unless it is an app's noun: "timing").
_EN_STOP_HABIT = re.compile(
    r"\b(?:stop|quit)\s+(?!\w*thing\b|morning\b|evening\b|ring\b|king\b|spring\b|string\b)(?P<ing>\w+ing)\b",
    re.IGNORECASE,
)


_EN_STOP_THEN_START = re.compile(
    r"\b(?:stop|cancel|end|kill|quit)\b.*(?:\band\b|\bthen\b|[,;])\s*(?:then\s+)?(?:start|begin|do|give\s+me|quiz|run)\b",
    re.IGNORECASE,
)
_ZH_WHY = re.compile(r"为什么|为啥|怎么回事|怎么就|咋就")
_ZH_STOP_THEN_START = re.compile(
    r"(?:停|结束|取消|关掉?)[^，,。]*[，,。\s]+(?:然后|再|接着)?(?:帮我)?(?:开|来|开始|启动)"
)


def _en_stop_after_why(g: _Grammar, text: str) -> str | None:
    """The stop said last after why, or first before it ("this quiz is too hard, end it", "end my focus
    please, something came up", "both are running, stop the quiz"): no duration, no negation nor doubt."""
    clauses = _clauses(text, _EN_SEPARATORS)
    if len(clauses) < 2 or english_durations(text):
        return None
    if re.search(
        r"\b(?:don'?t|do\s+not|not|never|no|if|keep|should|would|was\s+(?:going\s+to|gonna|about\s+to)|wanted\s+to"
        r"|thinking\s+(?:of|about))\b",
        text,
        re.IGNORECASE,
    ):
        return None  # a doubt or a plan dropped ("I was going to start a focus… never mind"): no stop
    stop = g(_EN_STOP_CLAUSE)
    return next((c for c in (clauses[-1], clauses[0], *clauses[1:-1]) if stop.fullmatch(c)), None)


def _parse_english(g: _Grammar, text: str, awaiting_duration: bool) -> Intent:
    """An English message read in order: a stop, a status or small talk; a start of the app it names; a start
    of the default app (or help, or a question back)."""
    if not re.search(r"\b(?:add|give|extend|another)\b", text, re.IGNORECASE):
        text = _EN_MORE.sub("", text)
    text = _EN_NO_DISTRACTIONS.sub("", _EN_GO.sub(" start ", text)).strip()
    for reading in (_en_stop_status_or_talk, _en_start_of_named):
        intent = reading(g, text)
        if intent is not None:
            return intent
    return _en_start(g, text, awaiting_duration)


def _en_stop_status_or_talk(g: _Grammar, text: str) -> Intent | None:
    keep = _EN_KEEP_LAST.search(text) or _EN_KEEP.search(text)  # "…, the timer can keep going" names what it keeps
    if keep is not None:
        stop = text[: keep.start()]
        if (
            _all_clauses(stop, _EN_SEPARATORS, g(_EN_STOP_CLAUSE), _EN_FILLER_CLAUSE)
            or _EN_STOP_LEADING.match(stop)
            or _en_stop_after_why(g, stop)
        ):
            return _stop_keeping(g, stop, keep.group("kept"), "en")
    habit = _EN_STOP_HABIT.search(text)
    if habit is not None and not any(g.nouns[a.app_id].fullmatch(habit.group("ing")) for a in g.apps):
        return Help(language="en")  # "I need to stop procrastinating, …": a habit, no app stopped
    if _EN_STOP_THEN_START.search(text) and english_durations(text):
        return Help(language="en")  # "stop the focus and start a 10 min quiz": two requests, never half of them
    if _all_clauses(text, _EN_SEPARATORS, g(_EN_STOP_CLAUSE), _EN_FILLER_CLAUSE) or _EN_STOP_LEADING.match(text):
        return Stop(language="en", target=_stop_target(g, text))
    said = _en_stop_after_why(g, text)
    if said is not None:
        return Stop(language="en", target=_stop_target(g, text, said))
    if g(_EN_STATUS).search(text):
        return Status(language="en")
    talk = _small_talk(text, "en", _EN_HELP, _EN_GREETING, _EN_THANKS)
    if talk is not None:
        return talk
    if _sequence(g, text, _EN_SEQUENCE):
        return Help(language="en")
    return None


def _en_start_of_named(g: _Grammar, text: str) -> Intent | None:
    named = _named(g, text, ("en",))
    if named is not None and "start" not in named.tools:
        return Help(language="en")  # about an app that is not started ("add to my notes: …")
    if named is not None and not (
        _EN_NOT_A_FOCUS.search(_own_request(text, _EN_SOMEONE, _EN_OWN_REQUEST)) or _EN_QUESTION.match(text)
    ):
        spans = english_durations(text)
        activity = english_activity(g, text, first_duration(spans, text, EN_JOINER))
        return _start_of_named(g, named, text, spans, activity, _EN_TOPIC, "en")
    return None


def _en_start(g: _Grammar, text: str, awaiting_duration: bool) -> Intent:
    """A start of the default app: its length first (none, two, a bare one, one beside a number), then what
    it is for (another app's work, work that is unclear, a placeholder)."""
    spans = english_durations(text)
    span = first_duration(spans, text, EN_JOINER)
    if _another_duration(spans, span):
        return Help(language="en")
    if span is None and _EN_GREETING_LEAD.match(text):
        return Help(language="en")
    if span is not None and g(_EN_NUMBER_BESIDE).search(f"{text[: span.start]}{_MARK}{text[span.end :]}"):
        return Help(language="en")  # "<word> 25 for 10 minutes": which one is meant?
    frame = g(_EN_FRAME).search(text)
    framed = text[: frame.start()] if span is not None and frame is not None and frame.start() >= span.end else text
    if span is None and awaiting_duration:
        bare = re.fullmatch(
            r"(?:about\s+|maybe\s+|just\s+)?(\d{1,4})(?:\s*(?:please|pls))?[\s.!]*", text, re.IGNORECASE
        )
        if bare:  # "25" after "how long?" means minutes
            return _outcome(g, int(bare.group(1)) * 60, None, "en")
    if span is None and (unitless := _unitless(g, _EN_UNITLESS, text, "en")) is not None:
        return unitless
    if _EN_QUESTION.match(text) or _EN_NOT_A_FOCUS.search(text) or _EN_STOP_WORD.search(text):
        return Help(language="en")
    if span is None and (bare_for := _EN_FOR_NUMBER.fullmatch(text)) is not None:
        return Help(language="en", missing_duration=True, activity=clean_english_activity(g, bare_for.group("act")))
    if span is not None and english_bare(text, span):
        # "let's do 30 minutes" names no app: only the answer to "how long?" starts one; otherwise which
        # app is asked (two blind held-out sets agreed: never a guess at the default one).
        return _outcome(g, span.seconds, None, "en") if awaiting_duration else _which_app(g, span.seconds, "en")
    return _en_start_for(g, text, spans, span, framed)


def _en_start_for(g: _Grammar, text: str, spans: list[Span], span: Span | None, framed: str) -> Intent:
    """The default app's start once its length is read: what it is for decides between it, another app,
    a question back and help."""
    activity = english_activity(g, framed, span) if g.default is not None and g.default.activity else None
    if span is not None and activity and not g.default_words["en"].search(text) and g.unclear["en"].fullmatch(activity):
        return _which_app(g, span.seconds, "en")  # "let's do 15 minutes of maths": a quiz or homework?
    if _EN_TESTED_ON.search(text):
        return Help(language="en")  # "test me on capitals for 10 min": a subject no installed app quizzes
    other = _activity_of_another(g, activity, "en") if span is not None else None
    if other is not None:
        return _named_start(g, other, text, spans, EN_JOINER, "en")
    if (
        (_only_another_apps_noun(g, activity) and not g.default_words["en"].search(text))
        or (
            _another_apps_work(g, activity)
            and (g.default_words["en"].search(text) or not _STUDY.search(activity or ""))
        )
        or (span is not None and _work_beside(g, text, activity, "en"))
    ):
        return Help(language="en")
    if (
        span is not None
        and activity is None
        and _EN_PLACEHOLDER.search(text)
        and not g.default_words["en"].search(text)
    ):
        return _which_app(g, span.seconds, "en")  # "start something for 20 min": neither an app nor its work said
    meant = bool(g.default_words["en"].search(text) or _EN_START_VERB.match(text) or activity)
    if (
        not meant
        or g.default is None
        or (span is None and not (g.default_words["en"].search(text) or _EN_START_VERB.match(text)))
    ):
        return Help(language="en")  # "haha my cat walked on the keyboard": no start said, no length: noise
    if span is None:
        return Help(language="en", missing_duration=True, activity=activity)
    return _outcome(g, span.seconds, activity, "en")


# --- Chinese -----------------------------------------------------------------------------------

_ZH_SEPARATORS = r"[,，。.!！?？;；、~～…\s]+"
_ZH_STOP_LEAD = (
    r"(?:其他|其它|别的|剩下的|烦请|好的?|好了|好吧|嗯|哎|唉|那|那就|那我|请|帮我|把|快|赶紧|赶快|只|只要|能不能|能|麻烦你?|现在|马上|先|我|我要|我想|我们|还是|可以|你|给我|就|今天(?!不)"
    r"|全部|全都|都|所有的?|统统|一起|两个|俩)*"
)
# What a stop names: a running thing by an app's noun, maybe with what it is for ("阅读<noun>", "乘法<noun>";
# never a time: "取消明天的<noun>" is no stop of this one).
_ZH_THING = (
    r"(?:(?:(?!明天|后天|昨天|下午|上午|晚上|早上|中午|刚才|为什么|为啥|怎么|是不是)[\u4e00-\u9fff]){0,4}?@ZH_NOUNS@)"
)
_ZH_ACTIVITY_VERBS = r"(?:@ZH_NOUNS@|做|学|看|读|写|练|背|考|测|计时?|继续|弄|干|搞|学习|复习|阅读|冥想|工作|练习|写作业|做作业|看书|读书|玩|坚持)"
_ZH_STOP_CORE = (
    r"(?:(?i:stop|cancel|quit|end)|停止|停下来?|停掉|停了|结束|取消|终止|中止|中断|停咗佢?|停埋佢?|唔做[喇啦了]|唔使计时?[喇啦]?|停|算了|罢了|放弃|够了|不要了|不用了|到此为止|(?:就|先)?(?:做|练|学|写|考)?到这(?:里|儿)?|停一停|收工|关掉?|撤销|退出"
    rf"|不(?:想|要|用)?再?{_ZH_ACTIVITY_VERBS}(?:下去|[题书琴课字]|作业|功课)?了|别再?{_ZH_ACTIVITY_VERBS}(?:下去)?了?|不(?:想|要)继续(?:下去)?)"
)
_ZH_STOP_CLAUSE = _Template(
    # the thing may come first ("<noun>不做了", "把<noun>关了") or after ("结束阅读<noun>", "停止<noun>")
    rf"^{_ZH_STOP_LEAD}(?:把|这个|那个)?\s*{_ZH_THING}?\s*(?:题|作业|功课)?\s*(?:那个|这个)?\s*(?:也|都|就|先|可以|提前|就先|先提前|马上|立刻|赶紧)?\s*我?\s*(?:提前|先)?"
    rf"(?:{_ZH_STOP_CORE}\s*(?:一下)?\s*(?:这次|这个|那个|那次|当前|现在的|掉)?\s*(?:的)?\s*(?:{_ZH_THING}(?:时段|模式|时间)?|所有的?|全部|一切)?"
    r"\s*(?:吧|了|啦|呢|啊|呀|哦|好了|好吗)*)+$"
)
_ZH_FILLER_CLAUSE = re.compile(
    r"^(?:好|好的|好吧|嗯|哎|唉|哎呀|谢谢|谢啦|那|那个|抱歉|对不起|哈|啊|呀|吧|了|行|行吧|ok|OK|烦|烦死了|我|累了|好累|太累了|累死了|困了|晕|天哪)+$"
)
# What is stopped may stand apart from the stop ("quiz 不做了，stop").
_ZH_FILLER_OR_THING = _Template(_ZH_FILLER_CLAUSE.pattern[:-3] + r"|(?:把|这个|那个)?@ZH_NOUNS@)+$")
_ZH_STATUS = _Template(
    r"还(?:剩|有|要|差|余)(?:@ZH_NOUNS@|做|练|考|等|学)?(?:多久|多少|几|多长)|它(?:还)?在(?:运行|跑|走|计时)|有没有(?:开着|在跑|在运行)的|@ZH_NOUNS@(?:进行)?到哪(?:了|儿|里)?|剩(?:下|余)?(?:多少|多久|几|的时间)|剩余(?:时间|时长)|(?:是|现在)?在?@ZH_NOUNS@(?:在(?:跑|运行|进行))?还是(?:在)?@ZH_NOUNS@|^还剩[?？]+$|仲有(?:几耐|几多|几长)|时间到了(?:没|吗|没有)|(?:多久|什么时候|几点)(?:才)?(?:结束|完成|完|好|到)"
    r"|@ZH_NOUNS@?(?:结束|完成|好)了(?:吗|没有?)|(?:@ZH_NOUNS@|进行)了?(?:多久|多长时间)了|进行到哪|在@ZH_NOUNS@(?:什么|吗)|@ZH_NOUNS@(?:还在|进行)(?:吗|中吗)|(?:现在|当前)(?:的)?(?:状态|进度)|(?:正|现在)在?(?:进行|运行|跑|@ZH_NOUNS@)(?:什么|啥)"
    r"|有(?:东西|什么|啥|任何)?(?:在|正在)(?:运行|进行|跑)|(?:两个|俩)都还?在(?:跑|运行|进行)|开着(?:什么|啥)|@ZH_NOUNS@(?:还)?开着(?:吗|没|呢)|(?:什么|啥)状态|状态(?:如何|怎样|怎么样)"
    r"|@ZH_NOUNS@\s*的?\s*(?:状态|进度)|^(?:现在)?进度(?:怎么样|如何|咋样|怎样)|(?i:(?<![a-z])status(?![a-z]))|^(?:现在|当前)?的?(?:状态|进度)(?:呢|如何|怎么样|咋样)?[?？。.!！\s]*$|(?:还|现在|正)在@ZH_NOUNS@(?:模式)?(?:吗|中吗|没有?)|是不是(?:还|现在|正)?在@ZH_NOUNS@|@ZH_NOUNS@(?:还|现在)?在(?:跑|进行|走|运行)?(?:吗|中吗)"
)
# A status asked of a day gone ("我昨天专注完成了吗？"): no status of what runs now.
_ZH_PAST = re.compile(r"昨天|前天|上次|上回|上一?轮|上周|上个?星期|上个?月")
_ZH_STOP_WORD = re.compile(r"停(?!车|电|水)|结束|取消|终止|中止|中断|算了|放弃|不做了")  # 停车: parking
_ZH_QUESTION = re.compile(r"什么|为什么|怎么|怎样|如何|多久|多长|多少|是不是|是否|哪|啥|干嘛")
# A question ending in 吗 that is no polite request ("这个难吗", but not "可以…五分钟吗").
_ZH_YES_NO = re.compile(
    r"^(?![你您]?(?:可以|可不可以|能不能|能|请|帮我|麻烦|给我|来)).*(?<!好|以|行|能)吗[?？。!！\s]*$"
)  # "25分钟够吗", "一个小时会累吗" ask; "…25分钟好吗", "…可以吗" are polite requests
_ZH_SOMEONE = (
    r"^(?:我的?|我们的?)?(?:弟弟|哥哥|姐姐|妹妹|妈妈|爸爸|同学们?|朋友们?|室友|老师|孩子|儿子|女儿|同事|老公|老婆|男朋友|女朋友)"
    r"|^我(?:弟|哥|姐|妹|妈|爸|儿|女)(?:在|也|都|正|刚|要|想|说|开)"
    r"|^[\u4e00-\u9fff]?(?:奶奶|爷爷|外婆|外公|阿姨|叔叔|大爷|大妈|老师|同学|同事|老板)(?:在|正在|也在)"
    r"|^(?:他|她)们?(?:在|也|都|正|刚|要|想|说|开)|^(?:大家|别人|有人)"
    r"|^(?:我的?)?(?:学生|徒弟|队员|病人|员工|孩子们|同学们)们?(?:在|正在|也在|都在)"
)
# The person's own request after someone else's need ("孩子要练<app's work>，开个10分钟的<noun>").
_ZH_OWN_REQUEST = re.compile(
    r"[，,。\s]+(?:请|麻烦你?)?(?:帮(?:他|她|我|孩子)|给(?:他|她|我|孩子))?(?:开|来|开始|启动|定|做|出)(?:一?个)?(?![^，,。]*[吗？?])"
)
_ZH_NOT_A_FOCUS = _Template(
    # hypotheticals (如果…), a score asked back, "不做…" (not + a verb), "做了十分钟" (a verb + 了 + a duration: past)
    r"如果|假如|假设|要是|的话|成绩|得分|分数|答对|讨厌|不(?:@ZH_NOUNS@|做|学|看|读|写|练|背|考)|@ZH_NOUNS@(?:挺|很|真|蛮|超)"
    r"|(?:@ZH_NOUNS@|做|学|看|读|写|练|背|考|弹)了\s*(?:\d|[零〇一二两俩三四五六七八九十半])"
    # can't (不了, 没法), didn't (没做), habits (每天, 平时), wishes, someone else's words, a time of day or
    # a day (三点, 周一, 下周), a length judged (太长)
    r"|不了|(?<!能)不能|没法|没办法|做不到|没有?(?:@ZH_NOUNS@|做|学|看|读|写|练|背|考)|每天|每次|每周|每晚|平时|通常|经常|总是|往往|一般"
    # a time gone by and what one did then ("上大学时我都是专注50分钟一轮", "以前我…")
    r"|以前|从前|当年|那时候?|小时候|上学(?:的)?时|上大学(?:的)?时|读书(?:的)?时|都是|上次|上回|上一?轮|太(?:难|简单|容易)|不是要|不是想|只是问|本来|原本|原来想|结果"
    r"|下(?:一)?(?:节|堂)课|让(?:学生|孩子|他|她|大家)们?"
    r"|@ZH_NOUNS@是(?!不是)|比[^，,。]{0,8}还|放(?:点|些|一下|首)?[^，,。]{0,4}?(?:音乐|歌|白噪音|噪音)|希望|但愿|(?:老师|妈妈|爸爸|我妈|我爸|他|她|他们|别人|朋友|同学)(?:说|让我|叫我)|说(?:要|让)"
    r"|\d{1,2}\s*点|[两三四五六七八九十]点|十[一二]点|周[一二三四五六日天末]|星期|礼拜|下周|下个?月|太(?:长|短|久|多|少)|"
    r"昨天|前天|刚才|刚刚|已经|休息(?!时间)|睡觉|午睡|打盹|不要开始|别开始|不想|不要|别|提醒|闹钟|叫我|喊我|通知我|(?:秒|分钟?|小时|钟头|天)(?:以|之)?后|"
    # someone else's doing, done already, a score, another verb on what runs, rounds over again, a liking
    + _ZH_SOMEONE
    + r"|"
    r"(?:@ZH_NOUNS@|做|学|看|读|写|练|背|考)完|完成了|搞定了|得了|拿了|答对|答错|暂停|重置|重新开始|重来|重启|延长|加长|缩短|再加|多加|加时|续时|"
    r"[两二三四五六七八九十\d]\s*(?:次|轮|遍|个@ZH_NOUNS@)|^我(?:很|真|超|最)?(?:喜欢|爱)|"
    r"以后|之后|饭后|课后|下课|下班后|回家后|吃完[早午晚]?饭|过会|待会|等会|等下|等一下|(?<![注心练学做看读写算])一会|回头|晚点|稍后|改天|下次|下回|明早|明晚|后天|失败|明天(?!的)|今晚|晚上|下午|上午|早上|中午"
)
_ZH_START_VERB = re.compile(
    r"^(?:(?:好的?|好吧|行|嗯+|那就?|ok)[，,\s]+)*(?:请|帮我|麻烦你?|我要|我想|我准备|我打算|现在|让我|咱们|我们|再|又|就|先|那|那就)*\s*(?:开始|来|start|begin|定时|定个时|开一?个)"
    r"|[，,。\s](?:开始|start)(?:吧|啦)?[。!！\s]*$",  # "那就30分钟吧，开始"
    re.IGNORECASE,
)
_ZH_HELP = re.compile(
    r"^(?:帮助|帮忙|求助|help)$|你能做什么|你可以做什么|能做些?什么|可以做些?什么|怎么用|如何使用|有什么功能|你会什么|使用说明"
)
_ZH_GREETING = re.compile(r"^(?:你好|您好|嗨|哈喽|哈啰|早上好|下午好|晚上好|早|在吗)[呀啊！!。~～\s]*$")
_ZH_THANKS = re.compile(r"^(?:谢谢|多谢|感谢|谢啦|谢了)")


_ZH_GREETING_LEAD = re.compile(r"^(?:你好|您好|嗨|哈喽|哈啰|谢谢|(?i:hi|hello|hey))[呀啊！!。,，~～\s]")
_ZH_NUMBER_BESIDE = _Template(
    r"^(?:请|帮我|开始|来个?)*(?:@ZH_DEFAULT_NOUNS@)?\s*\d+\s*[,，或]?\s*\u00a7|\u00a7\s*[,，或]\s*\d+(?!\s*[\d个章页题道])"
)
# A request frame after what it is for ("25分钟看书，帮我计时"): no part of the activity.
_ZH_FRAME = re.compile(
    r"[,，。\s]+(?:请|帮我|麻烦你?|给我)?(?:开始)?(?:计时|计个时|定时|开始)(?:一下|吧|啦)*[。!！\s]*$"
)


# A placeholder where the activity goes ("开始点什么10分钟", "随便干点啥"): a start with no activity said.
_ZH_PLACEHOLDER = re.compile(
    r"(?:随便)?(?:做|干|弄|搞|来|学)?点儿?(?:什么|啥|东西)|随便(?:做|干|弄|搞)?(?:点|些)?(?:什么|啥)?"
)


def _zh_stop_after_why(g: _Grammar, text: str) -> str | None:
    """The stop said last after why, or first before it ("临时有事，先停了吧", "测验先停一下吧，我去接个电话"):
    no duration, no negation nor question in the why."""
    parts = _clauses(text, _ZH_SEPARATORS)
    if len(parts) < 2 or chinese_durations(text) or english_durations(text):
        return None
    stop = g(_ZH_STOP_CLAUSE)
    for said, why in ((parts[-1], parts[:-1]), (parts[0], parts[1:])):
        why_said = "".join(why).replace("不好意思", "")  # "sorry" is no negation
        asked = re.sub(r"^(?:能不能|可不可以|能|可以)(.+?)吗$", r"\1", said)  # "能帮我停一下测验吗": a request
        if stop.fullmatch(asked) and not re.search(
            r"不|别|没|如果|要是|假如|的话|继续|保留|留着|再说|等会|待会|回头|[?？吗]", why_said
        ):
            return said
    return None


def _parse_chinese(g: _Grammar, text: str, awaiting_duration: bool) -> Intent:
    """A Chinese message read in order, as an English one is (see ``_parse_english``)."""
    if chinese_durations(text) or english_durations(text):
        text = _ZH_PLACEHOLDER.sub(" 开始 ", text).strip()
    for reading in (_zh_stop_status_or_talk, _zh_start_of_named):
        intent = reading(g, text)
        if intent is not None:
            return intent
    return _zh_start(g, text, awaiting_duration)


def _zh_stop_status_or_talk(g: _Grammar, text: str) -> Intent | None:
    first, after = _ZH_KEEP_FIRST.search(text), _ZH_KEEP_AFTER.search(text)
    for keep, stop in ((first, text[first.end() :] if first else ""), (after, text[: after.start()] if after else "")):
        if (
            keep is not None
            and stop
            and (
                _all_clauses(stop, _ZH_SEPARATORS, g(_ZH_STOP_CLAUSE), _ZH_FILLER_CLAUSE)
                or _zh_stop_after_why(g, stop) is not None
            )
        ):
            return _stop_keeping(g, stop, keep.group("kept") or keep.group("kept_first"), "zh")
    if _ZH_WHY.search(text):
        return Help(language="zh")  # "为什么专注提前结束了？": a question about a stop, none asked
    if _ZH_STOP_THEN_START.search(text) and (chinese_durations(text) or english_durations(text)):
        return Help(language="zh")  # "停掉专注，开一个十分钟的测验": two requests
    if _all_clauses(text, _ZH_SEPARATORS, g(_ZH_STOP_CLAUSE), g(_ZH_FILLER_OR_THING)):
        return Stop(language="zh", target=_stop_target(g, text))
    if (said := _zh_stop_after_why(g, text)) is not None:
        return Stop(language="zh", target=_stop_target(g, text, said))
    close = re.sub(r"\s+", "", text)  # "⏳ 还 🤔 有 ⏰ 多久？": emoji between the words
    if (g(_ZH_STATUS).search(close) or g(_EN_STATUS).search(text)) and not _ZH_PAST.search(text):
        return Status(language="zh")
    talk = _small_talk(text, "zh", _ZH_HELP, _ZH_GREETING, _ZH_THANKS)
    if talk is not None:
        return talk
    if _sequence(g, text, _ZH_SEQUENCE) or _sequence(g, text, _EN_SEQUENCE):
        return Help(language="zh")
    return None


def _zh_start_of_named(g: _Grammar, text: str) -> Intent | None:
    named = _named(g, text, ("zh", "en"))
    if named is not None and "start" not in named.tools:
        return Help(language="zh")
    if named is not None and not (
        g(_ZH_NOT_A_FOCUS).search(_own_request(text, _ZH_SOMEONE, _ZH_OWN_REQUEST))
        or _ZH_QUESTION.search(text)
        or _ZH_YES_NO.match(text)
    ):
        spans = chinese_durations(text) or english_durations(text)
        activity = chinese_activity(g, text, first_duration(spans, text, ZH_JOINER))
        return _start_of_named(g, named, text, spans, activity, _ZH_TOPIC, "zh")
    return None


def _zh_start(g: _Grammar, text: str, awaiting_duration: bool) -> Intent:
    """A start of the default app, read as ``_en_start`` reads one."""
    spans = chinese_durations(text) or english_durations(text)  # "<noun> 25 min 写作业" mixes both
    span = first_duration(spans, text, ZH_JOINER)
    if _another_duration(spans, span):
        return Help(language="zh")
    if span is None and _ZH_GREETING_LEAD.match(text):
        return Help(language="zh")
    if span is not None and g(_ZH_NUMBER_BESIDE).search(f"{text[: span.start]}{_MARK}{text[span.end :]}"):
        return Help(language="zh")
    frame = _ZH_FRAME.search(text)
    framed = text[: frame.start()] if span is not None and frame is not None and frame.start() >= span.end else text
    if span is None and awaiting_duration:
        bare = re.fullmatch(r"(?:就|那就|大概)?\s*(\d{1,4})\s*(?:吧|好了)?[\s.!。！]*", text)
        if bare:  # "25" after "要多久？" means minutes
            return _outcome(g, int(bare.group(1)) * 60, None, "zh")
    if span is None and (unitless := _unitless(g, _ZH_UNITLESS, text, "zh")) is not None:
        return unitless
    if (
        _ZH_QUESTION.search(text)
        or g(_ZH_NOT_A_FOCUS).search(text)
        or _ZH_STOP_WORD.search(text)
        or _EN_STOP_WORD.search(text)
        or _ZH_YES_NO.match(text)
    ):
        return Help(language="zh")
    return _zh_start_for(g, text, spans, span, framed, awaiting_duration)


def _zh_start_for(
    g: _Grammar, text: str, spans: list[Span], span: Span | None, framed: str, awaiting_duration: bool
) -> Intent:
    """The default app's start once its length is read, as ``_en_start_for`` decides one."""
    activity = chinese_activity(g, framed, span) if g.default is not None and g.default.activity else None
    if span is not None and activity and not g.default_words["zh"].search(text) and g.unclear["zh"].fullmatch(activity):
        return _which_app(g, span.seconds, "zh")  # "做十五分钟数学": a quiz or homework?
    if _ZH_TOPIC.search(text):
        return Help(language="zh")  # "考小朋友拼音": a subject no installed app quizzes
    other = _activity_of_another(g, activity, "zh") if span is not None else None
    if other is not None:
        return _named_start(g, other, text, spans, ZH_JOINER, "zh")
    if (
        (_only_another_apps_noun(g, activity) and not g.default_words["zh"].search(text))
        or (
            _another_apps_work(g, activity)
            and (g.default_words["zh"].search(text) or not _STUDY.search(activity or ""))
        )
        or (span is not None and _work_beside(g, text, activity, "zh"))
    ):
        return Help(language="zh")
    focus_word = g.default_words["zh"].search(text)
    if span is not None and activity is None and not focus_word:
        # Nothing but a duration ("25分钟", "就半小时吧", "来十分钟", "开个30分钟的"): an answer to "how long?", or
        # unclear — two apps take a duration.
        return _outcome(g, span.seconds, None, "zh") if awaiting_duration else _which_app(g, span.seconds, "zh")
    meant = bool(focus_word or _ZH_START_VERB.search(text) or (span is not None and activity))
    if not meant or g.default is None:
        return Help(language="zh")
    if span is None:
        return Help(language="zh", missing_duration=True, activity=activity)
    return _outcome(g, span.seconds, activity, "zh")
