"""The operators' admin for the Runtime, one module per concern; importing them registers them.

``common`` (read-only base, filters, helpers), ``conversations`` (conversations, workspaces),
``instances`` (instances, sub-sessions, snapshots), ``operations`` (tool calls, operations, the
settle action), ``recovery`` (the recovery sweep page), ``events`` (outbox, event log), ``agents``
(Agents and tokens, revocation).
"""

from runtime.admin import agents, conversations, events, instances, operations, recovery

__all__ = ["agents", "conversations", "events", "instances", "operations", "recovery"]
