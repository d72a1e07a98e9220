# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""What installed MiniApps teach the reference Agent: their declared phrasings (pure, no I/O).

A MiniApp declares beside its manifest (``phrasings.json``, docs/decisions/0050) how people ask for it
in English and Chinese — start / stop / status / read / add phrasings with slots ``{duration}``,
``{activity}``, ``{topic}``, ``{text}`` — and how the Agent answers. The Runtime publishes them in
the Inventory's ``apps``; ``apps_from_inventory(frame)`` reads them back here, and
``match(apps, text)`` finds the request a message makes of one of them.

A phrasing matches the whole message, once polite words around it are set aside ("please", "can
you", "请", "帮我", "吧"): a declared app is never started from a message that only mentions it
(an unclear request gets help, not a guess). A ``{duration}`` slot holds a duration and nothing
else ("5 minutes", "半小时", "twenty five minutes"); the other slots hold any text.

``reply(app, key, language, **slots)`` words an answer from the app's own ``replies`` (``{name}``,
``{duration}``, ``{elapsed}``, ``{remaining}``, ``{activity}``, ``{text}``), else from the Agent's
generic ones below, so an app that declares no replies still gets plain answers.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Literal

from agents.reference.durations import EN_JOINER, ZH_JOINER, chinese_durations, english_durations, first_duration

__all__ = ["DeclaredApp", "DeclaredIntent", "Request", "apps_from_inventory", "match", "reply"]

Language = Literal["en", "zh"]
Request = Literal["start", "stop", "status", "read", "add"]
REQUESTS: tuple[Request, ...] = ("start", "stop", "status", "read", "add")
# The declaration's language keys (Django's codes) as the Agent's languages.
_LANGUAGE_KEYS: dict[Language, str] = {"en": "en", "zh": "zh-hans"}
_SLOT = re.compile(r"\{(duration|activity|topic|text)\}")


@dataclass(frozen=True)
class DeclaredApp:
    """One installed app as its declaration describes it."""

    app_id: str
    names: dict[Language, str]
    help: dict[Language, str]
    tools: dict[str, str]  # request -> tool name
    arguments: dict[str, str]  # slot -> argument name
    phrasings: dict[Language, dict[Request, tuple[re.Pattern[str], ...]]] = field(repr=False)
    replies: dict[Language, dict[str, str]] = field(repr=False)
    # Version 2 (decision 0057): what the Agent's generic grammar needs to understand this app.
    words: dict[Language, tuple[str, ...]] = field(default_factory=dict, repr=False)  # name the app's start
    patterns: dict[Language, tuple[str, ...]] = field(default_factory=dict, repr=False)  # regex, the same
    # regex: an activity (as the default app's grammar cuts it) that is this app's start
    activities: dict[Language, tuple[str, ...]] = field(default_factory=dict, repr=False)
    nouns: dict[Language, tuple[str, ...]] = field(default_factory=dict, repr=False)  # name what runs
    # regex: work of this app's kind it does not do ("division"): a message naming one starts nothing
    declines: dict[Language, tuple[str, ...]] = field(default_factory=dict, repr=False)
    unclear: dict[Language, tuple[str, ...]] = field(default_factory=dict, repr=False)  # this app's or the default's
    keywords: tuple[str, ...] = ()  # words whose typos are forgiven
    typos: dict[str, str] = field(default_factory=dict, repr=False)  # a typo -> the word meant
    activity: bool = False  # the grammar cuts an activity from a start
    unitless_minutes: int | None = None  # "<word> 25" counts minutes up to this
    default: bool = False  # a start with no app's words is this app's
    long_seconds: int | None = None  # a longer start is confirmed first
    choices: tuple[str, ...] = ()  # the choice slot's values, in the order their words are looked for
    choice_default: str | None = None
    choice_words: dict[Language, dict[str, tuple[str, ...]]] = field(default_factory=dict, repr=False)
    choice_names: dict[Language, dict[str, str]] = field(default_factory=dict, repr=False)
    choice_patterns: dict[Language, dict[str, tuple[str, ...]]] = field(default_factory=dict, repr=False)
    generate: dict[str, Any] | None = field(default=None, repr=False)
    report: dict[str, str] = field(default_factory=dict, repr=False)
    offer_again: bool = False
    max_duration_seconds: int | None = None  # the start tool's bound, from the Inventory
    # Offered as a choice when the Agent did not understand (requests its grammar reads as this app's) and
    # when a start said no duration (seconds).
    suggestions: dict[Language, tuple[str, ...]] = field(default_factory=dict, repr=False)
    suggested_seconds: tuple[int, ...] = ()

    def name(self, language: Language) -> str:
        return self.names.get(language) or self.app_id

    def choice_name(self, value: str | None, language: Language) -> str | None:
        return self.choice_names.get(language, {}).get(value or "")


@dataclass(frozen=True)
class DeclaredIntent:
    """A request a message makes of a declared app, with its slots (``duration`` in whole seconds)."""

    app: DeclaredApp
    request: Request
    language: Language
    slots: dict[str, Any] = field(default_factory=dict)


def _compile(phrasing: str, language: Language) -> re.Pattern[str]:
    """A phrasing as a pattern over the whole (normalized) message: its words in order, any spacing."""
    parts: list[str] = []
    position = 0
    for slot in _SLOT.finditer(phrasing):
        parts.append(_literal(phrasing[position : slot.start()], language))
        parts.append(rf"(?P<{slot.group(1)}>.+?)")
        position = slot.end()
    parts.append(_literal(phrasing[position:], language))
    return re.compile("^" + "".join(parts) + "$", re.IGNORECASE)


def _literal(words: str, language: Language) -> str:
    words = unicodedata.normalize("NFKC", words).strip().lower()
    if not words:
        return r"\s*"
    # Spaces in a phrasing stand for any spacing (none in Chinese, where people often leave them out).
    tokens = [re.escape(token) for token in words.split()]
    return r"\s*" + (r"\s*" if language == "zh" else r"\s+").join(tokens) + r"\s*"


def apps_from_inventory(frame: dict[str, Any]) -> list[DeclaredApp]:
    """The apps of an ``inventory`` frame that declare phrasings, whose tools are in that Inventory."""
    published = {tool["name"] for tool in frame.get("tools", [])}
    apps = []
    for entry in frame.get("apps") or []:
        declared = entry.get("phrasings")
        if not isinstance(declared, dict):
            continue
        tools = {k: v for k, v in (declared.get("tools") or {}).items() if v in published}
        languages = declared.get("languages") or {}
        names: dict[Language, str] = {}
        helps: dict[Language, str] = {}
        suggestions: dict[Language, tuple[str, ...]] = {}
        phrasings: dict[Language, dict[Request, tuple[re.Pattern[str], ...]]] = {}
        replies: dict[Language, dict[str, str]] = {}
        words_of: dict[Language, tuple[str, ...]] = {}
        patterns: dict[Language, tuple[str, ...]] = {}
        activities: dict[Language, tuple[str, ...]] = {}
        nouns: dict[Language, tuple[str, ...]] = {}
        declines: dict[Language, tuple[str, ...]] = {}
        unclear: dict[Language, tuple[str, ...]] = {}
        keywords: list[str] = []
        typos: dict[str, str] = {}
        choice_words: dict[Language, dict[str, tuple[str, ...]]] = {}
        choice_names: dict[Language, dict[str, str]] = {}
        choice_patterns: dict[Language, dict[str, tuple[str, ...]]] = {}
        for language, key in _LANGUAGE_KEYS.items():
            words = languages.get(key) or {}
            names[language] = words.get("name") or entry.get("name") or entry["app_id"]
            helps[language] = words.get("help") or ""
            suggestions[language] = _strings(words.get("suggestions"))
            phrasings[language] = {
                request: tuple(_compile(p, language) for p in words.get(request, []) if isinstance(p, str))
                for request in REQUESTS
            }
            replies[language] = dict(words.get("replies") or {})
            words_of[language] = _strings(words.get("words"))
            patterns[language] = tuple(p for p in words.get("patterns") or [] if _compiles(p))
            activities[language] = tuple(p for p in words.get("activities") or [] if _compiles(p))
            nouns[language] = _strings(words.get("nouns"))
            declines[language] = tuple(p for p in words.get("declines") or [] if _compiles(p))
            unclear[language] = tuple(p for p in words.get("unclear") or [] if _compiles(p))
            keywords.extend(_strings(words.get("keywords")))
            typos.update({k: v for k, v in (words.get("typos") or {}).items() if isinstance(v, str) and k})
            declared_choices = words.get("choices") or {}
            choice_words[language] = {v: tuple(c.get("words") or []) for v, c in declared_choices.items()}
            choice_names[language] = {v: c["name"] for v, c in declared_choices.items() if c.get("name")}
            choice_patterns[language] = {
                v: tuple(p for p in c.get("patterns") or [] if _compiles(p)) for v, c in declared_choices.items()
            }
        grammar = declared.get("grammar") or {}
        choice = grammar.get("choice") or {}
        start_tool = tools.get("start")
        bound = (entry.get("max_duration_seconds") or {}).get(start_tool) if start_tool else None
        apps.append(
            DeclaredApp(
                app_id=entry["app_id"],
                names=names,
                help=helps,
                tools=tools,
                arguments=dict(declared.get("arguments") or {}),
                phrasings=phrasings,
                replies=replies,
                words=words_of,
                patterns=patterns,
                activities=activities,
                nouns=nouns,
                declines=declines,
                unclear=unclear,
                keywords=tuple(keywords),
                typos=typos,
                activity=bool(grammar.get("activity")),
                unitless_minutes=grammar.get("unitless_minutes"),
                default=bool(grammar.get("default")),
                long_seconds=grammar.get("long_seconds"),
                choices=tuple(choice.get("values") or ()),
                choice_default=choice.get("default"),
                choice_words=choice_words,
                choice_names=choice_names,
                choice_patterns=choice_patterns,
                generate=grammar.get("generate"),
                report=dict(declared.get("report") or {}),
                offer_again=bool(declared.get("offer_again")),
                max_duration_seconds=bound if isinstance(bound, int) else None,
                suggestions=suggestions,
                suggested_seconds=tuple(
                    s for s in grammar.get("suggested_seconds") or [] if isinstance(s, int) and not isinstance(s, bool)
                ),
            )
        )
    return apps


def _strings(values: Any) -> tuple[str, ...]:
    return tuple(v for v in values or [] if isinstance(v, str) and v.strip())


def _compiles(pattern: Any) -> bool:
    """A declared pattern the Agent can use (the Runtime checked it at start-up; another server may not)."""
    if not isinstance(pattern, str) or not pattern:
        return False
    try:
        re.compile(pattern)
    except re.error:
        return False
    return True


# Polite words around a request: "please start ... now", "can you ...", "请…吧".
_EN_AROUND = re.compile(
    r"^(?:(?:ok(?:ay)?|hey|please|pls|now|so|well|alright|um+|uh+|oh|yeah|yes)[\s,!.]+"
    r"|(?:can|could|would|will)\s+you\s+(?:please\s+)?|i(?:\s+want|\s+need|\s+would\s+like|'d\s+like)\s+(?:you\s+)?to\s+"
    r"|i\s+wanna\s+|let'?s\s+)+"
    r"|(?:[\s,]+(?:please|pls|now|thanks|thank\s+you|for\s+me))+[\s.!?]*$|[\s.!?~]+$",
    re.IGNORECASE,
)
_ZH_AROUND = re.compile(
    r"^(?:请|帮我|麻烦你?|给我|我要|我想|我想要|现在|可以|能不能|你|好的?|嗯)+|(?:吧|了|啊|呀|哦|呢|一下|好吗|可以吗|谢谢|[\s,，。.!！?？~～])+$"
)


def _variants(text: str, language: Language) -> list[str]:
    """The message as written, and without the polite words around it (outermost first)."""
    around = _ZH_AROUND if language == "zh" else _EN_AROUND
    variants = [text]
    previous = None
    while previous != text:
        previous = text
        text = around.sub("", text).strip()
        if text and text not in variants:
            variants.append(text)
    return variants


def _duration(raw: str, language: Language) -> int | None:
    """``raw`` as whole seconds when it is a duration and nothing else ("5 minutes", "五分钟")."""
    raw = raw.strip()
    if language == "zh":
        spans, joiner = chinese_durations(raw) or english_durations(raw), ZH_JOINER
    else:
        spans, joiner = english_durations(raw), EN_JOINER
    span = first_duration(spans, raw, joiner)
    if span is None or re.sub(r"[\s,.]|\b(?:a|an|about|for)\b|的", "", raw[: span.start] + raw[span.end :]):
        return None
    return round(span.seconds)


def match(apps: list[DeclaredApp], text: str, language: Language) -> DeclaredIntent | None:
    """The request ``text`` makes of one of ``apps`` by a phrasing it declares, or None.

    Phrasings of the message's own language are tried first, then the other's (mixed zh/en). Where
    several match, the one whose slots hold the least text is meant ("note down {text}" over
    "note {text}" for "note down milk").
    """
    normalized = unicodedata.normalize("NFKC", text).strip()
    for phrasing_language in (language, "zh" if language == "en" else "en"):
        for variant in _variants(normalized, phrasing_language):
            found: list[tuple[int, DeclaredIntent]] = []
            for app in apps:
                for request in REQUESTS:
                    if request not in app.tools and not (request == "status" and "start" in app.tools):
                        continue
                    for pattern in app.phrasings[phrasing_language][request]:
                        matched = pattern.fullmatch(variant)
                        slots = _slots(matched.groupdict(), language) if matched is not None else None
                        if matched is not None and slots is not None:
                            held = sum(len(value) for value in matched.groupdict().values())
                            found.append(
                                (held, DeclaredIntent(app=app, request=request, language=language, slots=slots))
                            )
            if found:
                return min(found, key=lambda item: item[0])[1]
    return None


def _slots(raw: dict[str, str], language: Language) -> dict[str, Any] | None:
    slots: dict[str, Any] = {}
    for name, value in raw.items():
        if name == "duration":
            seconds = _duration(value, language)
            if seconds is None:
                return None
            slots[name] = seconds
        else:
            value = value.strip(" \t,，。.!！?？:：\"'“”")
            if not value:
                return None
            slots[name] = value
    return slots


# The Agent's own words, when an app declares none for a moment.
_GENERIC: dict[Language, dict[str, str]] = {
    "en": {
        "started": "{name} started: {duration}. I'll tell you when it's done.",
        "completed": "{name} complete: {duration}.",
        "interrupted": "{name} stopped after {elapsed}.",
        "busy": "{name} is already running here. Say “stop {name}” to end it.",
        "refused": "I couldn't do that with {name}: {detail} ({code}).",
        "stopped": "Stopping {name}.",
        "nothing_running": "{name} isn't running.",
        "running": "{name} is running: {remaining} left.",
        "read": "{name}: {text}",
        "read_empty": "There is nothing in {name} yet.",
        "added": "Added to {name}.",
        "again": "Start another {duration} of {name}?",
        "again_declined": "OK, no new round.",
        "long": "Start {name} for a long time: {duration}?",
        "long_declined": "OK, nothing started.",
        "out_of_range": "{name} can't run that long.",
        "ask_duration": 'How long should {name} run? For example "5 minutes".',
        "stop_refused": "I couldn't stop {name}: {detail} ({code}).",
        "not_available": "{name} isn't available in this conversation.",
        "greeting": 'Hello! Say "help" to see what I can do.',
        "thanks": "You're welcome!",
        "unknown": 'Sorry, I didn\'t understand that. Say "help" to see what I can do.',
        "capabilities": 'Here is what I can do: "help" lists it.',
    },
    "zh": {
        "started": "{name}开始：{duration}。结束时我会告诉你。",
        "completed": "{name}完成：{duration}。",
        "interrupted": "{name}已停止：进行了{elapsed}。",
        "busy": "{name}已经在进行中。说“停止{name}”可以结束它。",
        "refused": "没能使用{name}：{detail}（{code}）。",
        "stopped": "正在停止{name}。",
        "nothing_running": "{name}现在没有在进行。",
        "running": "{name}进行中，还剩{remaining}。",
        "read": "{name}：{text}",
        "read_empty": "{name}里还没有内容。",
        "added": "已记到{name}里。",
        "again": "再来一次{duration}的{name}吗？",
        "again_declined": "好的，先不开始。",
        "long": "要开始很长的{name}吗？{duration}。",
        "long_declined": "好的，没有开始。",
        "out_of_range": "{name}不能进行这么久。",
        "ask_duration": "{name}要进行多久？比如“5分钟”。",
        "stop_refused": "没能停止{name}：{detail}（{code}）。",
        "not_available": "这个对话里不能使用{name}。",
        "greeting": "你好！说“帮助”看看我能做什么。",
        "thanks": "不客气！",
        "unknown": "抱歉，我没听懂。说“帮助”看看我能做什么。",
        "capabilities": "说“帮助”看看我能做什么。",
    },
}


class _Blank(dict):  # type: ignore[type-arg]
    def __missing__(self, key: str) -> str:
        return ""


def reply(app: DeclaredApp, key: str, language: Language, **values: Any) -> str:
    """The answer ``key`` in ``language``: the app's declared words, else the Agent's generic ones."""
    words = _Blank(name=app.name(language), **{k: "" if v is None else str(v) for k, v in values.items()})
    declared_replies = app.replies.get(language, {})
    # "started_activity" over "started" when there is an activity to name and the app words it so.
    declared_words = (values.get("activity") and declared_replies.get(f"{key}_activity")) or declared_replies.get(key)
    if declared_words:
        try:
            return declared_words.format_map(words).strip()
        except (ValueError, IndexError, AttributeError, KeyError):  # "{0}", "{a.b}", a lone brace: not ours to fix
            pass
    generic = _GENERIC[language].get(key) or _GENERIC[language]["refused"]
    return generic.format_map(words).strip()
