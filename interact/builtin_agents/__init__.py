"""The Host's launcher of the built-in Agents (the ``agents`` package): the only code that imports them.

``selection`` picks the LLM Agent or the reference Agent from the settings, ``supervisor`` runs one
client per user (tokens derived by the Runtime's services) in the embedded server's thread or from
``manage.py run_reference_agent``, ``db`` runs its ORM reads off the event loop. The Agents
themselves know LineUp only through ``/ws/agent/`` (docs/decisions/0048).
"""
