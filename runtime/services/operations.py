"""The names other code imported from ``runtime.services.operations`` before it was split (issue 39).

The deadline operation lives in rooms that say what they hold: ``operation_views`` (the contract
``runtime.api`` re-exports, and result shaping), ``starts``, ``settlements`` (with its locking reads in
``operation_rows``) and ``interrupts``.
Import from those; this module only keeps code written against the old one working (a switch
is patched where it lives, not here).
"""

from runtime.services.interrupts import cancel_operation, interrupt_for_operator, interrupt_operation
from runtime.services.operation_views import (
    OperationView,
    busy_rejection,
    check_receipt,
    invalid_result,
    operation_projection,
    operation_result,
    policy_of,
    standard_result,
    wire_state,
)
from runtime.services.settlements import SettleOutcome, settle_due_batch, settle_for_lifecycle, settle_operation
from runtime.services.starts import start_operation

__all__ = [
    "OperationView",
    "SettleOutcome",
    "busy_rejection",
    "cancel_operation",
    "check_receipt",
    "interrupt_for_operator",
    "interrupt_operation",
    "invalid_result",
    "operation_projection",
    "operation_result",
    "policy_of",
    "settle_due_batch",
    "settle_for_lifecycle",
    "settle_operation",
    "standard_result",
    "start_operation",
    "wire_state",
]
