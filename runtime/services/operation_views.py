"""What an app sees of an operation and how its answers are shaped: the contract ``runtime.api``
re-exports (``OperationView``, ``standard_result``) and the Runtime's checks around it.

An app shapes its result and projection from a read-only ``OperationView``; every result is
checked against the start tool's frozen ``result_schema`` (a bad one becomes ``invalid_result``,
decision 0041) and every short tool's receipt against its own before anything is written.
The start and settlement services (``runtime.services.starts``, ``runtime.services.settlements``)
call these; nothing here writes but the settlement's ``operation.result_invalid`` event.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from runtime.clock import isoformat
from runtime.errors import Rejection, RejectionCode
from runtime.events import record_event
from runtime.internals.django_db import related_is_cached
from runtime.manifests import OperationPolicy, first_error, get_tool
from runtime.miniapps import registered
from runtime.models import InstanceSnapshot, Operation
from runtime.projections import project_on_commit, result_delivery
from runtime.transitions import OperationState, is_running


class OperationView:
    """A read-only view of one operation, for the app that shapes its result and projection.

    ``instance_state`` (the last snapshot of the app's instance) is read only when asked for, so
    an app that does not need it costs no query.
    """

    __slots__ = ("_operation", "_state", "_state_read")

    def __init__(self, operation: Operation) -> None:
        self._operation = operation
        self._state: dict[str, Any] | None = None
        self._state_read = False

    @property
    def operation_id(self) -> uuid.UUID:
        return self._operation.id

    @property
    def app_id(self) -> str:
        return self._operation.app_id

    @property
    def instance_id(self) -> uuid.UUID:
        return self._operation.instance_id

    @property
    def state(self) -> str:
        """The app's own word while it runs (its manifest's ``running_label``), then ``completed``
        or ``interrupted``: the app sees its words, never the Runtime's stored one."""
        return wire_state(self._operation)

    @property
    def started_at(self) -> datetime:
        return self._operation.started_at

    @property
    def ends_at(self) -> datetime:
        return self._operation.ends_at

    @property
    def ended_at(self) -> datetime | None:
        return self._operation.ended_at

    @property
    def interruption_reason(self) -> str | None:
        return self._operation.interruption_reason

    @property
    def duration_seconds(self) -> int:
        return round((self._operation.ends_at - self._operation.started_at).total_seconds())

    @property
    def details(self) -> dict[str, Any]:
        return dict(self._operation.details or {})

    @property
    def instance_state(self) -> dict[str, Any] | None:
        if not self._state_read:
            self._state = (
                InstanceSnapshot.objects.filter(instance_id=self._operation.instance_id)
                .values_list("state", flat=True)
                .first()
            )
            self._state_read = True
        return self._state


def standard_result(view: OperationView) -> dict[str, Any]:
    """The plain final result of a deadline operation: how and when it ended (SPEC §3.1)."""
    result = {
        "state": view.state,
        "operation_id": str(view.operation_id),
        "started_at": isoformat(view.started_at),
        "ends_at": isoformat(view.ends_at),
        "ended_at": isoformat(view.ended_at),
    }
    if view.interruption_reason:
        result["interruption_reason"] = view.interruption_reason
    return result


RESULT_INVALID = str(RejectionCode.RESULT_INVALID)  # the code of the error result an app's bad result becomes


def invalid_result(view: OperationView) -> dict[str, Any]:
    """The one final result of an operation whose app could not shape a valid one (decision 0041).

    The same for every app and outside any ``result_schema``: ``isError`` and a stable ``error``,
    with the Runtime's own facts of how and when the operation ended. The reason (an exception, a
    schema path) is the operator's, in the event log: it may quote what the Agent should not read.
    """
    return {
        "isError": True,
        "error": {"code": RESULT_INVALID, "detail": "the app could not shape this operation's result"},
        **standard_result(view),
    }


def is_invalid_result(result: object) -> bool:
    """Whether a stored final result is ``invalid_result``'s error shape."""
    return (
        isinstance(result, dict)
        and result.get("isError") is True
        and result.get("error", {}).get("code") == RESULT_INVALID
    )


def shaped_result(operation: Operation) -> tuple[dict[str, Any], str | None]:
    """The final result of a settled operation as its app shapes it (``standard_result`` by
    default), checked against its start tool's frozen ``result_schema``; ``(result, None)``, or
    ``(invalid_result, why)`` when the app's builder raised or its result breaks the schema."""
    miniapp = registered(operation.app_id)
    build = miniapp.result if miniapp and miniapp.result else standard_result
    view = OperationView(operation)
    descriptor = get_tool(operation.tool_call.tool)
    if descriptor is None:
        return invalid_result(
            view
        ), f"{operation.tool_call.tool!r} is no longer published; its result can not be checked"
    try:
        result = build(view)
    except Exception as exc:  # an app's bug: the operation still ends with one result
        return invalid_result(view), f"{descriptor.name} result builder raised {type(exc).__name__}: {exc}"[:2000]
    error = first_error(descriptor.result_validator, result)
    if error is not None:
        where, message = error
        return invalid_result(view), f"{descriptor.name} result {where or '(result)'}: {message}"[:2000]
    return result, None


def operation_result(operation: Operation) -> dict[str, Any]:
    """The final result of a settled operation, as its Agent receives it (``shaped_result``)."""
    return shaped_result(operation)[0]


def operation_projection(operation: Operation) -> dict[str, Any]:
    """What the workspace is told about an operation: the Runtime's ids and times, and the app's fields."""
    miniapp = registered(operation.app_id)
    extra = miniapp.projection(OperationView(operation)) if miniapp and miniapp.projection else {}
    projection = {
        "operation_id": str(operation.id),
        "instance_id": str(operation.instance_id),
        "app_session_id": str(operation.app_session_id),
        **extra,
        "state": wire_state(operation),
        "started_at": isoformat(operation.started_at),
        "ends_at": isoformat(operation.ends_at),
        # The manifest's policy, so the page warns that leaving ends it only when it does.
        "ends_when_left": _ends_when_left(operation),
    }
    if operation.ended_at is not None:
        projection["ended_at"] = isoformat(operation.ended_at)
    if operation.interruption_reason:
        projection["interruption_reason"] = operation.interruption_reason
    if _ended_with_invalid_result(operation):
        # The page shows that it ended with a problem, not a result that never came (decision 0041).
        projection["problem"] = RESULT_INVALID
    return projection


def _ended_with_invalid_result(operation: Operation) -> bool:
    if getattr(operation, "result_problem", None) is not None:  # this settlement's, in memory
        return True
    return related_is_cached(operation, "tool_call") and is_invalid_result(operation.tool_call.result)


def wire_state(operation: Operation) -> str:
    """The operation's state in its app's words, as every wire says it: while it runs (whichever
    release stored it) the manifest's ``running_label``, then ``completed`` or ``interrupted``.

    Readers load the start call with the operation (select_related), so this costs no query."""
    if not is_running(operation.state):
        return operation.state
    descriptor = get_tool(operation.tool_call.tool)
    return descriptor.operation.running_label if descriptor and descriptor.operation else OperationState.RUNNING.value


def _ends_when_left(operation: Operation) -> bool:
    # Readers load the start call with the operation (select_related), so this costs no query.
    descriptor = get_tool(operation.tool_call.tool)
    return descriptor.operation.ends_when_left if descriptor and descriptor.operation else True


def policy_of(tool: str) -> OperationPolicy:
    descriptor = get_tool(tool)
    if descriptor is None or descriptor.operation is None:
        raise LookupError(f"{tool!r} is not a published operation tool")
    return descriptor.operation


def checked_result(operation: Operation, *, now: datetime) -> dict[str, Any]:
    """The result a settlement writes. A bad one becomes ``invalid_result``: the Agent still gets
    its one result, the operation is marked (``result_problem``: its projection says so and
    ``flag_invalid_results`` flags it for an operator) and the reason is logged at error level."""
    result, problem = shaped_result(operation)
    if problem is not None:
        operation.result_problem = problem
        record_event(
            "operation.result_invalid",
            at=now,
            level="error",
            reason=problem,
            tool=operation.tool_call.tool,
            **event_ids(operation),
        )
    return result


def busy_rejection(policy: OperationPolicy, app_id: str, operation_id: object) -> Rejection:
    return Rejection(
        policy.busy_rejection_code,  # the manifest's public code
        # In the app's words (its running_label), as its projection and results say it.
        f"this conversation already has a {policy.running_label} operation; interrupt it or wait for its result",
        operation_id=str(operation_id),
    )


class ReceiptInvalid(Rejection):
    """A short tool's receipt breaks its frozen ``result_schema``: an app's bug, refused before
    anything is written (the call is answered ``receipt_invalid`` and logged at error level)."""


def check_receipt(tool: str, receipt: dict[str, Any]) -> None:
    """Hold a short tool's receipt to its ``result_schema`` (decision 0041); raise ``ReceiptInvalid``."""
    descriptor = get_tool(tool)
    error = first_error(descriptor.result_validator, receipt) if descriptor is not None else ("", "not published")
    if error is not None:
        where, message = error
        raise ReceiptInvalid(
            RejectionCode.RECEIPT_INVALID, f"the app's receipt of {tool} is invalid ({where or 'receipt'}: {message})"
        )


def project_settled(operation: Operation, outbox_id: uuid.UUID | str, result: Any) -> None:
    """The ``operation.settled`` hint of either settlement path, carrying the outbox entry it wrote
    (the start call's caller's: agent, channel) so the caller's socket writes it without a read."""
    project_on_commit(
        operation.conversation_id,
        "operation.settled",
        operation_projection(operation),
        delivery=result_delivery(
            outbox_id=outbox_id,
            agent_id=operation.tool_call.agent_id,
            channel=operation.tool_call.channel,
            conversation_id=operation.conversation_id,
            source_tool_call_id=operation.source_tool_call_id,
            tool=operation.tool_call.tool,
            result=result,
        ),
    )


def event_ids(operation: Operation) -> dict[str, Any]:
    return {
        "conversation_id": operation.conversation_id,
        "instance_id": operation.instance_id,
        "app_session_id": operation.app_session_id,
        "operation_id": operation.id,
        "source_tool_call_id": operation.source_tool_call_id,
    }
