"""The reference Agent's grammar as the corpus tests use it: against the bundled apps' declarations.

The grammar knows no app (decision 0057): it understands what the installed apps declare. These tests
parse against the bundled apps as the personal Inventory publishes them (``miniapps/*/phrasings.json``
and each start tool's bound), and name the intents of the two apps the corpus is about as before:
``StartFocus`` is a start of Pomodoro, ``StartQuiz`` one of the quiz (its ``kind`` the choice slot).
"""

from __future__ import annotations

import functools
from typing import Any

from agents.reference import declared, intents
from agents.reference.intents import Intent, Start
from runtime.inventory import inventory_for_scope

StopFocus = intents.Stop
FocusStatus = intents.Status


@functools.cache
def apps() -> tuple[declared.DeclaredApp, ...]:
    return tuple(declared.apps_from_inventory(inventory_for_scope("personal").published()))


def parse_intent(text: str, *, awaiting_duration: bool = False) -> Intent:
    return intents.parse_intent(text, apps(), awaiting_duration=awaiting_duration)


class _StartOf(type):
    """``isinstance(intent, StartFocus)``: a start of that app."""

    app_id: str

    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, Start) and instance.app_id == cls.app_id


class StartFocus(metaclass=_StartOf):
    app_id = "pomodoro"

    def __new__(cls, duration_seconds: int, activity: str | None, language: intents.Language) -> Start:  # type: ignore[misc]
        return Start(cls.app_id, duration_seconds, activity, language)


class StartQuiz(metaclass=_StartOf):
    app_id = "quiz"

    def __new__(cls, duration_seconds: int, kind: str, language: intents.Language) -> Start:  # type: ignore[misc]
        return Start(cls.app_id, duration_seconds, None, language, kind)


def max_seconds(app_id: str) -> int:
    """The app's bound as the Inventory publishes it (its manifest's ``max_duration_seconds``)."""
    bound = next(app.max_duration_seconds for app in apps() if app.app_id == app_id)
    assert bound is not None
    return bound
