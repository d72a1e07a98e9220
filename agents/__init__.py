"""LineUp's built-in Agents, clients of ``/ws/agent/`` like any other (docs/decisions/0048).

Nothing here imports LineUp (an import-linter contract): ``common`` is the reconnecting WebSocket
client, ``reference`` the rule-based reference Agent, ``llm`` the LLM Agent. The Host's launcher,
``interact.builtin_agents``, runs them.
"""
