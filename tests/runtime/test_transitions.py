"""The transition tables of runtime.transitions, every state x trigger (no database)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from runtime.transitions import (
    AlreadyFinal,
    InterruptionReason,
    LifecycleState,
    NotDue,
    OperationState,
    Settle,
    Trigger,
    can_transition,
    decide_settlement,
)
from tests.support.factories import T0

ENDS_AT = T0 + timedelta(seconds=60)
BEFORE, AT, AFTER = ENDS_AT - timedelta(seconds=1), ENDS_AT, ENDS_AT + timedelta(hours=5)

INTERRUPTING = {
    Trigger.AGENT_INTERRUPT: InterruptionReason.AGENT_INTERRUPT,
    Trigger.RETURN_TO_INTERACT: InterruptionReason.RETURNED_TO_INTERACT,
    Trigger.SWITCH_APP: InterruptionReason.SWITCHED_APP,
    Trigger.CLOSE_APP: InterruptionReason.APP_CLOSED,
    Trigger.OPERATOR: InterruptionReason.OPERATOR,
}


@pytest.mark.spec("R-3.2", "R-3.9")
@pytest.mark.parametrize("state", [OperationState.COMPLETED, OperationState.INTERRUPTED])
@pytest.mark.parametrize("trigger", list(Trigger))
@pytest.mark.parametrize("now", [BEFORE, AT, AFTER])
def test_a_final_operation_never_changes(state, trigger, now):
    """Terminal states are terminal: every later trigger only gets AlreadyFinal."""
    assert decide_settlement(state, trigger, ends_at=ENDS_AT, now=now) == AlreadyFinal(state)


@pytest.mark.spec("R-4.2.3")
def test_a_deadline_before_ends_at_is_not_due():
    """An early eta (or clock skew) never settles: ends_at is the only time fact."""
    assert decide_settlement(OperationState.RUNNING, Trigger.DEADLINE, ends_at=ENDS_AT, now=BEFORE) == NotDue()


@pytest.mark.spec("R-3.2", "R-4.4.1")
@pytest.mark.parametrize("trigger", list(Trigger))
@pytest.mark.parametrize("now", [AT, AFTER])
def test_at_or_after_ends_at_everything_settles_completed_at_ends_at(trigger, now):
    """Once the agreed duration is reached the outcome is completed, ended_at = ends_at, however late."""
    assert decide_settlement(OperationState.RUNNING, trigger, ends_at=ENDS_AT, now=now) == Settle(
        OperationState.COMPLETED, ended_at=ENDS_AT
    )


@pytest.mark.spec("R-3.6", "R-3.8")
@pytest.mark.parametrize(("trigger", "reason"), INTERRUPTING.items())
def test_before_ends_at_an_exit_interrupts_with_its_reason(trigger, reason):
    assert decide_settlement(OperationState.RUNNING, trigger, ends_at=ENDS_AT, now=BEFORE) == Settle(
        OperationState.INTERRUPTED, ended_at=BEFORE, interruption_reason=reason
    )


@pytest.mark.spec("R-4.4.4")
def test_host_interruption_is_reserved_and_never_produced():
    """The host_interruption reason exists, and no trigger maps to it."""
    produced = {decide_settlement(OperationState.RUNNING, t, ends_at=ENDS_AT, now=BEFORE) for t in Trigger}
    assert all(getattr(d, "interruption_reason", None) != InterruptionReason.HOST_INTERRUPTION for d in produced)


# The lifecycle table written out by hand (not derived from LIFECYCLE_TRANSITIONS, the table under
# test): row = current state, column = requested state, "yes" = allowed, "--" = refused.
EXPECTED_LIFECYCLE = """
             launching  foreground  background  suspended  closed
launching    yes        yes         --          --         yes
foreground   --         yes         yes         yes        yes
background   --         yes         yes         yes        yes
suspended    --         yes         yes         yes        yes
closed       --         --          --          --         --
"""


def _expected_lifecycle() -> dict[tuple[str, str], bool]:
    header, *rows = [line.split() for line in EXPECTED_LIFECYCLE.strip().splitlines()]
    return {(row[0], target): cell == "yes" for row in rows for target, cell in zip(header, row[1:], strict=True)}


def test_the_expected_lifecycle_table_covers_every_pair():
    """The hand-written table names every state x state pair exactly once."""
    states = {state.value for state in LifecycleState}
    assert set(_expected_lifecycle()) == {(current, target) for current in states for target in states}


@pytest.mark.spec("R-2.2.2", "R-4.2.5")
@pytest.mark.parametrize("current", list(LifecycleState))
@pytest.mark.parametrize("target", list(LifecycleState))
def test_lifecycle_table(current, target):
    """Each state x requested state is allowed or refused exactly as EXPECTED_LIFECYCLE says; closed is terminal."""
    assert can_transition(current, target) is _expected_lifecycle()[(current.value, target.value)]
