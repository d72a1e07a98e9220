# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？) on purpose
"""What an installed app's declared phrasings make of a person's words (agents.reference.declared; pure).

The declaration is the one ``startminiapp`` writes for ``timer9`` (a fixed copy here: the Agent reads it
from an ``inventory`` frame, never from ``miniapps/``), and Scratch notes' add/read phrasings.
"""

from __future__ import annotations

import json
from pathlib import Path
from string import Template
from typing import Any

import pytest

from agents.reference import declared
from agents.reference.intents import detect_language

TIMER9: dict[str, Any] = {
    "phrasings_version": 1,
    "tools": {"start": "timer9.start", "stop": "timer9.stop"},
    "arguments": {"duration": "duration_seconds"},
    "languages": {
        "en": {
            "name": "Timer9",
            "help": 'times something: "start timer9 for 5 minutes"',
            "start": ["start timer9 for {duration}", "timer9 {duration}", "{duration} timer9"],
            "stop": ["stop timer9"],
            "status": ["how long is left on timer9"],
            "replies": {"started": "Timer9 started: {duration}."},
        },
        "zh-hans": {
            "name": "九号计时",
            "help": "为你计时：“开始timer9 5 分钟”",
            "start": ["开始timer9{duration}", "{duration}的timer9"],
            "stop": ["停止timer9"],
            "status": ["timer9还剩多久"],
        },
    },
}
NOTES: dict[str, Any] = {
    "phrasings_version": 1,
    "tools": {"add": "notes.append", "read": "notes.read"},
    "arguments": {"text": "text"},
    "languages": {
        "en": {"name": "Notes", "help": "notes", "add": ["note {text}", "note down {text}"], "read": ["read my notes"]},
        "zh-hans": {"name": "笔记", "help": "笔记", "add": ["记一下{text}"], "read": ["看看我的笔记"]},
    },
}
TOOLS = ["timer9.start", "timer9.stop", "notes.append", "notes.read"]


def inventory(tools: list[str] = TOOLS) -> dict[str, Any]:
    return {
        "type": "inventory",
        "conversation_id": "c",
        "revision": "inv-1",
        "tools": [{"name": name} for name in tools],
        "apps": [
            {"app_id": "timer9", "name": "Timer9", "phrasings": TIMER9},
            {"app_id": "notes", "name": "Scratch notes", "phrasings": NOTES},
            {"app_id": "pomodoro", "name": "Pomodoro"},  # declares nothing: nothing learnt
        ],
    }


def understood(text: str, frame: dict[str, Any] | None = None) -> tuple[str, str, dict[str, Any]] | None:
    found = declared.match(declared.apps_from_inventory(frame or inventory()), text, detect_language(text))
    return None if found is None else (found.app.app_id, found.request, found.slots)


@pytest.mark.spec("R-2.1.1")
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("start timer9 for 5 minutes", ("timer9", "start", {"duration": 300})),
        ("Please start timer9 for twenty five minutes!", ("timer9", "start", {"duration": 1500})),
        ("can you start timer9 for half an hour please", ("timer9", "start", {"duration": 1800})),
        ("timer9 90 seconds", ("timer9", "start", {"duration": 90})),
        ("10 min timer9", ("timer9", "start", {"duration": 600})),
        ("STOP TIMER9", ("timer9", "stop", {})),
        ("how long is left on timer9?", ("timer9", "status", {})),
        ("开始timer9 十分钟", ("timer9", "start", {"duration": 600})),
        ("请开始timer9半小时吧", ("timer9", "start", {"duration": 1800})),
        ("五分钟的timer9", ("timer9", "start", {"duration": 300})),
        ("停止timer9。", ("timer9", "stop", {})),
        ("timer9还剩多久？", ("timer9", "status", {})),
        ("note: Buy Milk", ("notes", "add", {"text": "Buy Milk"})),
        ("note down call mum", ("notes", "add", {"text": "call mum"})),
        ("帮我记一下明天交作业", ("notes", "add", {"text": "明天交作业"})),
        ("read my notes", ("notes", "read", {})),
        ("看看我的笔记", ("notes", "read", {})),
    ],
)
def test_a_declared_phrasing_is_understood_with_its_slots(text, expected):
    """A message that is a declared phrasing (polite words around it aside) is that app's request, with
    its duration in whole seconds and its text as written; mixed zh/en works both ways."""
    assert understood(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "start timer9 for a while",  # no duration in the duration slot
        "start timer9 for 5 minutes of reading",  # more than a duration
        "I used timer9 yesterday for 5 minutes",  # a mention, not a phrasing
        "start a 25 minute reading focus",  # the Agent's own grammar, no app's phrasing
        "timer9",
        "note",  # an empty text slot
    ],
)
def test_a_message_that_is_no_declared_phrasing_is_not_taken(text):
    """Only a whole declared phrasing is a request of that app: the rest goes to the Agent's grammar."""
    assert understood(text) is None


def test_an_app_whose_tools_are_not_in_the_inventory_is_not_learnt():
    """A declaration is used only for the tools that Inventory publishes (another scope, a removed tool)."""
    assert understood("start timer9 for 5 minutes", inventory(["notes.read"])) is None
    assert understood("read my notes", inventory(["notes.read"])) == ("notes", "read", {})


def test_replies_are_the_apps_own_words_else_the_agents():
    """An app's declared reply is used with its slots; a reply it does not declare is the Agent's generic one."""
    [timer9, _notes] = declared.apps_from_inventory(inventory())
    assert declared.reply(timer9, "started", "en", duration="5 minutes") == "Timer9 started: 5 minutes."
    assert declared.reply(timer9, "started", "zh", duration="5分钟") == "九号计时开始：5分钟。结束时我会告诉你。"
    assert declared.reply(timer9, "running", "en", remaining="4 minutes") == "Timer9 is running: 4 minutes left."
    assert timer9.help == {"en": 'times something: "start timer9 for 5 minutes"', "zh": "为你计时：“开始timer9 5 分钟”"}


# --- the phrasings startminiapp writes, tried as people would ask -------------------------------------------

# Not the template's own lines: how a person might ask for a new app called "timer2".
NEW_APP_PHRASINGS = """
Start timer2 for twenty minutes please | start | 1200
could you start timer2 for 10 mins? | start | 600
timer2 for half an hour | start | 1800
run timer2 for 90 seconds | start | 90
set timer2 for 1 hour | start | 3600
15 minute timer2 | start | 900
timer2 25 min | start | 1500
start a 3 minute timer2 | start | 180
i want to start timer2 for 5 minutes | start | 300
please start the timer2 for 5 minutes | start | 300
how much time is left on timer2 | status
is timer2 running? | status
whats left on timer2 | status
please stop timer2 | stop
cancel timer2 | stop
turn off timer2 | stop
开始timer2 五分钟 | start | 300
timer2 十分钟 | start | 600
请帮我开始timer2半小时 | start | 1800
开一个二十分钟的timer2 | start | 1200
用timer2计时15分钟 | start | 900
开始十分钟的timer2吧 | start | 600
timer2还有多久 | status
timer2在运行吗？ | status
请停止timer2 | stop
关掉timer2吧 | stop
取消timer2 | stop
timer2停一下 | stop
"""


def _generated() -> list[declared.DeclaredApp]:
    template = (
        Path(__file__).resolve().parents[3] / "lineup" / "management" / "miniapp_template" / "phrasings.json.tmpl"
    )
    phrasings = json.loads(Template(template.read_text(encoding="utf-8")).substitute(name="timer2", Title="Timer2"))
    return declared.apps_from_inventory(
        {
            "tools": [{"name": "timer2.start"}, {"name": "timer2.stop"}],
            "apps": [{"app_id": "timer2", "name": "Timer2", "phrasings": phrasings}],
        }
    )


@pytest.mark.spec("R-2.1.1")
@pytest.mark.parametrize(
    ("text", "request_", "seconds"),
    [
        (parts[0], parts[1], int(parts[2]) if len(parts) > 2 else None)
        for parts in (line.split(" | ") for line in NEW_APP_PHRASINGS.strip().splitlines())
    ],
)
def test_the_phrasings_startminiapp_writes_understand_people(text, request_, seconds):
    """The generated phrasings.json understands a new app asked for in other words than its own lines."""
    found = declared.match(_generated(), text, detect_language(text))
    assert found is not None, text
    assert (found.request, found.slots.get("duration")) == (request_, seconds)


@pytest.mark.spec("R-2.1.1")
def test_the_suggestions_startminiapp_writes_start_the_new_app():
    """What the Agent offers to tap when it did not understand (decision 0065) starts the generated app."""
    [app] = _generated()
    assert app.suggested_seconds == (60, 300, 900)
    for language in ("en", "zh"):
        [suggestion] = app.suggestions[language]
        found = declared.match([app], suggestion, detect_language(suggestion))
        assert found is not None and (found.request, found.slots.get("duration")) == ("start", 300), suggestion


def test_version_2_declarations_teach_the_grammar_what_it_needs():
    """A version 2 declaration (decision 0057) brings the words that name the app, whether an activity is cut
    from a start, a choice slot with its words and names per value, the result fields to report, whether
    another round is offered; the start's bound comes from the Inventory (the manifest's, not repeated)."""
    from runtime.inventory import inventory_for_scope

    apps = {app.app_id: app for app in declared.apps_from_inventory(inventory_for_scope("personal").published())}
    pomodoro, quiz = apps["pomodoro"], apps["quiz"]
    assert "pomodoro" in pomodoro.words["en"] and "番茄钟" in pomodoro.words["zh"]
    assert (pomodoro.activity, pomodoro.unitless_minutes, pomodoro.offer_again) == (True, 180, True)
    assert (pomodoro.max_duration_seconds, quiz.max_duration_seconds) == (86400, 3600)
    assert quiz.choices == ("mixed", "multiplication", "addition", "subtraction") and quiz.choice_default == "mixed"
    assert "times" in quiz.choice_words["en"]["multiplication"] and "乘法" in quiz.choice_words["zh"]["multiplication"]
    assert quiz.choice_name("multiplication", "zh") == "乘法口算"
    assert quiz.report == {"correct": "score.correct", "answered": "score.answered", "total": "score.total"}
    assert not quiz.activity and not quiz.offer_again and apps["notes"].words == {"en": (), "zh": ()}
    # A reply with an activity is the app's *_activity wording when it declares one.
    assert declared.reply(pomodoro, "started", "en", duration="5 minutes", activity="reading") == (
        "Focus started: 5 minutes of reading. I'll let you know when it's done."
    )
    assert declared.reply(pomodoro, "started", "en", duration="5 minutes") == (
        "Focus started: 5 minutes. I'll let you know when it's done."
    )


@pytest.mark.spec("R-2.1.1")
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("could you run the timer9 for twenty minutes please", ("start", 1200, "short")),
        ("a long timer9 of 45 mins", ("start", 2700, "long")),
        ("timer9 please", ("ask", None, "short")),
        ("开一个 10 分钟的九号计时", ("start", 600, "short")),
        ("stop the countdown", ("stop", "timer9", None)),
        ("what's a timer9?", ("help", None, None)),
        ("timer9 for 30 hours", ("range", 108000, None)),
    ],
)
def test_the_generic_grammar_learns_a_new_app_from_its_version_2_declaration(text, expected):
    """An app no Agent code names, declared in version 2 (its words, nouns, a choice, its bound from the
    Inventory), is understood in the generic families beyond its phrasings (decision 0057)."""
    from agents.reference.intents import DurationOutOfRange, Help, Start, Stop, parse_intent

    timer9 = {
        **TIMER9,
        "phrasings_version": 2,
        "grammar": {"choice": {"default": "short", "values": ["short", "long"]}},
        "languages": {
            "en": {
                **TIMER9["languages"]["en"],
                "words": ["timer9"],
                "nouns": ["timer9", "countdown"],
                "choices": {"short": {"name": "Short"}, "long": {"name": "Long", "words": ["long"]}},
            },
            "zh-hans": {
                **TIMER9["languages"]["zh-hans"],
                "words": ["九号计时"],
                "nouns": ["九号计时"],
                "choices": {"short": {"name": "短"}, "long": {"name": "长", "words": ["长"]}},
            },
        },
    }
    frame = inventory()
    frame["apps"][0] = {**frame["apps"][0], "phrasings": timer9, "max_duration_seconds": {"timer9.start": 86400}}
    intent = parse_intent(text, declared.apps_from_inventory(frame))
    if isinstance(intent, Start):
        assert (intent.app_id, "start", intent.duration_seconds, intent.choice) == ("timer9", *expected)
    elif isinstance(intent, Stop):
        assert ("stop", intent.target, None) == expected
    elif isinstance(intent, DurationOutOfRange):
        assert ("range", round(intent.requested_seconds), None) == expected and intent.app_id == "timer9"
    else:
        assert isinstance(intent, Help)
        kind = "ask" if intent.missing_duration else "help"
        assert (kind, None, intent.choice) == expected
