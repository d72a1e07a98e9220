"""The Runtime's state machines as pure decisions (no I/O, ``now`` passed in).

Two tables, each readable in one screen:

* ``decide_settlement`` — the deadline operation of SPEC R-3.2/R-3.9: ``running`` ends exactly
  once, as ``completed`` or ``interrupted``. Every entry point (Agent interrupt, lifecycle event,
  eta task, beat sweep, recovery) asks this function, and the services apply its answer with a
  compare-and-set, so there is one rule for the terminal state.
* ``LIFECYCLE_TRANSITIONS`` — which app-instance lifecycle moves are allowed (SPEC R-2.2.2).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime

from django.db import models
from django.utils.translation import gettext_lazy as _


class OperationState(models.TextChoices):
    # Generic: an app's own word for it is its manifest's running_label, which is what its wire
    # says (runtime.services.operation_views.wire_state).
    RUNNING = "running", _("running")
    COMPLETED = "completed", _("completed")
    INTERRUPTED = "interrupted", _("interrupted")


FINAL_OPERATION_STATES = frozenset({OperationState.COMPLETED, OperationState.INTERRUPTED})

# The stored states that mean "still running": every read, filter, constraint, partial index and SQL
# function names them through this one constant. One word since migrations 0026-0027 converted the
# rows of releases before 0024 and narrowed the constraints (decisions 0040, 0053); a rename of the
# running state would widen it again for one release, the way 0024 did.
RUNNING_STATES: tuple[str, ...] = (OperationState.RUNNING.value,)


def is_running(state: str) -> bool:
    """Whether an operation in ``state`` still runs."""
    return state in RUNNING_STATES


class InterruptionReason(models.TextChoices):
    AGENT_INTERRUPT = (
        "agent_interrupt",
        _("interrupted by the Agent"),
    )  # the app's interrupting tool, from the Agent
    RETURNED_TO_INTERACT = "returned_to_interact", _("returned to Interact")  # the user went back to Interact
    SWITCHED_APP = "switched_app", _("switched app")  # the user switched to another MiniApp
    APP_CLOSED = "app_closed", _("app closed")  # the user (or the host window) closed the app
    HOST_INTERRUPTION = "host_interruption", _("host interruption")  # reserved, never produced now
    OPERATOR = "operator", _("stopped by an operator")  # from the admin; who and why: the event log


class Trigger(enum.Enum):
    """What asks an operation to end."""

    DEADLINE = "deadline"
    AGENT_INTERRUPT = "agent_interrupt"
    RETURN_TO_INTERACT = "return_to_interact"
    SWITCH_APP = "switch_app"
    CLOSE_APP = "close_app"
    OPERATOR = "operator"


_INTERRUPTION_BY_TRIGGER = {
    Trigger.AGENT_INTERRUPT: InterruptionReason.AGENT_INTERRUPT,
    Trigger.RETURN_TO_INTERACT: InterruptionReason.RETURNED_TO_INTERACT,
    Trigger.SWITCH_APP: InterruptionReason.SWITCHED_APP,
    Trigger.CLOSE_APP: InterruptionReason.APP_CLOSED,
    Trigger.OPERATOR: InterruptionReason.OPERATOR,
}


@dataclass(frozen=True)
class Settle:
    """End the operation now with this terminal state."""

    state: OperationState
    ended_at: datetime
    interruption_reason: InterruptionReason | None = None


@dataclass(frozen=True)
class AlreadyFinal:
    """The operation ended earlier; nothing changes (R-3.7)."""

    state: OperationState


@dataclass(frozen=True)
class NotDue:
    """A deadline trigger arrived before ``ends_at`` (an early eta, a clock skew): keep running."""


SettlementDecision = Settle | AlreadyFinal | NotDue


def decide_settlement(
    state: OperationState | str, trigger: Trigger, *, ends_at: datetime, now: datetime
) -> SettlementDecision:
    """The single rule for a deadline operation's terminal state.

    | state          | trigger              | now < ends_at                | now >= ends_at       |
    |----------------|----------------------|------------------------------|----------------------|
    | completed/int. | any                  | AlreadyFinal                 | AlreadyFinal         |
    | running        | deadline             | NotDue                       | completed @ ends_at  |
    | running        | interrupt/lifecycle  | interrupted(reason) @ now    | completed @ ends_at  |

    Once ``ends_at`` has passed the agreed duration *was* reached, so a late interrupt or close
    (e.g. arriving while the sweep is a moment behind, or after a restart) settles ``completed``
    with ``ended_at = ends_at``: the outcome never depends on how late settlement runs.
    """
    if state in FINAL_OPERATION_STATES:
        return AlreadyFinal(OperationState(state))
    if now >= ends_at:
        return Settle(OperationState.COMPLETED, ended_at=ends_at)
    if trigger is Trigger.DEADLINE:
        return NotDue()
    return Settle(OperationState.INTERRUPTED, ended_at=now, interruption_reason=_INTERRUPTION_BY_TRIGGER[trigger])


# --- App instance lifecycle -------------------------------------------------------------------


class LifecycleState(models.TextChoices):
    LAUNCHING = "launching", _("launching")
    FOREGROUND = "foreground", _("foreground")
    BACKGROUND = "background", _("background")
    SUSPENDED = "suspended", _("suspended")
    CLOSED = "closed", _("closed")


# from-state -> states it may move to. ``closed`` is terminal; ``restored``
# is not a state but a mark set by recovery on an instance that survived a restart.
LIFECYCLE_TRANSITIONS: dict[LifecycleState, frozenset[LifecycleState]] = {
    # An app may open an instance behind what is in front (an Agent's note), never shown first.
    LifecycleState.LAUNCHING: frozenset({LifecycleState.FOREGROUND, LifecycleState.BACKGROUND, LifecycleState.CLOSED}),
    LifecycleState.FOREGROUND: frozenset({LifecycleState.BACKGROUND, LifecycleState.SUSPENDED, LifecycleState.CLOSED}),
    LifecycleState.BACKGROUND: frozenset({LifecycleState.FOREGROUND, LifecycleState.SUSPENDED, LifecycleState.CLOSED}),
    LifecycleState.SUSPENDED: frozenset({LifecycleState.FOREGROUND, LifecycleState.BACKGROUND, LifecycleState.CLOSED}),
    LifecycleState.CLOSED: frozenset(),
}


def can_transition(current: LifecycleState | str, target: LifecycleState | str) -> bool:
    """Whether an instance in ``current`` may move to ``target`` (staying put is always allowed)."""
    current, target = LifecycleState(current), LifecycleState(target)
    if current == target:
        return current != LifecycleState.CLOSED
    return target in LIFECYCLE_TRANSITIONS[current]
