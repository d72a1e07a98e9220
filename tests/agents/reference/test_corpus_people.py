"""People's phrasings (corpus_people.py): the tuning rows pass one by one like the corpus; the held-out
rows are measured as a whole — the share understood per language and the wrong actions.

A wrong action: the parser returns an action (start, quiz, stop) that is not the expected intent, or
with another duration (or, for a quiz, another kind). ``help``/``ask`` where an action was expected is
"not understood", never wrong: an unclear request gets a question, not a guess.
"""

from __future__ import annotations

import re

import pytest

from tests.agents.reference.bundled import StartFocus, StartQuiz, parse_intent
from tests.agents.reference.corpus_people import (
    HELD_OUT_PEOPLE_EN,
    HELD_OUT_PEOPLE_ZH,
    TUNING_EN,
    TUNING_ZH,
)
from tests.agents.reference.corpus_people_fresh import HELD_OUT_FRESH_EN, HELD_OUT_FRESH_ZH
from tests.agents.reference.corpus_people_fresh5 import HELD_OUT_FRESH5_EN, HELD_OUT_FRESH5_ZH
from tests.agents.reference.corpus_people_fresh6 import HELD_OUT_FRESH6_EN, HELD_OUT_FRESH6_ZH
from tests.agents.reference.corpus_people_fresh7 import HELD_OUT_FRESH7_EN, HELD_OUT_FRESH7_ZH
from tests.agents.reference.corpus_people_fresh8 import HELD_OUT_FRESH8_EN, HELD_OUT_FRESH8_ZH
from tests.agents.reference.corpus_people_fresh9 import HELD_OUT_FRESH9_EN, HELD_OUT_FRESH9_ZH
from tests.agents.reference.corpus_people_fresh10 import HELD_OUT_FRESH10_EN, HELD_OUT_FRESH10_ZH
from tests.agents.reference.corpus_people_fresh11 import HELD_OUT_FRESH11_EN, HELD_OUT_FRESH11_ZH
from tests.agents.reference.corpus_people_fresh12 import HELD_OUT_FRESH12_EN, HELD_OUT_FRESH12_ZH
from tests.agents.reference.corpus_people_fresh13 import HELD_OUT_FRESH13_EN, HELD_OUT_FRESH13_ZH
from tests.agents.reference.corpus_people_fresh14 import HELD_OUT_FRESH14_EN, HELD_OUT_FRESH14_ZH
from tests.agents.reference.corpus_people_fresh15 import HELD_OUT_FRESH15_EN, HELD_OUT_FRESH15_ZH
from tests.agents.reference.corpus_people_fresh16 import HELD_OUT_FRESH16_EN, HELD_OUT_FRESH16_ZH
from tests.agents.reference.corpus_people_fresh17 import HELD_OUT_FRESH17_EN, HELD_OUT_FRESH17_ZH
from tests.agents.reference.corpus_people_fresh18 import HELD_OUT_FRESH18_EN, HELD_OUT_FRESH18_ZH
from tests.agents.reference.corpus_people_fresh19 import HELD_OUT_FRESH19_EN, HELD_OUT_FRESH19_ZH
from tests.agents.reference.corpus_people_fresh20 import HELD_OUT_FRESH20_EN, HELD_OUT_FRESH20_ZH
from tests.agents.reference.corpus_people_fresh21 import HELD_OUT_FRESH21_EN, HELD_OUT_FRESH21_ZH
from tests.agents.reference.corpus_people_fresh22 import HELD_OUT_FRESH22_EN, HELD_OUT_FRESH22_ZH
from tests.agents.reference.corpus_people_fresh23 import HELD_OUT_FRESH23_EN, HELD_OUT_FRESH23_ZH
from tests.agents.reference.corpus_people_fresh24 import HELD_OUT_FRESH24_EN, HELD_OUT_FRESH24_ZH
from tests.agents.reference.corpus_people_fresh25 import HELD_OUT_FRESH25_EN, HELD_OUT_FRESH25_ZH
from tests.agents.reference.corpus_people_fresh26 import HELD_OUT_FRESH26_EN, HELD_OUT_FRESH26_ZH
from tests.agents.reference.corpus_people_fresh27 import HELD_OUT_FRESH27_EN, HELD_OUT_FRESH27_ZH
from tests.agents.reference.corpus_people_fresh28 import HELD_OUT_FRESH28_EN, HELD_OUT_FRESH28_ZH
from tests.agents.reference.corpus_people_fresh29 import HELD_OUT_FRESH29_EN, HELD_OUT_FRESH29_ZH
from tests.agents.reference.corpus_people_fresh30 import HELD_OUT_FRESH30_EN, HELD_OUT_FRESH30_ZH
from tests.agents.reference.corpus_people_fresh31 import HELD_OUT_FRESH31_EN, HELD_OUT_FRESH31_ZH
from tests.agents.reference.test_corpus import (
    CORPUS_EN,
    CORPUS_ZH,
    HELD_OUT_EN,
    HELD_OUT_ZH,
    _check,
    _kind,
    _rows,
)

pytestmark = pytest.mark.spec("R-2.1.1")

_ACTIONS = {"start", "quiz", "stop"}

# Two blind writers labelled "45 min on my econ essay" differently ("econ essay" in one set, "my sermon
# notes" kept whole in another): both are the person's words, cut cleanly. Held-out rows measure the
# Agent, not one writer's taste, so a label matches with or without a leading determiner and in any case.
# (Tuning rows still pin the grammar's own convention exactly, through _check.)
_DETERMINER = re.compile(r"^(?:(?:my|our|the|a|an|his|her|their|your)\s+|我的)", re.IGNORECASE)


def _label(activity: str | None) -> str | None:
    return None if activity is None else _DETERMINER.sub("", activity).casefold()


_WRITTEN_AGAINST = {row[0] for table in (CORPUS_EN, CORPUS_ZH, HELD_OUT_EN, HELD_OUT_ZH) for row in _rows(table)}


def _measure(table: str) -> tuple[int, int, list[str], list[str]]:
    """(rows, understood, not understood, wrong actions) for a held-out table. A phrasing that happens
    to be word for word in the corpus the grammar was written against is not held out: not counted."""
    rows = [row for row in _rows(table) if row[0] not in _WRITTEN_AGAINST]
    understood = 0
    missed, wrong = [], []
    for text, expected, seconds, activity in rows:
        intent = parse_intent(text)
        kind = _kind(intent)
        got: tuple = (kind,)
        if isinstance(intent, StartFocus):
            got = (kind, intent.duration_seconds, _label(intent.activity))
        elif isinstance(intent, StartQuiz):
            got = (kind, intent.duration_seconds, intent.choice)
        if expected == "start":
            want = (expected, seconds, _label(activity))
        else:
            want = (expected, seconds, activity) if expected == "quiz" else (expected,)
        if got == want:
            understood += 1
            continue
        if kind in _ACTIONS and (kind != expected or got[1:2] != want[1:2] or (kind == "quiz" and got[2:] != want[2:])):
            wrong.append(f"{text!r} -> {got}")
        else:
            missed.append(f"{text!r} -> {got}")
    return len(rows), understood, missed, wrong


def test_the_corpus_with_peoples_phrasings_has_at_least_250_per_language():
    """Corpus, tuning and held-out parts together hold at least 250 different phrasings per language
    (people's phrasings were written without the corpus, so a few are word for word in it: counted once);
    the held-out part keeps at least 45 phrasings that are not in the corpus."""
    for tables in (
        (CORPUS_EN, HELD_OUT_EN, TUNING_EN, HELD_OUT_PEOPLE_EN),
        (CORPUS_ZH, HELD_OUT_ZH, TUNING_ZH, HELD_OUT_PEOPLE_ZH),
    ):
        assert len({row[0] for table in tables for row in _rows(table)}) >= 250
    for table in (TUNING_EN, TUNING_ZH, HELD_OUT_PEOPLE_EN, HELD_OUT_PEOPLE_ZH):
        texts = [row[0] for row in _rows(table)]
        assert len(set(texts)) == len(texts)
    for table in (TUNING_EN, TUNING_ZH):
        assert len(_rows(table)) >= 40
    for table in (HELD_OUT_PEOPLE_EN, HELD_OUT_PEOPLE_ZH):
        assert _measure(table)[0] >= 45


@pytest.mark.parametrize(("text", "expected", "seconds", "activity"), _rows(TUNING_EN) + _rows(TUNING_ZH))
def test_tuning_phrasings(text, expected, seconds, activity):
    """Each tuning phrasing means its intent, with its duration and activity, like the corpus."""
    _check(text, expected, seconds, activity)


# Measured before and after each round of generalising the grammar from the tuning rows (never from
# these), totals only: wrong actions en 2 -> 1 -> 0, zh 4 -> 1 -> 0.
@pytest.mark.parametrize("table", [HELD_OUT_PEOPLE_EN, HELD_OUT_PEOPLE_ZH], ids=["en", "zh"])
def test_held_out_people_make_no_wrong_action(table):
    """No held-out phrasing becomes an action other than the one the person asked for."""
    total, understood, _missed, wrong = _measure(table)
    print(f"held-out: {understood}/{total} understood, {len(wrong)} wrong actions")
    assert wrong == []


# Measured: en 41/52 (78.8 %) before tuning, 46/52 (88.5 %) after the first round, 48/52 (92.3 %) after
# the second; zh 37/48 (77.1 %), 42/48 (87.5 %), 45/48 (93.8 %). After round 7 (decision 0064 amended):
# en 48 -> 49/52, zh 45 -> 46/48; wrong actions 0 and 0. After round 8 (decision 0068 and its amendment):
# en 49/52, zh 44/48 (a bare length after "set a timer" and a subject with no duration now get help).
@pytest.mark.parametrize("table", [HELD_OUT_PEOPLE_EN, HELD_OUT_PEOPLE_ZH], ids=["en", "zh"])
def test_held_out_people_are_understood(table):
    """At least 90 % of the held-out phrasings are understood: intent, duration and activity as written."""
    total, understood, missed, wrong = _measure(table)
    print(f"held-out: {understood}/{total} understood ({understood / total:.0%}), {len(wrong)} wrong actions")
    assert understood / total >= 0.9, missed + wrong


# The fresh held-out sets: each written blind (by someone who had read neither the grammar, the apps'
# phrasing declarations nor the other corpora's rows), never tuned on, measured as a whole. A set that
# misses a bar carries a strict xfail with its measured history (_MISSES), so that a round which lifts it
# shows; the rows are never edited to make them pass. Its module docstring says when and how it was written.
# The first figure of each set is its blind measure; later figures are after rounds whose authors had read
# it (and say so). Decision 0069 keeps the whole table; in short:
#   fresh  (at a44f52f): wrong en 2 -> 0, zh 3 -> 0; understood en 65 -> 72/76, zh 64 -> 76/76 (rounds 2-8).
#   fresh5 (at b936707): wrong en 5 -> 0, zh 4 -> 0; understood en 81 -> 102/106, zh 79 -> 94/95.
#   fresh6 (at 46a671f): wrong en 2 -> 1 -> 0 (round 13: "just sums" is addition), zh 2 -> 0; understood en
#          80 -> 100/103, zh 81 -> 97/98.
#   fresh7 (at 313cb25): wrong en 2, zh 6 (blind) -> 0; understood en 90/108, zh 85/109 (blind) -> 104/108,
#          107/109.
#   fresh8 (at 505870e): wrong en 1, zh 3 (blind) -> 0; understood en 95/112 = 84.8 %, zh 98/112 = 87.5 %
#          (blind) -> 110/112, 109/112 (round 9 read its misses).
#   fresh9 (at d2f8508, after round 9): blind en 113/121 = 93.4 % with 1 wrong, zh 112/116 = 96.6 % with 0;
#          after round 10 121/121, 116/116.
#   fresh10, fresh11 (at f1e1ddd, after round 10): blind en 104/118 = 88.1 % and 109/116 = 94.0 % with 0 and 1
#          wrong, zh 107/120 = 89.2 % and 110/115 = 95.7 % with 0 and 2; after round 11: all >= 99 %, 0 wrong.
#   fresh12, fresh13 (at f086cdc, after round 11): blind en 108/123 = 87.8 % and 106/124 = 85.5 % with 1 and 2
#          wrong, zh 104/116 = 89.7 % and 109/123 = 88.6 % with 1 and 1; after round 12: >= 93.5 %, 0 wrong.
#   fresh14, fresh15 (at a1a21c8, after round 12): blind en 105/118 = 89.0 % and 111/119 = 93.3 % with 2 and 1
#          wrong, zh 112/119 = 94.1 % and 107/112 = 95.5 % with 1 and 1; four of the five wrong actions were
#          rows the corpus itself labels the other way (round 13 asks where labellers disagree); after it
#          >= 94.1 %, 0 wrong but fresh15 zh's "算了, 不用了" (the corpus: 算了 and 不用了 stop).
#   Blind, two sets per round (en understood, wrong / zh understood, wrong), then read for the next round:
#   fresh16, fresh17 (at 908609f, round 13): 112/119, 1 / 113/117, 0 and 114/125, 2 / 106/116, 2.
#   fresh18, fresh19 (at 0c95a37, round 14): 112/121, 0 / 111/113, 1 and 104/120, 0 / 110/119, 0.
#   fresh20, fresh21 (at 5b53dff, round 15): 112/116, 0 / 106/111, 0 and 105/118, 1 / 106/116, 2.
#   fresh22, fresh23 (at b934f66, round 16): 108/115, 0 / 103/112, 2 and 104/122, 1 / 108/117, 0.
#   fresh24, fresh25 (at 49b4add, round 17; set 24's writer saw fresh8's English rows): 105/121, 3 / 110/117, 1
#          and 110/120, 1 / 104/115, 0.
#   fresh26, fresh27 (at 43f615a, round 18): 112/121, 1 / 109/114, 1 and 111/120, 0 / 105/117, 1.
#   fresh28, fresh29 (at 5e29d12, round 19): 114/121, 0 / 112/116, 1 and 117/123, 1 / 105/112, 0.
#   fresh30, fresh31 (at 1cb77d2, round 20): 112/122 = 91.8 %, 0 / 111/113 = 98.2 %, 0 and 115/123 = 93.5 %, 0 /
#          113/121 = 93.4 %, 0 — both bars in all four tables, blind.
# (Figures from fresh7 on count a label with or without a leading determiner as the same, see _label.)
FRESH_SETS = {
    "fresh": (HELD_OUT_FRESH_EN, HELD_OUT_FRESH_ZH),
    "fresh5": (HELD_OUT_FRESH5_EN, HELD_OUT_FRESH5_ZH),
    "fresh6": (HELD_OUT_FRESH6_EN, HELD_OUT_FRESH6_ZH),
    "fresh7": (HELD_OUT_FRESH7_EN, HELD_OUT_FRESH7_ZH),
    "fresh8": (HELD_OUT_FRESH8_EN, HELD_OUT_FRESH8_ZH),
    "fresh9": (HELD_OUT_FRESH9_EN, HELD_OUT_FRESH9_ZH),
    "fresh10": (HELD_OUT_FRESH10_EN, HELD_OUT_FRESH10_ZH),
    "fresh11": (HELD_OUT_FRESH11_EN, HELD_OUT_FRESH11_ZH),
    "fresh12": (HELD_OUT_FRESH12_EN, HELD_OUT_FRESH12_ZH),
    "fresh13": (HELD_OUT_FRESH13_EN, HELD_OUT_FRESH13_ZH),
    "fresh14": (HELD_OUT_FRESH14_EN, HELD_OUT_FRESH14_ZH),
    "fresh15": (HELD_OUT_FRESH15_EN, HELD_OUT_FRESH15_ZH),
    "fresh16": (HELD_OUT_FRESH16_EN, HELD_OUT_FRESH16_ZH),
    "fresh17": (HELD_OUT_FRESH17_EN, HELD_OUT_FRESH17_ZH),
    "fresh18": (HELD_OUT_FRESH18_EN, HELD_OUT_FRESH18_ZH),
    "fresh19": (HELD_OUT_FRESH19_EN, HELD_OUT_FRESH19_ZH),
    "fresh20": (HELD_OUT_FRESH20_EN, HELD_OUT_FRESH20_ZH),
    "fresh21": (HELD_OUT_FRESH21_EN, HELD_OUT_FRESH21_ZH),
    "fresh22": (HELD_OUT_FRESH22_EN, HELD_OUT_FRESH22_ZH),
    "fresh23": (HELD_OUT_FRESH23_EN, HELD_OUT_FRESH23_ZH),
    "fresh24": (HELD_OUT_FRESH24_EN, HELD_OUT_FRESH24_ZH),
    "fresh25": (HELD_OUT_FRESH25_EN, HELD_OUT_FRESH25_ZH),
    "fresh26": (HELD_OUT_FRESH26_EN, HELD_OUT_FRESH26_ZH),
    "fresh27": (HELD_OUT_FRESH27_EN, HELD_OUT_FRESH27_ZH),
    "fresh28": (HELD_OUT_FRESH28_EN, HELD_OUT_FRESH28_ZH),
    "fresh29": (HELD_OUT_FRESH29_EN, HELD_OUT_FRESH29_ZH),
    "fresh30": (HELD_OUT_FRESH30_EN, HELD_OUT_FRESH30_ZH),
    "fresh31": (HELD_OUT_FRESH31_EN, HELD_OUT_FRESH31_ZH),
}
# Phrasings each set must add to every corpus before it (the first set was smaller; from the ninth on, common
# requests written by several writers word for word — "专注25分钟" — are counted once, in the first set, and
# with 30 sets before it a set adds at least 70 of its own).
_FRESH_MINIMUM = {"fresh": 60, "fresh5": 80, "fresh6": 80, "fresh7": 90, "fresh8": 90} | {
    name: 70 for name in FRESH_SETS if name not in ("fresh", "fresh5", "fresh6", "fresh7", "fresh8")
}
_CORPORA_BEFORE_FRESH = (
    CORPUS_EN,
    CORPUS_ZH,
    HELD_OUT_EN,
    HELD_OUT_ZH,
    TUNING_EN,
    TUNING_ZH,
    HELD_OUT_PEOPLE_EN,
    HELD_OUT_PEOPLE_ZH,
)
# (set, language, bar) -> what was measured, for a bar the grammar misses now: a strict xfail.
_MISSES = {
    (
        "fresh15",
        "zh",
        "wrong",
    ): "measured: 1 wrong action in 112 ('算了, 不用了' stops, as the corpus's 算了 and 不用了 do)",
}


def _fresh(bar: str) -> list:
    """Every (set, language) case of a bar; a measured miss is a strict xfail."""
    cases = []
    for name in FRESH_SETS:
        for language in ("en", "zh"):
            reason = _MISSES.get((name, language, bar))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            cases.append(pytest.param(name, language, marks=marks, id=f"{name}-{language}"))
    return cases


def _table(name: str, language: str) -> str:
    return FRESH_SETS[name][0 if language == "en" else 1]


@pytest.mark.parametrize("name", list(FRESH_SETS))
def test_each_fresh_set_adds_phrasings_in_no_earlier_corpus(name):
    """Each table of a fresh set holds, all different, at least its minimum of phrasings that are in none
    of the corpora written before it (the corpus, its held-out part, the tuning rows, the first held-out
    people and the earlier fresh sets)."""
    earlier = list(FRESH_SETS)[: list(FRESH_SETS).index(name)]
    tables = _CORPORA_BEFORE_FRESH + tuple(table for before in earlier for table in FRESH_SETS[before])
    others = {row[0] for table in tables for row in _rows(table)}
    for table in FRESH_SETS[name]:
        texts = [row[0] for row in _rows(table)]
        assert len(set(texts)) == len(texts)
        assert len(set(texts) - others) >= _FRESH_MINIMUM[name]
        assert _measure(table)[0] >= _FRESH_MINIMUM[name]


@pytest.mark.parametrize(("name", "language"), _fresh("wrong"))
def test_fresh_sets_make_no_wrong_action(name, language):
    """No phrasing of a fresh set becomes an action other than the one the person asked for."""
    total, understood, _missed, wrong = _measure(_table(name, language))
    print(f"{name} {language}: {understood}/{total} understood, {len(wrong)} wrong actions")
    assert wrong == []


@pytest.mark.parametrize(("name", "language"), _fresh("understood"))
def test_fresh_sets_are_understood(name, language):
    """At least 90 % of a fresh set's phrasings are understood: intent, duration and activity as written."""
    total, understood, missed, wrong = _measure(_table(name, language))
    print(f"{name} {language}: {understood}/{total} understood ({understood / total:.0%}), {len(wrong)} wrong")
    assert understood / total >= 0.9, missed + wrong
