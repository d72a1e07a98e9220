"""Stable rejection codes (SPEC §3.1, docs/agent-protocol.md) and the exception carrying them."""

from __future__ import annotations

import enum


class RejectionCode(enum.StrEnum):
    INVALID_ARGUMENTS = "invalid_arguments"
    UNKNOWN_TOOL = "unknown_tool"
    STALE_INVENTORY = "stale_inventory"
    UNKNOWN_CONVERSATION = "unknown_conversation"
    FORBIDDEN = "forbidden"
    # An app's busy code is its own (its manifest's deadline_operation.busy_rejection_code).
    # The same source_tool_call_id was sent again with another tool or other arguments.
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    UNKNOWN_INSTANCE = "unknown_instance"
    UNKNOWN_APP = "unknown_app"
    INSTANCE_CLOSED = "instance_closed"
    NOT_ALLOWED = "not_allowed"
    # Interact: messages and standard interactions
    UNKNOWN_APP_SESSION = "unknown_app_session"
    APP_SESSION_ENDED = "app_session_ended"
    UNKNOWN_INTERACTION = "unknown_interaction"
    INTERACTION_RESOLVED = "interaction_already_resolved"
    INVALID_ANSWER = "invalid_answer"
    # Snapshot writes (app.instance-state.v1)
    STATE_NOT_SUPPORTED = "state_not_supported"
    STATE_SCHEMA_VIOLATION = "state_schema_violation"
    STATE_TOO_LARGE = "state_too_large"
    STALE_REVISION = "stale_revision"
    # Operations of any app (decision 0041)
    UNKNOWN_OPERATION = "unknown_operation"  # a stop named an operation this app does not have here
    AMBIGUOUS_OPERATION = "ambiguous_operation"  # a stop named none while two or more run
    RECEIPT_INVALID = "receipt_invalid"  # an app's short-tool receipt broke its result_schema
    RESULT_INVALID = "result_invalid"  # an app shaped no valid final result: its error result's code
    # Another app's operation runs alone in the conversation and refuses starts beside it (its
    # manifest's ``alone_rejection_code``; this is the default).
    EXCLUSIVE_OPERATION_RUNNING = "exclusive_operation_running"


class Rejection(Exception):
    """A request the Runtime refuses; nothing was changed."""

    def __init__(self, code: RejectionCode | str, detail: str, **context: object) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail
        self.context = context
