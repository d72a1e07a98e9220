"""The MCP endpoint: LineUp's Agent tools over the Model Context Protocol (docs/agents.md, decision 0008).

``asgi`` mounts it under ``/mcp/``, ``endpoint`` authenticates the Agent token and binds the conversation
named in the URL, ``server`` speaks MCP with the official SDK's low-level server, and ``bridge`` is the
synchronous side: the same Tool Router, services and rows as ``/ws/agent/``. ``apps`` adds MCP Apps
(MiniApp Surfaces as ``ui://`` resources, built by ``interact.surface_document``; decision 0021).
"""
