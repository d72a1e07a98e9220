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
# misses a bar carries a strict xfail with its measured history, so that a round which lifts it shows;
# the rows are never edited to make them pass. Its module docstring says when and how it was written.
#   fresh  (corpus_people_fresh.py, at a44f52f): wrong en 2 -> 1 -> 0, zh 3 -> 1 -> 1 -> 1 -> 0 (round 7);
#          understood en 65 -> 68 -> 69 -> 69 -> 70 -> 72/76, zh 64 -> 70 -> 70 -> 70 -> 73 -> 76/76 (rounds 2, 3,
#          0064, 7, 8).
#   fresh5 (corpus_people_fresh5.py, at b936707): wrong en 5 -> 2 -> 1 -> 0, zh 4 -> 3 -> 0 -> 0; understood
#          en 81 -> 85 -> 97 -> 99/106, zh 79 -> 82 -> 95 -> 94/95 (0064, round 7 — whose brief named families
#          observed on these voices, so its figures flatter a blind measure —, round 8).
#   fresh6 (corpus_people_fresh6.py, at 46a671f, after 0064): wrong en 2 -> 2 -> 1, zh 2 -> 1 -> 0;
#          understood en 80 -> 84 -> 93/103, zh 81 -> 83 -> 95/98 (rounds 7 and 8 — round 8's brief named
#          families observed on these voices, so its figures flatter a blind measure).
#   fresh7 (corpus_people_fresh7.py, at 313cb25, after round 7): wrong en 2 -> 2 -> 0, zh 6 -> 4 -> 0;
#          understood en 91 -> 92 -> 93 -> 95/108 = 88.0 %, zh 85 -> 97 -> 98 -> 100/109 = 91.7 %. Round 8's
#          helper never saw these rows nor families drawn from them (the second figures are a blind
#          measure); 0068's amendment and "which app?" came after reading their six wrong actions: not blind.
#   fresh8 (corpus_people_fresh8.py, at 505870e, after 0068's amendment; its writer read 0068's commit
#          subject in git log, not the grammar): wrong en 1, zh 3; understood en 95/112 = 84.8 %, zh 98/112
#          = 87.5 %. Its writer said it calls a bare length "ask" (which app?) where the grammar answered
#          help; after "which app?" (0068's amendment): en 97/112 = 86.6 %, zh 100/112 = 89.3 %.
# (Figures from fresh7 on count a label with or without a leading determiner as the same, see _label;
# before that, fresh6 en read 84 where it now reads 86 at the same grammar, fresh5 en 97 for 98.)
FRESH_SETS = {
    "fresh": (HELD_OUT_FRESH_EN, HELD_OUT_FRESH_ZH),
    "fresh5": (HELD_OUT_FRESH5_EN, HELD_OUT_FRESH5_ZH),
    "fresh6": (HELD_OUT_FRESH6_EN, HELD_OUT_FRESH6_ZH),
    "fresh7": (HELD_OUT_FRESH7_EN, HELD_OUT_FRESH7_ZH),
    "fresh8": (HELD_OUT_FRESH8_EN, HELD_OUT_FRESH8_ZH),
}
# Phrasings each set must add to every corpus before it (the first set was smaller).
_FRESH_MINIMUM = {"fresh": 60, "fresh5": 80, "fresh6": 80, "fresh7": 90, "fresh8": 90}
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


def _fresh(name: str, language: str, reason: str | None = None):
    """One (set, language) case; ``reason`` marks a measured miss as a strict xfail."""
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(name, language, marks=marks, id=f"{name}-{language}")


_NO_WRONG_ACTION = [
    _fresh("fresh", "en"),
    _fresh("fresh", "zh"),
    _fresh("fresh5", "en"),
    _fresh("fresh5", "zh"),
    _fresh(
        "fresh6",
        "en",
        "measured: 2, after round 8 1 wrong action in 103 ('just sums': mixed, as the tuning rows read it)",
    ),
    _fresh("fresh6", "zh"),
    _fresh("fresh7", "en"),
    _fresh("fresh7", "zh"),
    _fresh("fresh8", "en", "measured: 1 wrong action in 112"),
    _fresh("fresh8", "zh", "measured: 3 wrong actions in 112"),
]
_UNDERSTOOD = [
    _fresh("fresh", "en"),
    _fresh("fresh", "zh"),
    _fresh("fresh5", "en"),
    _fresh("fresh5", "zh"),
    _fresh("fresh6", "en"),
    _fresh("fresh6", "zh"),
    _fresh("fresh7", "en", "measured: 83.3 %, after round 8 95/108 = 88.0 %"),
    _fresh("fresh7", "zh"),
    _fresh("fresh8", "en", "measured: 95/112 = 84.8 %, after 'which app?' 97/112 = 86.6 %"),
    _fresh("fresh8", "zh", "measured: 98/112 = 87.5 %, after 'which app?' 100/112 = 89.3 %"),
]


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


@pytest.mark.parametrize(("name", "language"), _NO_WRONG_ACTION)
def test_fresh_sets_make_no_wrong_action(name, language):
    """No phrasing of a fresh set becomes an action other than the one the person asked for."""
    total, understood, _missed, wrong = _measure(_table(name, language))
    print(f"{name} {language}: {understood}/{total} understood, {len(wrong)} wrong actions")
    assert wrong == []


@pytest.mark.parametrize(("name", "language"), _UNDERSTOOD)
def test_fresh_sets_are_understood(name, language):
    """At least 90 % of a fresh set's phrasings are understood: intent, duration and activity as written."""
    total, understood, missed, wrong = _measure(_table(name, language))
    print(f"{name} {language}: {understood}/{total} understood ({understood / total:.0%}), {len(wrong)} wrong")
    assert understood / total >= 0.9, missed + wrong
