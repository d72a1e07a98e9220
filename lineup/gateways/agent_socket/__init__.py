"""The Agent interface: ``/ws/agent/`` speaking ``lineup.agent.v1`` (docs/agent-protocol.md)."""
