"""The operators' admin for the Runtime, one module per concern; importing them registers them.

``common`` (read-only base, filters, helpers), ``conversations`` (conversations, workspaces),
``instances`` (instances, sub-sessions, snapshots), ``operations`` (tool calls, operations, the
settle action), ``recovery`` (the recovery sweep page), ``events`` (outbox, event log), ``agents``
(Agents and tokens, revocation), ``incident`` (interrupt with a reason, retry flagged; the User
list's action).
"""

from runtime.admin import agents, conversations, events, incident, instances, operations, recovery

__all__ = ["agents", "conversations", "events", "incident", "instances", "operations", "recovery"]
