"""The built-in reference Agent: an ordinary client of ``/ws/agent/`` (docs/agent-protocol.md).

``intents`` understands a person's English or Chinese message, ``replies`` words the answers,
``agent`` is the transport-agnostic protocol logic, ``client`` speaks WebSockets (with
reconnects), and ``supervisor`` runs one client per user, in its own thread in the embedded
default or from ``manage.py run_reference_agent``.
"""
