"""The Runtime's data and the database constraints behind its invariants.

Models hold data, not workflows: every change goes through ``runtime.services``. The
constraints below are the last line of defence for the promises of SPEC §3-4, so that a bug
in a service can fail a transaction but never corrupt the state:

* one running exclusive operation per app and conversation (partial unique index, R-3.12);
* one tool call per ``(conversation, source_tool_call_id)`` — the idempotency key (R-3.5);
* one operation per instance (a closed instance can not run a new round, R-3.13);
* one outbox entry per operation (exactly one result, R-2.2.5);
* one foreground instance per conversation (R-4.1.1);
* terminal fields present exactly when the state is terminal.
"""

from runtime.models.agents import Agent, AgentConnection, AgentToken
from runtime.models.conversations import Conversation, ConversationScope, Workspace
from runtime.models.events import LifecycleEvent
from runtime.models.instances import AppInstance, AppSession, AppSessionState, InstanceSnapshot
from runtime.models.operations import (
    NON_FINAL_TOOL_CALL_STATUSES,
    DeliveryChannel,
    Operation,
    OutboxEntry,
    ToolCall,
    ToolCallStatus,
)

__all__ = [
    "NON_FINAL_TOOL_CALL_STATUSES",
    "Agent",
    "AgentConnection",
    "AgentToken",
    "AppInstance",
    "AppSession",
    "AppSessionState",
    "Conversation",
    "ConversationScope",
    "DeliveryChannel",
    "InstanceSnapshot",
    "LifecycleEvent",
    "Operation",
    "OutboxEntry",
    "ToolCall",
    "ToolCallStatus",
    "Workspace",
]
