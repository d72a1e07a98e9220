"""What the model's text and arguments may say, checked against the person's words and the Runtime's answers (pure).

A small model says "I have a 25 minute focus on reading" having called nothing, answers a Chinese
message in English, asks for 285 s when the person said 25 minutes, and sometimes writes its tool
call as text. The Agent does not trust any of that (decision 0051):

- ``claims(text)``: which kinds of action the text claims happened — ``start`` ("I've started…",
  "focus is running", "已开始"), ``stop`` ("I stopped…", "已停止") or ``result`` ("completed", "you
  scored", "已记下"). A claim that no tool answer of the turn confirms is not posted. The patterns
  are deliberately wide (a truthful reply they catch is replaced by a templated one that is also
  true); negations ("I haven't started", "还没开始") are not claims. What runs is named by generic
  words ("timer", "session", "专注") or by an installed app's name or declared nouns (the Inventory's
  ``apps``, decision 0057): no app's words are written here (issue 36). A question claims nothing
  ("Want a test on fractions?"), nor does a match right after a negation (没有 / 未 / 不, not / didn't).
- ``durations_said(text)``: the durations a text names, in seconds: a reply naming a length none of
  the started ones has is not posted either.
- ``wrong_script(text, language)``: a reply in the other script than the person's language (or, to a
  Chinese person, with English sentences in it); ``echoes(text, instructions)``: a reply reciting the
  system prompt.
- ``written_tool_call(text)``: a tool call written as text (``<tool_call>``, a JSON object with a
  name and arguments) — a malformed tool call: refused, never shown raw, never acted on.
- ``ungrounded_numbers(arguments, words)``: the numbers of a call that the person did not say (with
  its unit: "25 minutes" grounds only 25·60 = 1500 for a duration argument; only a bare "25"
  is ambiguous, 25 or 1500 s). Such a call is asked about (an interaction with choices) instead of made.
- ``plain(text)``: the model's text as text: HTML entities some models emit ("I&#39;ll") decoded
  before it is stored — the page escapes where it renders, so stored text must not be escaped.
"""

from __future__ import annotations

import functools
import html
import json
import re
import unicodedata
from collections.abc import Iterable
from typing import Any, Literal, Protocol

from agents.reference.durations import chinese_durations, chinese_number, english_durations
from agents.reference.intents import Language

Claim = Literal["start", "stop", "result"]

# Words for what runs that name no app: the installed apps' own names and nouns (their declarations in
# the Inventory's ``apps``, decision 0057) are added to these per turn (``claims(..., apps=...)``).
GENERIC_NOUNS: dict[Language, tuple[str, ...]] = {
    "en": ("focus", "timer", "session", "round", "countdown"),
    "zh": ("专注", "计时"),
}


def _alternatives(nouns: Iterable[str], *, english: bool) -> str:
    """The nouns as one regex alternation, longest first; a space in a name stands for any spacing."""
    words = {" ".join(n.split()) for n in nouns if n and n.strip()}
    if not english:
        # One Chinese character is too short a noun to claim with: "考" would find "参考中".
        words = {w for w in words if len(w) > 1 or not _CJK.match(w)}
    parts = sorted(words, key=lambda w: (-len(w), w))
    return "|".join(r"\s+".join(re.escape(t) for t in w.split()) for w in parts)


@functools.lru_cache(maxsize=64)
def _en_claims(nouns: tuple[str, ...]) -> dict[Claim, re.Pattern[str]]:
    what = _alternatives(nouns, english=True)
    return {
        "start": re.compile(
            r"\bI(?:'ve|\s+have|'m|\s+am)?\s+(?:just\s+|now\s+)?(?:started|set(?:\s+up)?|begun|kicked\s+off"
            r"|launched|scheduled|starting|running)\b"
            rf"|\bI\s+have\s+(?:a|an|your)\s+(?:\w+[\s-]){{0,3}}(?:minutes?|min|seconds?|hours?|{what})\b"
            rf"|\b(?:{what})\s+(?:is\s+|has\s+)?(?:now\s+)?(?:running|started|underway|set|begun|in\s+progress)\b"
            # "on" only after a verb: "your focus is on" claims, "a test on fractions" names a topic.
            rf"|\b(?:{what})\s+(?:is|'s|was)\s+(?:now\s+)?on\b"
            rf"|\b(?:started|starting|here'?s|enjoy)\s+(?:a|an|your|the)\s+(?:\w+[\s-]){{0,3}}(?:{what})\b",
            re.IGNORECASE,
        ),
        "stop": re.compile(
            r"\bI(?:'ve|\s+have)?\s+(?:just\s+|now\s+)?(?:stopped|ended|cancell?ed|interrupted|paused|halted)\b"
            rf"|\b(?:{what})\s+(?:is\s+|has\s+been\s+|was\s+)?(?:now\s+)?(?:stopped|ended|cancell?ed|interrupted"
            r"|over|paused)\b",
            re.IGNORECASE,
        ),
        "result": _EN_RESULT,
    }


_EN_RESULT = re.compile(
    r"\b(?:you\s+(?:scored|got\s+\d+)|your\s+score|(?:is|was|are)\s+(?:now\s+)?(?:done|complete|completed"
    r"|finished)|I(?:'ve|\s+have)?\s+(?:added|saved|noted|written|wrote|recorded|completed|finished)"
    r"|(?:added|saved|noted)\s+(?:it|that|this)\s+(?:to|in))\b",
    re.IGNORECASE,
)
_ZH_NOT = r"(?<![没不未别])"


@functools.lru_cache(maxsize=64)
def _zh_claims(nouns: tuple[str, ...]) -> dict[Claim, re.Pattern[str]]:
    what = _alternatives(nouns, english=False)
    return {
        "start": re.compile(
            rf"{_ZH_NOT}(?:开始|启动|开启)(?:了|啦)|已(?:经)?(?:为你|帮你|给你)?(?:开始|启动|设置|设定|设好|定好|开启|安排)"
            rf"|{_ZH_NOT}(?:设|定|开)好了|正在(?:进行|{what})|(?:{what})(?:开始|中)",
            re.IGNORECASE,
        ),
        "stop": _ZH_STOP,
        "result": _ZH_RESULT,
    }


_ZH_STOP = re.compile(
    rf"已(?:经)?(?:为你|帮你|给你)?(?:停止|停下|结束|取消|中断|暂停)|{_ZH_NOT}(?:停止|停下|结束|取消|中断|暂停)(?:了|啦)"
)
_ZH_RESULT = re.compile(
    rf"已(?:经)?(?:完成|记下|添加|保存|记录)|{_ZH_NOT}(?:完成|记下|添加|保存|记录)(?:了|啦)|得分|分数(?:是|为)|答对了?\s*\d"
)


class _App(Protocol):
    """An installed app as grounding needs it: its names (and, declared in version 2, its nouns) per language."""

    names: dict[Language, str]


def app_nouns(apps: Iterable[_App], language: Language) -> tuple[str, ...]:
    """The words that name what runs, in ``language``: the generic ones, and each app's name and declared nouns."""
    nouns = list(GENERIC_NOUNS[language])
    for app in apps:
        nouns.extend(n for n in [app.names.get(language, "")] if n)
        nouns.extend(getattr(app, "nouns", {}).get(language, ()))
    return tuple(dict.fromkeys(n for n in nouns if isinstance(n, str) and n.strip()))


_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")
# Markup of the common chat formats; "functions.pomodoro__start:" is llama-cpp-python's chatml-function-calling.
_WRITTEN_CALL = re.compile(
    r"<\|?tool_call\|?>|<function[=>]|\[TOOL_CALLS\]|<\|python_tag\|>|\bfunctions\.\w+:", re.IGNORECASE
)
_DIGITS = re.compile(r"\d+(?:\.\d+)?")
_ZH_NUMERAL = re.compile(r"[零〇一二两俩三四五六七八九十百千万]+")
_EN_NUMBER_WORD = re.compile(
    r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty"
    r"|ninety)(?:[\s-](?:one|two|three|four|five|six|seven|eight|nine))?\b",
    re.IGNORECASE,
)
_UNIT_FACTORS = (1, 60, 3600)


def plain(text: str) -> str:
    """The model's text as text: ``I&#39;ll`` -> ``I'll`` (twice, for a doubly escaped ``&amp;#39;``)."""
    return html.unescape(html.unescape(text)).strip()


# "No focus is running", "nothing was started", "isn't running", "I didn't start": the words before a
# match deny it; in Chinese a 没有 / 没 / 未 / 不 / 别 right before it ("没有正在进行的内容").
_EN_DENIED = re.compile(r"(?:\b(?:no|not|never|nothing|none)|n't)\s+(?:\w+\s+){0,2}$", re.IGNORECASE)
_ZH_DENIED = re.compile(r"(?:没有|没|未|不|别)(?:有|再|在)?\s*$")
# A clause ends at . ! ? (and their full-width forms) or a line break; a "." inside "1.5" does not end one.
_CLAUSE_END = re.compile(r"(?<=[!?\u3002\uff01\uff1f\n])|(?<=\.)(?=\s|$)")
_QUESTION = re.compile(r"[?\uff1f]\W*$")


def _affirmed(pattern: re.Pattern[str], text: str) -> bool:
    return any(
        not _EN_DENIED.search(text[max(0, match.start() - 40) : match.start()])
        and not _ZH_DENIED.search(text[max(0, match.start() - 4) : match.start()])
        for match in pattern.finditer(text)
    )


def statements(text: str) -> list[str]:
    """The clauses of ``text`` that state something: a question ("Want a test on fractions?",
    "要开始专注吗" with a full-width "?") claims nothing, whatever words it uses."""
    return [c for c in _CLAUSE_END.split(text) if c.strip() and not _QUESTION.search(c.strip())]


def claims(text: str, language: Language | None = None, *, apps: Iterable[_App] = ()) -> set[Claim]:
    """The kinds of action ``text`` says happened (both languages' patterns unless ``language`` is given).

    What runs is named by the generic nouns or by one of ``apps`` (the installed apps: their names and
    declared nouns), so a claim about an app the Agent's code never heard of is caught as well.
    """
    apps = tuple(apps)
    clauses = statements(text)
    found: set[Claim] = set()
    for lang in ("en", "zh") if language is None else (language,):
        english = lang == "en"
        nouns = app_nouns(apps, lang)
        if language is None:  # a reply may name the apps in the other language's words too
            nouns = tuple(dict.fromkeys((*nouns, *app_nouns(apps, "zh" if english else "en"))))
        patterns = (_en_claims if english else _zh_claims)(nouns)
        found.update(kind for kind, pattern in patterns.items() for clause in clauses if _affirmed(pattern, clause))
    return found


def durations_said(text: str) -> set[int]:
    """Every duration ``text`` names, in whole seconds, and their sum ("1 hour 30 minutes" names 5400 too)."""
    text = unicodedata.normalize("NFKC", text)
    spans = [*english_durations(text), *chinese_durations(text)]
    said = {round(span.seconds) for span in spans}
    if len(spans) > 1:
        said.add(round(sum(span.seconds for span in spans)))
    return said


# Three English words in a row: in a Chinese reply, a sentence of English (a small model's mixed
# "如果专注25分钟, you can say 任何…"), not a name.
_ENGLISH_RUN = re.compile(r"[A-Za-z]+[\s,]+[A-Za-z]+[\s,]+[A-Za-z]+")


def wrong_script(text: str, language: Language) -> bool:
    """A Chinese person's reply with less Chinese than Latin letters or with English sentences in it,
    or an English one that is mostly Chinese."""
    cjk, latin = len(_CJK.findall(text)), len(_LATIN.findall(text))
    if language == "zh":
        return cjk == 0 or cjk * 2 < latin or bool(_ENGLISH_RUN.search(text))
    return cjk > latin


def echoes(text: str, instructions: str, *, run: int = 40) -> bool:
    """The reply repeats ``run`` characters of the instructions (a small model reciting its system prompt)."""
    folded, source = " ".join(text.lower().split()), " ".join(instructions.lower().split())
    return any(source[i : i + run] in folded for i in range(0, max(1, len(source) - run + 1), run // 2))


def written_tool_call(text: str) -> bool:
    """A tool call written into the reply's text instead of made: markup, or a JSON object naming a function."""
    if _WRITTEN_CALL.search(text):
        return True
    start = text.find("{")
    while start != -1:
        try:
            value, _ = json.JSONDecoder().raw_decode(text[start:])
        except ValueError:
            value = None
        if (
            isinstance(value, dict)
            and ("name" in value or "function" in value)
            and ("arguments" in value or "parameters" in value or "function" in value)
        ):
            return True
        start = text.find("{", start + 1)
    return False


def _numbers_in(words: str) -> set[float]:
    words = unicodedata.normalize("NFKC", words)
    numbers = {float(n) for n in _DIGITS.findall(words)}
    for numeral in _ZH_NUMERAL.findall(words):
        try:
            numbers.add(float(chinese_number(numeral)))
        except (KeyError, ValueError):
            continue
    for word in _EN_NUMBER_WORD.findall(words):
        seconds = {round(span.seconds) for span in english_durations(f"{word} seconds")}
        numbers.update(float(s) for s in seconds)
    return numbers


def grounded_values(key: str, words: str) -> set[float]:
    """The values of argument ``key`` the person's ``words`` state.

    A duration argument (``*_seconds``) is grounded by a duration said with its unit ("25 minutes"
    -> 1500), or by a bare number read as minutes or seconds ("pomodoro 25"); any other number
    argument by a number said.
    """
    if key.endswith("_seconds") or key == "seconds":
        said = {float(s) for s in durations_said(words)}
        # Only a number said WITHOUT a unit is ambiguous: "25分钟" is 1500 s, never 25 s.
        bare = {n * factor for n in _numbers_in(_without_durations(words)) for factor in _UNIT_FACTORS[:2]}
        return said | bare
    return _numbers_in(words)


def _without_durations(words: str) -> str:
    """``words`` with every duration said with its unit blanked out: what is left are the bare numbers."""
    words = unicodedata.normalize("NFKC", words)
    spans = sorted((*english_durations(words), *chinese_durations(words)), key=lambda span: span.start)
    kept, at = [], 0
    for span in spans:
        if span.start >= at:
            kept.append(words[at : span.start])
            at = span.end
    return " ".join([*kept, words[at:]])


def ungrounded_numbers(arguments: dict[str, Any], words: str) -> dict[str, float]:
    """The top-level number arguments of a call that the person's ``words`` do not state."""
    missing: dict[str, float] = {}
    for key, value in arguments.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        if float(value) not in grounded_values(key, words):
            missing[key] = float(value)
    return missing


def person_durations(words: str) -> list[int]:
    """The durations the person said, in order of first mention, for the choices of a question."""
    seen: list[int] = []
    words = unicodedata.normalize("NFKC", words)
    spans = sorted((*english_durations(words), *chinese_durations(words)), key=lambda span: span.start)
    for span in spans:
        seconds = round(span.seconds)
        if seconds > 0 and seconds not in seen:
            seen.append(seconds)
    return seen
