"""Helpers that build scenarios through the real Tool Router and services."""

from __future__ import annotations

import itertools
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from runtime.inventory import inventory_for_scope
from runtime.models import Conversation
from runtime.tool_calls import ToolOutcome
from runtime.tool_router import Caller, route_tool_call

# Pomodoro's bound on a focus (its manifest's deadline_operation.max_duration_seconds: 24 h).
MAX_FOCUS_SECONDS = 24 * 60 * 60
T0 = datetime(2026, 1, 5, 9, 0, 0, tzinfo=UTC)  # a fixed clock: tests pass ``now`` explicitly


def at(seconds: float) -> datetime:
    """``T0 + seconds``: the test clock."""
    return T0 + timedelta(seconds=seconds)


_ids = itertools.count(1)


def new_call_id(prefix: str = "call") -> str:
    return f"{prefix}-{next(_ids)}-{uuid.uuid4().hex[:8]}"


@dataclass
class AgentDriver:
    """Calls tools for one conversation like an Agent would, with the current Inventory revision."""

    caller: Caller
    conversation: Conversation
    revision: str = field(init=False)

    def __post_init__(self) -> None:
        self.revision = inventory_for_scope(self.conversation.scope).revision

    def call(
        self,
        tool: str,
        arguments: dict[str, Any] | None = None,
        *,
        now: datetime,
        call_id: str | None = None,
        revision: str | None = None,
    ) -> ToolOutcome:
        return route_tool_call(
            caller=self.caller,
            conversation_id=str(self.conversation.id),
            source_tool_call_id=call_id or new_call_id(tool),
            tool=tool,
            arguments={} if arguments is None else arguments,
            inventory_revision=self.revision if revision is None else revision,
            now=now,
        )

    def start(
        self, seconds: int = 60, activity: str | None = None, *, now: datetime = T0, call_id: str | None = None
    ) -> ToolOutcome:
        arguments: dict[str, Any] = {"duration_seconds": seconds}
        if activity is not None:
            arguments["activity"] = activity
        return self.call("pomodoro.start", arguments, now=now, call_id=call_id)

    def interrupt(self, *, now: datetime, call_id: str | None = None) -> ToolOutcome:
        return self.call("pomodoro.interrupt", {}, now=now, call_id=call_id)


def planned_seconds(operation: Any) -> int:
    """A deadline operation's planned duration (what its start asked for): ends_at - started_at."""
    return round((operation.ends_at - operation.started_at).total_seconds())


def activity_of(operation: Any) -> str | None:
    """A Pomodoro focus's activity, kept in its operation's details."""
    return (operation.details or {}).get("activity")
