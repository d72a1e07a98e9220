"""The built-in reference Agent: an ordinary client of ``/ws/agent/`` (docs/agent-protocol.md).

``intents`` understands a person's English or Chinese message, ``durations`` its durations,
``replies`` words the answers, ``agent`` is the transport-agnostic protocol logic (what runs and the
person's language come in frames: ``conversation.state``, ``user.message``). ``agents.common.client``
speaks WebSockets; ``interact.builtin_agents`` runs one client per user.
"""
