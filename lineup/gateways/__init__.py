"""The two Agent gateways: wire protocols translated into calls on the Runtime's and Interact's services.

``agent_socket`` is ``/ws/agent/`` (``lineup.agent.v1``, docs/agent-protocol.md); ``mcp`` is
``/mcp/<conversation_id>/`` (the Model Context Protocol, docs/agents.md). They sit above both apps
(docs/decisions/0010-layers.md): neither ``runtime`` nor ``interact`` imports them.
"""
